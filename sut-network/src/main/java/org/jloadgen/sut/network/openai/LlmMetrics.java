package org.jloadgen.sut.network.openai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.SutLogNotes;

/**
 * The metrics an LLM serving benchmark reports (vLLM's {@code bench serve}, AIPerf, GuideLLM), measured by the client
 * from what each stream delivers, from the moment its request was sent: TTFT (to the first event carrying text),
 * ITL (every gap between two text events, not only their mean), TPOT ({@code (e2e - ttft) / (output tokens - 1)},
 * vLLM's definition), E2E, output tokens per request, input and output token counts (input from the usage chunk's
 * {@code prompt_tokens}, so only with {@code usage=true}), failed requests by cause, and goodput: the requests that
 * met every SLO given ({@code slo-ttft-ms}, {@code slo-tpot-ms}, {@code slo-e2e-ms}).
 * <p>
 * These are the client's view, beside LoadGen's: LoadGen's TTFT and latency run from a query's scheduled time (so a
 * late send counts against the SUT), these from the send. The HTTP client's threads record into HdrHistogram
 * {@link Recorder}s (wait-free, no allocation) and atomic counters; nothing is formatted until the run is over.
 * An event may carry several tokens (servers batch them): ITL is the gap between events, as vLLM measures it.
 */
final class LlmMetrics
{
    /** Longest time recorded (one hour), in ns. */
    static final long MAX_NS = 3_600_000_000_000L;
    /** Most output tokens recorded per request. */
    static final long MAX_TOKENS = 100_000_000L;
    /** Prefix of the detail-log keys. */
    static final String KEY = SutLogNotes.KEY_PREFIX + "llm_";

    private final NanoClock clock;
    private final Slos slos;
    private final Recorder ttftNs = new Recorder(1, MAX_NS, 3);
    private final Recorder itlNs = new Recorder(1, MAX_NS, 3);
    private final Recorder tpotNs = new Recorder(1, MAX_NS, 3);
    private final Recorder e2eNs = new Recorder(1, MAX_NS, 3);
    private final Recorder outputTokens = new Recorder(1, MAX_TOKENS, 3);
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong good = new AtomicLong();
    private final AtomicLong inputTokenSum = new AtomicLong();
    private final AtomicLong inputTokenRequests = new AtomicLong();
    private final AtomicLong outputTokenSum = new AtomicLong();
    private final AtomicLong firstSendNs = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastEndNs = new AtomicLong(Long.MIN_VALUE);
    private final ConcurrentHashMap<String, AtomicLong> failures = new ConcurrentHashMap<>();
    private final Histogram ttft = new Histogram(1, MAX_NS, 3);
    private final Histogram itl = new Histogram(1, MAX_NS, 3);
    private final Histogram tpot = new Histogram(1, MAX_NS, 3);
    private final Histogram e2e = new Histogram(1, MAX_NS, 3);
    private final Histogram outputs = new Histogram(1, MAX_TOKENS, 3);

    /**
     * The user's service-level objectives: a request is "good" when it meets every one given.
     *
     * @param ttftNs longest TTFT, or 0 for none.
     * @param tpotNs longest TPOT, or 0 for none.
     * @param e2eNs  longest E2E, or 0 for none.
     */
    record Slos(long ttftNs, long tpotNs, long e2eNs)
    {
        /** No objectives: every completed request is good. */
        static final Slos NONE = new Slos(0, 0, 0);

        boolean met(final long ttft, final long tpot, final long e2e)
        {
            return (ttftNs <= 0 || ttft <= ttftNs) && (tpotNs <= 0 || tpot <= tpotNs) && (e2eNs <= 0 || e2e <= e2eNs);
        }

        String describe()
        {
            final List<String> parts = new ArrayList<>();
            if (ttftNs > 0)
            {
                parts.add("ttft <= " + ms(ttftNs));
            }
            if (tpotNs > 0)
            {
                parts.add("tpot <= " + ms(tpotNs));
            }
            if (e2eNs > 0)
            {
                parts.add("e2e <= " + ms(e2eNs));
            }
            return parts.isEmpty() ? "none given (slo-ttft-ms, slo-tpot-ms, slo-e2e-ms): every answered request"
                : String.join(", ", parts);
        }
    }

    /**
     * @param clock the clock every reading is taken from.
     * @param slos  the objectives goodput is counted against.
     */
    LlmMetrics(final NanoClock clock, final Slos slos)
    {
        this.clock = clock;
        this.slos = slos;
    }

    /**
     * @return a reading of the metrics' clock.
     */
    long nowNs()
    {
        return clock.nanoTime();
    }

