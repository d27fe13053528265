package org.jloadgen.schedule;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

import org.jloadgen.concurrent.Uninterruptibly;
import org.jloadgen.random.Mt19937;
import org.jloadgen.random.StdRandom;

/**
 * The rest of a long SingleStream or MultiStream trace, generated while its series runs instead of before: LoadGen
 * generates twice {@code min_duration} worth of queries up front, 200M for a fast SUT's 10 s run (6 s of draws on one
 * thread), of which the run issues about 80M. Here the series starts after {@link #HEAD_START_QUERIES}; a thread of
 * the caller's ({@link #run}) draws the rest in issue order with the same generators and stays at most
 * {@link #LEAD_QUERIES} ahead of the issue thread. Only the draws move: the trace's memory, like the completion
 * slots, is faulted in before the clock starts (pages first written while it ran cost the run millisecond stalls on a
 * VM, benchmarks/README.md). The draws are LoadGen's, value for value: the sample-index generator is the trace's own,
 * and the accuracy-log values come from a copy of the test's generator, which skips them (SequenceGen).
 * <p>
 * Threads: the filling thread writes the trace and publishes {@link #readyQueries()} with a volatile store; the issue
 * thread reads it before it issues a query past its last reading ({@link #awaitQueries}), so everything the filling
 * thread wrote for a query happens-before its issue, and, through the hand-off to the SUT, before its completion.
 */
public final class TraceFill implements Runnable
{
    /** Queries generated before the series starts. */
    public static final long HEAD_START_QUERIES = 1L << 20;
    /** The most queries generated ahead of the issue thread. */
    public static final long LEAD_QUERIES = 1L << 22;
    /** Queries drawn and published at once: a multiple of 64, so that a chunk's bits are whole words. */
    static final long CHUNK_QUERIES = 1L << 16;
    /** How far the issue thread goes between readings of the filling thread's progress, at most. */
    private static final long CHECK_QUERIES = LEAD_QUERIES / 4;
    /** Readings per trace at least, so that a short warm-up trace takes the issue loop's branch to them. */
    private static final long MIN_CHECKS = 16;
    private static final long WAIT_NS = 50_000;
    /** The longest the filling thread parks before it looks at the issue thread's progress itself. */
    private static final long MAX_PARK_NS = 100_000_000L;

    private final long queryCount;
    private final long checkQueries;
    private final int samplesPerQuery;
    private final boolean multiStream;
    private final int distributionEnd;
    private final int sameIndex;
    private final MemorySegment positions;
    private final int positionBytes;
    private final MemorySegment accuracyBits;
    private final double accuracyLogOffset;
    private final double accuracyLogProbability;
    private final Mt19937 sampleRng;
    private final Mt19937 accuracyLogRng;

    /** Filling thread only (the caller's thread for the head start). */
    private long generated;
    /** Set before the filling thread starts; run by it while it is far enough ahead. */
    private LongConsumer besideWork;
    /** Filling thread only: the issued count {@link #besideWork} was last given. */
    private long besideWorkDoneFor;

    private volatile long ready;
    private volatile long issuedUpTo;
    private volatile boolean stopRequested;
    private volatile boolean started;
    private volatile Thread filler;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile Throwable failure;
    /** Written before the {@link #ready} store that publishes the query whose sample it saw selected. */
    private boolean anySelected;

    /** Issue thread only: how often, and for how long in all, it waited for queries not generated yet. */
    private long waits;
    private long waitedNs;

    TraceFill(
        final long queryCount,
        final int samplesPerQuery,
        final boolean multiStream,
        final int distributionEnd,
        final int sameIndex,
        final MemorySegment positions,
        final int positionBytes,
        final MemorySegment accuracyBits,
        final double accuracyLogOffset,
        final double accuracyLogProbability,
        final Mt19937 sampleRng,
        final Mt19937 accuracyLogRng)
    {
        this.queryCount = queryCount;
        this.checkQueries = Math.max(1, Math.min(CHECK_QUERIES, queryCount / MIN_CHECKS));
        this.samplesPerQuery = samplesPerQuery;
        this.multiStream = multiStream;
        this.distributionEnd = distributionEnd;
        this.sameIndex = sameIndex;
        this.positions = positions;
        this.positionBytes = positionBytes;
        this.accuracyBits = accuracyBits;
        this.accuracyLogOffset = accuracyLogOffset;
        this.accuracyLogProbability = accuracyLogProbability;
        this.sampleRng = sampleRng;
        this.accuracyLogRng = accuracyLogRng;
    }

    /**
     * Generates the head start on the calling thread.
     */
    void generateHeadStart()
    {
        fill(Math.min(queryCount, HEAD_START_QUERIES));
        ready = generated;
    }

    /**
     * Gives the filling thread work of its own to do whenever it is {@link #LEAD_QUERIES} ahead, before it parks:
     * the work gets the number of queries issued so far, each time a larger one, and should take a small part of
     * the time the issue thread takes for {@link #LEAD_QUERIES} / 2 queries. Call before the filling thread starts.
     *
     * @param work what to run, given the queries issued so far.
     */
    public void runBeside(final LongConsumer work)
    {
        besideWork = work;
    }

