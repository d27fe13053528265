package org.jloadgen.log;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.CFormat;
import org.jloadgen.clib.IoErrors;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.results.SeriesEnd;

/**
 * {@code mlperf_log_summary.txt} byte for byte as LoadGen 6.0.17 writes it (spec §8.3; loadgen/results.cc,
 * PerformanceSummary::LogSummary): the performance section of {@code PerformanceSummary::LogSummary} and
 * {@code TestSettingsInternal::LogSummary}, then the warning/error trailer LoadGen appends when logging stops. An
 * AccuracyOnly run has the trailer only.
 * <p>
 * Usage: {@link #append(PerformanceSummary)} for the reported performance run (if any), then
 * {@link #close(int, int)} with the counts of warning and error records of the detail log. The text goes to a
 * temporary file that is renamed into place on close, so a reader never sees half a summary.
 */
public final class SummaryWriter
{
    private static final String RULE = "================================================";
    private static final String EQUAL_ISSUE_WARNING = "WARNING: sample_concatenate_permutation was set to true. \n"
        + "Generated samples per query might be different as the one in the setting.\n"
        + "Check the generated_samples_per_query line in the detailed log for the real\n"
        + "samples_per_query value";

    private final Path target;
    private final PrintStream copy;
    private final StringBuilder text = new StringBuilder(4096);
    private boolean closed;

    /**
     * @param target final path of the summary.
     * @param copy   where to echo the summary ({@code copy_summary_to_stdout}), or {@code null}.
     */
    public SummaryWriter(final Path target, final PrintStream copy)
    {
        this.target = target;
        this.copy = copy;
    }

    /**
     * Appends the performance section of a run.
     *
     * @param summary the computed results.
     * @return this.
     */
    public SummaryWriter append(final PerformanceSummary summary)
    {
        text.append(performanceSection(summary));
        return this;
    }

    /**
     * Says that the run was aborted, for a summary without a performance section (an AccuracyOnly run, or a
     * SubmissionRun stopped in its accuracy part), whose LoadGen layout has no place for it: one line before the
     * trailer.
     *
     * @param reason why the run was aborted.
     * @return this.
     */
    public SummaryWriter appendAbort(final String reason)
    {
        line(text, SeriesEnd.abortSentence(reason));
        return this;
    }

    /**
     * Appends the trailer and writes the file (temporary name, then rename). Idempotent.
     *
     * @param warningCount warning records in the detail log.
     * @param errorCount   error records in the detail log.
     */
    public void close(final int warningCount, final int errorCount)
    {
        if (closed)
        {
            return;
        }
        closed = true;
        text.append(trailer(warningCount, errorCount));
        final String content = text.toString();
        if (copy != null)
        {
            copy.print(content);
        }
        writeAtomically(target, content);
    }

    /**
     * @param warningCount warning records.
     * @param errorCount   error records.
     * @return LoadGen's trailer: an empty line, the warning count line, an empty line, the error count line.
     */
    public static String trailer(final int warningCount, final int errorCount)
    {
        final String warnings = switch (warningCount)
        {
            case 0 -> "No warnings encountered during test.";
            case 1 -> "1 warning encountered. See detailed log.";
            default -> warningCount + " warnings encountered. See detailed log.";
        };
        final String errors = switch (errorCount)
        {
            case 0 -> "No errors encountered during test.";
            case 1 -> "1 ERROR encountered. See detailed log.";
            default -> errorCount + " ERRORS encountered. See detailed log.";
        };
        return "\n" + warnings + "\n\n" + errors + "\n";
    }

