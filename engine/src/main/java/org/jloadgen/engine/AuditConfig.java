package org.jloadgen.engine;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.ConfigException;
import org.jloadgen.config.SettingsLoader;
import org.jloadgen.log.DetailLog;
import org.jloadgen.log.SettingsLog;

/**
 * What {@code StartTest} does to the requested settings before it derives the effective ones (spec §3.9;
 * loadgen/loadgen.cc, StartTest): applies {@code audit.config} when the file exists (leniently, as LoadGen does,
 * logging what it rejects), then the TEST05 seed overrides.
 */
final class AuditConfig
{
    private static final String AUDIT_WARNING =
        "Found Audit Config file (%s). Overriding TestSettings from audit.config file.";

    private AuditConfig()
    {
    }

    /**
     * @param auditConfig the audit.config to apply if it exists, or {@code null}.
     * @return whether it exists, so that {@link #apply} applies it.
     */
    static boolean present(final Path auditConfig)
    {
        return auditConfig != null && Files.isRegularFile(auditConfig);
    }

    /**
     * @param requested   the requested settings (not changed).
     * @param auditConfig the audit.config to apply if it exists, or {@code null}.
     * @param detail      where the warnings and config errors go.
     * @param console     where lenient-load diagnostics go.
     * @return a copy of the settings with the audit overrides applied.
     */
    static TestSettings apply(final TestSettings requested, final Path auditConfig, final DetailLog detail,
        final PrintStream console)
    {
        final TestSettings settings = requested.copy();
        if (present(auditConfig))
        {
            detail.warning("warning_generic_message", String.format(AUDIT_WARNING, auditConfig.getFileName()));
            try
            {
                SettingsLog.logConfigErrors(detail, new SettingsLoader(SettingsLoader.Strictness.LENIENT,
                    d -> console.println("jloadgen: " + d)).applyAudit(auditConfig, settings.scenario(), settings));
            }
            catch (final ConfigException ex)
            {
                detail.error("error_invalid_config", ex.getMessage());
            }
        }
        if (settings.test05())
        {
            settings.mode(TestMode.PERFORMANCE_ONLY)
                .qslRngSeed(settings.test05QslRngSeed())
                .sampleIndexRngSeed(settings.test05SampleIndexRngSeed())
                .scheduleRngSeed(settings.test05ScheduleRngSeed());
            detail.warning("warning_generic_message", "Test05 flag detected Overriding random seeds");
        }
        return settings;
    }
}
