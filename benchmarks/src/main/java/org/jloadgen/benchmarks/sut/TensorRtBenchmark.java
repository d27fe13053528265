package org.jloadgen.benchmarks.sut;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.tensorrt.BareLoop;
import org.jloadgen.sut.tensorrt.TensorRtOptions;
import org.jloadgen.sut.tensorrt.TensorRtSut;
import org.jloadgen.sut.tensorrt.TensorRtSutProvider;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The TensorRT SUT's benchmark (not a test; {@code sut-tensorrt/README.md} has the command):
 * <ol>
 * <li>Offline samples/s through JLoadGen against a bare loop ({@link BareLoop}) over the same engine, slots, streams,
 * batch size and pinned slab, alternating the two for several rounds; the goal is at least 97%.</li>
 * <li>Server runs at a list of target QPS: completed samples/s, p50/p99 latency, validity, and the SUT's own batch
 * and stage statistics.</li>
 * </ol>
 */
@Command(name = "tensorrt-sut-benchmark", mixinStandardHelpOptions = true,
    defaultValueProvider = TensorRtBenchmark.Defaults.class,
    description = "Offline throughput of the TensorRT SUT through JLoadGen vs a bare loop over the same engine; "
        + "Server sweep with p99.")
public final class TensorRtBenchmark implements Callable<Integer>
{
    /** The Offline goal: JLoadGen's throughput over the bare loop's. */
    public static final double OFFLINE_GOAL = 0.97;

    @Mixin
    SutBenchmarkOptions bench;

    @Option(names = "--sut-opt", paramLabel = "KEY=VALUE", required = true,
        description = "A tensorrt SUT option, as for jloadgen run (model-file=, dataset= at least).")
    List<String> sutOptions = new ArrayList<>();

    /**
     * @param args see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new TensorRtBenchmark()).execute(args));
    }

    @Override
    public Integer call()
    {
        final PrintStream console = System.out;
        final Map<String, String> options = new HashMap<>(SutOptions.pairs(sutOptions));
        console.printf(Locale.ROOT, "machine: %d CPUs, load average %s%n", Runtime.getRuntime().availableProcessors(),
            SutBenchmarkRuns.loadAverage());
        boolean met = true;
        if (bench.offline())
        {
            met = offline(options, console);
        }
        if (bench.server())
        {
            server(options, console);
        }
        return met ? 0 : 3;
    }

    private static TensorRtSut open(final Map<String, String> options, final TestScenario scenario)
    {
        final TensorRtOptions parsed = TensorRtOptions.parse(options, scenario);
        return TensorRtSut.open(parsed, TensorRtSutProvider.backend(parsed), System.out);
    }

    private boolean offline(final Map<String, String> options, final PrintStream console)
    {
        try (TensorRtSut sut = open(options, TestScenario.OFFLINE))
        {
            console.println(sut.describe());
            console.println("Offline: bare loop over the same engine and streams vs JLoadGen, " + bench.seconds()
                + " s each");
            final int rounds = bench.rounds();
            final double[] ratios = new double[rounds];
            double bareSum = 0;
            double jlgSum = 0;
            for (int r = 1; r <= rounds; r++)
            {
                // Alternate the order so that a drift in the machine's state does not favour one side.
                final BareLoop.Result bare;
                final PerformanceSummary jlg;
                if (r % 2 == 1)
                {
                    bare = BareLoop.run(sut, 1_000_000_000L, bench.seconds() * 1_000_000_000L);
                    jlg = offlineRun(sut, bare.samplesPerSecond(), r);
                }
                else
                {
                    jlg = offlineRun(sut, bareSum / (r - 1), r);
                    bare = BareLoop.run(sut, 1_000_000_000L, bench.seconds() * 1_000_000_000L);
                }
                bareSum += bare.samplesPerSecond();
                jlgSum += jlg.samplesPerSecond();
                ratios[r - 1] = jlg.samplesPerSecond() / bare.samplesPerSecond();
                console.printf(Locale.ROOT,
                    "  round %d: bare %.0f samples/s, JLoadGen %.0f samples/s (%s), ratio %.3f%n", r,
                    bare.samplesPerSecond(), jlg.samplesPerSecond(), jlg.valid() ? "VALID" : "INVALID", ratios[r - 1]);
            }
            Arrays.sort(ratios);
            final double median = ratios[rounds / 2];
            console.printf(Locale.ROOT, "  mean: bare %.0f, JLoadGen %.0f samples/s; ratio of means %.3f, median ratio "
                + "%.3f (goal >= %.2f: %s)%n", bareSum / rounds, jlgSum / rounds, jlgSum / bareSum, median,
                OFFLINE_GOAL, median >= OFFLINE_GOAL ? "met" : "NOT met");
            return median >= OFFLINE_GOAL;
        }
    }

    private PerformanceSummary offlineRun(final TensorRtSut sut, final double expectedQps, final int round)
    {
        // 1.1 x 1.5 x bare rate x min_duration samples: the run stays VALID if it goes a little faster than the loop.
        final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE).mode(TestMode.PERFORMANCE_ONLY)
            .minDurationMs(bench.seconds() * 1_000).offlineExpectedQps(1.5 * expectedQps);
        final Path dir = bench.out().resolve("offline-" + round);
        final PerformanceSummary summary = run(sut, settings, dir).performance().get(0);
        writeStatistics(sut, dir);
        return summary;
    }

    private void server(final Map<String, String> options, final PrintStream console)
    {
        try (TensorRtSut sut = open(options, TestScenario.SERVER))
        {
            console.println("Server: " + sut.settings().describe() + "; issue thread waits with " + bench.serverWait()
                + "; target latency as mlperf.conf's default (100 ms p99)");
            for (final double qps : bench.serverQps())
            {
                final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                    .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(bench.seconds() * 1_000).serverTargetQps(qps);
                final Path dir = bench.out().resolve(String.format(Locale.ROOT, "server-%.0f", qps));
                SutBenchmarkRuns.printServerRun(console, qps, run(sut, settings, dir));
                writeStatistics(sut, dir);
            }
        }
    }

    private static void writeStatistics(final TensorRtSut sut, final Path dir)
    {
        try
        {
            sut.statistics().write(dir, null);
        }
        catch (final IOException ex)
        {
            System.err.println("warning: cannot write " + dir + ": " + ex.getMessage());
        }
    }

    private TestResult run(final TensorRtSut sut, final TestSettings settings, final Path dir)
    {
        return SutBenchmarkRuns.run(sut, sut.library(), settings, dir, bench.serverWait(), bench.completionWait());
    }

    /** This benchmark's defaults of the shared options whose default depends on the SUT. */
    public static final class Defaults extends SutBenchmarkOptions.Defaults
    {
        /** The defaults. */
        public Defaults()
        {
            super("1000,10000,50000", "SPIN", "out/bench-tensorrt");
        }
    }
}