    /**
     * Generates the rest of the trace, at most {@link #LEAD_QUERIES} ahead of the issue thread, until the trace is
     * complete or {@link #stopAndAwait} is called.
     */
    @Override
    public void run()
    {
        started = true;
        try
        {
            filler = Thread.currentThread();
            while (generated < queryCount && !stopRequested)
            {
                final long issued = issuedUpTo;
                if (generated - issued >= LEAD_QUERIES)
                {
                    if (besideWork != null && issued > besideWorkDoneFor)
                    {
                        besideWorkDoneFor = issued;
                        besideWork.accept(issued);
                        continue;
                    }
                    // Woken by the issue thread when the lead has halved (awaitQueries): a thread that woke often on
                    // its own was, now and then, run on the issue thread's CPU, which lost it a scheduler slice.
                    LockSupport.parkNanos(this, MAX_PARK_NS);
                    continue;
                }
                final long end = Math.min(queryCount, generated + CHUNK_QUERIES);
                fill(end);
                ready = end;
            }
        }
        catch (final Throwable t)
        {
            failure = t;
        }
        finally
        {
            finished.countDown();
        }
    }

    /**
     * Stops the filling thread after the chunk it is drawing and waits until it has returned from {@link #run}; a
     * {@link #run} that starts afterwards returns at once. Any thread, any number of times.
     */
    public void stopAndAwait()
    {
        stopRequested = true;
        // Dekker's pattern over two volatiles: either run() sees the request before its first chunk, or this sees
        // that it started and waits for it.
        if (started)
        {
            Uninterruptibly.await(finished);
        }
    }

    /**
     * @return the exception that ended the filling thread, or {@code null}.
     */
    public Throwable failure()
    {
        return failure;
    }

    /**
     * @return queries generated and published so far.
     */
    public long readyQueries()
    {
        return ready;
    }

    /**
     * Issue thread: records that queries below {@code issuedQ} have been issued, and waits until the queries below
     * {@code neededQ} are generated.
     *
     * @param issuedQ queries issued so far.
     * @param neededQ queries that must be generated before the next issue.
     * @return the query count up to which the issue thread may go before it calls again.
     */
    public long awaitQueries(final long issuedQ, final long neededQ)
    {
        issuedUpTo = issuedQ;
        long available = ready;
        if (available - issuedQ < LEAD_QUERIES / 2)
        {
            final Thread thread = filler;
            if (thread != null)
            {
                LockSupport.unpark(thread);
            }
        }
        if (available < neededQ)
        {
            final long startNs = System.nanoTime();
            waits++;
            while ((available = ready) < neededQ)
            {
                final Throwable t = failure;
                if (t != null)
                {
                    throw new IllegalStateException("generating the trace's queries failed: " + t, t);
                }
                if (stopRequested)
                {
                    throw new IllegalStateException("the trace's generation was stopped at query " + available
                        + " while query " + neededQ + " was still to be issued");
                }
                // Parks, so that a filling thread running only when a CPU is idle gets this one.
                LockSupport.parkNanos(WAIT_NS);
            }
            waitedNs += System.nanoTime() - startNs;
        }
        return Math.min(available, issuedQ + checkQueries);
    }

    /**
     * @return how often the issue thread waited for queries not generated yet.
     */
    public long waits()
    {
        return waits;
    }

    /**
     * @return how long it waited in all.
     */
    public long waitedNs()
    {
        return waitedNs;
    }

    /**
     * @return whether any sample generated so far is selected for the accuracy log.
     */
    boolean anySelected()
    {
        return anySelected;
    }

    private void fill(final long end)
    {
        final int spq = samplesPerQuery;
        final int lastPosition = distributionEnd - 1;
        final boolean same = sameIndex >= 0;
        final double offset = accuracyLogOffset;
        final double probability = accuracyLogProbability;
        final MemorySegment bits = accuracyBits;
        long sample = generated * spq;
        long bitWord = 0;
        boolean selected = false;
        for (long q = generated; q < end; q++)
        {
            if (multiStream)
            {
                Trace.setPosition(positions, positionBytes, q,
                    same ? sameIndex : (int)StdRandom.uniformInt(sampleRng, 0, lastPosition));
            }
            else
            {
                for (int i = 0; i < spq; i++)
                {
                    Trace.setPosition(positions, positionBytes, q * spq + i,
                        same ? sameIndex : (int)StdRandom.uniformInt(sampleRng, 0, lastPosition));
                }
            }
            for (int i = 0; i < spq; i++, sample++)
            {
                // QueryGenerator's selection, value for value.
                final double value = StdRandom.uniformReal01(accuracyLogRng);
                if (bits != null)
                {
                    final double shifted = value + offset < 1.0 ? value + offset : value + offset - 1.0;
                    if (shifted <= probability)
                    {
                        bitWord |= 1L << (sample & 63);
                        selected = true;
                    }
                    if ((sample & 63) == 63)
                    {
                        bits.set(ValueLayout.JAVA_LONG, (sample >>> 6) << 3, bitWord);
                        bitWord = 0;
                    }
                }
            }
        }
        if (bits != null && (sample & 63) != 0)
        {
            // Only the trace's last chunk ends inside a word.
            bits.set(ValueLayout.JAVA_LONG, (sample >>> 6) << 3, bitWord);
        }
        if (selected)
        {
            anySelected = true;
        }
        generated = end;
    }
}
