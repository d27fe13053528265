package org.jloadgen.engine;

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
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestSettings;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.SyntheticSut;

/**
 * Runs whole tests through {@link TestRunner} into a directory and reads back what they wrote.
 */
final class EngineFixture
{
    record Run(TestResult result, Path dir, String summary, MlLogParser detail, String accuracy, String console)
    {
    }

    static EngineOptions fastOptions()
    {
        // A budget that counts no other processes: tests on scripted clocks advance time per reading, so their AUTO
        // waits must not turn to sleeping because the machine running them is busy.
        return new EngineOptions().completionTimeoutMs(3_000).jitWarmupMs(0)
            .cpuBudget(new org.jloadgen.concurrent.CpuBudget(Runtime.getRuntime().availableProcessors()));
    }

    static SyntheticSut synthetic(final String... kv)
    {
        final Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2)
        {
            options.put(kv[i], kv[i + 1]);
        }
        return new SyntheticSut(options, null);
    }

    static Run run(final Path dir, final SystemUnderTest sut, final QuerySampleLibrary qsl,
        final TestSettings settings, final EngineOptions options, final Path auditConfig, final List<String> errors)
    {
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        final TestRunner runner = new TestRunner(sut, qsl, settings, new LogSettings().outputDirectory(dir),
            options, auditConfig, errors, out);
        final TestResult result = runner.run();
        return read(result, dir, console);
    }

    static Run run(final Path dir, final SystemUnderTest sut, final TestSettings settings)
    {
        return run(dir, sut, new SyntheticQsl(1024, 1024), settings, fastOptions(), null, List.of());
    }

    static Run read(final TestResult result, final Path dir, final ByteArrayOutputStream console)
    {
        try
        {
            try (var files = Files.list(dir))
            {
                final List<Path> partial = files.filter(p -> p.getFileName().toString().endsWith(".partial")).toList();
                if (!partial.isEmpty())
                {
                    throw new AssertionError("files left half-written: " + partial);
                }
            }
            // Every detail log a test produces must parse (strict JSON per line) and, for a reported
            // performance run, carry every key the submission checker reads.
            final MlLogParser detail = MlLogParser.parse(dir.resolve("mlperf_log_detail.txt"));
            if (!result.performance().isEmpty() && result.effective() != null)
            {
                detail.requireCheckerKeys(result.effective().scenario, result.effective().useTokenLatencies,
                    result.effective().inferTokenLatencies);
            }
            return new Run(result, dir,
                Files.readString(dir.resolve("mlperf_log_summary.txt")),
                detail,
                Files.readString(dir.resolve("mlperf_log_accuracy.json")),
                console.toString(StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private EngineFixture()
    {
    }
}