    /**
     * @param s the computed results.
     * @return the summary text LoadGen writes for one performance run (everything before the trailer).
     */
    public static String performanceSection(final PerformanceSummary s)
    {
        final EffectiveSettings settings = s.settings();
        final TestScenario scenario = settings.scenario;
        final boolean tokens = settings.useTokenLatencies;
        final double[] percentiles = PerformanceSummary.percentiles();
        final StringBuilder out = new StringBuilder(2048);

        line(out, RULE + "\nMLPerf Results Summary\n" + RULE);
        line(out, "SUT name : " + s.sutName());
        line(out, "Scenario : " + scenario.logName());
        line(out, "Mode     : " + settings.mode.logName());

        final String targetPercent = CFormat.fixed(settings.targetLatencyPercentile * 100, 1);
        switch (scenario)
        {
            case SINGLE_STREAM -> line(out, targetPercent + "th percentile latency (ns) : "
                + s.targetSampleLatencyNs());
            case MULTI_STREAM -> line(out, targetPercent + "th percentile latency (ns) : " + s.targetQueryLatencyNs());
            case SERVER -> line(out, "Completed samples per second    : "
                + CFormat.fixed(s.completedSamplesPerSecond(), 2));
            case OFFLINE -> line(out, "Samples per second: " + CFormat.g(s.samplesPerSecond()));
            default -> throw new IllegalStateException("unknown scenario " + scenario);
        }
        if (tokens)
        {
            switch (scenario)
            {
                case SINGLE_STREAM, MULTI_STREAM -> line(out,
                    targetPercent + "th first token percentile latency (ns) : " + s.targetFirstTokenNs());
                case OFFLINE -> line(out, "Tokens per second: " + CFormat.g(s.tokensPerSecond()));
                case SERVER -> line(out, "Completed tokens per second: "
                    + CFormat.fixed(s.completedTokensPerSecond(), 2));
                default -> throw new IllegalStateException("unknown scenario " + scenario);
            }
        }
        if (settings.inferTokenLatencies)
        {
            if (scenario == TestScenario.OFFLINE)
            {
                line(out, "Tokens per second (inferred): " + CFormat.g(s.inferredTokensPerSecond()));
            }
            else if (scenario == TestScenario.SERVER)
            {
                line(out, "Completed tokens per second (inferred): "
                    + CFormat.fixed(s.inferredCompletedTokensPerSecond(), 2));
            }
        }

        line(out, "Result is : " + (s.valid() ? "VALID" : "INVALID"));
        if (s.hasPerfConstraints())
        {
            line(out, "  Performance constraints satisfied : " + yesNo(s.perfConstraintsMet()));
        }
        line(out, "  Min duration satisfied : " + yesNo(s.minDurationMet()));
        line(out, "  Min queries satisfied : " + yesNo(s.minQueriesMet()));
        line(out, "  Early stopping satisfied: " + yesNo(s.earlyStoppingMet()));
        // JLoadGen's own checks, printed only when they fail, so a normal summary stays LoadGen's byte for byte.
        final SeriesEnd end = s.end();
        if (end.cutShort())
        {
            line(out, "  Ran to its end : NO (aborted: " + end.stoppedBecause() + ")");
        }
        if (!end.allCompleted() && end.noneFailed())
        {
            line(out, "  All issued samples completed : NO (" + end.samplesNotCompleted() + " of "
                + end.samplesIssued() + " never completed)");
        }
        else if (!end.noneFailed())
        {
            line(out, "  All issued samples completed : NO (" + end.samplesFailed() + " of " + end.samplesIssued()
                + " failed" + (end.allCompleted() ? "" : ", " + end.samplesNotCompleted() + " never answered") + ")");
        }
        if (!s.valid())
        {
            line(out, "Recommendations:");
            if (s.recommendationsApply())
            {
                if (!s.perfConstraintsMet())
                {
                    line(out, " * " + s.perfConstraintsRecommendation());
                }
                if (!s.minDurationMet())
                {
                    line(out, " * " + s.minDurationRecommendation());
                }
                if (!s.minQueriesMet())
                {
                    line(out, " * The test exited early, before enough queries were issued.\n"
                        + "   See the detailed log for why this may have occurred.");
                }
            }
            if (!end.normal())
            {
                for (final String sentence : end.explanation().split("\n"))
                {
                    line(out, " * " + sentence);
                }
            }
        }
        if (scenario != TestScenario.OFFLINE)
        {
            if (!tokens)
            {
                line(out, "Early Stopping Result:");
                line(out, s.earlyStoppingRecommendation());
            }
            else
            {
                line(out, "TTFT Early Stopping Result:");
                line(out, s.earlyStoppingTtftRecommendation());
                line(out, "TPOT Early Stopping Result:");
                line(out, s.earlyStoppingTpotRecommendation());
            }
        }

        line(out, "\n" + RULE + "\nAdditional Stats\n" + RULE);
        if (scenario == TestScenario.SINGLE_STREAM)
        {
            line(out, "QPS w/ loadgen overhead         : " + CFormat.fixed(s.qpsWithLoadgenOverhead(), 2));
            line(out, "QPS w/o loadgen overhead        : " + CFormat.fixed(s.qpsWithoutLoadgenOverhead(), 2));
            line(out, "");
        }
        else if (scenario == TestScenario.SERVER)
        {
            line(out, "Scheduled samples per second : " + CFormat.fixed(s.scheduledSamplesPerSecond(), 2));
        }
        else if (scenario == TestScenario.MULTI_STREAM)
        {
            line(out, "Per-query latency:  ");
            line(out, "Min latency (ns)                : " + s.queryLatencyMinNs());
            line(out, "Max latency (ns)                : " + s.queryLatencyMaxNs());
            line(out, "Mean latency (ns)               : " + s.queryLatencyMeanNs());
            for (int i = 0; i < percentiles.length; i++)
            {
                line(out, CFormat.fixed(percentiles[i] * 100, 2) + " percentile latency (ns)   : "
                    + s.queryLatencyPercentileNs(i));
            }
        }
        if (scenario != TestScenario.MULTI_STREAM)
        {
            line(out, "Min latency (ns)                : " + s.sampleLatencyMinNs());
            line(out, "Max latency (ns)                : " + s.sampleLatencyMaxNs());
            line(out, "Mean latency (ns)               : " + s.sampleLatencyMeanNs());
            for (int i = 0; i < percentiles.length; i++)
            {
                line(out, CFormat.fixed(percentiles[i] * 100, 2) + " percentile latency (ns)   : "
                    + s.sampleLatencyPercentileNs(i));
            }
        }
        if (tokens)
        {
            line(out, "");
            if (scenario == TestScenario.SINGLE_STREAM)
            {
                line(out, "TPS w/ loadgen overhead         : "
                    + CFormat.fixed(s.tokensPerSecondWithLoadgenOverhead(), 2));
                line(out, "TPS w/o loadgen overhead        : "
                    + CFormat.fixed(s.tokensPerSecondWithoutLoadgenOverhead(), 2));
            }
            else if (scenario == TestScenario.SERVER)
            {
                line(out, "Completed tokens per second                 : "
                    + CFormat.fixed(s.completedTokensPerSecond(), 2));
            }
            if (scenario != TestScenario.OFFLINE)
            {
                line(out, "Min First Token latency (ns)                : " + s.firstTokenMinNs());
                line(out, "Max First Token latency (ns)                : " + s.firstTokenMaxNs());
                line(out, "Mean First Token latency (ns)               : " + s.firstTokenMeanNs());
                for (int i = 0; i < percentiles.length; i++)
                {
                    line(out, CFormat.fixed(percentiles[i] * 100, 2) + " percentile first token latency (ns)   : "
                        + s.firstTokenPercentileNs(i));
                }
                line(out, "");
                line(out, "Min Time per Output Token (ns)                : " + s.timePerOutputTokenMinNs());
                line(out, "Max Time per Output Token (ns)                : " + s.timePerOutputTokenMaxNs());
                line(out, "Mean Time per Output Token (ns)               : " + s.timePerOutputTokenMeanNs());
                for (int i = 0; i < percentiles.length; i++)
                {
                    line(out, CFormat.fixed(percentiles[i] * 100, 2) + " percentile time to output token (ns)   : "
                        + s.timePerOutputTokenPercentileNs(i));
                }
            }
        }

        line(out, "\n" + RULE + "\nTest Parameters Used\n" + RULE);
        appendParameters(out, settings);
        if (!end.noneFailed())
        {
            appendFailures(out, s);
        }
        return out.toString();
    }