    /**
     * A request was sent. Issuing thread.
     *
     * @param sendNs when.
     */
    void sent(final long sendNs)
    {
        if (sendNs < firstSendNs.get())
        {
            firstSendNs.accumulateAndGet(sendNs, Math::min);
        }
    }

    /**
     * A gap between two text events. HTTP client thread.
     *
     * @param gapNs the gap.
     */
    void interTokenGap(final long gapNs)
    {
        itlNs.recordValue(clamp(gapNs, MAX_NS));
    }

    /**
     * A request was answered. HTTP client thread.
     *
     * @param sendNs       when it was sent.
     * @param firstNs      when its first text came (0: none came).
     * @param endNs        when its stream ended.
     * @param tokens       its output tokens.
     * @param promptTokens its input tokens (the usage chunk's), or -1 when unknown.
     * @return whether it met every SLO.
     */
    boolean answered(final long sendNs, final long firstNs, final long endNs, final long tokens,
        final long promptTokens)
    {
        final long e2e = endNs - sendNs;
        final long ttft = firstNs == 0 ? e2e : firstNs - sendNs;
        final long tpot = tokens > 1 ? (e2e - ttft) / (tokens - 1) : 0;
        ttftNs.recordValue(clamp(ttft, MAX_NS));
        e2eNs.recordValue(clamp(e2e, MAX_NS));
        if (tokens > 1)
        {
            tpotNs.recordValue(clamp(tpot, MAX_NS));
        }
        outputTokens.recordValue(clamp(tokens, MAX_TOKENS));
        outputTokenSum.addAndGet(tokens);
        if (promptTokens >= 0)
        {
            inputTokenSum.addAndGet(promptTokens);
            inputTokenRequests.incrementAndGet();
        }
        if (endNs > lastEndNs.get())
        {
            lastEndNs.accumulateAndGet(endNs, Math::max);
        }
        completed.incrementAndGet();
        final boolean met = slos.met(ttft, tpot, e2e);
        if (met)
        {
            good.incrementAndGet();
        }
        return met;
    }

    /**
     * A request failed (rare: not on the hot path).
     *
     * @param cause its cause, short: {@code HTTP 429}, {@code error event}, {@code broken stream}...
     */
    void failed(final String cause)
    {
        failures.computeIfAbsent(cause, k -> new AtomicLong()).incrementAndGet();
    }

    private static long clamp(final long value, final long max)
    {
        return Math.max(1, Math.min(max, value));
    }

    /**
     * Takes what was recorded since the last call into the totals. After the run.
     */
    synchronized void collect()
    {
        ttft.add(ttftNs.getIntervalHistogram());
        itl.add(itlNs.getIntervalHistogram());
        tpot.add(tpotNs.getIntervalHistogram());
        e2e.add(e2eNs.getIntervalHistogram());
        outputs.add(outputTokens.getIntervalHistogram());
    }

    /**
     * @return the seconds from the first send to the last answer, or 0 before any answer.
     */
    double durationSeconds()
    {
        final long first = firstSendNs.get();
        final long last = lastEndNs.get();
        return first == Long.MAX_VALUE || last == Long.MIN_VALUE || last <= first ? 0 : (last - first) / 1e9;
    }

