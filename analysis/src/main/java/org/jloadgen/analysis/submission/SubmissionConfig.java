package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A {@code jloadgen submission} configuration, read from a {@link ConfigFile}: the submission, the system
 * description, the benchmarks with their scenarios, SUT, accuracy command, targets and measurements, and the
 * rehearsal's durations. The format is documented by the example file
 * ({@code example-submission.conf} beside this class), which is also the built-in default.
 *
 * @param division       closed, open or network.
 * @param submitter      the submitter's folder name.
 * @param checkerVersion the checker's version key.
 * @param checkerFlags   extra checker flags.
 * @param system         the system's folder name.
 * @param systemFields   the system description's fields, in file order.
 * @param benchmarks     the benchmarks.
 * @param rehearsal      the rehearsal's settings.
 * @param source         the configuration, for error messages.
 */
record SubmissionConfig(String division, String submitter, String checkerVersion, List<String> checkerFlags,
    String system, Map<String, String> systemFields, List<Benchmark> benchmarks, Rehearsal rehearsal,
    ConfigFile source)
{
    /** The example configuration, also the built-in default. */
    static final String EXAMPLE_RESOURCE = "example-submission.conf";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final List<String> SCENARIOS = List.of("SingleStream", "MultiStream", "Offline", "Server");

    /**
     * One benchmark.
     *
     * @param name               its folder name.
     * @param mlperfModel        the official benchmark it counts as.
     * @param loadgenModel       the model name of mlperf.conf and user.conf.
     * @param scenarios          the scenarios, in order.
     * @param runArgs            the SUT options for {@code jloadgen run}.
     * @param accuracyCommand    the scoring command (words; {@code {log}} and {@code {home}} placeholders).
     * @param datasetSize        samples an accuracy run covers.
     * @param test01Dtype        TEST01's label type.
     * @param serverTarget       {@code peak} or a number, or empty.
     * @param peakMargin         fraction taken off the peak.
     * @param peakArgs           jloadgen peak's options.
     * @param offlineExpected    {@code measured} or a number, or empty.
     * @param measureMs          length of the measuring Offline run.
     * @param userConf           the user's own user.conf, if any.
     * @param measurements       measurements.json's fields.
     */
    record Benchmark(String name, String mlperfModel, String loadgenModel, List<String> scenarios,
        List<String> runArgs, List<String> accuracyCommand, long datasetSize, String test01Dtype,
        String serverTarget, double peakMargin, List<String> peakArgs, String offlineExpected, long measureMs,
        Optional<Path> userConf, Map<String, String> measurements)
    {
    }

    /**
     * The rehearsal's settings.
     *
     * @param minDurationMs min_duration of each performance and audit run.
     * @param measureMs     length of the measuring Offline run.
     * @param peakArgs      jloadgen peak's options.
     * @param peakMargin    fraction taken off the peak in a rehearsal, or NaN for each benchmark's own margin.
     */
    record Rehearsal(long minDurationMs, long measureMs, List<String> peakArgs, double peakMargin)
    {
    }

    private static double rehearsalMargin(final ConfigFile c)
    {
        final String text = c.get("rehearsal.peak_margin", "");
        if (text.isEmpty())
        {
            return Double.NaN;
        }
        final double margin = number(c, "rehearsal.peak_margin", text);
        if (margin < 0 || margin >= 1)
        {
            throw c.error("rehearsal.peak_margin", "must be a fraction in [0, 1), got " + margin);
        }
        return margin;
    }

    /**
     * @param file a configuration file.
     * @return the configuration.
     * @throws IllegalArgumentException naming the file, line and key of what is wrong.
     */
    static SubmissionConfig read(final Path file)
    {
        return from(ConfigFile.read(file));
    }

    /**
     * @param home the JLoadGen folder (relative paths of the built-in default resolve against it).
     * @return the built-in default (the example file).
     */
    static SubmissionConfig builtIn(final Path home)
    {
        return from(ConfigFile.parse("the built-in configuration (" + EXAMPLE_RESOURCE + ")", home, exampleText()));
    }

    /**
     * @param name   what errors call the text.
     * @param folder relative paths resolve against this folder.
     * @param text   a configuration.
     * @return the configuration.
     */
    static SubmissionConfig fromText(final String name, final Path folder, final String text)
    {
        return from(ConfigFile.parse(name, folder, text));
    }

    /**
     * @return the text of the example configuration.
     */
    static String exampleText()
    {
        try (InputStream in = SubmissionConfig.class.getResourceAsStream(EXAMPLE_RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException(EXAMPLE_RESOURCE + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static SubmissionConfig from(final ConfigFile c)
    {
        final String division = c.required("division").toLowerCase(Locale.ROOT);
        if (!List.of("closed", "open", "network").contains(division))
        {
            throw c.error("division", "must be closed, open or network, got '" + division + "'");
        }
        final String submitter = name(c, "submitter");
        final String version = c.required("checker_version");
        final List<String> flags = words(c.get("checker_flags", ""));
        final String system = name(c, "system");
        final Map<String, String> fields = new LinkedHashMap<>();
        for (final String key : c.keysWithPrefix("system."))
        {
            fields.put(key.substring("system.".length()), c.get(key).orElseThrow());
        }
        final List<Benchmark> benchmarks = new ArrayList<>();
        for (final String name : list(c.required("benchmarks")))
        {
            if (!NAME.matcher(name).matches())
            {
                throw c.error("benchmarks", "'" + name + "' is not a folder name (letters, digits, . _ -)");
            }
            benchmarks.add(benchmark(c, name));
        }
        final Rehearsal rehearsal = new Rehearsal(positive(c, "rehearsal.min_duration_ms", "2000"),
            positive(c, "rehearsal.measure_ms", "2000"),
            words(c.get("rehearsal.peak_args", "--duration-ms 1000 --repeats 1 --resolution 0.25 --max-runs 12")),
            rehearsalMargin(c));
        final List<String> unread = c.unreadKeys();
        if (!unread.isEmpty())
        {
            throw new IllegalArgumentException("unknown keys (misspelt, or a benchmark not listed in benchmarks): "
                + String.join("; ", unread));
        }
        return new SubmissionConfig(division, submitter, version, flags, system, fields, List.copyOf(benchmarks),
            rehearsal, c);
    }

    private static Benchmark benchmark(final ConfigFile c, final String b)
    {
        final String p = b + ".";
        final List<String> scenarios = list(c.required(p + "scenarios"));
        for (final String s : scenarios)
        {
            if (!SCENARIOS.contains(s))
            {
                throw c.error(p + "scenarios", "unknown scenario '" + s + "' (one of " + String.join(", ", SCENARIOS)
                    + ")");
            }
        }
        final List<String> accuracy = words(c.required(p + "accuracy_command"));
        if (!String.join(" ", accuracy).contains("{log}"))
        {
            throw c.error(p + "accuracy_command", "must name the log to score as {log}");
        }
        final String serverTarget = c.get(p + "server_target_qps", "");
        if (!serverTarget.isEmpty() && !serverTarget.equals("peak"))
        {
            number(c, p + "server_target_qps", serverTarget);
        }
        if (serverTarget.isEmpty() && scenarios.contains("Server"))
        {
            throw c.error(p + "scenarios", "Server needs " + p + "server_target_qps (a number, or peak)");
        }
        final String offline = c.get(p + "offline_expected_qps", "");
        if (!offline.isEmpty() && !offline.equals("measured"))
        {
            number(c, p + "offline_expected_qps", offline);
        }
        final double margin = number(c, p + "peak_margin", c.get(p + "peak_margin", "0.1"));
        if (margin < 0 || margin >= 1)
        {
            throw c.error(p + "peak_margin", "must be a fraction in [0, 1), got " + margin);
        }
        final String dtype = c.get(p + "test01_dtype", "byte");
        if (!List.of("byte", "float32", "int32", "int64").contains(dtype))
        {
            throw c.error(p + "test01_dtype", "must be byte, float32, int32 or int64, got '" + dtype + "'");
        }
        final Map<String, String> measurements = new LinkedHashMap<>();
        for (final String key : c.keysWithPrefix(p + "measurements."))
        {
            measurements.put(key.substring((p + "measurements.").length()), c.get(key).orElseThrow());
        }
        final Optional<Path> userConf = c.path(p + "user_conf");
        if (userConf.isPresent() && !userConf.get().toFile().isFile())
        {
            throw c.error(p + "user_conf", "no such file: " + userConf.get());
        }
        return new Benchmark(b, c.required(p + "mlperf_model"), c.get(p + "loadgen_model", b), scenarios,
            words(c.get(p + "run", "")), accuracy, positive(c, p + "dataset_size", null), dtype, serverTarget, margin,
            words(c.get(p + "peak_args", "--duration-ms 30000 --repeats 2 --resolution 0.05 --max-runs 16")),
            offline, positive(c, p + "measure_ms", "20000"), userConf, measurements);
    }

    private static String name(final ConfigFile c, final String key)
    {
        final String value = c.required(key);
        if (!NAME.matcher(value).matches())
        {
            throw c.error(key, "'" + value + "' is not a folder name (letters, digits, . _ -)");
        }
        return value;
    }

    private static long positive(final ConfigFile c, final String key, final String fallback)
    {
        final String value = fallback == null ? c.required(key) : c.get(key, fallback);
        try
        {
            final long parsed = Long.parseLong(value);
            if (parsed <= 0)
            {
                throw c.error(key, "must be positive, got " + value);
            }
            return parsed;
        }
        catch (final NumberFormatException ex)
        {
            throw c.error(key, "not a whole number: '" + value + "'");
        }
    }

    private static double number(final ConfigFile c, final String key, final String value)
    {
        try
        {
            final double parsed = Double.parseDouble(value);
            if (!(parsed >= 0) || Double.isInfinite(parsed))
            {
                throw c.error(key, "must be a non-negative number, got " + value);
            }
            return parsed;
        }
        catch (final NumberFormatException ex)
        {
            throw c.error(key, "not a number: '" + value + "'");
        }
    }

    private static List<String> list(final String value)
    {
        final List<String> items = new ArrayList<>();
        for (final String item : value.split(","))
        {
            if (!item.isBlank())
            {
                items.add(item.strip());
            }
        }
        return List.copyOf(items);
    }

    /**
     * @param value a command line: words separated by blanks, single or double quotes group words.
     * @return its words.
     */
    static List<String> words(final String value)
    {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        char quote = 0;
        boolean inWord = false;
        for (int i = 0; i < value.length(); i++)
        {
            final char ch = value.charAt(i);
            if (quote != 0)
            {
                if (ch == quote)
                {
                    quote = 0;
                }
                else
                {
                    word.append(ch);
                }
            }
            else if (ch == '\'' || ch == '"')
            {
                quote = ch;
                inWord = true;
            }
            else if (Character.isWhitespace(ch))
            {
                if (inWord)
                {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            }
            else
            {
                word.append(ch);
                inWord = true;
            }
        }
        if (quote != 0)
        {
            throw new IllegalArgumentException("unbalanced quote in: " + value);
        }
        if (inWord)
        {
            words.add(word.toString());
        }
        return List.copyOf(words);
    }
}
