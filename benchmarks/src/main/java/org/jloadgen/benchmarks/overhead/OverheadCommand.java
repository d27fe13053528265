package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.engine.official.OfficialEngineUnavailableException;
import org.jloadgen.engine.official.OfficialLoadGenBuild;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen overhead}: runs the performance budget's configurations against the null SUT, each repeat in a
 * fresh JVM, and prints the figures beside the official LoadGen's and the targets as a Markdown table. Plugged into
 * the command line by {@link OverheadCommandProvider}.
 */
@Command(
    name = "overhead",
    mixinStandardHelpOptions = true,
    description = {
        "Measure JLoadGen's own overhead with the null SUT: run the configurations of the performance budget "
            + "(benchmarks/README.md, \"The budget\"), each repeat in a fresh JVM, and print a Markdown table of "
            + "min / median / max, peak RSS and wall time beside the official LoadGen's figures and the targets.",
        "The full set takes 15-30 minutes; --only and --repeats run a subset (e.g. --only smoke --repeats 1).",
        "--official: instead, what the bridge costs: the Java null SUT under the official LoadGen (the bridge) "
            + "beside a C++ null SUT under the same LoadGen build, runs alternated (about 7 minutes).",
        "--side-by-side: instead, the engines side by side: the official LoadGen with its C++ null SUT (built by "
            + "scripts/build-official-loadgen, or --official-null-sut) and JLoadGen's engine with its null SUTs, "
            + "alternately on the same Server tests (10k and 50k QPS, completion inline or from one worker thread), "
            + "and JLoadGen's cpu SUT at half its capacity; prints p50/p99/p99.9, their ratio and where JLoadGen's "
            + "latency goes (about 12 minutes with 3 repeats)."})
public final class OverheadCommand implements Callable<Integer>
{
    @Option(names = "--only", paramLabel = "ID", split = ",",
        description = "Run only these configurations: ${COMPLETION-CANDIDATES}. Default: all but smoke. With "
            + "--side-by-side: " + "sbs-10k-worker, sbs-50k-worker, sbs-10k-inline, sbs-50k-inline, sbs-cpu (default: "
            + "all).",
        completionCandidates = Ids.class)
    List<String> only;

    @Option(names = "--official",
        description = "Run the side-by-side comparison with the official LoadGen instead of the budget table (--only "
            + "ids: official-singlestream, official-offline-3.3m, official-server-10k, official-server-10k-worker; "
            + "official-smoke for a quick check).")
    boolean official;

    @Option(names = "--loadgen-dir", paramLabel = "DIR",
        description = "The official LoadGen source for --official and --side-by-side. Default: $LOADGEN_DIR, "
            + "else the folder ../shared/mlperf-inference/loadgen.")
    Path loadgenDir;

    @Option(names = "--side-by-side",
        description = "Run JLoadGen's engine side by side with the official LoadGen instead of the budget table.")
    boolean sideBySide;

    @Option(names = "--official-null-sut", paramLabel = "FILE",
        description = "The official LoadGen's C++ null SUT for --side-by-side (default: the one "
            + "scripts/build-official-loadgen builds with LoadGen from --loadgen-dir).")
    Path officialNullSut;

    @Option(names = "--sbs-duration-ms", paramLabel = "MS", defaultValue = "10000",
        description = "Minimum duration of the side-by-side runs (default: ${DEFAULT-VALUE}, as the budget's; "
            + "shorter for a quick look).")
    long sbsDurationMs;

