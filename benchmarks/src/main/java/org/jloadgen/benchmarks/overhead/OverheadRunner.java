package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.api.TestScenario;
import org.jloadgen.cli.api.ConsoleText;

/**
 * Runs the budget configurations ({@link BudgetTable}), each repeat in a fresh child JVM, plus the tiny runs whose
 * peak RSS the memory figures subtract, and the Server peak search; returns a {@link OverheadReport}.
 */
public final class OverheadRunner
{
    /**
     * The child JVMs' flags (the runner's choice, see benchmarks/README.md): the engine allocates almost nothing
     * while the clock runs, so a small serial young generation keeps GC threads off the two cores and the
     * heap's footprint out of the memory figures, and a fixed heap avoids resizing during a run.
     */
    public static final List<String> DEFAULT_JVM_FLAGS = List.of("-XX:+UseSerialGC", "-Xms256m", "-Xmx2g",
        "-Xmn32m");

    /** Rate of the platform-floor schedule: the Server 10k QPS row's. */
    static final double FLOOR_RATE_PER_S = 10_000;

    private final Options options;
    private final ChildJvm child;
    private final PrintStream progress;

    /**
     * @param options  what to run.
     * @param child    how to start children.
     * @param progress where a line per run goes.
     */
    public OverheadRunner(final Options options, final ChildJvm child, final PrintStream progress)
    {
        this.options = options.conclude();
        this.child = child;
        this.progress = progress;
    }

    /**
     * The runner's options, set fluently and checked by {@link #conclude()}.
     */
    public static final class Options
    {
        private List<String> ids = BudgetTable.DEFAULT_IDS;
        private int repeats = 3;
        private Path workDir;
        private double peakStartQps = 500_000;
        private double peakMinQps = 10_000;
        private double peakMaxQps = 20_000_000;
        private double peakResolution = 0.05;
        private int peakMaxProbes = 12;
        private long singleStreamExpectedLatencyNs;
        private long floorMs = 10_000;
        private double quietBusy = 0.10;
        private long quietWaitMs = 600_000;
        private double maxOtherCpu = 0.25;
        private int retries = 2;

        /**
         * @param value configuration ids to run (any order; run and printed in table order).
         * @return this.
         */
        public Options ids(final List<String> value)
        {
            this.ids = List.copyOf(value);
            return this;
        }

        /**
         * @return the ids to run, in table order.
         */
        public List<String> ids()
        {
            return ids;
        }

        /**
         * @param value repeats per configuration (and per peak-search target).
         * @return this.
         */
        public Options repeats(final int value)
        {
            this.repeats = value;
            return this;
        }

        /**
         * @return repeats per configuration.
         */
        public int repeats()
        {
            return repeats;
        }

        /**
         * @param value directory for the runs' logs, or {@code null} for a new temporary one.
         * @return this.
         */
        public Options workDir(final Path value)
        {
            this.workDir = value;
            return this;
        }

        /**
         * @param startQps   first target of the peak search.
         * @param minQps     lowest target it tries.
         * @param maxQps     highest target it tries.
         * @param resolution relative gap between the passing and failing targets at which it stops.
         * @param maxProbes  most targets it tries.
         * @return this.
         */
        public Options peakSearch(final double startQps, final double minQps, final double maxQps,
            final double resolution, final int maxProbes)
        {
            this.peakStartQps = startQps;
            this.peakMinQps = minQps;
            this.peakMaxQps = maxQps;
            this.peakResolution = resolution;
            this.peakMaxProbes = maxProbes;
            return this;
        }

        /**
         * @param value expected latency of the full-length SingleStream configuration, or 0 to derive it from the
         *              8M-query runs (1.5 times as many queries generated as the fastest of them would issue).
         * @return this.
         */
        public Options singleStreamExpectedLatencyNs(final long value)
        {
            this.singleStreamExpectedLatencyNs = value;
            return this;
        }

