package org.jloadgen.sut.synthetic;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.random.Mt19937;
import org.jloadgen.sut.SutOptions;

/**
 * The synthetic SUT in simulated time ({@code --sut synthetic --sut-opt time=simulated}): a queueing model
 * instead of threads. Samples wait in one first-come-first-served queue for {@code workers} servers; a free
 * server takes up to {@code batch} waiting samples at once and is busy for a service time drawn from the
 * {@link ServiceTime} distribution plus {@code per-sample} per sample, then completes the batch. With batch 1 and
 * exponential service this is exactly an M/M/c queue under LoadGen's Poisson arrivals, whose latency distribution
 * queueing theory gives (Erlang C), which is how the peak search is checked against theory.
 * <p>
 * Everything happens on the {@link SimulatedClock}, which the engine reads as its clock: a completion runs when
 * the engine's reading passes its time and is stamped with exactly that time. Options: {@code service},
 * {@code per-sample}, {@code batch}, {@code workers}, {@code seed} (as the threaded synthetic SUT's) and
 * {@code tick} (the clock's tick, default 1us), {@code name}. Single-threaded: the engine calls it from its issue
 * thread only.
 */
public final class SimulatedSut implements SystemUnderTest, SimulatedClock.Events, AutoCloseable
{
    private static final long IDLE = Long.MAX_VALUE;

    /** The clock step when {@code tick} is not given. */
    private static final long DEFAULT_TICK_NS = 1_000;

    private final String name;
    private final ServiceTime service;
    private final long perSampleNs;
    private final int maxBatch;
    private final SimulatedClock clock;
    private final Mt19937[] rngs;
    private final long[] busyUntilNs;
    private final int[] batchSizes;
    private final QuerySampleResponses[] responses;
    private final ResponseSink[] sinks;
    private final MemorySegment[] payloads;
    private final Arena arena = Arena.ofShared();
    private long[] waitingIds = new long[1 << 12];
    private long[] waitingIndices = new long[1 << 12];
    private int head;
    private int size;
    private long batches;
    private long samples;

    /**
     * @param options the options above; unknown keys are rejected, naming the known ones.
     */
    public SimulatedSut(final Map<String, String> options)
    {
        final SutOptions o = SutOptions.parse(SyntheticSut.SUT_NAME + " (time=simulated)", options,
            Set.of("service", "per-sample", "batch", "workers", "seed", "tick", "name"), Set.of());
        this.name = o.string("name", "SimulatedSyntheticSUT");
        this.service = SyntheticSut.serviceTime(o);
        this.perSampleNs = SyntheticSut.timeNs(o, "per-sample");
        this.maxBatch = SyntheticSut.positiveInt(o, "batch");
        final int workers = SyntheticSut.positiveInt(o, "workers");
        final long seed = o.longValue("seed", 1);
        final long tickNs = o.has("tick") ? SyntheticSut.timeNs(o, "tick") : DEFAULT_TICK_NS;
        if (tickNs <= 0)
        {
            throw o.invalid("tick", "a time of more than 0 such as 1us", null);
        }
        this.clock = new SimulatedClock(tickNs);
        clock.drive(this);
        this.rngs = new Mt19937[workers];
        this.busyUntilNs = new long[workers];
        this.batchSizes = new int[workers];
        this.responses = new QuerySampleResponses[workers];
        this.sinks = new ResponseSink[workers];
        this.payloads = new MemorySegment[workers];
        for (int w = 0; w < workers; w++)
        {
            rngs[w] = new Mt19937(seed + w);
            busyUntilNs[w] = IDLE;
            responses[w] = new QuerySampleResponses(maxBatch, arena);
            payloads[w] = arena.allocate(4L * maxBatch, 8);
        }
    }

    /**
     * @return the clock the engine must run on.
     */
    public SimulatedClock clock()
    {
        return clock;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        // Reading the clock first runs every completion due before this arrival.
        final long arrivalNs = clock.nanoTime();
        for (int i = 0, n = samples.size(); i < n; i++)
        {
            enqueue(samples.responseId(i), samples.sampleIndex(i));
        }
        dispatch(arrivalNs, sink);
    }

    @Override
    public void flushQueries()
    {
        clock.runAllEvents();
    }

    @Override
    public long nextEventNs()
    {
        long earliest = IDLE;
        for (final long t : busyUntilNs)
        {
            earliest = Math.min(earliest, t);
        }
        return earliest;
    }

    @Override
    public void runNextEvent()
    {
        int worker = 0;
        for (int w = 1; w < busyUntilNs.length; w++)
        {
            if (busyUntilNs[w] < busyUntilNs[worker])
            {
                worker = w;
            }
        }
        final long nowNs = busyUntilNs[worker];
        busyUntilNs[worker] = IDLE;
        final ResponseSink sink = sinks[worker];
        sinks[worker] = null;
        sink.complete(responses[worker], batchSizes[worker]);
        dispatch(nowNs, sink);
    }

    /**
     * Free servers take the waiting samples, lowest-numbered server first.
     */
    private void dispatch(final long nowNs, final ResponseSink sink)
    {
        for (int w = 0; w < busyUntilNs.length && size > 0; w++)
        {
            if (busyUntilNs[w] != IDLE)
            {
                continue;
            }
            final int n = Math.min(maxBatch, size);
            final MemorySegment payload = payloads[w];
            for (int i = 0; i < n; i++)
            {
                final int at = (head + i) & (waitingIds.length - 1);
                payload.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * i, (int)waitingIndices[at]);
                responses[w].set(i, waitingIds[at], payload.address() + 4L * i, 4, 0);
            }
            head = (head + n) & (waitingIds.length - 1);
            size -= n;
            batchSizes[w] = n;
            sinks[w] = sink;
            busyUntilNs[w] = nowNs + service.drawNs(rngs[w]) + perSampleNs * n;
            batches++;
            samples += n;
        }
    }

    private void enqueue(final long responseId, final long sampleIndex)
    {
        if (size == waitingIds.length)
        {
            // Rare: the queue doubles, keeping its order (an overloaded simulation, or an Offline query).
            final long[] ids = new long[size * 2];
            final long[] indices = new long[size * 2];
            for (int i = 0; i < size; i++)
            {
                ids[i] = waitingIds[(head + i) & (size - 1)];
                indices[i] = waitingIndices[(head + i) & (size - 1)];
            }
            waitingIds = ids;
            waitingIndices = indices;
            head = 0;
        }
        final int at = (head + size) & (waitingIds.length - 1);
        waitingIds[at] = responseId;
        waitingIndices[at] = sampleIndex;
        size++;
    }

    /**
     * @return batches started so far.
     */
    public long batches()
    {
        return batches;
    }

    /**
     * @return samples started so far.
     */
    public long samples()
    {
        return samples;
    }

    @Override
    public void close()
    {
        Arrays.fill(sinks, null);
        arena.close();
    }
}
