package org.jloadgen.engine.official;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.bindings.LoadGenBridge;
import org.jloadgen.clib.CNumbers;
import org.jloadgen.config.SettingsFields;
import org.jloadgen.config.SettingsLoader;

/**
 * A test's settings given the official way: the config files go to LoadGen's own {@code TestSettings::FromConfig}
 * (so its checks and its {@code error_invalid_config} records are the official ones), {@code --set FIELD=VALUE}
 * assignments onto the official {@code TestSettings} fields, the log options onto its {@code LogSettings}.
 * <p>
 * Before LoadGen reads a file, JLoadGen's parser (which reads config files exactly as LoadGen does) checks it, so a
 * broken file stops the run with the file, line and key named, unless {@code lenient}: then LoadGen logs its own
 * error and skips the file, as it always does.
 *
 * @param scenario    the scenario.
 * @param mode        the mode, before config files (which may set it).
 * @param model       the benchmark name for config lookups, or {@code null}.
 * @param mlperfConf  an mlperf.conf given with {@code --config}, or {@code null}: LoadGen 6.0.17 reads only the copy
 *                    compiled into it, so this file must be identical to that one.
 * @param userConf    a user.conf, or {@code null}.
 * @param auditConfig the audit.config LoadGen will find, or {@code null}: checked here, read by LoadGen.
 * @param assignments {@code FIELD=VALUE} assignments, applied after the files.
 * @param lenient     whether a broken config file is LoadGen's business only.
 */
public record OfficialSettings(TestScenario scenario, TestMode mode, String model, Path mlperfConf, Path userConf,
    Path auditConfig, List<String> assignments, boolean lenient)
{
    /** LoadGen's {@code FromConfig} conf_type of its built-in mlperf.conf. */
    static final int CONF_TYPE_MLPERF = 0;
    /** LoadGen's {@code FromConfig} conf_type of a user.conf. */
    static final int CONF_TYPE_USER = 1;

    /**
     * Copies the list.
     */
    public OfficialSettings
    {
        assignments = List.copyOf(assignments);
    }

    /**
     * Builds LoadGen's settings; the bridge library must be open.
     *
     * @param logs where and how LoadGen writes its logs.
     * @param err  where JLoadGen's config warnings go.
     * @return the native settings (close them after the test).
     * @throws IllegalArgumentException     for a bad assignment or a {@code --config} that is not LoadGen's.
     * @throws org.jloadgen.config.ConfigException for a broken config file (unless lenient).
     */
    public LoadGenBridge.Settings toLoadGen(final LogSettings logs, final PrintStream err)
    {
        check(err);
        final LoadGenBridge.Settings settings = LoadGenBridge.Settings.create(scenario.code(), mode.code());
        try
        {
            final String modelName = model == null ? "*" : model;
            if (userConf != null)
            {
                fromConfig(settings, userConf.toString(), modelName, CONF_TYPE_USER, err);
            }
            else if (model != null || mlperfConf != null)
            {
                fromConfig(settings, "", modelName, CONF_TYPE_MLPERF, err);
            }
            for (final String assignment : assignments)
            {
                assign(settings, assignment);
            }
            settings.logOutput(logs.outputDirectory().toString(), logs.prefix(), logs.suffix(),
                logs.prefixWithDatetime(), logs.copyDetailToStdout(), logs.copySummaryToStdout(), logs.enableTrace());
            return settings;
        }
        catch (final RuntimeException ex)
        {
            settings.close();
            throw ex;
        }
    }

    /** JLoadGen's strict reading of the same files, for clear errors before LoadGen runs. */
    private void check(final PrintStream err)
    {
        if (mlperfConf != null)
        {
            final String builtin = LoadGenBridge.builtinMlperfConf();
            if (!builtin.equals(read(mlperfConf)))
            {
                throw new IllegalArgumentException("--config " + mlperfConf + " is not the mlperf.conf compiled into "
                    + "this LoadGen " + LoadGenBridge.loadgenVersion() + ": LoadGen reads only its built-in copy "
                    + "(built from its source folder's mlperf.conf). Drop --config, or build LoadGen from a source "
                    + "whose mlperf.conf it is (--loadgen-dir)");
            }
        }
        final SettingsLoader loader = new SettingsLoader(
            lenient ? SettingsLoader.Strictness.LENIENT : SettingsLoader.Strictness.STRICT,
            d -> err.println("jloadgen: " + d));
        final TestSettings scratch = new TestSettings().scenario(scenario).mode(mode);
        loader.load(model == null ? "*" : model, scenario, userConf, scratch);
        if (auditConfig != null && Files.isRegularFile(auditConfig))
        {
            loader.applyAudit(auditConfig, scenario, scratch);
        }
    }

    private void fromConfig(final LoadGenBridge.Settings settings, final String path, final String modelName,
        final int confType, final PrintStream err)
    {
        final int result = settings.fromConfig(path, modelName, scenario.logName(), confType);
        if (result != 0)
        {
            final String file = path.isEmpty() ? "LoadGen's built-in mlperf.conf" : path;
            if (!lenient)
            {
                throw new IllegalArgumentException("LoadGen's FromConfig rejected " + file + " (" + result
                    + "); its detail log would say why (--lenient-config runs anyway, as LoadGen does)");
            }
            err.println("jloadgen: LoadGen's FromConfig rejected " + file + " (" + result
                + "): it logs error_invalid_config and ignores the file");
        }
    }

    private void assign(final LoadGenBridge.Settings settings, final String assignment)
    {
        final int eq = assignment.indexOf('=');
        if (eq < 0)
        {
            throw new IllegalArgumentException("expected FIELD=VALUE, got '" + assignment + "'");
        }
        final String name = assignment.substring(0, eq).trim();
        // JLoadGen's parser checks the value and its type, as --set does under JLoadGen's engine.
        final SettingsFields.Field field = SettingsFields.field(name);
        final TestSettings scratch = new TestSettings();
        field.set(scratch, assignment.substring(eq + 1).trim());
        final String value = field.get(scratch);
        switch (field.type())
        {
            case DOUBLE -> settings.setDouble(name, CNumbers.strtod(value));
            case UNSIGNED_LONG -> settings.setUnsigned(name, Long.parseUnsignedLong(value));
            case INT -> settings.setInt(name, Integer.parseInt(value));
            case BOOLEAN -> settings.setBoolean(name, Boolean.parseBoolean(value));
            case MODE -> settings.mode(TestMode.fromLogName(value).code());
            case SCENARIO -> throw new IllegalArgumentException(
                "use --scenario, not --set scenario=..., to choose the scenario");
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
    }
}
