package org.jloadgen.testing;

import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;

/**
 * An inline SUT with scripted service times on a {@link ScriptedClock}: query {@code k} takes
 * {@code serviceNs[k % serviceNs.length]}, then all its samples complete in one call.
 */
public final class ScriptedSut implements SystemUnderTest
{
    private final ScriptedClock clock;
    private final long[] serviceNs;
    private long queries;

    /**
     * @param clock     the run's clock.
     * @param serviceNs service time of each query, cycled.
     */
    public ScriptedSut(final ScriptedClock clock, final long... serviceNs)
    {
        this.clock = clock;
        this.serviceNs = serviceNs.clone();
    }

    @Override
    public String name()
    {
        return "ScriptedSUT";
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        clock.advance(serviceNs[(int)(queries++ % serviceNs.length)]);
        final org.jloadgen.api.QuerySampleResponses responses =
            new org.jloadgen.api.QuerySampleResponses(Math.max(1, samples.size()));
        for (int i = 0; i < samples.size(); i++)
        {
            responses.set(i, samples.responseId(i));
        }
        sink.complete(responses, samples.size());
    }

    @Override
    public void flushQueries()
    {
    }
}
