package org.jloadgen.sut.cpu;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.cli.api.InterruptGuard;
import org.jloadgen.cli.api.ProgressLine;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.spi.DefaultJob;

/**
 * {@code jloadgen run} with no arguments: the embedded Fashion-MNIST model on ONNX Runtime (CPU), an AccuracyOnly
 * Offline run over the 10,000 test images (scored top-1 against the labels) and a PerformanceOnly Offline run, with
 * the logs in {@code out/default/accuracy} and {@code out/default/performance}.
 * <p>
 * The Offline query must keep the SUT busy for at least {@code min_duration} (10 s) to be VALID, and should not keep
 * it much longer, so its size comes from a calibration in two steps: a bare ONNX Runtime loop ({@link BareLoop})
 * with the SUT's batch size and worker count runs {@value #CALIBRATION_WINDOWS} windows of
 * {@value #CALIBRATION_WINDOW_MS} ms, whose fastest window sizes a {@value #PROBE_MS} ms Offline run through the
 * engine and the SUT's batcher (logs in a temporary folder); {@code offline_expected_qps} is
 * {@value #EXPECTED_QPS_FACTOR} times that run's rate. The bare loop alone misjudged the SUT (the SUT once ran well
 * faster than the fastest window, so the query was sized for a much higher rate and the pass took almost twice its
 * 10 s: benchmarks/README.md, "Measurements behind the code"); the probe runs the very path the performance run
 * takes. The run then lasts about 1.1 x {@value #EXPECTED_QPS_FACTOR} x 10 s = 12 s at the probed rate, VALID
 * unless it runs over 1.21 times faster than the probe.
 */
public final class CpuDefaultJob implements DefaultJob
{
    /** System property overriding where the logs go. */
    public static final String OUT_DIR_PROP_NAME = "jloadgen.default.dir";
    /** Where the logs go, relative to the working directory. */
    public static final Path OUT_DIR_DEFAULT = Path.of("out", "default");
    /** System property overriding {@code min_duration} of the performance run (a quicker demonstration). */
    public static final String MIN_DURATION_MS_PROP_NAME = "jloadgen.default.minDurationMs";
    /** {@code min_duration} of the performance run. */
    public static final long MIN_DURATION_MS_DEFAULT = 10_000;
    /**
     * {@code offline_expected_qps} over the throughput of the calibration run: with LoadGen's own 1.1 the query keeps
     * the SUT busy 1.21 x min_duration at that rate, VALID unless the run goes over 1.21 times faster.
     */
    public static final double EXPECTED_QPS_FACTOR = 1.1;
    /** {@code min_duration} of the calibration run through the engine. */
    public static final long PROBE_MS = 2_000;
    /** Calibration warm-up. */
    public static final long CALIBRATION_WARMUP_MS = 500;
    /** One calibration window. */
    public static final long CALIBRATION_WINDOW_MS = 300;
    /** Calibration windows; the fastest counts. */
    public static final int CALIBRATION_WINDOWS = 4;
    /** Continuation lines of the SUT's description: under its values ("model    ..."). */
    private static final String LABEL_INDENT = "         ";
    /** Continuation lines of a step's or result's line. */
    private static final String STEP_INDENT = "      ";
    /** Continuation lines of a log folder's line: under its path. */
    private static final String LOGS_INDENT = "               ";


    @Override
    public String description()
    {
        return "the embedded Fashion-MNIST model on ONNX Runtime (CPU): an AccuracyOnly and a PerformanceOnly "
            + "Offline run";
    }

    @Override
    public Path defaultOutDir()
    {
        return outDir();
    }

    @Override
    public int priority()
    {
        return 100;
    }

    @Override
    public String sutName()
    {
        return CpuSutProvider.NAME;
    }

    @Override
    public int run(final PrintStream out, final PrintStream err)
    {
        return run(outDir(), minDurationMs(), FashionMnist.defaultCacheDir(), out, err);
    }

    @Override
    public int run(final Path outDir, final PrintStream out, final PrintStream err)
    {
        return run(outDir, minDurationMs(), FashionMnist.defaultCacheDir(), out, err);
    }

