package org.jloadgen.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;

/**
 * Loads settings from config files with LoadGen's precedence (spec §2.3, §9.1; loadgen/test_settings_internal.cc,
 * TestSettings::FromConfig, called from StartTest): the mlperf.conf defaults (JLoadGen's built-in copy, or an official
 * mlperf.conf given with {@link #mlperfConf(Path)}, which replaces it), then user.conf, then, when the test starts,
 * audit.config. The CLI applies {@code --set} assignments ({@link SettingsFields}) after the files.
 * <p>
 * Two ways to handle errors:
 * <ul>
 *   <li>{@link Strictness#STRICT} (the CLI default): any error LoadGen would log throws a
 *   {@link ConfigException} listing every error, and the settings are left unchanged.</li>
 *   <li>{@link Strictness#LENIENT}: behaves like LoadGen. A file with syntax errors or that cannot be opened
 *   changes nothing; an invalid {@code mode} leaves the mode alone but the other keys apply; a second
 *   user.conf is applied but reported. The methods return the messages the engine must log as
 *   {@code error_invalid_config} records.</li>
 * </ul>
 * Warnings and notes about lines and keys LoadGen ignores go to the diagnostics consumer in both modes.
 * <p>
 * LoadGen counts user.conf loads in a process-wide static; here the count belongs to the loader instance,
 * so use one loader per test. Not thread-safe.
 */
public final class SettingsLoader
{
    /** LoadGen's error for a second user.conf. */
    public static final String MULTIPLE_CONF_FILES =
        "Multiple conf files are used. This is not valid for official submission.";

    /**
     * What happens on a config error.
     */
    public enum Strictness
    {
        /** Throw {@link ConfigException} and change nothing. */
        STRICT,
        /** Do what LoadGen does and return the error messages for the detail log. */
        LENIENT
    }

    private final Strictness strictness;
    private final Consumer<ConfigDiagnostic> diagnostics;
    private Path officialMlperfConf;
    private int userConfCount;

