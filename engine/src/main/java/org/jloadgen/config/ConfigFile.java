package org.jloadgen.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.clib.CNumbers;
import org.jloadgen.clib.IoErrors;

/**
 * A parsed mlperf.conf / user.conf / audit.config file, read exactly as LoadGen's {@code FromConfig} reads it
 * (spec §2.3; loadgen/test_settings_internal.cc, TestSettings::FromConfig), and the application of its keys to
 * {@link TestSettings}.
 * <p>
 * Each line is split into white-space separated tokens and read with a small state machine: key, then a
 * token that must be exactly {@code =}, then values. A token that is exactly {@code #} ends the line unless a
 * value is expected ({@code #foo} is an ordinary token). Every value token must parse completely as C
 * {@code strtoul(base 0)} or {@code strtod}; later values on the same line and later lines with the same key
 * replace earlier ones. An error on any line means LoadGen applies no key of the file.
 * <p>
 * Lines LoadGen silently drops ({@code key=value} written as one token, a key without a value) and extra
 * values are reported as warnings; keys no setting reads are reported by {@link #check(ConfType)}.
 */
public final class ConfigFile
{
    /** Name used in diagnostics for JLoadGen's own defaults. */
    public static final String BUILTIN_SOURCE = "<built-in mlperf.conf>";

    private static final String BUILTIN_RESOURCE = "builtin-mlperf.conf";
    private static final String SCENARIOS = "*, SingleStream, MultiStream, Server or Offline";

    private final String source;
    private final Map<String, Entry> entries;
    private final List<ConfigDiagnostic> errors;
    private final List<ConfigDiagnostic> warnings;

    /**
     * The value a key was last given.
     *
     * @param key   the whole key, {@code model.scenario.key}.
     * @param value the raw value text (a complete C number).
     * @param line  line of the assignment that counts.
     */
    public record Entry(String key, String value, int line)
    {
    }

    private ConfigFile(
        final String source,
        final Map<String, Entry> entries,
        final List<ConfigDiagnostic> errors,
        final List<ConfigDiagnostic> warnings)
    {
        this.source = source;
        this.entries = Collections.unmodifiableMap(entries);
        this.errors = List.copyOf(errors);
        this.warnings = List.copyOf(warnings);
    }

