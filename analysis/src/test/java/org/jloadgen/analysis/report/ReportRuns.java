package org.jloadgen.analysis.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.cli.Main;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.SyntheticSut;

/**
 * Short real runs against the synthetic SUT (batching, so it writes SUT statistics) and the report over them.
 */
final class ReportRuns
{
    private ReportRuns()
    {
    }

    /**
     * Runs a short performance test of the scenario into {@code dir}, with a flight recording.
     */
    static Path run(final Path dir, final TestScenario scenario, final String serverWait)
    {
        return run(dir, scenario, serverWait, 2_000, 1_200);
    }

    /**
     * Runs a short performance test of the scenario into {@code dir}, with a flight recording, at a Server target
     * and for a minimum duration of the caller's.
     */
    static Path run(final Path dir, final TestScenario scenario, final String serverWait, final double serverQps,
        final long minDurationMs)
    {
        final TestSettings s = new TestSettings().scenario(scenario).minDurationMs(minDurationMs).minQueryCount(100);
        switch (scenario)
        {
            case SINGLE_STREAM -> s.singleStreamExpectedLatencyNs(100_000);
            case MULTI_STREAM -> s.multiStreamExpectedLatencyNs(200_000).minQueryCount(662);
            case SERVER -> s.serverTargetQps(serverQps);
            case OFFLINE -> s.offlineExpectedQps(50_000);
            default -> throw new IllegalArgumentException(scenario.toString());
        }
        try (SyntheticSut sut = new SyntheticSut(Map.of("service", "exponential:100us", "workers", "1", "batch",
            "4"), null))
        {
            Files.createDirectories(dir);
            final TestRunner runner = new TestRunner(sut, new SyntheticQsl(1024, 1024), s,
                new LogSettings().outputDirectory(dir), new EngineOptions().jitWarmupMs(50).histogramIntervalMs(200)
                    .jfr(true).serverWait(org.jloadgen.api.ServerWaitStrategy.valueOf(serverWait)), null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            runner.run();
            sut.statistics().orElseThrow().write(dir, null);
            return dir;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Runs {@code jloadgen report} through the command line.
     *
     * @return the exit code and what it printed.
     */
    static String[] report(final String... args)
    {
        final java.io.StringWriter out = new java.io.StringWriter();
        final java.io.StringWriter err = new java.io.StringWriter();
        final picocli.CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out));
        cl.setErr(new java.io.PrintWriter(err));
        final String[] all = new String[args.length + 1];
        all[0] = "report";
        System.arraycopy(args, 0, all, 1, args.length);
        final int code = cl.execute(all);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }
}