        /**
         * @param busyFraction a run starts only when the machine's CPU use over the last second is at most this
         *                     (other processes; 0 to 1), or once {@code maxWaitMs} have passed.
         * @param maxWaitMs    longest wait for a quiet machine before each run (0: never wait).
         * @return this.
         */
        public Options quiet(final double busyFraction, final long maxWaitMs)
        {
            this.quietBusy = busyFraction;
            this.quietWaitMs = maxWaitMs;
            return this;
        }

        /**
         * @param fraction a run during which other processes used more than this fraction of the machine is run
         *                 again (1: never).
         * @param times    how many times at most.
         * @return this.
         */
        public Options retryDisturbed(final double fraction, final int times)
        {
            this.maxOtherCpu = fraction;
            this.retries = times;
            return this;
        }

        /**
         * @param value length of the platform-floor measurement taken before the first and after the last run
         *              ({@link SpinFloor}; 0: none).
         * @return this.
         */
        public Options floorMs(final long value)
        {
            this.floorMs = value;
            return this;
        }

        /**
         * Checks the options and puts the ids in table order.
         *
         * @return this.
         * @throws IllegalArgumentException naming the bad option.
         */
        public Options conclude()
        {
            if (repeats < 1)
            {
                throw new IllegalArgumentException("--repeats must be at least 1: " + repeats);
            }
            if (!(maxOtherCpu >= 0) || retries < 0)
            {
                throw new IllegalArgumentException("the disturbance limit must be >= 0 and retries not negative");
            }
            if (floorMs < 0)
            {
                throw new IllegalArgumentException("the platform-floor time must not be negative: " + floorMs);
            }
            if (!(quietBusy >= 0 && quietBusy <= 1) || quietWaitMs < 0)
            {
                throw new IllegalArgumentException("the quiet threshold must be in [0, 1] and the wait not negative");
            }
            if (singleStreamExpectedLatencyNs < 0)
            {
                throw new IllegalArgumentException("the SingleStream expected latency must not be negative");
            }
            final List<String> ordered = new ArrayList<>();
            for (final String id : ids)
            {
                if (!BudgetTable.ALL_IDS.contains(id))
                {
                    throw new IllegalArgumentException("unknown configuration '" + id + "'; known: "
                        + BudgetTable.ALL_IDS);
                }
            }
            for (final String id : BudgetTable.ALL_IDS)
            {
                if (ids.contains(id))
                {
                    ordered.add(id);
                }
            }
            if (ordered.isEmpty())
            {
                throw new IllegalArgumentException("no configuration selected");
            }
            ids = List.copyOf(ordered);
            if (!(peakStartQps >= peakMinQps && peakStartQps <= peakMaxQps))
            {
                throw new IllegalArgumentException("need --peak-min-qps <= --peak-start-qps <= --peak-max-qps; got "
                    + peakMinQps + ", " + peakStartQps + ", " + peakMaxQps);
            }
            ServerPeak.limits(peakMinQps, peakMaxQps, peakResolution, repeats, peakMaxProbes);
            return this;
        }
    }

    /**
     * Runs everything selected.
     *
     * @return the report.
     * @throws UncheckedIOException if the work directory cannot be made.
     */
    public OverheadReport run()
    {
        final Path work;
        try
        {
            work = options.workDir != null ? Files.createDirectories(options.workDir)
                : Files.createTempDirectory("jloadgen-overhead-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the work directory", ex);
        }
        final String loadBefore = loadAverage();
        final List<SpinFloor.Result> floors = new ArrayList<>();
        measureFloor(floors);
        final Map<String, List<RunResult>> runs = new LinkedHashMap<>();
        ServerPeak peak = null;
        for (final String id : options.ids)
        {
            switch (id)
            {
                case BudgetTable.SERVER_PEAK -> peak = ServerPeak.find(ServerPeak.limits(options.peakMinQps,
                    options.peakMaxQps, options.peakResolution, options.repeats, options.peakMaxProbes),
                    options.peakStartQps, (qps, repeat) -> peakRun(work, qps, repeat));
                case BudgetTable.SINGLE_STREAM_FULL -> runs.put(id,
                    repeat(work, BudgetTable.singleStreamFull(fullExpectedLatencyNs(work, runs)), options.repeats));
                default -> runs.put(id, repeat(work, BudgetTable.configuration(id), options.repeats));
            }
        }
        final Map<TestScenario, List<RunResult>> baselines = new EnumMap<>(TestScenario.class);
        for (final Figure f : BudgetTable.figures())
        {
            if (f.baselineScenario() != null && runs.containsKey(f.configId())
                && !baselines.containsKey(f.baselineScenario()))
            {
                baselines.put(f.baselineScenario(), repeat(work, BudgetTable.tiny(f.baselineScenario()),
                    options.repeats));
            }
        }
        measureFloor(floors);
        return new OverheadReport(options.repeats, child.jvmFlags(), runs, peak, baselines, floors, work, loadBefore,
            loadAverage());
    }

