package org.jloadgen.spi;

import java.nio.file.Path;
import java.util.Optional;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;

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
     * Frees the SUT's threads and memory. Failures are unchecked: nothing useful can be done about them after a
     * test but report them.
     */
    @Override
    void close();

    /**
     * @param sut       the system under test.
     * @param qsl       its sample library.
     * @param resources closed with the instance (the SUT's threads, say), or {@code null}.
     * @return an instance with no accuracy report.
     */
    static SutInstance of(final SystemUnderTest sut, final QuerySampleLibrary qsl, final AutoCloseable resources)
    {
        return new SutInstance()
        {
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