    /** The title of JLoadGen's section after LoadGen's lines. */
    public static final String JLOADGEN_SECTION = "JLoadGen: failed samples";

    /**
     * JLoadGen's section for a series with failed samples (a SUT's {@code on-error=count}), after LoadGen's lines:
     * what failed and what the completed samples achieved.
     */
    private static void appendFailures(final StringBuilder out, final PerformanceSummary s)
    {
        final SeriesEnd end = s.end();
        line(out, "\n" + RULE + "\n" + JLOADGEN_SECTION + "\n" + RULE);
        line(out, "Failed samples : " + end.samplesFailed() + " of " + end.samplesIssued() + " issued (never "
            + "completed: in no latency or rate above)");
        line(out, "Completed samples : " + end.samplesCompleted());
        line(out, "Goodput (completed samples per second) : " + CFormat.fixed(s.goodputSamplesPerSecond(), 2));
    }

    /**
     * Appends lines of a SUT's own after the performance section, in JLoadGen's section (failures by cause, LLM
     * goodput), before the trailer. Nothing when {@code lines} is empty.
     *
     * @param lines the SUT's lines.
     * @return this.
     */
    public SummaryWriter appendSutLines(final java.util.List<String> lines)
    {
        if (!lines.isEmpty())
        {
            if (text.indexOf(JLOADGEN_SECTION) < 0)
            {
                line(text, "\n" + RULE + "\nJLoadGen: the SUT's counts\n" + RULE);
            }
            for (final String l : lines)
            {
                line(text, l);
            }
        }
        return this;
    }

