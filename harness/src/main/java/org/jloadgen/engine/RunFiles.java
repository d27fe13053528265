package org.jloadgen.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestScenario;
import org.jloadgen.log.AccuracyLogWriter;
import org.jloadgen.log.ChromeTraceWriter;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.SummaryWriter;
import org.jloadgen.record.AccuracyLogConsumer;

/**
 * The log files of one test, named as LoadGen names them (spec §1.7):
 * {@code outdir/prefix[datetime_]{summary,detail,accuracy,trace}suffix.{txt,json}}, plus JLoadGen's
 * HdrHistogram interval logs {@code ...latency<suffix>.hlog} and (Server) {@code ...issue_lateness<suffix>.hlog}, and
 * with {@link EngineOptions#jfr()} a flight recording {@code ...jfr<suffix>.jfr}. All are opened when the test starts
 * (LoadGen refuses to run if one cannot be created) and written under temporary names until closed.
 */
final class RunFiles
{
    private static final DateTimeFormatter TEST_DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

    private final Path summary;
    private final Path detail;
    private final Path accuracy;
    private final Path trace;
    private final Path latencyLog;
    private final Path issueLatenessLog;
    private final Path jfr;
    private final SummaryWriter summaryWriter;
    private final AccuracyLogWriter accuracyWriter;
    private final AccuracyLogAdapter accuracyConsumer;
    private final ChromeTraceWriter traceWriter;
    private final ChromeTraceAdapter traceAdapter;

    private RunFiles(final LogSettings settings, final String testDatetime, final EngineOptions options,
        final TestScenario scenario, final boolean useTokenLatencies, final PrintStream console)
    {
        final Path dir = settings.outputDirectory();
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the log directory " + dir + ": " + ex.getMessage(), ex);
        }
        final String stem = settings.prefix() + (settings.prefixWithDatetime() ? testDatetime + "_" : "");
        summary = dir.resolve(stem + "summary" + settings.suffix() + ".txt");
        detail = dir.resolve(stem + "detail" + settings.suffix() + ".txt");
        accuracy = dir.resolve(stem + "accuracy" + settings.suffix() + ".json");
        trace = settings.enableTrace() ? dir.resolve(stem + "trace" + settings.suffix() + ".json") : null;
        latencyLog = options.latencyHistogram() ? dir.resolve(stem + "latency" + settings.suffix() + ".hlog") : null;
        issueLatenessLog = options.issueLateness() && scenario == TestScenario.SERVER
            ? dir.resolve(stem + "issue_lateness" + settings.suffix() + ".hlog") : null;
        jfr = options.jfr() ? dir.resolve(stem + "jfr" + settings.suffix() + ".jfr") : null;
        summaryWriter = new SummaryWriter(summary, settings.copySummaryToStdout() ? console : null);
        final AccuracyLogWriter.TokenFields fields = AccuracyLogWriter.TokenFields.of(scenario, useTokenLatencies);
        accuracyWriter = new AccuracyLogWriter(accuracy, fields);
        accuracyConsumer = new AccuracyLogAdapter(accuracyWriter, fields == AccuracyLogWriter.TokenFields.DATA_AND_COUNT);
        if (trace != null)
        {
            final java.time.Instant now = java.time.Instant.now();
            traceWriter = new ChromeTraceWriter(trace, options.clock().nanoTime(),
                now.getEpochSecond() * 1_000_000_000L + now.getNano());
            traceAdapter = new ChromeTraceAdapter(traceWriter);
        }
        else
        {
            traceWriter = null;
            traceAdapter = null;
        }
    }

    /**
     * @return the {@code test_datetime} of a test starting now, as LoadGen formats it (also the file name prefix).
     */
    static String testDatetimeNow()
    {
        return LocalDateTime.now().format(TEST_DATETIME);
    }

    static RunFiles open(final LogSettings settings, final String testDatetime, final EngineOptions options,
        final TestScenario scenario, final boolean useTokenLatencies, final PrintStream console)
    {
        return new RunFiles(settings, testDatetime, options, scenario, useTokenLatencies, console);
    }

    Path summary()
    {
        return summary;
    }

    Path detail()
    {
        return detail;
    }

    Path accuracy()
    {
        return accuracy;
    }

    Path trace()
    {
        return trace;
    }

    Path latencyLogPath()
    {
        return latencyLog;
    }

    /**
     * @return the issue lateness log, or {@code null} when it is off or the scenario is not Server.
     */
    Path issueLatenessLogPath()
    {
        return issueLatenessLog;
    }

    /**
     * @return the flight recording, or {@code null} when it is off.
     */
    Path jfrPath()
    {
        return jfr;
    }

    SummaryWriter summaryWriter()
    {
        return summaryWriter;
    }

    AccuracyLogConsumer accuracyConsumer()
    {
        return accuracyConsumer;
    }

    ChromeTraceAdapter traceWriter()
    {
        return traceAdapter;
    }

    /**
     * Finishes every file but the detail log: the summary gets the warning/error trailer counted in it.
     *
     * @param log the detail log (closed by the caller after this).
     */
    void close(final DetailLog log)
    {
        RuntimeException failure = null;
        try
        {
            accuracyWriter.close();
        }
        catch (final RuntimeException ex)
        {
            failure = ex;
        }
        if (traceWriter != null)
        {
            try
            {
                traceWriter.close();
            }
            catch (final RuntimeException ex)
            {
                failure = failure == null ? ex : failure;
            }
        }
        summaryWriter.close(log.warningCount(), log.errorCount());
        if (failure != null)
        {
            throw failure;
        }
    }
}
