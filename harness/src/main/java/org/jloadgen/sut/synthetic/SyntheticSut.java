package org.jloadgen.sut.synthetic;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.random.Mt19937;
import org.jloadgen.sut.BatchProcessor;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.SampleBatch;

/**
 * A simulated SUT with known timing: each batch takes a service time drawn from a {@link ServiceTime}
 * distribution, batches are cut by the shared {@link BatchingSut} batcher and run on worker threads, or every
 * query is served inline on the issue thread. Each response carries the sample's QSL index as 4 little-endian
 * bytes (what LoadGen's own test SUTs return), so accuracy logs are checkable. With token latencies it reports
 * a first token before completing. It can also misbehave on purpose ({@link Misbehaviour}).
 * <p>
 * Options (all optional), as {@code --sut-opt key=value}: {@code service} (e.g. {@code exponential:200us}),
 * {@code per-sample} (extra time per sample in a batch), {@code batch}, {@code timeout-us}, {@code workers},
 * {@code inline}, {@code wait} ({@code spin}, {@code sleep} or {@code auto}), {@code tokens},
 * {@code first-token} (time to the first token), {@code seed}, {@code misbehave},
 * {@code misbehave-after} (queries issued before misbehaving), {@code name}. With {@code time=simulated} the
 * provider builds a {@link SimulatedSut} instead: the same service model as a queue on a simulated clock.
 */
public final class SyntheticSut implements SystemUnderTest, AutoCloseable
{
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
    private long queries;
    private volatile boolean misbehaving;

    /**
     * @param options    the options above; unknown keys are rejected.
     * @param cpuPinning pins a worker thread to a CPU, or {@code null}.
     */
    public SyntheticSut(final Map<String, String> options, final IntConsumer cpuPinning)
    {
        final Map<String, String> o = new TreeMap<>(options);
        this.name = take(o, "name", "SyntheticSUT");
        this.service = ServiceTime.parse(take(o, "service", "fixed:0"));
        this.perSampleNs = ServiceTime.parseNs(take(o, "per-sample", "0"));
        this.inline = Boolean.parseBoolean(take(o, "inline", "false"));
        this.waitMode = take(o, "wait", "auto");
        this.tokens = Long.parseLong(take(o, "tokens", "0"));
        this.firstTokenNs = ServiceTime.parseNs(take(o, "first-token", "0"));
        this.misbehaviour = Misbehaviour.parse(take(o, "misbehave", "none"));
        this.misbehaveAfter = Long.parseLong(take(o, "misbehave-after", "0"));
        this.maxBatch = Integer.parseInt(take(o, "batch", "1"));
        final long timeoutUs = Long.parseLong(take(o, "timeout-us", "0"));
        final int workers = Integer.parseInt(take(o, "workers", "1"));
        final long seed = Long.parseLong(take(o, "seed", "1"));
        if (!o.isEmpty())
        {
            throw new IllegalArgumentException("unknown synthetic SUT option(s) " + o.keySet()
                + " (known: service, per-sample, batch, timeout-us, workers, inline, wait, tokens, first-token,"
                + " seed, misbehave, misbehave-after, name)");
        }
        if (!waitMode.equals("spin") && !waitMode.equals("sleep") && !waitMode.equals("auto"))
        {
            throw new IllegalArgumentException("wait must be spin, sleep or auto: " + waitMode);
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
            this.pool = new BatchingSut(name, new BatcherSettings(maxBatch, timeoutUs, workers,
                BatcherSettings.QUEUE_CAPACITY_DEFAULT, CompletionWaitStrategy.BACKOFF, new int[0]),
                worker -> new Processor(seed + worker), cpuPinning);
        }
    }

    private static String take(final Map<String, String> options, final String key, final String fallback)
    {
        final String v = options.remove(key);
        return v == null ? fallback : v;
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
        for (int first = 0; first < n; first += inlineResponses.capacity())
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