    /**
     * @return failed requests.
     */
    long failedCount()
    {
        return failures.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /**
     * @return the detail-log records of JLoadGen's own ({@code jloadgen_llm_...}); after {@link #collect()}.
     */
    synchronized List<SutLogNotes.Note> notes()
    {
        final List<SutLogNotes.Note> notes = new ArrayList<>();
        final double seconds = durationSeconds();
        notes.add(new SutLogNotes.Note(KEY + "requests_answered", completed.get()));
        notes.add(new SutLogNotes.Note(KEY + "requests_failed", failedCount()));
        notes.add(new SutLogNotes.Note(KEY + "failures_by_cause", describeFailures()));
        notes.add(new SutLogNotes.Note(KEY + "duration_s", seconds));
        percentiles(notes, "ttft", ttft);
        percentiles(notes, "itl", itl);
        percentiles(notes, "tpot", tpot);
        percentiles(notes, "e2e", e2e);
        notes.add(new SutLogNotes.Note(KEY + "output_tokens_mean", outputs.getTotalCount() == 0 ? 0.0
            : outputs.getMean()));
        for (final double p : new double[] {50, 90, 99})
        {
            notes.add(new SutLogNotes.Note(KEY + "output_tokens_p" + (int)p, outputs.getValueAtPercentile(p)));
        }
        notes.add(new SutLogNotes.Note(KEY + "output_tokens_max", outputs.getMaxValue()));
        final long in = inputTokenSum.get();
        final long out = outputTokenSum.get();
        notes.add(new SutLogNotes.Note(KEY + "input_tokens", inputTokenRequests.get() > 0 ? in : -1L));
        notes.add(new SutLogNotes.Note(KEY + "output_tokens", out));
        if (seconds > 0)
        {
            if (inputTokenRequests.get() > 0)
            {
                notes.add(new SutLogNotes.Note(KEY + "input_tokens_per_second", in / seconds));
                notes.add(new SutLogNotes.Note(KEY + "total_tokens_per_second", (in + out) / seconds));
            }
            notes.add(new SutLogNotes.Note(KEY + "output_tokens_per_second", out / seconds));
            notes.add(new SutLogNotes.Note(KEY + "requests_per_second", completed.get() / seconds));
            notes.add(new SutLogNotes.Note(KEY + "goodput_requests_per_second", good.get() / seconds));
        }
        notes.add(new SutLogNotes.Note(KEY + "goodput_requests", good.get()));
        notes.add(new SutLogNotes.Note(KEY + "slo", slos.describe()));
        return notes;
    }

    private static void percentiles(final List<SutLogNotes.Note> notes, final String name, final Histogram h)
    {
        notes.add(new SutLogNotes.Note(KEY + name + "_count", h.getTotalCount()));
        notes.add(new SutLogNotes.Note(KEY + name + "_mean_ns", h.getTotalCount() == 0 ? 0.0 : h.getMean()));
        for (final double p : new double[] {50, 90, 99})
        {
            notes.add(new SutLogNotes.Note(KEY + name + "_p" + (int)p + "_ns", h.getValueAtPercentile(p)));
        }
        notes.add(new SutLogNotes.Note(KEY + name + "_max_ns", h.getMaxValue()));
    }

    private String describeFailures()
    {
        if (failures.isEmpty())
        {
            return "none";
        }
        final StringBuilder b = new StringBuilder();
        failures.entrySet().stream().sorted(java.util.Map.Entry.comparingByKey()).forEach(e ->
            b.append(b.isEmpty() ? "" : ", ").append(e.getValue().get()).append(" x ").append(e.getKey()));
        return b.toString();
    }

    /**
     * @return a few lines for the console, after {@link #collect()}.
     */
    synchronized String describe()
    {
        final double seconds = durationSeconds();
        final StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%d answered, %d failed (%s) in %.2f s (client's view, from each send)",
            completed.get(), failedCount(), describeFailures(), seconds));
        line(b, "TTFT", ttft);
        line(b, "ITL ", itl);
        line(b, "TPOT", tpot);
        line(b, "E2E ", e2e);
        b.append(String.format(Locale.ROOT, "%n  output tokens per request: mean %.1f, p50 %d, p99 %d, max %d",
            outputs.getTotalCount() == 0 ? 0.0 : outputs.getMean(), outputs.getValueAtPercentile(50),
            outputs.getValueAtPercentile(99), outputs.getMaxValue()));
        if (seconds > 0)
        {
            final long in = inputTokenSum.get();
            final long out = outputTokenSum.get();
            b.append(String.format(Locale.ROOT, "%n  tokens/s: output %.1f", out / seconds));
            if (inputTokenRequests.get() > 0)
            {
                b.append(String.format(Locale.ROOT, ", input %.1f, total %.1f", in / seconds, (in + out) / seconds));
            }
            else
            {
                b.append(" (input and total need usage=true)");
            }
            b.append("\n  ").append(goodputLine());
        }
        return b.toString();
    }

    /**
     * @return e.g. {@code goodput: 24 of 40 requests (19.51 requests/s) met ttft <= 30 ms}: the requests that met
     *         every SLO, of those sent (failed ones included), per second of the client's view.
     */
    synchronized String goodputLine()
    {
        final double seconds = durationSeconds();
        return String.format(Locale.ROOT, "goodput: %d of %d requests (%.2f requests/s) met %s", good.get(),
            completed.get() + failedCount(), seconds > 0 ? good.get() / seconds : 0.0, slos.describe());
    }

    private static void line(final StringBuilder b, final String name, final Histogram h)
    {
        b.append(String.format(Locale.ROOT, "%n  %s ms: mean %s, p50 %s, p90 %s, p99 %s, max %s (%d)", name,
            num(h.getTotalCount() == 0 ? 0 : h.getMean()), num(h.getValueAtPercentile(50)),
            num(h.getValueAtPercentile(90)), num(h.getValueAtPercentile(99)), num(h.getMaxValue()),
            h.getTotalCount()));
    }

    private static String num(final double ns)
    {
        return String.format(Locale.ROOT, "%.3f", ns / 1e6);
    }

    private static String ms(final long ns)
    {
        return String.format(Locale.ROOT, "%s ms", ns % 1_000_000 == 0 ? Long.toString(ns / 1_000_000)
            : String.format(Locale.ROOT, "%.3f", ns / 1e6));
    }
}
