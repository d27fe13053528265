package org.jloadgen.spi;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.sut.SutStatistics;

/**
 * A SUT built by a {@link SutProvider}, with the sample library it reads from.
 */
public interface SutInstance extends AutoCloseable
{
    /**
     * @return the system under test.
     */
    SystemUnderTest sut();

    /**
     * @return the sample library the SUT reads.
     */
    QuerySampleLibrary qsl();

    /**
     * Scores an accuracy log written by an AccuracyOnly run of this SUT, if the SUT knows its labels.
     *
     * @param accuracyLog the {@code mlperf_log_accuracy.json}.
     * @return a one-line report such as {@code "top-1 accuracy 89.19% (8919 of 10000)"}.
     * @throws Exception if the log cannot be read.
     */
    default Optional<String> accuracyReport(final Path accuracyLog) throws Exception
    {
        return Optional.empty();
    }

    /**
     * @return the SUT's own statistics (batch sizes, stage times), if it keeps any.
     */
    default Optional<SutStatistics> statistics()
    {
        return Optional.empty();
    }

    /**
     * Called by {@code jloadgen run} after each test: writes what the SUT measured since the previous call into the
     * test's log folder ({@value SutStatistics#FILE_NAME}) and prints a few lines. The default writes
     * {@link #statistics()} when there are any.
     *
     * @param logDirectory the folder holding the test's logs.
     * @param console      where to print.
     * @throws IOException if the file cannot be written.
     */
    default void writeStatistics(final Path logDirectory, final PrintStream console) throws IOException
    {
        final Optional<SutStatistics> statistics = statistics();
        if (statistics.isPresent())
        {
            statistics.get().write(logDirectory, console);
        }
    }

    /**
     * @return the tensor the SUT reads per sample (name, element type, shape), if it knows one; servers that expose
     *         the SUT by tensor ({@code jloadgen serve}) advertise it and check requests against it.
     */
    default Optional<TensorSpec> inputTensor()
    {
        return Optional.empty();
    }

    /**
     * @return the tensor each response holds, if the SUT knows one.
     */
    default Optional<TensorSpec> outputTensor()
    {
        return Optional.empty();
    }

    /**
     * The engine options a test of this SUT runs with: the given ones, adjusted where the SUT needs it. A SUT that
     * runs on simulated time returns them with its clock as the run clock and the wall clock, so the engine's
     * readings are what moves that time. The default changes nothing.
     *
     * @param options the options the user chose (not modified).
     * @return the options to run with.
     */
    default EngineOptions engineOptions(final EngineOptions options)
    {
        return options;
    }

    /**
     * @return whether the SUT reports first tokens and token counts (an LLM server): a test of it without
     *         {@code use_token_latencies} is judged on end-to-end latency alone, and the command line warns so once.
     */
    default boolean streamsTokens()
    {
        return false;
    }

    /**
     * Frees the SUT's threads and memory. Failures are unchecked: nothing useful can be done about them after a
     * test but report them.
     */
    @Override
    void close();

    /**
     * @param sut       the system under test.
     * @param qsl       its sample library.
     * @param resources closed with the instance (the SUT's threads, say), or {@code null}.
     * @return an instance with no accuracy report and no statistics.
     */
    static SutInstance of(final SystemUnderTest sut, final QuerySampleLibrary qsl, final AutoCloseable resources)
    {
        return of(sut, qsl, resources, null);
    }

    /**
     * @param sut        the system under test.
     * @param qsl        its sample library.
     * @param resources  closed with the instance (the SUT's threads, say), or {@code null}.
     * @param statistics what the SUT records about itself, or {@code null}.
     * @return an instance with no accuracy report.
     */
    static SutInstance of(final SystemUnderTest sut, final QuerySampleLibrary qsl, final AutoCloseable resources,
        final SutStatistics statistics)
    {
        return of(sut, qsl, resources, statistics, log -> Optional.empty());
    }

    /**
     * Scores an accuracy log for {@link #accuracyReport}.
     */
    @FunctionalInterface
    interface AccuracyScorer
    {
        /**
         * @param accuracyLog the {@code mlperf_log_accuracy.json}.
         * @return a one-line report, or empty when the SUT cannot score (no labels).
         * @throws Exception if the log cannot be read.
         */
        Optional<String> score(Path accuracyLog) throws Exception;
    }

    /**
     * @param sut        the system under test.
     * @param qsl        its sample library.
     * @param resources  closed with the instance (the SUT's threads, say), or {@code null}.
     * @param statistics what the SUT records about itself, or {@code null}.
     * @param accuracy   scores its accuracy logs.
     * @return the instance.
     */
    static SutInstance of(final SystemUnderTest sut, final QuerySampleLibrary qsl, final AutoCloseable resources,
        final SutStatistics statistics, final AccuracyScorer accuracy)
    {
        return new SutInstance()
        {
            @Override
            public Optional<String> accuracyReport(final Path accuracyLog) throws Exception
            {
                return accuracy.score(accuracyLog);
            }

            @Override
            public Optional<SutStatistics> statistics()
            {
                return Optional.ofNullable(statistics);
            }

            @Override
            public SystemUnderTest sut()
            {
                return sut;
            }

            @Override
            public QuerySampleLibrary qsl()
            {
                return qsl;
            }

            @Override
            public void close()
            {
                if (resources == null)
                {
                    return;
                }
                try
                {
                    resources.close();
                }
                catch (final RuntimeException ex)
                {
                    throw ex;
                }
                catch (final Exception ex)
                {
                    throw new IllegalStateException("closing the SUT failed: " + ex.getMessage(), ex);
                }
            }
        };
    }
}
