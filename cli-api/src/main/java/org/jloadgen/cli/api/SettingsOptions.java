package org.jloadgen.cli.api;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.SettingsFields;
import org.jloadgen.config.SettingsLoader;

import picocli.CommandLine.Option;

/**
 * The settings options shared by {@code run}, {@code trace} and the commands of other modules ({@code peak}):
 * scenario, mode, config files in LoadGen's precedence, then {@code --set} overrides.
 */
public final class SettingsOptions
{
    @Option(names = "--scenario", paramLabel = "SCENARIO", defaultValue = "SingleStream",
        description = "SingleStream, MultiStream, Server or Offline (default: ${DEFAULT-VALUE}).")
    public String scenario;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "PerformanceOnly",
        description = "PerformanceOnly, AccuracyOnly, SubmissionRun or FindPeakPerformance "
            + "(default: ${DEFAULT-VALUE}).")
    public String mode;

    @Option(names = "--model", paramLabel = "NAME",
        description = "Benchmark name for config lookups (e.g. resnet50). With no config file given, the defaults "
            + "that the built-in mlperf.conf holds for it apply.")
    public String model;

    @Option(names = "--config", paramLabel = "FILE",
        description = "An official mlperf.conf, used instead of the built-in defaults.")
    public Path mlperfConf;

    @Option(names = "--user-config", paramLabel = "FILE",
        description = "A user.conf; applied after the mlperf.conf defaults, as LoadGen does.")
    public Path userConf;

    @Option(names = "--audit-config", paramLabel = "FILE",
        description = "An audit.config applied at test start (default: audit.config in the working directory, "
            + "if it exists, as LoadGen does).")
    Path auditConfig;

    @Option(names = "--no-audit-config",
        description = "Do not look for audit.config in the working directory.")
    boolean noAuditConfig;

    @Option(names = "--set", paramLabel = "FIELD=VALUE",
        description = "Set a TestSettings field by its LoadGen name after the config files, e.g. "
            + "--set server_target_qps=2000 --set min_duration_ms=5000. Repeatable.")
    public List<String> assignments = new ArrayList<>();

    @Option(names = "--lenient-config",
        description = "On a config file error, do what LoadGen does (log error_invalid_config and skip the file) "
            + "instead of stopping.")
    public boolean lenient;

    /**
     * Settings and the config errors a lenient load produced.
     *
     * @param settings the requested settings.
     * @param errors   {@code error_invalid_config} messages for the detail log.
     */
    public record Loaded(TestSettings settings, List<String> errors)
    {
    }

    /**
     * @param err where config warnings go.
     * @return the requested settings.
     */
    public Loaded load(final PrintStream err)
    {
        final TestScenario s = TestScenario.fromLogName(scenario);
        final TestMode m = TestMode.fromLogName(mode);
        final TestSettings settings = new TestSettings().scenario(s).mode(m);
        final SettingsLoader loader = new SettingsLoader(
            lenient ? SettingsLoader.Strictness.LENIENT : SettingsLoader.Strictness.STRICT,
            d -> err.println("jloadgen: " + d));
        loader.mlperfConf(mlperfConf);
        final List<String> errors = new ArrayList<>();
        final String modelName = model == null ? "*" : model;
        if (userConf != null)
        {
            errors.addAll(loader.loadUserConf(userConf, modelName, s, settings));
        }
        else if (mlperfConf != null || model != null)
        {
            errors.addAll(loader.loadMlperfConf(modelName, s, settings));
        }
        for (final String assignment : assignments)
        {
            SettingsFields.set(settings, assignment);
        }
        // The scenario is chosen on the command line; --set scenario=... would contradict it.
        if (settings.scenario() != s)
        {
            throw new IllegalArgumentException("use --scenario, not --set scenario=..., to choose the scenario");
        }
        return new Loaded(settings, errors);
    }

    /**
     * @return the audit.config to apply if it exists, or {@code null}.
     */
    public Path auditConfigPath()
    {
        if (auditConfig != null)
        {
            if (!java.nio.file.Files.isRegularFile(auditConfig))
            {
                throw new IllegalArgumentException("audit config not found: " + auditConfig);
            }
            return auditConfig;
        }
        return noAuditConfig ? null : Path.of("audit.config");
    }
}