    /**
     * @return the {@value #OUT_DIR_PROP_NAME} property, else {@link #OUT_DIR_DEFAULT}.
     */
    public static Path outDir()
    {
        final String dir = System.getProperty(OUT_DIR_PROP_NAME);
        return dir == null || dir.isBlank() ? OUT_DIR_DEFAULT : Path.of(dir);
    }

    /**
     * @return the {@value #MIN_DURATION_MS_PROP_NAME} property, else {@link #MIN_DURATION_MS_DEFAULT}.
     */
    public static long minDurationMs()
    {
        final String ms = System.getProperty(MIN_DURATION_MS_PROP_NAME);
        if (ms == null || ms.isBlank())
        {
            return MIN_DURATION_MS_DEFAULT;
        }
        try
        {
            return Long.parseLong(ms.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(MIN_DURATION_MS_PROP_NAME + " must be milliseconds, got '" + ms + "'",
                ex);
        }
    }

    /**
     * Runs the job.
     *
     * @param outDir        the logs go to {@code outDir/accuracy} and {@code outDir/performance}.
     * @param minDurationMs {@code min_duration} of the performance run.
     * @param cacheDir      where the embedded model is extracted.
     * @param out           standard output: progress, summary, accuracy, where the logs are.
     * @param err           standard error: the engine's error messages.
     * @return 0 when the accuracy run had no errors and the performance run is VALID, else 3.
     */
    public static int run(final Path outDir, final long minDurationMs, final Path cacheDir, final PrintStream out,
        final PrintStream err)
    {
        final ModelDescriptor model = FashionMnist.prepare(cacheDir);
        final InferenceSettings inference = InferenceSettings.defaults(TestScenario.OFFLINE);
        // One guard for the whole job: Ctrl-C aborts the test that runs and ends the job after what it printed.
        try (InterruptGuard guard = InterruptGuard.install(); CpuSut sut = CpuSut.open(model, inference))
        {
            out.println(ConsoleText.wrap(sut.describe(), LABEL_INDENT));
            final Path accuracyDir = outDir.resolve("accuracy");
            final Path performanceDir = outDir.resolve("performance");

            out.println();
            out.println(ConsoleText.wrap("[1/2] AccuracyOnly, Offline: all " + sut.library().totalSampleCount()
                + " test images, logs in " + accuracyDir, STEP_INDENT));
            final TestResult accuracy = run(sut, new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.ACCURACY_ONLY), accuracyDir, "[1/2] accuracy", false, guard, out, err);
            if (accuracy.aborted())
            {
                // Interrupted (or the SUT failed): the job ends here, its logs saying why.
                return ExitCodes.INVALID;
            }
            final String score = sut.accuracy(accuracy.accuracyFile()).describe();
            out.println(ConsoleText.wrap("Accuracy: " + score + " (model.json: 89.19%, "
                + FashionMnist.KNOWN_CORRECT + " of " + FashionMnist.SAMPLE_COUNT + ")", STEP_INDENT));

            final double bare = calibrate(sut);
            final double probed = probe(sut, bare, guard, err);
            if (guard.interrupted())
            {
                return ExitCodes.INVALID;
            }
            final double expectedQps = Math.floor(probed * EXPECTED_QPS_FACTOR);
            out.println();
            out.println(ConsoleText.wrap(String.format(Locale.ROOT, "Calibration: a bare ONNX Runtime loop (batch "
                + "%d, %d thread%s) ran up to %.0f samples/s, a %d ms Offline run through JLoadGen %.0f samples/s; "
                + "offline_expected_qps = %.0f", inference.maxBatchSize(), inference.workers(),
                inference.workers() == 1 ? "" : "s", bare, PROBE_MS, probed, expectedQps), STEP_INDENT));
            out.println(ConsoleText.wrap("[2/2] PerformanceOnly, Offline: min_duration " + minDurationMs
                + " ms, logs in " + performanceDir, STEP_INDENT));
            final TestResult performance = run(sut, new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(minDurationMs).offlineExpectedQps(expectedQps),
                performanceDir, "[2/2] performance", true, guard, out, err);

            out.println(ConsoleText.wrap("Accuracy: " + score, STEP_INDENT));
            out.println("Logs:");
            out.println(ConsoleText.wrap("  accuracy:    " + accuracyDir.toAbsolutePath() + " (" + files(accuracy)
                + ")", LOGS_INDENT));
            out.println(ConsoleText.wrap("  performance: " + performanceDir.toAbsolutePath() + " ("
                + files(performance) + ")", LOGS_INDENT));
            final boolean ok = accuracy.errorCount() == 0 && performance.valid();
            out.println("Result: " + (performance.valid() ? "VALID" : "INVALID")
                + (accuracy.errorCount() == 0 ? "" : "; the accuracy run logged errors"));
            return ok ? ExitCodes.VALID : ExitCodes.INVALID;
        }
    }