    /**
     * Runs the side-by-side comparison with the official LoadGen ({@link OfficialComparison}): for each repeat and
     * row, the Java and the C++ null SUT in turn, the order swapped every repeat.
     *
     * @param ids        comparison ids (of {@link OfficialComparison#ALL_IDS}).
     * @param nullSut    the C++ null SUT.
     * @param loadgenDir the LoadGen source for the Java side, or {@code null} for its default.
     * @return the report.
     */
    public OfficialComparison.Report compareWithOfficial(final List<String> ids, final Path nullSut,
        final Path loadgenDir)
    {
        final Path work;
        try
        {
            work = options.workDir != null ? Files.createDirectories(options.workDir)
                : Files.createTempDirectory("jloadgen-official-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the work directory", ex);
        }
        final List<OfficialComparison.Row> rows = new ArrayList<>();
        for (final String id : OfficialComparison.ordered(ids))
        {
            rows.add(OfficialComparison.row(id, nullSut, loadgenDir));
        }
        final Map<String, List<RunResult>> java = OfficialComparison.emptyRuns(rows);
        final Map<String, List<RunResult>> cpp = OfficialComparison.emptyRuns(rows);
        for (int r = 1; r <= options.repeats; r++)
        {
            for (final OfficialComparison.Row row : rows)
            {
                final boolean javaFirst = (r & 1) == 1;
                for (int side = 0; side < 2; side++)
                {
                    final boolean isJava = (side == 0) == javaFirst;
                    final Configuration configuration = isJava ? row.java() : row.cpp();
                    (isJava ? java : cpp).get(row.id()).add(runOne(work.resolve(configuration.id())
                        .resolve(String.valueOf(r)), configuration, r));
                }
            }
        }
        return new OfficialComparison.Report(options.repeats, rows, java, cpp, work);
    }

    private void measureFloor(final List<SpinFloor.Result> floors)
    {
        if (options.floorMs == 0)
        {
            return;
        }
        final double busy = waitForQuiet();
        final SpinFloor.Result floor = SpinFloor.measure(FLOOR_RATE_PER_S, options.floorMs, floors.size() + 1);
        floors.add(floor);
        // Progress lines are wrapped to 80 columns (ConsoleText); the Markdown table at the end is not.
        progress.println(ConsoleText.wrap(String.format(Locale.ROOT, "overhead: platform floor (spin to a %.0f/s "
            + "Poisson schedule, %d s): p50 %d ns, p99 %d ns, p99.9 %d ns, max %d ns; %d stalls > 1 µs, %.2f%% of the "
            + "time; busy before %.0f%%", FLOOR_RATE_PER_S, options.floorMs / 1000, floor.p50Ns(), floor.p99Ns(),
            floor.p999Ns(), floor.maxNs(), floor.stalls(), 100 * floor.stalledFraction(), 100 * busy), "  "));
    }

    private List<RunResult> repeat(final Path work, final Configuration configuration, final int count)
    {
        final List<RunResult> results = new ArrayList<>();
        for (int r = 1; r <= count; r++)
        {
            results.add(runOne(work.resolve(configuration.id()).resolve(String.valueOf(r)), configuration, r));
        }
        return results;
    }