    /**
     * {@code TestSettingsInternal::LogSummary}: the effective parameters, booleans as 0/1, doubles as %g, seeds
     * unsigned.
     */
    private static void appendParameters(final StringBuilder out, final EffectiveSettings s)
    {
        line(out, "samples_per_query : " + Long.toUnsignedString(s.samplesPerQuery));
        line(out, "target_qps : " + CFormat.g(s.targetQps));
        if (s.useTokenLatencies)
        {
            line(out, "ttft_latency (ns): " + Long.toUnsignedString(s.serverTtftLatencyNs));
            line(out, "tpot_latency (ns): " + Long.toUnsignedString(s.serverTpotLatencyNs));
        }
        else
        {
            line(out, "target_latency (ns): " + s.targetLatencyNs);
        }
        line(out, "max_async_queries : " + Long.toUnsignedString(s.maxAsyncQueries));
        line(out, "min_duration (ms): " + s.minDurationMs);
        line(out, "max_duration (ms): " + s.maxDurationMs);
        line(out, "min_query_count : " + Long.toUnsignedString(s.minQueryCount));
        line(out, "max_query_count : " + Long.toUnsignedString(s.maxQueryCount));
        line(out, "qsl_rng_seed : " + Long.toUnsignedString(s.qslRngSeed));
        line(out, "sample_index_rng_seed : " + Long.toUnsignedString(s.sampleIndexRngSeed));
        line(out, "schedule_rng_seed : " + Long.toUnsignedString(s.scheduleRngSeed));
        line(out, "accuracy_log_rng_seed : " + Long.toUnsignedString(s.accuracyLogRngSeed));
        line(out, "accuracy_log_probability : " + CFormat.g(s.accuracyLogProbability));
        line(out, "accuracy_log_sampling_target : " + Long.toUnsignedString(s.accuracyLogSamplingTarget));
        line(out, "print_timestamps : " + bit(s.printTimestamps));
        line(out, "performance_issue_unique : " + bit(s.performanceIssueUnique));
        line(out, "performance_issue_same : " + bit(s.performanceIssueSame));
        line(out, "performance_issue_same_index : " + Long.toUnsignedString(s.performanceIssueSameIndex));
        line(out, "performance_sample_count : " + Long.toUnsignedString(s.performanceSampleCount));
        line(out, "accuracy_sample_count : " + Long.toUnsignedString(s.accuracySampleCount));
        if (s.sampleConcatenatePermutation)
        {
            line(out, EQUAL_ISSUE_WARNING);
        }
    }

    /** One LoadGen {@code summary(...)} call: the message, then a newline. */
    private static void line(final StringBuilder out, final String message)
    {
        out.append(message).append('\n');
    }

    private static String yesNo(final boolean value)
    {
        return value ? "Yes" : "NO";
    }

    private static String bit(final boolean value)
    {
        return value ? "1" : "0";
    }

    /**
     * Writes text to a temporary sibling and renames it over the target.
     *
     * @param target  final path.
     * @param content file content.
     */
    static void writeAtomically(final Path target, final String content)
    {
        final Path temporary = target.resolveSibling(target.getFileName() + ".partial");
        try
        {
            Files.writeString(temporary, content, StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + target + ": " + IoErrors.reason(ex), ex);
        }
    }
}
