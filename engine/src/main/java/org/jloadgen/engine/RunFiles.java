package org.jloadgen.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.IoErrors;
import org.jloadgen.log.AccuracyLogWriter;
import org.jloadgen.log.ChromeTraceWriter;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.SummaryWriter;
import org.jloadgen.record.AccuracyLogConsumer;

/**
 * The log files of one test, named as LoadGen names them (spec §1.7; loadgen/loadgen.cc, LogOutputs):
 * {@code outdir/prefix[datetime_]{summary,detail,accuracy,trace}suffix.{txt,json}}, plus JLoadGen's
 * HdrHistogram interval logs {@code ...latency<suffix>.hlog} and (Server) {@code ...issue_lateness<suffix>.hlog}, and
 * with {@link EngineOptions#jfr()} a flight recording {@code ...jfr<suffix>.jfr}. All are opened when the test starts
 * (LoadGen refuses to run if one cannot be created) and written under temporary names until closed; the earlier
 * run's files of the same names are removed then, and a detail log an earlier run left unfinished is kept aside.
 */
final class RunFiles
{
    /** Appended to the detail log's name to keep the log of an earlier run that died before it finished. */
    static final String INCOMPLETE_SUFFIX = ".incomplete";
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
        createDirectory(dir);
        final String stem = settings.prefix() + (settings.prefixWithDatetime() ? testDatetime + "_" : "");
        summary = dir.resolve(stem + "summary" + settings.suffix() + ".txt");
        detail = dir.resolve(stem + "detail" + settings.suffix() + ".txt");
        accuracy = dir.resolve(stem + "accuracy" + settings.suffix() + ".json");
        trace = settings.enableTrace() ? dir.resolve(stem + "trace" + settings.suffix() + ".json") : null;
        latencyLog = options.latencyHistogram() ? dir.resolve(stem + "latency" + settings.suffix() + ".hlog") : null;
        issueLatenessLog = options.issueLateness() && scenario == TestScenario.SERVER
            ? dir.resolve(stem + "issue_lateness" + settings.suffix() + ".hlog") : null;
        jfr = options.jfr() ? dir.resolve(stem + "jfr" + settings.suffix() + ".jfr") : null;
        keepIncompleteRun(console);
        removeStale(summary, detail, accuracy, trace, latencyLog, issueLatenessLog, jfr);
        summaryWriter = new SummaryWriter(summary, settings.copySummaryToStdout() ? console : null);
        final AccuracyLogWriter.TokenFields fields = AccuracyLogWriter.TokenFields.of(scenario, useTokenLatencies);
        accuracyWriter = new AccuracyLogWriter(accuracy, fields);
        accuracyConsumer = new AccuracyLogAdapter(accuracyWriter,
            fields == AccuracyLogWriter.TokenFields.DATA_AND_COUNT);
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

    private static void createDirectory(final Path dir)
    {
        if (Files.exists(dir) && !Files.isDirectory(dir))
        {
            throw new UncheckedIOException("cannot create the log directory " + dir + ": it is a file, not a directory",
                new java.nio.file.FileAlreadyExistsException(dir.toString()));
        }
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the log directory " + dir + ": " + IoErrors.reason(ex), ex);
        }
    }

    /**
     * A detail log still under its temporary name is the log of an earlier run in this folder that died before it
     * finished (killed, crashed): it has no summary. It is kept under {@link #INCOMPLETE_SUFFIX}, and the console
     * says so.
     */
    private void keepIncompleteRun(final PrintStream console)
    {
        final Path partial = DetailLog.partialPath(detail);
        if (!Files.exists(partial))
        {
            return;
        }
        final Path kept = detail.resolveSibling(detail.getFileName() + INCOMPLETE_SUFFIX);
        try
        {
            Files.move(partial, kept, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot move the incomplete detail log " + partial + " aside: "
                + IoErrors.reason(ex), ex);
        }
        console.println("jloadgen: warning: the previous run in " + detail.toAbsolutePath().getParent()
            + " is incomplete (it was killed or crashed, no summary was written); its detail log is kept as "
            + kept.getFileName());
    }

    /**
     * LoadGen truncates its log files when a test starts: so does this, so that a run that dies leaves no summary of
     * an earlier run that could be taken for its own.
     */
    private static void removeStale(final Path... files)
    {
        for (final Path file : files)
        {
            try
            {
                if (file != null)
                {
                    Files.deleteIfExists(file);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot replace the earlier log " + file + ": " + IoErrors.reason(ex),
                    ex);
            }
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
