package org.jloadgen.benchmarks;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.HdrHistogram.Recorder;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.TestScenario;
import org.jloadgen.bindings.JvmFlags;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.record.RetiredTarget;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.EngineResponseSink;
import org.jloadgen.record.LatencyIntervalLog;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.Trace;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of the completion path (the {@link EngineResponseSink} every SUT calls, into the series' off-heap
 * slots) with 1, 2 and 4 completing threads: per-sample {@code complete(id)} and batches of
 * {@value #BATCH} ({@code complete(responses, n)}, what the SUT toolkit's workers call), with and without the
 * HdrHistogram {@link Recorder} the engine feeds for the {@code .hlog}.
 * <p>
 * Each thread completes its own range of {@value #RANGE} sample ids of one shared Server series, so the threads
 * share only what real completers share: the completion counter (one atomic add per call) and the recorder. When a
 * thread has used up its range it marks its slots pending again (a memset, about one ns per completion
 * amortised) and starts over. The aux counter {@code mistakes} must stay 0: a non-zero value would mean ids
 * were completed twice or out of range, and the scores would measure the error path.
 * <p>
 * On the two-core development machine the 4-thread rows oversubscribe the cores: they show the cost of
 * contention plus time-slicing, not of four cores.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})
public class CompletionBenchmark
{
    /** Samples per batch completion. */
    static final int BATCH = 64;
    /** Sample ids per thread before it resets its slots. */
    static final int RANGE = 1 << 22;
    /** Most threads a benchmark here uses. */
    static final int MAX_THREADS = 4;

    /** Whether completions also go into an HdrHistogram {@link Recorder}. */
    @Param({"off", "on"})
    String histogram;

    private Trace trace;
    private SeriesRecorder recorder;
    private EngineResponseSink sink;
    private CompletionErrors errors;
    private final AtomicInteger nextRange = new AtomicInteger();

    /**
     * One Server series of {@code MAX_THREADS * RANGE} samples and the sink a test hands its SUT.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final EffectiveSettings settings = Traces.settings(TestScenario.SERVER, (long)MAX_THREADS * RANGE);
        trace = Traces.generate(settings, Traces.loadableSet(settings));
        errors = new CompletionErrors();
        final Recorder hdr = histogram.equals("on") ? LatencyIntervalLog.newRecorder() : null;
        recorder = new SeriesRecorder(trace, false, errors, null, hdr, false, OffHeapAllocator.arena());
        recorder.origin(System.nanoTime());
        sink = new EngineResponseSink(new RetiredTarget(errors));
        sink.series(recorder);
    }

    /**
     * Frees the series.
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        sink.endSeries(true);
        recorder.close();
        trace.close();
    }

    /**
     * One completing thread: its id range, its responses, and the mistakes it saw.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Completer
    {
        /** Completion mistakes (duplicates, unknown ids) counted while this thread ran: must be 0. */
        public long mistakes;

        private MemorySegment slots;
        private long firstId;
        private long next;
        private long end;
        private long firstSlotByte;
        private QuerySampleResponses responses;
        private CompletionErrors errors;

        /**
         * Takes the next free range of ids.
         *
         * @param bench the shared series.
         */
        @Setup(Level.Trial)
        public void setUp(final CompletionBenchmark bench)
        {
            final int range = bench.nextRange.getAndIncrement() % MAX_THREADS;
            final long firstSample = (long)range * RANGE;
            firstId = bench.trace.firstSampleId() + 1 + firstSample;
            next = firstId;
            end = firstId + RANGE;
            slots = bench.recorder.completionSlots();
            firstSlotByte = firstSample << 3;
            responses = new QuerySampleResponses(BATCH);
            errors = bench.errors;
        }

        /**
         * Reads the mistake count after each iteration (not timed).
         */
        @TearDown(Level.Iteration)
        public void countMistakes()
        {
            mistakes = errors.total();
        }

        long nextId()
        {
            if (next == end)
            {
                slots.asSlice(firstSlotByte, (long)RANGE << 3).fill((byte)0);
                next = firstId;
            }
            return next++;
        }

        QuerySampleResponses nextBatch()
        {
            if (end - next < BATCH)
            {
                slots.asSlice(firstSlotByte, (long)RANGE << 3).fill((byte)0);
                next = firstId;
            }
            final QuerySampleResponses r = responses;
            for (int i = 0; i < BATCH; i++)
            {
                r.set(i, next + i);
            }
            next += BATCH;
            return r;
        }
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(1)
    public void single1(final Completer c)
    {
        sink.complete(c.nextId());
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(2)
    public void single2(final Completer c)
    {
        sink.complete(c.nextId());
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(4)
    public void single4(final Completer c)
    {
        sink.complete(c.nextId());
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(1)
    @OperationsPerInvocation(BATCH)
    public void batch1(final Completer c)
    {
        sink.complete(c.nextBatch(), BATCH);
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(2)
    @OperationsPerInvocation(BATCH)
    public void batch2(final Completer c)
    {
        sink.complete(c.nextBatch(), BATCH);
    }

    /**
     * @param c this thread's completer.
     */
    @Benchmark
    @Threads(4)
    @OperationsPerInvocation(BATCH)
    public void batch4(final Completer c)
    {
        sink.complete(c.nextBatch(), BATCH);
    }
}