    /**
     * Reads and parses a file. A file that cannot be read gives a parsed file whose only error is LoadGen's
     * {@code "can't open file <path>"}; a file with a NUL byte and errors (not a text file) one error saying so.
     *
     * @param path file to read.
     * @return the parsed file.
     */
    public static ConfigFile read(final Path path)
    {
        final String source = path.toString();
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(path);
        }
        catch (final IOException ex)
        {
            return new ConfigFile(source, new LinkedHashMap<>(), List.of(ConfigDiagnostic.error(
                source, 0, "", "can't open file (" + IoErrors.reason(ex) + ")", "can't open file " + source)),
                List.of());
        }
        // Malformed UTF-8 is replaced, not fatal: LoadGen compares bytes and only ASCII keys can match.
        final ConfigFile parsed = parse(source, new String(bytes, StandardCharsets.UTF_8));
        final int nul = indexOfNul(bytes);
        if (nul < 0 || !parsed.hasErrors())
        {
            return parsed;
        }
        // Not a text file (a binary given by mistake): one error that says so, instead of one per "line".
        return new ConfigFile(source, new LinkedHashMap<>(), List.of(ConfigDiagnostic.error(source, 0, "",
            "not a text file (a NUL byte at offset " + nul + "); a config file holds 'key = value' lines",
            parsed.errors().get(0).loadGenMessage())), List.of());
    }

    private static int indexOfNul(final byte[] bytes)
    {
        for (int i = 0; i < bytes.length; i++)
        {
            if (bytes[i] == 0)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return JLoadGen's built-in defaults ({@code builtin-mlperf.conf}), used where LoadGen uses the copy of
     *         mlperf.conf compiled into the library.
     */
    public static ConfigFile builtinMlperfConf()
    {
        try (InputStream in = ConfigFile.class.getResourceAsStream(BUILTIN_RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException("resource " + BUILTIN_RESOURCE + " is missing from the class path");
            }
            return parse(BUILTIN_SOURCE, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read resource " + BUILTIN_RESOURCE, ex);
        }
    }

    /**
     * Parses config text.
     *
     * @param source name for diagnostics, normally the file path.
     * @param text   the whole file.
     * @return the parsed file (check {@link #errors()}).
     */
    public static ConfigFile parse(final String source, final String text)
    {
        final Map<String, Entry> entries = new LinkedHashMap<>();
        final List<ConfigDiagnostic> errors = new ArrayList<>();
        final List<ConfigDiagnostic> warnings = new ArrayList<>();
        final List<String> tokens = new ArrayList<>();
        int lineStart = 0;
        int lineNumber = 0;
        final int length = text.length();
        // std::getline semantics: '\n' ends a line, a final line without '\n' still counts, "\r" is white space.
        while (lineStart < length)
        {
            int lineEnd = text.indexOf('\n', lineStart);
            if (lineEnd < 0)
            {
                lineEnd = length;
            }
            lineNumber++;
            tokenize(text, lineStart, lineEnd, tokens);
            parseLine(source, lineNumber, tokens, entries, errors, warnings);
            lineStart = lineEnd + 1;
        }
        return new ConfigFile(source, entries, errors, warnings);
    }

    private static void tokenize(final String text, final int from, final int to, final List<String> tokens)
    {
        tokens.clear();
        int i = from;
        while (i < to)
        {
            while (i < to && CNumbers.isCSpace(text.charAt(i)))
            {
                i++;
            }
            final int start = i;
            while (i < to && !CNumbers.isCSpace(text.charAt(i)))
            {
                i++;
            }
            if (i > start)
            {
                tokens.add(text.substring(start, i));
            }
        }
    }

    private static void parseLine(
        final String source,
        final int line,
        final List<String> tokens,
        final Map<String, Entry> entries,
        final List<ConfigDiagnostic> errors,
        final List<ConfigDiagnostic> warnings)
    {
        final int expectKey = 0;
        final int expectEquals = 1;
        final int expectValue = 2;
        int state = expectKey;
        String key = "";
        int values = 0;
        for (final String token : tokens)
        {
            if (state != expectValue && token.equals("#"))
            {
                break;
            }
            if (state == expectKey)
            {
                key = token;
                state = expectEquals;
            }
            else if (state == expectEquals)
            {
                if (!token.equals("="))
                {
                    errors.add(ConfigDiagnostic.error(source, line, key,
                        "expected ' = ' after the key (spaces around '=' are required), found '" + token + "'",
                        "expected 'key=value', line=" + line));
                    return;
                }
                state = expectValue;
            }
            else
            {
                if (!CNumbers.isConfigNumber(token))
                {
                    errors.add(ConfigDiagnostic.error(source, line, key,
                        "value '" + token + "' is not a complete C integer (strtoul base 0) or double (strtod)"
                            + (token.startsWith("#") ? "; comments must be on their own line" : ""),
                        "value needs to be integer or double, line=" + line));
                    return;
                }
                // Keeps the key's first position; the value and line are the latest.
                entries.put(key, new Entry(key, token, line));
                values++;
            }
        }
        if (state == expectEquals && key.indexOf('=') > 0)
        {
            warnings.add(ConfigDiagnostic.warning(source, line, key,
                "'" + key + "' is a single token: LoadGen needs spaces around '=' and ignores this line"));
        }
        else if (state == expectEquals || (state == expectValue && values == 0))
        {
            warnings.add(ConfigDiagnostic.warning(source, line, key, "no value: LoadGen ignores this line"));
        }
        else if (values > 1)
        {
            warnings.add(ConfigDiagnostic.warning(source, line, key, values
                + " values on one line: LoadGen keeps the last one ('" + entries.get(key).value() + "')"));
        }
    }

    /**
     * @return name of the file in diagnostics.
     */
    public String source()
    {
        return source;
    }

    /**
     * @return whether LoadGen would reject the file (and apply none of its keys).
     */
    public boolean hasErrors()
    {
        return !errors.isEmpty();
    }

    /**
     * @return syntax errors in line order, each with LoadGen's {@code error_invalid_config} text.
     */
    public List<ConfigDiagnostic> errors()
    {
        return errors;
    }

    /**
     * @return lines LoadGen silently ignores and lines with several values, in line order.
     */
    public List<ConfigDiagnostic> warnings()
    {
        return warnings;
    }

    /**
     * @return every key with its final value, in the order keys first appear.
     */
    public Map<String, Entry> entries()
    {
        return entries;
    }

    /**
     * LoadGen's {@code lookupkv}: the first of {@code model.scenario.key}, {@code *.scenario.key},
     * {@code model.*.key}, {@code *.*.key} that the file defines. No partial matching.
     *
     * @param model    benchmark name as the harness passes it ({@code "*"} for audit.config).
     * @param scenario scenario string ({@code "Server"}, ...).
     * @param key      key name.
     * @return the entry, or {@code null}.
     */
    public Entry lookup(final String model, final String scenario, final String key)
    {
        Entry e = entries.get(model + "." + scenario + "." + key);
        if (e == null)
        {
            e = entries.get("*." + scenario + "." + key);
        }
        if (e == null)
        {
            e = entries.get(model + ".*." + key);
        }
        if (e == null)
        {
            e = entries.get("*.*." + key);
        }
        return e;
    }

    /**
     * Applies the keys LoadGen reads for this model, scenario and file kind, in LoadGen's order. If the file
     * has syntax errors nothing is applied and the errors are returned. A {@code mode} value outside 0..3
     * leaves the mode unchanged, returns LoadGen's error and still applies the other keys, as LoadGen does.
     *
     * @param settings settings to change.
     * @param model    benchmark name ({@code "*"} for audit.config).
     * @param scenario the scenario being configured.
     * @param type     which kind of file this is.
     * @return errors, each with LoadGen's {@code error_invalid_config} text; empty if all went well.
     */
    public List<ConfigDiagnostic> applyTo(
        final TestSettings settings, final String model, final TestScenario scenario, final ConfType type)
    {
        if (hasErrors())
        {
            return errors;
        }
        final List<ConfigDiagnostic> applyErrors = new ArrayList<>(1);
        for (final ConfigKeys.Rule rule : ConfigKeys.RULES)
        {
            if (rule.mlperfOnly() && type != ConfType.MLPERF)
            {
                continue;
            }
            if (!rule.when().test(settings))
            {
                continue;
            }
            final String scenarioPart = (rule.fixedScenario() == null ? scenario : rule.fixedScenario()).logName();
            final Entry entry = lookup(model, scenarioPart, rule.name());
            if (entry == null)
            {
                continue;
            }
            final String error = rule.setter().set(settings, entry.value());
            if (error != null)
            {
                // Only the mode key can fail once the file has parsed.
                applyErrors.add(ConfigDiagnostic.error(source, entry.line(), entry.key(),
                    "mode must be 0 (SubmissionRun), 1 (AccuracyOnly), 2 (PerformanceOnly) or 3 "
                        + "(FindPeakPerformance), not '" + entry.value() + "'", error));
            }
        }
        return applyErrors;
    }

    /**
     * Finds what LoadGen silently ignores in this file when it is read as the given kind: the line warnings
     * of {@link #warnings()}, then per key: keys not of the form {@code model.scenario.key}, unknown scenario
     * names, keys no setting reads (with close names), keys read only for other scenarios, keys this kind of
     * file may not set, and (as notes) model-specific lines of audit.config. Keys that official files carry
     * although nothing reads them do not warn.
     *
     * @param type which kind of file this is.
     * @return warnings and notes, in line order.
     */
    public List<ConfigDiagnostic> check(final ConfType type)
    {
        final List<ConfigDiagnostic> found = new ArrayList<>(warnings);
        for (final Entry entry : entries.values())
        {
            final ConfigDiagnostic d = checkKey(entry, type);
            if (d != null)
            {
                found.add(d);
            }
        }
        found.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return found;
    }

    private ConfigDiagnostic checkKey(final Entry entry, final ConfType type)
    {
        final String whole = entry.key();
        final int lastDot = whole.lastIndexOf('.');
        final int middleDot = lastDot > 0 ? whole.lastIndexOf('.', lastDot - 1) : -1;
        if (middleDot <= 0 || lastDot == whole.length() - 1)
        {
            return ConfigDiagnostic.warning(source, entry.line(), whole,
                "not of the form model.scenario.key: LoadGen never reads it");
        }
        final String model = whole.substring(0, middleDot);
        final String scenario = whole.substring(middleDot + 1, lastDot);
        final String name = whole.substring(lastDot + 1);
        final TestScenario lineScenario = scenarioOf(scenario);
        if (lineScenario == null && !scenario.equals("*"))
        {
            return ConfigDiagnostic.warning(source, entry.line(), whole,
                "unknown scenario '" + scenario + "' (expected " + SCENARIOS + "): LoadGen never reads it");
        }
        if (ConfigKeys.isKnownUnread(scenario, name))
        {
            return null;
        }
        final Set<TestScenario> read = ConfigKeys.scenariosRead(name);
        if (read == null)
        {
            final List<String> close = SettingsFields.closest(name, ConfigKeys.names());
            return ConfigDiagnostic.warning(source, entry.line(), whole, "no setting reads '" + name + "'"
                + (close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)")
                + ": LoadGen ignores it");
        }
        if (lineScenario != null && !read.contains(lineScenario))
        {
            return ConfigDiagnostic.warning(source, entry.line(), whole, "'" + name + "' is only read for "
                + scenarioList(read) + ": LoadGen ignores it for " + scenario);
        }
        if (type != ConfType.MLPERF && ConfigKeys.isMlperfOnly(name))
        {
            return ConfigDiagnostic.warning(source, entry.line(), whole, "'" + name
                + "' can only be set by mlperf.conf: LoadGen ignores it in " + type.fileName());
        }
        if (type == ConfType.AUDIT && !model.equals("*"))
        {
            return ConfigDiagnostic.note(source, entry.line(), whole,
                "LoadGen reads audit.config with model '*', so model-specific lines are ignored");
        }
        return null;
    }

    private static TestScenario scenarioOf(final String name)
    {
        for (final TestScenario s : TestScenario.values())
        {
            if (s.logName().equals(name))
            {
                return s;
            }
        }
        return null;
    }

    private static String scenarioList(final Set<TestScenario> scenarios)
    {
        final List<String> names = new ArrayList<>();
        for (final TestScenario s : scenarios)
        {
            names.add(s.logName());
        }
        if (names.size() == 1)
        {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }
}