    @Option(names = "--cpu-qps", paramLabel = "QPS", defaultValue = "0",
        description = "Server target of the sbs-cpu case (default: half the cpu SUT's Offline capacity, measured "
            + "first).")
    long cpuQps;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3",
        description = "Runs per configuration and per peak-search target (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--work-dir", paramLabel = "DIR",
        description = "Where the runs' logs go (default: a new temporary directory).")
    Path workDir;

    @Option(names = "--output", paramLabel = "FILE", description = "Also write the Markdown table to this file.")
    Path output;

    @Option(names = "--jvm-arg", paramLabel = "FLAG",
        description = "A flag for the child JVMs, replacing the defaults (repeatable; default: "
            + "-XX:+UseSerialGC -Xms256m -Xmx2g -Xmn32m).")
    List<String> jvmArgs;

    @Option(names = "--child-time-limit-s", paramLabel = "S", defaultValue = "600",
        description = "Kill a child that runs longer than this (default: ${DEFAULT-VALUE}).")
    long childTimeLimitS;

    @Option(names = "--peak-start-qps", paramLabel = "QPS", defaultValue = "500000",
        description = "First target of the Server peak search (default: ${DEFAULT-VALUE}).")
    double peakStartQps;

    @Option(names = "--peak-max-qps", paramLabel = "QPS", defaultValue = "20000000",
        description = "Highest target the peak search tries (default: ${DEFAULT-VALUE}).")
    double peakMaxQps;

    @Option(names = "--peak-resolution", paramLabel = "FRACTION", defaultValue = "0.05",
        description = "Stop the peak search when the failing target is within this fraction above the passing "
            + "one (default: ${DEFAULT-VALUE}).")
    double peakResolution;

    @Option(names = "--peak-max-probes", paramLabel = "N", defaultValue = "12",
        description = "Most targets the peak search tries, counted as --repeats runs each (default: "
            + "${DEFAULT-VALUE}).")
    int peakMaxProbes;

    @Option(names = "--single-stream-expected-latency-ns", paramLabel = "NS", defaultValue = "0",
        description = "Expected latency of the full-length SingleStream run (default: derived from the 8M-query "
            + "runs so that 1.5 times the queries the fastest of them issues in 10 s are generated).")
    long singleStreamExpectedLatencyNs;

    @Option(names = "--floor-s", paramLabel = "S", defaultValue = "10",
        description = "Measure the platform floor (a bare spin-wait to a 10k/s Poisson schedule, no engine) for this "
            + "long before the first and after the last run (default: ${DEFAULT-VALUE}; 0: skip).")
    long floorS;

    @Option(names = "--quiet-cpu", paramLabel = "FRACTION", defaultValue = "0.10",
        description = "Start a run only when the machine's CPU use over the last second (other processes) is at "
            + "most this fraction (default: ${DEFAULT-VALUE}).")
    double quietCpu;

    @Option(names = "--max-quiet-wait-s", paramLabel = "S", defaultValue = "600",
        description = "Longest wait for a quiet machine before each run; then it runs anyway (default: "
            + "${DEFAULT-VALUE}; 0: never wait).")
    long maxQuietWaitS;

    @Option(names = "--max-other-cpu", paramLabel = "FRACTION", defaultValue = "0.25",
        description = "Run again a run during which other processes used more than this fraction of the machine "
            + "(default: ${DEFAULT-VALUE}; 1: never).")
    double maxOtherCpu;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "2",
        description = "Most reruns of a disturbed run (default: ${DEFAULT-VALUE}).")
    int retries;

    @Override
    public Integer call() throws Exception
    {
        final PrintStream stdout = System.out;
        if (official && sideBySide)
        {
            throw new IllegalArgumentException("--official and --side-by-side are two different comparisons: give one");
        }
        if (official)
        {
            return compareWithOfficial(stdout);
        }
        final OverheadRunner.Options options = new OverheadRunner.Options()
            .ids(only == null || only.isEmpty() || sideBySide ? BudgetTable.DEFAULT_IDS : only)
            .repeats(repeats)
            .workDir(workDir)
            .peakSearch(peakStartQps, Math.min(10_000, peakStartQps), peakMaxQps, peakResolution, peakMaxProbes)
            .singleStreamExpectedLatencyNs(singleStreamExpectedLatencyNs)
            .quiet(quietCpu, maxQuietWaitS * 1_000)
            .floorMs(floorS * 1_000)
            .retryDisturbed(maxOtherCpu, retries);
        final ChildJvm child = ChildJvm.likeThisJvm(jvmArgs == null ? OverheadRunner.DEFAULT_JVM_FLAGS : jvmArgs,
            childTimeLimitS * 1_000);
        final OverheadRunner runner = new OverheadRunner(options, child, System.err);
        if (sideBySide)
        {
            final List<String> cases = only == null || only.isEmpty() ? SideBySide.ALL_IDS : only;
            Path nullSut = null;
            if (SideBySideRunner.needsOfficial(cases))
            {
                nullSut = officialNullSut != null ? executable(officialNullSut) : officialBuild().map(
                    OfficialLoadGenBuild::nullSut).orElse(null);
                if (nullSut == null)
                {
                    return ExitCodes.USAGE;
                }
            }
            final SideBySideRunner sbs = new SideBySideRunner(runner, cases, repeats, nullSut, cpuQps, sbsDurationMs);
            final SideBySideReport report = sbs.run(workDir != null ? Files.createDirectories(workDir)
                : Files.createTempDirectory("jloadgen-side-by-side-"));
            stdout.print(report.markdown());
            if (output != null)
            {
                report.write(output);
            }
            return ExitCodes.VALID;
        }
        final OverheadReport report = runner.run();
        final String table = report.markdown();
        stdout.print(table);
        if (output != null)
        {
            report.write(output);
        }
        return ExitCodes.VALID;
    }

    /**
     * @return the official LoadGen build for --loadgen-dir (built on first use), or empty after saying why there is
     *         none.
     */
    private Optional<OfficialLoadGenBuild> officialBuild()
    {
        try
        {
            return Optional.of(OfficialLoadGenBuild.locate(loadgenDir, System.err));
        }
        catch (final OfficialEngineUnavailableException ex)
        {
            System.err.println("jloadgen: " + ex.getMessage());
            return Optional.empty();
        }
    }

    private static Path executable(final Path given)
    {
        if (!Files.isRegularFile(given) || !Files.isExecutable(given))
        {
            throw new IllegalArgumentException("--official-null-sut " + given + " is not an executable file");
        }
        return given;
    }

    private int compareWithOfficial(final PrintStream stdout) throws IOException
    {
        final Optional<OfficialLoadGenBuild> found = officialBuild();
        if (found.isEmpty())
        {
            return ExitCodes.USAGE;
        }
        final OfficialLoadGenBuild build = found.get();
        final OverheadRunner.Options options = new OverheadRunner.Options().ids(BudgetTable.DEFAULT_IDS)
            .repeats(repeats).workDir(workDir).quiet(quietCpu, maxQuietWaitS * 1_000).floorMs(0)
            .retryDisturbed(maxOtherCpu, retries);
        final ChildJvm child = ChildJvm.likeThisJvm(jvmArgs == null ? OverheadRunner.DEFAULT_JVM_FLAGS : jvmArgs,
            childTimeLimitS * 1_000);
        final OfficialComparison.Report report = new OverheadRunner(options, child, System.err).compareWithOfficial(
            only == null || only.isEmpty() ? OfficialComparison.DEFAULT_IDS : only, build.nullSut(), loadgenDir);
        final String table = "LoadGen " + build.version() + " built from " + build.loadgenDir() + "\n\n"
            + report.markdown();
        stdout.print(table);
        if (output != null)
        {
            Files.writeString(output, table);
        }
        return ExitCodes.VALID;
    }

    /**
     * The configuration ids, for the help text.
     */
    static final class Ids extends ArrayList<String>
    {
        Ids()
        {
            super(BudgetTable.ALL_IDS);
        }
    }
}
