package org.jloadgen.benchmarks.sut;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.cpu.BareLoop;
import org.jloadgen.sut.cpu.CpuSut;
import org.jloadgen.sut.cpu.CpuSutOptions;
import org.jloadgen.sut.cpu.CpuSutProvider;
import org.jloadgen.sut.cpu.InferenceSettings;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The CPU SUT's benchmark (not a test; {@code sut-cpu/README.md} has the command and the figures):
 * <ol>
 * <li>Offline throughput through JLoadGen against the same ONNX Runtime session driven by a bare Java loop
 * ({@link BareLoop}) with the same batch size and thread count, alternating the two for several rounds so that
 * drifting machine load hits both alike; prints each pair and the ratio.</li>
 * <li>Server runs at a list of target QPS: completed samples/s, p50/p99 latency and validity.</li>
 * </ol>
 * Runs the embedded Fashion-MNIST model unless {@code --sut-opt model-file=... --sut-opt dataset=...} say otherwise.
 */
@Command(name = "cpu-sut-benchmark", mixinStandardHelpOptions = true,
    defaultValueProvider = CpuSutBenchmark.Defaults.class,
    description = "Offline throughput of the CPU SUT through JLoadGen vs a bare ONNX Runtime loop; Server sweep.")
public final class CpuSutBenchmark implements Callable<Integer>
{
    @Mixin
    SutBenchmarkOptions bench;

    @Option(names = "--sut-opt", paramLabel = "KEY=VALUE", description = "A cpu SUT option, as for jloadgen run.")
    List<String> sutOptions = new ArrayList<>();

    /**
     * @param args see {@code --help}.
     */
    public static void main(final String[] args)
    {
        System.exit(new CommandLine(new CpuSutBenchmark()).execute(args));
    }

    @Override
    public Integer call()
    {
        final PrintStream console = System.out;
        final Map<String, String> options = new HashMap<>(SutOptions.pairs(sutOptions));
        console.printf(Locale.ROOT, "machine: %d CPUs, load average %s%n", Runtime.getRuntime().availableProcessors(),
            SutBenchmarkRuns.loadAverage());
        if (bench.offline())
        {
            offline(options, console);
        }
        if (bench.server())
        {
            server(options, console);
        }
        console.printf(Locale.ROOT, "load average at the end: %s%n", SutBenchmarkRuns.loadAverage());
        return 0;
    }

    private void offline(final Map<String, String> options, final PrintStream console)
    {
        try (CpuSutProvider.Instance instance = CpuSutProvider.instance(
            CpuSutOptions.parse(options, TestScenario.OFFLINE)))
        {
            final CpuSut sut = instance.cpuSut();
            final InferenceSettings s = sut.settings();
            console.println(sut.describe());
            console.println("Offline: bare ONNX Runtime loop vs JLoadGen, " + bench.seconds()
                + " s each, same session, batch "
                + s.maxBatchSize() + ", " + s.workers() + " thread(s)");
            final int rounds = bench.rounds();
            final double[] ratios = new double[rounds];
            final double[] cpuRatios = new double[rounds];
            double bareSum = 0;
            double jlgSum = 0;
            for (int r = 1; r <= rounds; r++)
            {
                // Alternate the order so that a drift in machine load does not favour one side.
                final BareLoop.Result bare;
                final OfflineRun jlg;
                if (r % 2 == 1)
                {
                    bare = bare(sut);
                    jlg = offlineRun(sut, bare.samplesPerSecond(), r);
                }
                else
                {
                    jlg = offlineRun(sut, bareSum / (r - 1), r);
                    bare = bare(sut);
                }
                bareSum += bare.samplesPerSecond();
                jlgSum += jlg.summary().samplesPerSecond();
                ratios[r - 1] = jlg.summary().samplesPerSecond() / bare.samplesPerSecond();
                cpuRatios[r - 1] = bare.cpuNsPerSample() / jlg.cpuNsPerSample();
                // Busy: CPU time of the inference threads over their wall time; below 100% the neighbours had
                // the cores (or the threads waited), which explains a throughput gap that CPU per sample does not.
                final double bareBusy = bare.cpuNs() / (double)(s.workers() * bare.elapsedNs());
                final double jlgBusy = jlg.cpuNsPerSample() * jlg.summary().samplesPerSecond() / (1e9 * s.workers());
                console.printf(Locale.ROOT, "  round %d: bare %.0f samples/s (%.2f us CPU/sample, busy %.0f%%), "
                    + "JLoadGen %.0f samples/s (%.2f us CPU/sample, busy %.0f%%, %s), ratio %.3f, CPU ratio %.3f; "
                    + "load %s%n", r, bare.samplesPerSecond(), bare.cpuNsPerSample() / 1e3, 100 * bareBusy,
                    jlg.summary().samplesPerSecond(), jlg.cpuNsPerSample() / 1e3, 100 * jlgBusy,
                    jlg.summary().valid() ? "VALID" : "INVALID", ratios[r - 1], cpuRatios[r - 1],
                        SutBenchmarkRuns.loadAverage());
            }
            Arrays.sort(ratios);
            Arrays.sort(cpuRatios);
            console.printf(Locale.ROOT, "  mean: bare %.0f, JLoadGen %.0f samples/s, ratio of means %.3f, median "
                + "ratio %.3f, median CPU-per-sample ratio %.3f; zero-copy batches %d, staged %d%n", bareSum / rounds,
                jlgSum / rounds, jlgSum / bareSum, ratios[rounds / 2], cpuRatios[rounds / 2], sut.zeroCopyBatches(),
                sut.stagedBatches());
        }
    }

