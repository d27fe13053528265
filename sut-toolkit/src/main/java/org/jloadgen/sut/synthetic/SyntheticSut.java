package org.jloadgen.sut.synthetic;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

import org.jloadgen.api.AbortableSut;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.random.Mt19937;
import org.jloadgen.sut.BatchProcessor;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SampleBatch;
import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.SutStatistics;

/**
 * A simulated SUT with known timing: each batch takes a service time drawn from a {@link ServiceTime}
 * distribution, batches are cut by the shared {@link BatchingSut} batcher and run on worker threads, or every
 * query is served inline on the issue thread. Each response carries the sample's QSL index as 4 little-endian
 * bytes (what LoadGen's own test SUTs return), so accuracy logs are checkable. With token latencies it reports
 * a first token before completing. It can also misbehave on purpose ({@link Misbehaviour}).
 * <p>
 * Options (all optional), as {@code --sut-opt key=value}: {@code service} (e.g. {@code exponential:200us}),
 * {@code per-sample} (extra time per sample in a batch), {@code batch}, {@code timeout-us}, {@code workers},
 * {@code queue} (samples the batcher queues, a power of two), {@code inline}, {@code wait} ({@code spin},
 * {@code sleep} or {@code auto}), {@code tokens}, {@code first-token} (time to the first token), {@code seed},
 * {@code misbehave},
 * {@code misbehave-after} (queries issued before misbehaving), {@code name}. A bad value is an error naming the
 * option, the value and what it must be. With {@code time=simulated} the provider builds a {@link SimulatedSut}
 * instead: the same service model as a queue on a simulated clock.
 * <p>
 * When the engine abandons a test it drops the queued samples ({@link AbortableSut}): the worker pool's queue, or
 * the rest of a query served inline.
 */
public final class SyntheticSut implements AbortableSut, AutoCloseable
{
    /** The name given to {@code --sut}. */
    public static final String SUT_NAME = "synthetic";
    /** Every option the SUT takes, with its type, default and meaning ({@code run --sut synthetic --help}). */
    public static final List<SutOption> OPTIONS = List.of(
        new SutOption("service", "fixed:T|uniform:MIN:MAX|exponential:MEAN", "fixed:0", "Service time of one batch, "
            + "drawn per batch from this distribution (times in ns, us, ms or s)."),
        new SutOption("per-sample", "time", "0", "Service time added per sample of a batch."),
        new SutOption("batch", "integer >= 1", "1", "Most samples the batcher puts in one batch."),
        new SutOption("timeout-us", "integer >= 0", "0", "How long the batcher waits for a batch to fill, in us."),
        new SutOption("workers", "integer >= 1", "1", "Worker threads that serve batches."),
        new SutOption("queue", "power of two >= batch", Integer.toString(BatcherSettings.QUEUE_CAPACITY_DEFAULT),
            "Samples the batcher can queue."),
        new SutOption("inline", "true|false", "false", "Serve every query on the issue thread inside issueQuery, "
            + "no batcher or workers."),
        new SutOption("wait", "spin|sleep|auto", "auto", "How a service time is waited out: auto spins up to "
            + SyntheticSut.AUTO_SPIN_LIMIT_NS / 1000 + " us and sleeps above."),
        new SutOption("tokens", "integer >= 0", "0", "Tokens per response: above 0 it reports a first token before "
            + "completing (for token latencies)."),
        new SutOption("first-token", "time", "0", "Time from the start of service to the first token."),
        new SutOption("seed", "integer", "1", "Seed of the service-time draws (worker i draws from seed + i)."),
        new SutOption("misbehave", "none|never|twice|unknown|throw|throw-flush|fail", "none", "A deliberate bug, to "
            + "test the harness: never complete, complete twice, complete an unknown id, throw from issueQuery or "
            + "flushQueries, or report a failed inference."),
        new SutOption("misbehave-after", "integer >= 0", "0", "Queries issued before it starts to misbehave."),
        new SutOption("name", "text", "SyntheticSUT", "The SUT's name in the logs."));
    /** Every option the SUT takes. */
    public static final Set<String> KNOWN_OPTIONS = SutOption.keys(OPTIONS);
    /** Service times at or below this are spun, above it slept, when {@code wait=auto}. */
    private static final long AUTO_SPIN_LIMIT_NS = 200_000;

