package org.jloadgen.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.api.TestScenario;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.memory.OffHeapRegion;
import org.jloadgen.schedule.Trace;

/**
 * The issue thread's side of one series: when each query went out. SingleStream and MultiStream queries are
 * scheduled when they are issued (LoadGen's {@code QueryScheduler<SingleStream>::Wait} returns the issue time,
 * {@code loadgen/issue_query_controller.cc}), so their scheduled times are recorded here; a Server series records
 * the time each query was actually handed to the SUT when asked (for the Chrome trace and the issue-lateness log).
 * Written by the issue thread before the query goes out, so a completing thread that measures a latency from it
 * reads it after the hand-off that publishes the query; read by anyone after the series. One store per query, no
 * allocation.
 */
public final class IssueTimes implements AutoCloseable
{
    private final Trace trace;
    private final TestScenario scenario;
    private final OffHeapRegion scheduledRegion;
    private final OffHeapRegion issuedRegion;
    private final MemorySegment scheduled;
    private final MemorySegment issued;

    /** Latest-only mode: the latest query's number and scheduled time, the issue thread's (see {@link #latestOnly}). */
    private long latestQuery = -1;
    private long latestScheduledNs;
    private final boolean latestOnly;

    /**
     * @param trace      the series' queries.
     * @param trackIssue whether Server issue times are kept per query.
     * @param latestOnly SingleStream only: keep the latest query's scheduled time alone, not one per query, because
     *                   the completion slots hold latencies ({@link SeriesRecorder}).
     * @param allocator  where the memory comes from.
     */
    IssueTimes(final Trace trace, final boolean trackIssue, final boolean latestOnly, final OffHeapAllocator allocator)
    {
        this.trace = trace;
        this.scenario = trace.scenario();
        if (latestOnly && scenario != TestScenario.SINGLE_STREAM)
        {
            throw new IllegalArgumentException("only a SingleStream series keeps its latest issue time alone");
        }
        this.latestOnly = latestOnly;
        final boolean issueTimed = scenario == TestScenario.SINGLE_STREAM || scenario == TestScenario.MULTI_STREAM;
        this.scheduledRegion = issueTimed && !latestOnly ? allocator.allocate(trace.queryCount() << 3) : null;
        this.scheduled = scheduledRegion == null ? null : scheduledRegion.segment();
        this.issuedRegion = trackIssue && scenario == TestScenario.SERVER
            ? allocator.allocate(trace.queryCount() << 3) : null;
        this.issued = issuedRegion == null ? null : issuedRegion.segment();
    }

    /**
     * SingleStream/MultiStream: records when query {@code query} was issued (its scheduled time). Issue thread.
     *
     * @param query      query number in the series.
     * @param relativeNs issue time relative to the origin.
     */
    public void scheduled(final long query, final long relativeNs)
    {
        if (latestOnly)
        {
            // Written before the query goes out: the completing thread reads both after the hand-off that publishes
            // the query, as it would read the query's slot of the array.
            latestScheduledNs = relativeNs;
            latestQuery = query;
            return;
        }
        scheduled.set(ValueLayout.JAVA_LONG, query << 3, relativeNs);
    }

    /**
     * @return whether only the latest query's scheduled time is kept (SingleStream with latency slots).
     */
    public boolean latestOnly()
    {
        return latestOnly;
    }

    /**
     * Latest-only mode: the latest issued query, for its completing thread.
     *
     * @return its number, or -1 before the first.
     */
    long latestQuery()
    {
        return latestQuery;
    }

    /**
     * Latest-only mode: the latest issued query's scheduled time, for its completing thread.
     *
     * @return relative to the origin.
     */
    long latestScheduledRelativeNs()
    {
        return latestScheduledNs;
    }

    /**
     * @return whether {@link #issued} keeps Server issue times.
     */
    public boolean tracksIssueTimes()
    {
        return issued != null;
    }

    /**
     * Server with issue times tracked: records when queries {@code [first, first + count)} were issued. Issue
     * thread; one store per query, no allocation.
     *
     * @param first      first query.
     * @param count      queries issued in the same call.
     * @param relativeNs issue time relative to the origin.
     */
    public void issued(final long first, final int count, final long relativeNs)
    {
        if (count == 1)
        {
            // The common case, without a loop: this store is on the way from the wait to the SUT's call.
            issued.set(ValueLayout.JAVA_LONG, first << 3, relativeNs);
            return;
        }
        for (long q = first, end = first + count; q < end; q++)
        {
            issued.set(ValueLayout.JAVA_LONG, q << 3, relativeNs);
        }
    }

    /**
     * @param query query number in the series.
     * @return when it was issued relative to the origin: the scheduled time in SingleStream and MultiStream,
     *         the recorded time in Server when tracked (else the scheduled time), 0 in Offline.
     */
    public long issuedRelativeNs(final long query)
    {
        return issued != null ? issued.get(ValueLayout.JAVA_LONG, query << 3) : scheduledRelativeNs(query);
    }

    /**
     * @param query a Server query that was issued, with issue times tracked.
     * @return how late the SUT was called: the recorded issue time minus the scheduled time (0 or more).
     */
    public long issueLatenessNs(final long query)
    {
        return Math.max(0, issued.get(ValueLayout.JAVA_LONG, query << 3) - trace.scheduledOffsetNs(query));
    }

    /**
     * @param query query number in the series.
     * @return its scheduled time relative to the origin (spec §6; {@code loadgen/loadgen.cc},
     *         {@code GenerateQueries}).
     */
    public long scheduledRelativeNs(final long query)
    {
        if (latestOnly)
        {
            if (query != latestQuery)
            {
                throw new IllegalStateException("this SingleStream series kept the scheduled time of its latest query ("
                    + latestQuery + ") only, not of query " + query);
            }
            return latestScheduledNs;
        }
        if (scheduled != null)
        {
            return scheduled.get(ValueLayout.JAVA_LONG, query << 3);
        }
        return scenario == TestScenario.OFFLINE ? 0 : trace.scheduledOffsetNs(query);
    }

    @Override
    public void close()
    {
        if (scheduledRegion != null)
        {
            scheduledRegion.close();
        }
        if (issuedRegion != null)
        {
            issuedRegion.close();
        }
    }
}
