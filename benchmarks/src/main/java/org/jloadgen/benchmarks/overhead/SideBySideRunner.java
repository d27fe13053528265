package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs the side-by-side cases ({@link SideBySide}): for each repeat, the official LoadGen's run and then JLoadGen's,
 * alternating so that both see the same machine, each in a fresh process after the overhead runner's wait for a
 * quiet machine.
 * The cpu case first measures the SUT's Offline capacity (unless a rate is given) and runs Server at half of it. Each
 * JLoadGen run's issue lateness log and SUT statistics are read into a {@link LatencyBreakdown}.
 */
public final class SideBySideRunner
{
    private final OverheadRunner runner;
    private final List<String> ids;
    private final int repeats;
    private final Path officialBinary;
    private final long cpuQps;
    private final long durationMs;

    /**
     * @param runner         runs each process (quiet waits, retries, progress lines).
     * @param ids            the cases, any order (run in table order).
     * @param repeats        runs per engine and case.
     * @param officialBinary the official LoadGen's null SUT, or {@code null} when no case needs it.
     * @param cpuQps         the cpu case's Server target, or 0 to use half its measured Offline capacity.
     * @param durationMs     the runs' minimum duration ({@link SideBySide#DURATION_MS}).
     */
    public SideBySideRunner(final OverheadRunner runner, final List<String> ids, final int repeats,
        final Path officialBinary, final long cpuQps, final long durationMs)
    {
        for (final String id : ids)
        {
            if (!SideBySide.ALL_IDS.contains(id))
            {
                throw new IllegalArgumentException("unknown side-by-side case '" + id + "'; known: "
                    + SideBySide.ALL_IDS);
            }
        }
        if (ids.isEmpty() || repeats < 1 || cpuQps < 0 || durationMs < 1)
        {
            throw new IllegalArgumentException("a side-by-side run needs a case, at least one repeat, a rate >= 0 and "
                + "a positive duration");
        }
        this.runner = runner;
        this.ids = SideBySide.ALL_IDS.stream().filter(ids::contains).toList();
        this.repeats = repeats;
        this.officialBinary = officialBinary;
        this.cpuQps = cpuQps;
        this.durationMs = durationMs;
    }

    /**
     * @param ids cases.
     * @return whether any of them runs the official LoadGen.
     */
    public static boolean needsOfficial(final List<String> ids)
    {
        return ids.stream().anyMatch(id -> !id.equals(SideBySide.CPU_HALF));
    }

    /**
     * Runs every case.
     *
     * @param work where the runs' folders go ({@code sbs-*}/{@code official|jloadgen}/{@code N}).
     * @return the report.
     */
    public SideBySideReport run(final Path work)
    {
        final String loadBefore = OverheadRunner.loadAverage();
        final List<SideBySideReport.CaseResult> results = new ArrayList<>();
        for (final String id : ids)
        {
            final SideBySide.Case c = id.equals(SideBySide.CPU_HALF) ? SideBySide.cpuAt(cpuRate(work), durationMs)
                : SideBySide.of(id, durationMs, officialBinary);
            final List<RunResult> official = new ArrayList<>();
            final List<RunResult> jloadgen = new ArrayList<>();
            final List<LatencyBreakdown> breakdowns = new ArrayList<>();
            final Path dir = work.resolve(id);
            for (int r = 1; r <= repeats; r++)
            {
                if (c.official() != null)
                {
                    official.add(runner.runOne(dir.resolve("official").resolve(String.valueOf(r)), c.official(), r));
                }
                final RunResult run = runner.runOne(dir.resolve("jloadgen").resolve(String.valueOf(r)), c.jloadgen(),
                    r);
                jloadgen.add(run);
                breakdowns.add(readBreakdown(run));
            }
            results.add(new SideBySideReport.CaseResult(c, official, jloadgen, breakdowns));
        }
        return new SideBySideReport(repeats, officialBinary, results, work, loadBefore, OverheadRunner.loadAverage());
    }

    private long cpuRate(final Path work)
    {
        if (cpuQps > 0)
        {
            return cpuQps;
        }
        final RunResult capacity = runner.runOne(work.resolve(SideBySide.CPU_HALF).resolve("capacity"),
            SideBySide.cpuCapacity(), 1);
        final double samplesPerSecond = capacity.detail() == null ? 0
            : capacity.detail().number("result_samples_per_second").orElse(0);
        if (samplesPerSecond <= 0)
        {
            throw new IllegalStateException("the cpu SUT's capacity run reported no samples per second ("
                + capacity.runDir() + ": " + capacity.problem() + "); give --cpu-qps");
        }
        final long half = Math.max(1_000, Math.round(samplesPerSecond / 2 / 1_000) * 1_000);
        runner.progress().printf(Locale.ROOT, "overhead: cpu SUT capacity %.0f samples/s; Server at %d QPS%n",
            samplesPerSecond, half);
        return half;
    }

    /**
     * @return the run's breakdown, or {@code null} when it wrote no issue lateness log (it failed early).
     */
    private static LatencyBreakdown readBreakdown(final RunResult run)
    {
        if (!Files.isRegularFile(run.runDir().resolve(LatencyBreakdown.LATENESS_FILE)))
        {
            return null;
        }
        try
        {
            return LatencyBreakdown.read(run.runDir());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the issue lateness log of " + run.runDir(), ex);
        }
    }
}