    private static TestResult run(final CpuSut sut, final TestSettings settings, final Path dir, final String step,
        final boolean printSummary, final InterruptGuard guard, final PrintStream out, final PrintStream err)
    {
        final LogSettings logs = new LogSettings().outputDirectory(dir).copySummaryToStdout(printSummary);
        // Offline's issue thread only waits for the end: parking keeps both cores for inference.
        final EngineOptions engine = new EngineOptions().completionWait(CompletionWaitStrategy.SLEEP);
        final TestRunner runner = new TestRunner(sut, sut.library(), settings, logs, engine, null, List.of(), out);
        guard.abortWith(runner::abort);
        // On a terminal the status line names the job's step beside the engine's.
        final TestResult result = ProgressLine.runWithStatusLine(runner, step, true);
        for (final String message : result.messages())
        {
            err.println("jloadgen: " + message);
        }
        if (result.aborted())
        {
            err.println("jloadgen: the run was aborted (" + result.abortReason() + "); its logs in " + dir
                + " say so");
        }
        try
        {
            sut.statistics().write(dir, out);
        }
        catch (final IOException ex)
        {
            err.println("jloadgen: warning: cannot write the SUT statistics into " + dir + ": " + ex.getMessage());
        }
        return result;
    }

    /**
     * The second calibration step: a short Offline run through the engine and the SUT's batcher, sized by the bare
     * loop's rate, whose logs go to a temporary folder that is deleted afterwards.
     *
     * @param sut   the SUT, nothing loaded.
     * @param bare  samples per second of the bare loop.
     * @param guard aborts the probe on a signal.
     * @param err   where the engine's messages go.
     * @return the probe's samples per second ({@code result_samples_per_second}), or {@code bare} if it measured
     *         nothing.
     */
    static double probe(final CpuSut sut, final double bare, final InterruptGuard guard, final PrintStream err)
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("jloadgen-calibration");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a temporary folder for the calibration run: "
                + ex.getMessage(), ex);
        }
        try
        {
            final PrintStream silent = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
            final TestResult probe = run(sut, new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(PROBE_MS).offlineExpectedQps(Math.floor(bare)),
                dir, "calibration", false, guard, silent, err);
            final double rate = probe.performance().isEmpty() ? 0 : probe.performance().get(0).samplesPerSecond();
            return rate > 0 ? rate : bare;
        }
        finally
        {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(final Path dir)
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path p : files.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
        catch (final IOException ex)
        {
            // A temporary folder left behind costs nothing but disk space.
        }
    }

    /**
     * @param sut the SUT, nothing loaded.
     * @return samples per second of a bare loop with the SUT's batch size and worker count over its whole dataset,
     *         in the fastest of the calibration windows.
     */
    static double calibrate(final CpuSut sut)
    {
        final SampleStoreLibrary library = sut.library();
        final long[] all = LongStream.range(0, library.totalSampleCount()).toArray();
        library.loadSamplesToRam(all);
        try
        {
            final InferenceSettings s = sut.settings();
            double fastest = 0;
            for (int w = 0; w < CALIBRATION_WINDOWS; w++)
            {
                fastest = Math.max(fastest, BareLoop.run(sut.model(), library.store().slab(),
                    library.store().source().sampleBytes(0), s.maxBatchSize(), s.workers(),
                    w == 0 ? CALIBRATION_WARMUP_MS * 1_000_000L : 0, CALIBRATION_WINDOW_MS * 1_000_000L)
                    .samplesPerSecond());
            }
            return fastest;
        }
        finally
        {
            library.unloadSamplesFromRam(all);
        }
    }

    private static String files(final TestResult result)
    {
        return result.summaryFile().getFileName() + ", " + result.detailFile().getFileName() + ", "
            + result.accuracyFile().getFileName();
    }
}
