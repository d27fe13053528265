package org.jloadgen.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;

/**
 * A test SUT that records every query it is given (sample indices, loaded-set positions and response ids), optionally
 * spins for a fixed time, and completes each sample inline.
 */
public final class RecordingSut implements SystemUnderTest
{
    /**
     * One issued query.
     *
     * @param sampleIndices QSL index of each sample.
     * @param positions     loaded-set position of each sample.
     * @param responseIds   response id of each sample.
     */
    public record Query(long[] sampleIndices, int[] positions, long[] responseIds)
    {
        /**
         * @return number of samples.
         */
        public int size()
        {
            return positions.length;
        }
    }

    private final List<Query> queries = Collections.synchronizedList(new ArrayList<>());
    private final long serviceNs;

    /**
     * A SUT that completes at once.
     */
    public RecordingSut()
    {
        this(0);
    }

    /**
     * @param serviceNs time to spin inside each {@code issueQuery} before completing.
     */
    public RecordingSut(final long serviceNs)
    {
        this.serviceNs = serviceNs;
    }

    /**
     * @return the queries issued so far, in order.
     */
    public List<Query> queries()
    {
        return queries;
    }

    @Override
    public String name()
    {
        return "RecordingSUT";
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        final long[] indices = new long[samples.size()];
        final int[] positions = new int[samples.size()];
        final long[] responseIds = new long[samples.size()];
        for (int i = 0; i < samples.size(); i++)
        {
            indices[i] = samples.sampleIndex(i);
            positions[i] = samples.loadedPosition(i);
            responseIds[i] = samples.responseId(i);
        }
        queries.add(new Query(indices, positions, responseIds));
        final long untilNs = System.nanoTime() + serviceNs;
        while (System.nanoTime() - untilNs < 0)
        {
            Thread.onSpinWait();
        }
        for (int i = 0; i < samples.size(); i++)
        {
            sink.complete(samples.responseId(i));
        }
    }

    @Override
    public void flushQueries()
    {
    }
}