    /**
     * @param strictness  what to do on errors.
     * @param diagnostics receives warnings and notes (the CLI prints them to standard error).
     */
    public SettingsLoader(final Strictness strictness, final Consumer<ConfigDiagnostic> diagnostics)
    {
        this.strictness = Objects.requireNonNull(strictness, "strictness");
        this.diagnostics = Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /**
     * Uses an official mlperf.conf instead of the built-in defaults.
     *
     * @param path the file, or {@code null} for the built-in defaults.
     * @return this.
     */
    public SettingsLoader mlperfConf(final Path path)
    {
        this.officialMlperfConf = path;
        return this;
    }

    /**
     * Applies the mlperf.conf defaults ({@code conf_type 0}): the official file if one was given, else the
     * built-in ones.
     *
     * @param model    benchmark name, e.g. {@code resnet50}.
     * @param scenario scenario being configured.
     * @param settings settings to change.
     * @return {@code error_invalid_config} messages (lenient mode); empty in strict mode.
     * @throws ConfigException in strict mode, on any error.
     */
    public List<String> loadMlperfConf(final String model, final TestScenario scenario, final TestSettings settings)
    {
        final ConfigFile file = officialMlperfConf == null
            ? ConfigFile.builtinMlperfConf() : ConfigFile.read(officialMlperfConf);
        return load(file, model, scenario, ConfType.MLPERF, settings, List.of());
    }

    /**
     * Applies a user.conf ({@code conf_type 1}). The first call of this loader applies the mlperf.conf defaults
     * first; later calls do not, and report LoadGen's "Multiple conf files are used" error.
     *
     * @param path     the user.conf.
     * @param model    benchmark name.
     * @param scenario scenario being configured.
     * @param settings settings to change.
     * @return {@code error_invalid_config} messages (lenient mode); empty in strict mode.
     * @throws ConfigException in strict mode, on any error (before anything is applied).
     */
    public List<String> loadUserConf(
        final Path path, final String model, final TestScenario scenario, final TestSettings settings)
    {
        final ConfigFile user = ConfigFile.read(path);
        final List<ConfigDiagnostic> before = new ArrayList<>(1);
        if (userConfCount > 0)
        {
            before.add(ConfigDiagnostic.error(path.toString(), 0, "",
                "a second user.conf for one test: LoadGen logs \"" + MULTIPLE_CONF_FILES + "\" as an error and the "
                    + "submission checker rejects the log", MULTIPLE_CONF_FILES));
        }
        if (strictness == Strictness.STRICT)
        {
            // Throw before the defaults change anything.
            final List<ConfigDiagnostic> errors = new ArrayList<>(before);
            // applyTo returns the syntax errors when there are any, else the mode error if any.
            errors.addAll(user.applyTo(settings.copy(), model, scenario, ConfType.USER));
            if (!errors.isEmpty())
            {
                if (!user.hasErrors())
                {
                    user.check(ConfType.USER).forEach(diagnostics);
                }
                throw new ConfigException(errors);
            }
        }
        final List<String> messages = new ArrayList<>();
        if (userConfCount == 0)
        {
            messages.addAll(loadMlperfConf(model, scenario, settings));
        }
        userConfCount++;
        messages.addAll(load(user, model, scenario, ConfType.USER, settings, before));
        return messages;
    }

    /**
     * The whole precedence for a test: the mlperf.conf defaults, then the user.conf if there is one.
     *
     * @param model    benchmark name.
     * @param scenario scenario being configured.
     * @param userConf the user.conf, or {@code null}.
     * @param settings settings to change; its scenario is not changed.
     * @return {@code error_invalid_config} messages (lenient mode); empty in strict mode.
     * @throws ConfigException in strict mode, on any error.
     */
    public List<String> load(
        final String model, final TestScenario scenario, final Path userConf, final TestSettings settings)
    {
        return userConf == null
            ? loadMlperfConf(model, scenario, settings)
            : loadUserConf(userConf, model, scenario, settings);
    }

    /**
     * Applies an audit.config ({@code conf_type 2}, spec §9.1; loadgen/loadgen.cc, StartTest) as LoadGen does at the
     * start of a test: with model {@code "*"}, so model-specific lines are ignored; seeds and
     * {@code accuracy_log_probability} cannot be changed. The engine logs LoadGen's "Found Audit Config file" warning
     * itself.
     *
     * @param path     the audit.config.
     * @param scenario scenario of the test.
     * @param settings settings to change.
     * @return {@code error_invalid_config} messages (lenient mode); empty in strict mode.
     * @throws ConfigException in strict mode, on any error.
     */
    public List<String> applyAudit(final Path path, final TestScenario scenario, final TestSettings settings)
    {
        return load(ConfigFile.read(path), "*", scenario, ConfType.AUDIT, settings, List.of());
    }

    private List<String> load(
        final ConfigFile file,
        final String model,
        final TestScenario scenario,
        final ConfType type,
        final TestSettings settings,
        final List<ConfigDiagnostic> earlierErrors)
    {
        if (!file.hasErrors())
        {
            file.check(type).forEach(diagnostics);
        }
        final List<ConfigDiagnostic> errors = new ArrayList<>(earlierErrors);
        if (strictness == Strictness.STRICT)
        {
            errors.addAll(file.applyTo(settings.copy(), model, scenario, type));
            if (!errors.isEmpty())
            {
                throw new ConfigException(errors);
            }
        }
        errors.addAll(file.applyTo(settings, model, scenario, type));
        final List<String> messages = new ArrayList<>(errors.size());
        for (final ConfigDiagnostic d : errors)
        {
            // The log gets LoadGen's words; the diagnostics (the console) get the file, line, key and value.
            diagnostics.accept(d);
            messages.add(d.loadGenMessage());
        }
        return messages;
    }
}