    /**
     * A JLoadGen Offline run and the CPU time its workers used.
     *
     * @param summary the run's results.
     * @param cpuNs   CPU time of the SUT's worker threads during the run.
     */
    private record OfflineRun(PerformanceSummary summary, long cpuNs)
    {
        double cpuNsPerSample()
        {
            return (double)cpuNs / summary.sampleCount();
        }
    }

    private BareLoop.Result bare(final CpuSut sut)
    {
        final SampleStoreLibrary library = sut.library();
        final long[] set = LongStream.range(0, library.performanceSampleCount()).toArray();
        library.loadSamplesToRam(set);
        try
        {
            final InferenceSettings s = sut.settings();
            return BareLoop.run(sut.model(), library.store().slab(), library.store().source().sampleBytes(0),
                s.maxBatchSize(), s.workers(), 1_000_000_000L, bench.seconds() * 1_000_000_000L);
        }
        finally
        {
            library.unloadSamplesFromRam(set);
        }
    }

    private OfflineRun offlineRun(final CpuSut sut, final double expectedQps, final int round)
    {
        // 1.1 x 1.5 x bare rate x min_duration samples: about 1.65 x --seconds at the bare loop's rate, long enough
        // to stay VALID when the machine is a little faster than during the bare loop.
        final TestSettings settings = new TestSettings().scenario(TestScenario.OFFLINE)
            .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(bench.seconds() * 1_000)
            .offlineExpectedQps(1.5 * expectedQps);
        final long cpuBeforeNs = workerCpuNs(sut);
        final PerformanceSummary summary = run(sut, settings, bench.out().resolve("offline-" + round)).performance()
            .get(0);
        return new OfflineRun(summary, workerCpuNs(sut) - cpuBeforeNs);
    }

    private static long workerCpuNs(final CpuSut sut)
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(sut.name() + "-worker-"))
            {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private void server(final Map<String, String> options, final PrintStream console)
    {
        try (CpuSutProvider.Instance instance = CpuSutProvider.instance(
            CpuSutOptions.parse(options, TestScenario.SERVER)))
        {
            final CpuSut sut = instance.cpuSut();
            console.println("Server: " + sut.settings().describe() + "; issue thread waits with " + bench.serverWait()
                + "; target latency 100 ms (p99)");
            for (final double qps : bench.serverQps())
            {
                final TestSettings settings = new TestSettings().scenario(TestScenario.SERVER)
                    .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(bench.seconds() * 1_000).serverTargetQps(qps);
                SutBenchmarkRuns.printServerRun(console, qps, run(sut, settings,
                    bench.out().resolve(String.format(Locale.ROOT, "server-%.0f", qps))));
            }
        }
    }

    private TestResult run(final CpuSut sut, final TestSettings settings, final Path dir)
    {
        return SutBenchmarkRuns.run(sut, sut.library(), settings, dir, bench.serverWait(), bench.completionWait());
    }

    /** This benchmark's defaults of the shared options whose default depends on the SUT. */
    public static final class Defaults extends SutBenchmarkOptions.Defaults
    {
        /** The defaults. */
        public Defaults()
        {
            super("10000,50000,100000,150000", "SLEEP", "out/bench-cpu");
        }
    }
}
