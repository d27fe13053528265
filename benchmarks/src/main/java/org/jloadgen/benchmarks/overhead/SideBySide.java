package org.jloadgen.benchmarks.overhead;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.sut.synthetic.NullWorkerSut;

/**
 * The cases of the side-by-side comparison with the official LoadGen: the same Server test run by LoadGen 6.0.17 with
 * its C++ null SUT ({@code benchmarks/official/null_sut.cc}) and by JLoadGen with its null SUT, both completing either
 * inline in {@code IssueQuery} or from one worker thread (LoadGen's woken through a condition variable, JLoadGen's the
 * SUT toolkit's batching SUT); and JLoadGen's {@code cpu} SUT (2 workers, the embedded model) at half its capacity.
 * JLoadGen's runs are also taken apart ({@link LatencyBreakdown}: issue lateness, hand-off, inference). Settings as the
 * budget's: 10 s minimum, 20 s maximum duration, QSL 1024/1024, no audit.config.
 */
public final class SideBySide
{
    /** Server 10k QPS, one worker thread completing. */
    public static final String WORKER_10K = "sbs-10k-worker";
    /** Server 50k QPS, one worker thread completing. */
    public static final String WORKER_50K = "sbs-50k-worker";
    /** Server 10k QPS, completion inline. */
    public static final String INLINE_10K = "sbs-10k-inline";
    /** Server 50k QPS, completion inline. */
    public static final String INLINE_50K = "sbs-50k-inline";
    /** JLoadGen's cpu SUT at half its capacity. */
    public static final String CPU_HALF = "sbs-cpu";
    /** Every case, in table order. */
    public static final List<String> ALL_IDS = List.of(WORKER_10K, WORKER_50K, INLINE_10K, INLINE_50K, CPU_HALF);

    /** Minimum duration of the measured runs, as the budget's and LoadGen's example null-SUT runs. */
    public static final long DURATION_MS = 10_000;

    private SideBySide()
    {
    }

    /**
     * One case.
     *
     * @param id          short name, for {@code --only}.
     * @param description what runs.
     * @param official    the official null SUT's run (its program and arguments), or {@code null} when LoadGen has no
     *                    counterpart here.
     * @param jloadgen    JLoadGen's run (its issue lateness log and SUT statistics give the breakdown).
     */
    public record Case(String id, String description, Configuration official, Configuration jloadgen)
    {
    }

    /**
     * @param id         a case id other than {@link #CPU_HALF} (which needs a rate: {@link #cpuAt}).
     * @param durationMs the runs' minimum duration ({@link #DURATION_MS}; shorter for a quick look).
     * @param nullSut    the official LoadGen's C++ null SUT ({@code OfficialLoadGenBuild#nullSut()}).
     * @return the case.
     * @throws IllegalArgumentException for an unknown id.
     */
    public static Case of(final String id, final long durationMs, final Path nullSut)
    {
        return switch (id)
        {
            case WORKER_10K -> nullCase(id, 10_000, true, durationMs, nullSut);
            case WORKER_50K -> nullCase(id, 50_000, true, durationMs, nullSut);
            case INLINE_10K -> nullCase(id, 10_000, false, durationMs, nullSut);
            case INLINE_50K -> nullCase(id, 50_000, false, durationMs, nullSut);
            default -> throw new IllegalArgumentException("unknown side-by-side case '" + id + "'; known: " + ALL_IDS);
        };
    }

    private static Case nullCase(final String id, final long qps, final boolean worker, final long durationMs,
        final Path nullSut)
    {
        final String rate = "server_target_qps=" + qps;
        final String maxDuration = "max_duration_ms=" + 2 * durationMs;
        final String what = "Server, " + Format.si(qps) + " QPS, " + seconds(durationMs) + ", " + (worker
            ? "one worker thread completing (LoadGen: a condition-variable worker; JLoadGen: null-worker)"
            : "completion inline in IssueQuery (null SUTs)");
        final Configuration official = Configuration.cppNullSut(id, what, TestScenario.SERVER, durationMs, nullSut,
            List.of("--completion", worker ? "worker" : "inline"), rate, maxDuration);
        final String sut = worker ? NullWorkerSut.NAME : "null";
        final Configuration jloadgen = Configuration.of(id, what, TestScenario.SERVER, durationMs, sut, rate,
            maxDuration);
        return new Case(id, what, official, jloadgen);
    }

    private static String seconds(final long ms)
    {
        return ms % 1_000 == 0 ? ms / 1_000 + " s" : ms + " ms";
    }

    /**
     * @return the Offline run whose samples per second are the cpu SUT's capacity (its default Offline batching).
     */
    public static Configuration cpuCapacity()
    {
        return Configuration.of(CPU_HALF + "-capacity", "cpu SUT, Offline, 5 s: its capacity", TestScenario.OFFLINE,
            5_000, "cpu", "offline_expected_qps=300000", "max_duration_ms=10000");
    }

    /**
     * @param qps        the Server target (half the capacity).
     * @param durationMs the run's minimum duration.
     * @return the cpu case at that rate (its default Server batching, 2 workers).
     */
    public static Case cpuAt(final long qps, final long durationMs)
    {
        final String rate = "server_target_qps=" + qps;
        final String what = "cpu SUT (embedded model, 2 workers), Server at " + Format.si(qps) + " QPS (half its "
            + "Offline capacity), " + seconds(durationMs);
        return new Case(CPU_HALF, what, null, Configuration.of(CPU_HALF, what, TestScenario.SERVER, durationMs, "cpu",
            rate, "max_duration_ms=" + 2 * durationMs));
    }
}
