package org.jloadgen.sut.network.openai;

import java.net.URI;

import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.SlotPool;

/**
 * One OpenAI-compatible server: its base URL and its stream slots.
 */
final class Endpoint implements FleetMonitor.Member
{
    private final int number;
    private final URI url;
    private final SlotPool<StreamCall> pool;

    /**
     * @param number   the server's position in {@code url=}.
     * @param url      its base URL.
     * @param inFlight streams open at once at most.
     * @param sut      the SUT the streams report to.
     */
    Endpoint(final int number, final URI url, final int inFlight, final OpenAiSut sut)
    {
        this.number = number;
        this.url = url;
        this.pool = new SlotPool<>(inFlight, i -> new StreamCall(this, sut));
    }

    /**
     * @return the server's position in {@code url=}.
     */
    int number()
    {
        return number;
    }

    /**
     * @return its base URL.
     */
    URI url()
    {
        return url;
    }

    @Override
    public String describe()
    {
        return "server " + url;
    }

    @Override
    public SlotPool<StreamCall> pool()
    {
        return pool;
    }
}
