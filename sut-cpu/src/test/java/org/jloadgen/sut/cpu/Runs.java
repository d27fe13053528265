package org.jloadgen.sut.cpu;

import java.nio.file.Path;

import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.testing.CliRun;
import org.jloadgen.testing.ParkingRun;

/**
 * Runs the real engine and the real command line for the tests.
 */
final class Runs
{
    private Runs()
    {
    }

    /**
     * @return the embedded model's descriptor, extracted into the test cache.
     */
    static ModelDescriptor fashion()
    {
        return FashionMnist.prepare(FashionMnist.defaultCacheDir());
    }

    /**
     * Runs a test through the engine, with the issue thread parking instead of spinning so that the SUT's
     * workers keep the cores.
     *
     * @param sut      the SUT.
     * @param settings the settings.
     * @param dir      the log folder.
     * @return the result.
     */
    static TestResult engine(final CpuSut sut, final TestSettings settings, final Path dir)
    {
        return ParkingRun.run(sut, sut.library(), settings, dir);
    }

    /**
     * Runs {@code jloadgen args...} in this JVM, capturing its output.
     *
     * @param args the arguments.
     * @return exit code and output.
     */
    static CliRun cli(final String... args)
    {
        return CliRun.of(args);
    }
}