    /**
     * Runs one repeat of a configuration in a fresh process (a JLoadGen JVM or the configuration's native program),
     * after waiting for a quiet machine, and again (up to the retry limit) when other processes disturbed it.
     *
     * @param dir           the run's directory.
     * @param configuration what to run.
     * @param repeat        repeat number.
     * @return the last attempt's result.
     */
    RunResult runOne(final Path dir, final Configuration configuration, final int repeat)
    {
        int attempt = 0;
        while (true)
        {
            final RunResult result = child.run(configuration, repeat, attempt == 0 ? dir
                : dir.resolveSibling(dir.getFileName() + "-retry" + attempt), waitForQuiet());
            progress.println(ConsoleText.wrap(String.format(Locale.ROOT, "overhead: %-18s #%d  %-7s wall %6.2f s  "
                + "peak RSS %5d MiB  others' CPU before %3.0f%% during %3.0f%%  %s", configuration.id(), repeat,
                result.valid() ? "VALID" : "INVALID", result.wallNs() / 1e9, result.peakRssKib() / 1024,
                100 * result.busyBefore(), 100 * result.otherCpu(), result.problem()), "  "));
            if (!(result.otherCpu() > options.maxOtherCpu) || attempt == options.retries)
            {
                return result;
            }
            attempt++;
            progress.println(ConsoleText.wrap(String.format(Locale.ROOT, "overhead: other processes used %.0f%% of "
                + "the machine during that run; running it again (%d of %d)", 100 * result.otherCpu(), attempt,
                options.retries), "  "));
        }
    }

    /**
     * @return where a line per run goes.
     */
    PrintStream progress()
    {
        return progress;
    }

    /**
     * Waits until the machine's CPU use over one second is at most the quiet threshold, or the wait limit passes.
     *
     * @return the last CPU use seen.
     */
    private double waitForQuiet()
    {
        final long deadlineNs = System.nanoTime() + options.quietWaitMs * 1_000_000L;
        try
        {
            double busy = CpuLoad.busyFraction(1_000);
            while (busy > options.quietBusy && System.nanoTime() - deadlineNs < 0)
            {
                progress.printf(Locale.ROOT, "overhead: waiting for a quiet machine (CPU %.0f%% busy)%n", 100 * busy);
                Thread.sleep(4_000);
                busy = CpuLoad.busyFraction(1_000);
            }
            return busy;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a quiet machine", ex);
        }
    }

    private RunResult peakRun(final Path work, final double targetQps, final int repeat)
    {
        final Path dir = work.resolve(BudgetTable.SERVER_PEAK).resolve(String.valueOf((long)targetQps));
        return runOne(dir.resolve(String.valueOf(repeat)), BudgetTable.serverAt(targetQps), repeat);
    }

    private long fullExpectedLatencyNs(final Path work, final Map<String, List<RunResult>> runs)
    {
        if (options.singleStreamExpectedLatencyNs > 0)
        {
            return options.singleStreamExpectedLatencyNs;
        }
        List<RunResult> reference = runs.get(BudgetTable.SINGLE_STREAM_8M);
        if (reference == null)
        {
            reference = repeat(work.resolve("probe"), BudgetTable.configuration(BudgetTable.SINGLE_STREAM_8M), 1);
        }
        double fastestQps = 0;
        for (final RunResult r : reference)
        {
            if (r.detail() != null)
            {
                fastestQps = Math.max(fastestQps, r.detail().number("result_qps_with_loadgen_overhead").orElse(0));
            }
        }
        if (fastestQps <= 0)
        {
            throw new IllegalStateException("no SingleStream rate to size the full-length run from; give "
                + "--single-stream-expected-latency-ns");
        }
        return expectedLatencyFor(fastestQps);
    }

    /**
     * @param queriesPerSecond the fastest SingleStream rate seen.
     * @return an expected latency that makes LoadGen's generator (2 x min_duration at the expected rate) produce
     *         1.5 times the queries that rate issues in min_duration.
     */
    static long expectedLatencyFor(final double queriesPerSecond)
    {
        return Math.max(1, (long)(2e9 / (1.5 * queriesPerSecond)));
    }

    /**
     * @return the first three fields of {@code /proc/loadavg}, or {@code n/a}.
     */
    static String loadAverage()
    {
        try
        {
            final String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        }
        catch (final IOException | RuntimeException ex)
        {
            return "n/a";
        }
    }
}
