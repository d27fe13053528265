package org.jloadgen.issue;

import org.jloadgen.api.QuerySamples;
import org.jloadgen.schedule.Trace;

/**
 * The flyweight handed to {@code SystemUnderTest.issueQuery}: a window of consecutive samples of the trace.
 * One instance per series, re-wrapped for every query, so issuing allocates nothing. Response ids are the
 * global sample sequence ids plus one (0 is reserved, as in LoadGen).
 * <p>
 * Engine-internal: public only so that the benchmarks measure the flyweight SUTs really receive.
 */
public final class TraceQuerySamples implements QuerySamples
{
    private final Trace trace;
    private final long[] loadedSet;
    private final boolean multiStream;
    private long firstSample;
    private long responseIdBase;
    private int multiStreamStart;
    private int size;

    /**
     * @param trace the series whose samples this flyweight shows.
     */
    public TraceQuerySamples(final Trace trace)
    {
        this.trace = trace;
        this.loadedSet = trace.loadableSet().indices();
        this.multiStream = trace.scenario() == org.jloadgen.api.TestScenario.MULTI_STREAM;
    }

    /**
     * Shows samples {@code [firstSample, firstSample + size)} of the trace.
     *
     * @param firstSample first sample number in the series.
     * @param size        number of samples.
     */
    public void wrap(final long firstSample, final int size)
    {
        this.firstSample = firstSample;
        this.size = size;
        this.responseIdBase = trace.firstSampleId() + firstSample + 1;
        if (multiStream)
        {
            this.multiStreamStart = trace.position(firstSample);
        }
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public long responseId(final int i)
    {
        return responseIdBase + i;
    }

    @Override
    public long sampleIndex(final int i)
    {
        return loadedSet[loadedPosition(i)];
    }

    @Override
    public int loadedPosition(final int i)
    {
        if (i < 0 || i >= size)
        {
            throw new IndexOutOfBoundsException("sample " + i + " of a query of " + size);
        }
        return multiStream ? multiStreamStart + i : trace.position(firstSample + i);
    }
}