    private final String name;
    private final ServiceTime service;
    private final long perSampleNs;
    private final boolean inline;
    private final String waitMode;
    private final long tokens;
    private final long firstTokenNs;
    private final Misbehaviour misbehaviour;
    private final long misbehaveAfter;
    private final BatchingSut pool;
    private final int maxBatch;
    private final Mt19937 inlineRng;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment inlinePayload;
    private final QuerySampleResponses inlineResponses;
    private final AtomicLong dropRequests = new AtomicLong();
    private long queries;
    private volatile boolean misbehaving;

    /**
     * @param options    the options above; unknown keys are rejected.
     * @param cpuPinning pins a worker thread to a CPU, or {@code null}.
     * @throws IllegalArgumentException naming the option, its value and what it must be.
     */
    public SyntheticSut(final Map<String, String> options, final IntConsumer cpuPinning)
    {
        final SutOptions o = SutOptions.parse(SUT_NAME, options, KNOWN_OPTIONS, Set.of());
        this.name = o.string("name", "SyntheticSUT");
        this.service = serviceTime(o);
        this.perSampleNs = timeNs(o, "per-sample");
        this.inline = o.bool("inline", false);
        this.waitMode = o.string("wait", "auto").strip();
        this.tokens = atLeast(o, "tokens", 0, 0);
        this.firstTokenNs = timeNs(o, "first-token");
        try
        {
            this.misbehaviour = Misbehaviour.parse(o.string("misbehave", "none"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid("misbehave", Misbehaviour.CHOICES, ex);
        }
        this.misbehaveAfter = atLeast(o, "misbehave-after", 0, 0);
        this.maxBatch = positiveInt(o, "batch");
        final long timeoutUs = atLeast(o, "timeout-us", 0, 0);
        final int workers = positiveInt(o, "workers");
        final int queue = o.intValue("queue", BatcherSettings.QUEUE_CAPACITY_DEFAULT);
        if (queue < maxBatch || Integer.bitCount(queue) != 1)
        {
            throw o.invalid("queue", "a power of two of at least the batch size (" + maxBatch + ")", null);
        }
        final long seed = o.longValue("seed", 1);
        if (!waitMode.equals("spin") && !waitMode.equals("sleep") && !waitMode.equals("auto"))
        {
            throw o.invalid("wait", "spin, sleep or auto", null);
        }
        this.inlineRng = new Mt19937(seed);
        this.inlinePayload = arena.allocate(4L * Math.max(1, maxBatch), 8);
        this.inlineResponses = inline ? new QuerySampleResponses(Math.max(1, maxBatch), arena) : null;
        if (inline)
        {
            this.pool = null;
        }
        else
        {
            this.pool = new BatchingSut(name, new BatcherSettings(maxBatch, timeoutUs, workers, queue,
                CompletionWaitStrategy.AUTO, new int[0]),
                worker -> new Processor(seed + worker), cpuPinning);
        }
    }

    /**
     * @return the {@code service} option as a distribution of service times.
     */
    static ServiceTime serviceTime(final SutOptions o)
    {
        try
        {
            return ServiceTime.parse(o.string("service", "fixed:0"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid("service", "a service time such as fixed:100us, uniform:50us:200us or exponential:250us",
                ex);
        }
    }

    /**
     * @return the option as a time in ns, 0 when not given.
     */
    static long timeNs(final SutOptions o, final String key)
    {
        try
        {
            return ServiceTime.parseNs(o.string(key, "0"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw o.invalid(key, "a time such as 200us, 1.5ms or 0 (units ns, us, ms, s)", ex);
        }
    }

    /**
     * @return the option as an int of at least 1, 1 when not given.
     */
    static int positiveInt(final SutOptions o, final String key)
    {
        final int value = o.intValue(key, 1);
        if (value < 1)
        {
            throw o.invalid(key, "a whole number of at least 1", null);
        }
        return value;
    }

    /**
     * @return the option as an integer of at least {@code min}.
     */
    private static long atLeast(final SutOptions o, final String key, final long fallback, final long min)
    {
        final long value = o.longValue(key, fallback);
        if (value < min)
        {
            throw o.invalid(key, "a whole number of at least " + min, null);
        }
        return value;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        if (misbehaviour != Misbehaviour.NONE && queries++ >= misbehaveAfter)
        {
            misbehaving = true;
            if (misbehaviour == Misbehaviour.THROW)
            {
                throw new IllegalStateException("synthetic SUT misbehaving on purpose: throw from issueQuery");
            }
        }
        if (!inline)
        {
            pool.issueQuery(samples, sink);
            return;
        }
        final int n = samples.size();
        final long drops = dropRequests.get();
        for (int first = 0; first < n && dropRequests.get() == drops; first += inlineResponses.capacity())
        {
            final int count = Math.min(inlineResponses.capacity(), n - first);
            for (int i = 0; i < count; i++)
            {
                inlinePayload.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * i, (int)samples.sampleIndex(first + i));
                inlineResponses.set(i, samples.responseId(first + i), inlinePayload.address() + 4L * i, 4, tokens);
            }
            serve(service.drawNs(inlineRng) + perSampleNs * count, inlineResponses, count, sink);
        }
    }

    /**
     * Drops the worker pool's queue, or the rest of the query being served inline.
     */
    @Override
    public void dropQueuedSamples()
    {
        dropRequests.incrementAndGet();
        if (pool != null)
        {
            pool.dropQueuedSamples();
        }
    }

    /**
     * @return samples the worker pool dropped when the engine abandoned a test (0 when serving inline).
     */
    public long droppedSamples()
    {
        return pool == null ? 0 : pool.droppedSamples();
    }

    @Override
    public void flushQueries()
    {
        if (misbehaving && misbehaviour == Misbehaviour.THROW_FLUSH)
        {
            throw new IllegalStateException("synthetic SUT misbehaving on purpose: throw from flushQueries");
        }
        if (pool != null)
        {
            pool.flushQueries();
        }
    }

    private void serve(final long serviceNs, final QuerySampleResponses responses, final int count,
        final ResponseSink sink)
    {
        if (tokens > 0 && firstTokenNs > 0)
        {
            elapse(Math.min(firstTokenNs, serviceNs));
            sink.firstToken(responses, count);
            elapse(serviceNs - Math.min(firstTokenNs, serviceNs));
        }
        else
        {
            if (tokens > 0)
            {
                sink.firstToken(responses, count);
            }
            elapse(serviceNs);
        }
        if (misbehaving)
        {
            switch (misbehaviour)
            {
                case NEVER:
                    return;
                case TWICE:
                    sink.complete(responses, count);
                    break;
                case UNKNOWN:
                    sink.complete(responses.responseId(0) + (1L << 40));
                    break;
                default:
                    break;
            }
        }
        sink.complete(responses, count);
    }

    private void elapse(final long ns)
    {
        if (ns <= 0)
        {
            return;
        }
        final long deadlineNs = System.nanoTime() + ns;
        final boolean spin = waitMode.equals("spin") || (waitMode.equals("auto") && ns <= AUTO_SPIN_LIMIT_NS);
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0)
        {
            if (spin)
            {
                Thread.onSpinWait();
            }
            else
            {
                LockSupport.parkNanos(remainingNs);
            }
        }
    }

    /**
     * One worker's processor: draws the batch's service time, writes the payloads, lets the time pass and
     * completes (or misbehaves) exactly like the inline path.
     */
    private final class Processor implements BatchProcessor
    {
        private final Mt19937 rng;
        private final MemorySegment payload;

        Processor(final long seed)
        {
            this.rng = new Mt19937(seed);
            this.payload = arena.allocate(4L * maxBatch, 8);
        }

        @Override
        public void process(final SampleBatch batch, final QuerySampleResponses responses, final ResponseSink sink)
        {
            if (misbehaving && misbehaviour == Misbehaviour.FAIL)
            {
                throw new IllegalStateException("synthetic SUT misbehaving on purpose: inference failed");
            }
            final int n = batch.size();
            for (int i = 0; i < n; i++)
            {
                payload.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * i, (int)batch.sampleIndex(i));
                responses.set(i, batch.responseId(i), payload.address() + 4L * i, 4, tokens);
            }
            serve(service.drawNs(rng) + perSampleNs * n, responses, n, sink);
        }
    }

    /**
     * @return the batch sizes the worker pool ran, or empty for an inline SUT (no batches).
     */
    public Optional<SutStatistics> statistics()
    {
        return pool == null ? Optional.empty() : Optional.of(pool.statistics());
    }

    @Override
    public void close()
    {
        if (pool != null)
        {
            pool.close();
        }
        arena.close();
    }
}
