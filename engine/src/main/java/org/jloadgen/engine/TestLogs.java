package org.jloadgen.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.NanoClock;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.DetailLog;
import org.jloadgen.record.AccuracyLogCollector;
import org.jloadgen.record.IssueLatenessLog;
import org.jloadgen.record.LatencyIntervalLog;

/**
 * The open logs of one test: the files ({@link RunFiles}), the detail log, the accuracy-log collector, the latency
 * interval log, the issue lateness log, the flight recording, and the console messages of the run.
 * {@link #close()} finishes every one of them completely, whatever state the test ended in.
 */
final class TestLogs
{
    private final RunFiles files;
    private final DetailLog detail;
    private final PrintStream console;
    private final NanoClock clock;
    private final List<String> messages = new ArrayList<>();
    private AccuracyLogCollector accuracyCollector;
    private LatencyIntervalLog latencyLog;
    private IssueLatenessLog issueLatenessLog;
    private FlightRecording flightRecording;

    /**
     * Creates the files and the detail log (LoadGen refuses to run if one cannot be created).
     */
    TestLogs(final LogSettings logSettings, final String testDatetime, final TestSettings requested,
        final EngineOptions options, final PrintStream console)
    {
        this.clock = options.clock();
        this.console = console;
        this.files = RunFiles.open(logSettings, testDatetime, options, requested.scenario(),
            requested.useTokenLatencies(), console);
        this.detail = new DetailLog(files.detail(), logSettings.copyDetailToStdout() ? console : null,
            clock::nanoTime);
    }

    /**
     * Starts the detail log's clock and opens the collectors; after this, a failure still leaves complete logs.
     *
     * @param histogramIntervalMs interval of the latency histogram log.
     * @param accuracyRingBytes   the accuracy-log collector's ring ({@link #accuracyRingBytes}).
     */
    void start(final long histogramIntervalMs, final int accuracyRingBytes)
    {
        detail.origin(clock.nanoTime());
        accuracyCollector = new AccuracyLogCollector(files.accuracyConsumer(), accuracyRingBytes);
        latencyLog = files.latencyLogPath() == null ? null
            : new LatencyIntervalLog(files.latencyLogPath(), histogramIntervalMs);
        issueLatenessLog = files.issueLatenessLogPath() == null ? null
            : new IssueLatenessLog(files.issueLatenessLogPath(), histogramIntervalMs);
        flightRecording = files.jfrPath() == null ? null : new FlightRecording(files.jfrPath());
    }

    /**
     * The accuracy-log ring a test needs. One whose series are all performance series, with no accuracy-log
     * probability or sampling target and no audit.config that could set one, copies a sample into the log only where
     * its shifted draw is exactly 0 (LoadGen's rule is {@code <=}): a small ring carries that. Every other test gets
     * the default ring. The default's 16 MiB are written (zeroed) when the ring is made, and faulting them in took 65
     * ms of a 1.2 s SingleStream process on the 2-CPU VM (benchmarks/README.md, issue 20, session 10).
     *
     * @param requested          the test's settings before audit.config.
     * @param auditConfigPresent whether an audit.config will be applied.
     * @return the ring's capacity in bytes, a power of two.
     */
    static int accuracyRingBytes(final TestSettings requested, final boolean auditConfigPresent)
    {
        final boolean performanceOnly = requested.mode() == TestMode.PERFORMANCE_ONLY
            || requested.mode() == TestMode.FIND_PEAK_PERFORMANCE;
        return performanceOnly && !auditConfigPresent && requested.accuracyLogProbability() == 0
            && requested.accuracyLogSamplingTarget() == 0 ? AccuracyLogCollector.SMALL_CAPACITY_BYTES
            : AccuracyLogCollector.DEFAULT_CAPACITY_BYTES;
    }

    RunFiles files()
    {
        return files;
    }

    DetailLog detail()
    {
        return detail;
    }

    PrintStream console()
    {
        return console;
    }

    AccuracyLogCollector accuracyCollector()
    {
        return accuracyCollector;
    }

    /**
     * @return the latency interval log, or {@code null} when it is off.
     */
    LatencyIntervalLog latencyLog()
    {
        return latencyLog;
    }

    /**
     * @return the Server issue lateness log, or {@code null} when it is off.
     */
    IssueLatenessLog issueLatenessLog()
    {
        return issueLatenessLog;
    }

    /**
     * @param performance whether the series is a performance series (only those write the issue lateness log).
     * @return whether its recorder keeps issue times per query: for the Chrome trace and the issue lateness log (a
     *         SingleStream recorder without them keeps latencies in its slots, {@code SeriesRecorder}).
     */
    boolean keepsIssueTimes(final boolean performance)
    {
        return files.traceWriter() != null || (performance && issueLatenessLog != null);
    }

    /**
     * Logs an {@code error_runtime} record and repeats it on the console.
     *
     * @param message what went wrong.
     */
    void error(final String message)
    {
        detail.error("error_runtime", message);
        messages.add("error: " + message);
    }

    /**
     * Logs a {@code warning_generic_message} record and repeats it on the console.
     *
     * @param message what to warn about.
     */
    void warning(final String message)
    {
        detail.warning("warning_generic_message", message);
        messages.add("warning: " + message);
    }

    /**
     * @param message a line for the console only.
     */
    void message(final String message)
    {
        messages.add(message);
    }

    /**
     * @return the console messages so far, in order.
     */
    List<String> messages()
    {
        return List.copyOf(messages);
    }

    /**
     * Finishes every log that was opened, the detail log last (the summary counts its errors and warnings).
     *
     * @throws UncheckedIOException if one could not be finished (the others still are).
     */
    void close()
    {
        final List<Throwable> failures = new ArrayList<>();
        closeQuietly(() -> accuracyCollector.close(), failures);
        closeQuietly(() -> latencyLog.close(), failures);
        closeQuietly(() -> issueLatenessLog.close(), failures);
        closeQuietly(() -> flightRecording.close(), failures);
        closeQuietly(() -> files.close(detail), failures);
        closeQuietly(() -> detail.close(), failures);
        if (!failures.isEmpty())
        {
            final UncheckedIOException ex = new UncheckedIOException("could not finish the logs",
                new IOException(failures.get(0)));
            failures.stream().skip(1).forEach(ex::addSuppressed);
            throw ex;
        }
    }

    private interface Closer
    {
        void close() throws Exception;
    }

    private static void closeQuietly(final Closer closer, final List<Throwable> failures)
    {
        try
        {
            closer.close();
        }
        catch (final NullPointerException ex)
        {
            // Never opened: nothing to close.
        }
        catch (final Exception ex)
        {
            failures.add(ex);
        }
    }
}
