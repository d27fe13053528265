package org.jloadgen.sut;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.bindings.ThreadAffinity;
import org.jloadgen.clib.IoErrors;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;

/**
 * A SUT's options, typed: the command line's {@code --sut-opt key=value} pairs and named flags merged over a
 * descriptor file ({@value #DESCRIPTOR}), with getters that turn a value into an integer, a size, a path, a CPU
 * list... and fail with a message that names the option, the value, the type expected and where the value came
 * from ({@code KEY must be an integer, got 'x' (--sut-opt)}).
 * <p>
 * A descriptor is a text file of {@code key = value} lines with the same keys, {@code #} starting a comment line;
 * its relative paths (the {@code pathKeys}) are relative to its own folder. Command-line values win.
 */
public final class SutOptions
{
    /** The option naming a descriptor file. */
    public static final String DESCRIPTOR = "descriptor";
    /** Where a value given on the command line comes from, in messages. */
    public static final String COMMAND_LINE = "--sut-opt";

    private final String sutName;
    private final Map<String, String> values;
    private final Map<String, String> origins;

    private SutOptions(final String sutName, final Map<String, String> values, final Map<String, String> origins)
    {
        this.sutName = sutName;
        this.values = values;
        this.origins = origins;
    }

    /**
     * Merges the command line over the descriptor it names, if any.
     *
     * @param sutName     the SUT, for messages ({@code cpu}, {@code tensorrt}).
     * @param commandLine {@code --sut-opt} pairs and named flags.
     * @param knownKeys   every key the SUT takes ({@value #DESCRIPTOR} is always known).
     * @param pathKeys    keys whose descriptor values are paths relative to the descriptor.
     * @return the merged options.
     * @throws IllegalArgumentException naming an unknown key, or the file and line of a bad descriptor.
     */
    public static SutOptions parse(final String sutName, final Map<String, String> commandLine,
        final Set<String> knownKeys, final Set<String> pathKeys)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        final Map<String, String> origins = new LinkedHashMap<>();
        final String descriptor = commandLine.get(DESCRIPTOR);
        if (descriptor != null)
        {
            readDescriptor(Path.of(descriptor), sutName, knownKeys, pathKeys, values, origins);
        }
        for (final Map.Entry<String, String> e : commandLine.entrySet())
        {
            if (!e.getKey().equals(DESCRIPTOR))
            {
                requireKnown(e.getKey(), COMMAND_LINE + " " + e.getKey(), sutName, knownKeys);
                values.put(e.getKey(), e.getValue());
                origins.put(e.getKey(), COMMAND_LINE);
            }
        }
        return new SutOptions(sutName, values, origins);
    }

    /**
     * @param pairs {@code KEY=VALUE} strings, as {@code --sut-opt} takes them.
     * @return the keys and values in order, stripped.
     * @throws IllegalArgumentException for a string without a key and {@code =}.
     */
    public static Map<String, String> pairs(final List<String> pairs)
    {
        final Map<String, String> options = new LinkedHashMap<>();
        for (final String kv : pairs)
        {
            final int eq = kv.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException(COMMAND_LINE + " needs KEY=VALUE, got '" + kv + "'");
            }
            options.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
        }
        return options;
    }

    /**
     * Reads a descriptor file.
     *
     * @param file      the descriptor.
     * @param sutName   the SUT, for messages.
     * @param knownKeys the keys the SUT takes.
     * @param pathKeys  keys whose values are paths relative to the file's folder.
     * @return its keys and values in file order; paths made absolute.
     * @throws IllegalArgumentException naming the file and line of a bad, repeated or unknown key.
     */
    public static Map<String, String> readDescriptor(final Path file, final String sutName,
        final Set<String> knownKeys, final Set<String> pathKeys)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        readDescriptor(file, sutName, knownKeys, pathKeys, values, new LinkedHashMap<>());
        return values;
    }

    private static void readDescriptor(final Path file, final String sutName, final Set<String> knownKeys,
        final Set<String> pathKeys, final Map<String, String> values, final Map<String, String> origins)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final NoSuchFileException ex)
        {
            throw new IllegalArgumentException("descriptor not found: " + file, ex);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read descriptor " + file + ": " + IoErrors.reason(ex), ex);
        }
        final Path folder = file.toAbsolutePath().getParent();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String where = file + ":" + (i + 1);
            final int eq = line.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException(where + ": expected 'key = value', got '" + line + "'");
            }
            final String key = line.substring(0, eq).strip();
            final String value = line.substring(eq + 1).strip();
            if (key.equals(DESCRIPTOR))
            {
                throw new IllegalArgumentException(where + ": a descriptor cannot name another descriptor");
            }
            requireKnown(key, where + ": key '" + key + "'", sutName, knownKeys);
            if (values.containsKey(key))
            {
                throw new IllegalArgumentException(where + ": '" + key + "' is given twice");
            }
            values.put(key, pathKeys.contains(key) && !value.isEmpty() ? folder.resolve(value).normalize().toString()
                : value);
            origins.put(key, where);
        }
    }

    private static void requireKnown(final String key, final String what, final String sutName,
        final Set<String> knownKeys)
    {
        if (!knownKeys.contains(key))
        {
            throw new IllegalArgumentException(what + " is not a " + sutName + " SUT option; known: "
                + String.join(", ", new TreeSet<>(knownKeys)));
        }
    }

    /**
     * @return the SUT these options are for.
     */
    public String sutName()
    {
        return sutName;
    }

    /**
     * @return the keys given, in the order given (descriptor first).
     */
    public Set<String> keys()
    {
        return Collections.unmodifiableSet(values.keySet());
    }

    /**
     * @param key an option.
     * @return whether it was given.
     */
    public boolean has(final String key)
    {
        return values.containsKey(key);
    }

    /**
     * @param key an option.
     * @return {@value #COMMAND_LINE}, {@code FILE:LINE} of a descriptor, or {@code null} when not given.
     */
    public String origin(final String key)
    {
        return origins.get(key);
    }

    /**
     * @param key an option.
     * @return its value as given, or {@code null}.
     */
    public String string(final String key)
    {
        return values.get(key);
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as given, or the default.
     */
    public String string(final String key, final String fallback)
    {
        return values.getOrDefault(key, fallback);
    }

    /**
     * @param key an option.
     * @return its value as a path, or {@code null} when not given.
     * @throws IllegalArgumentException for an empty value.
     */
    public Path path(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return null;
        }
        if (v.isBlank())
        {
            throw new IllegalArgumentException(key + " is empty" + where(key));
        }
        return Path.of(v);
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as a 64-bit integer ({@code _} separators allowed).
     * @throws IllegalArgumentException {@code KEY must be an integer, got 'V'}.
     */
    public long longValue(final String key, final long fallback)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return fallback;
        }
        try
        {
            return Long.parseLong(v.strip().replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw invalid(key, "an integer", ex);
        }
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as a 32-bit integer.
     * @throws IllegalArgumentException {@code KEY must be an integer ..., got 'V'}.
     */
    public int intValue(final String key, final int fallback)
    {
        final long v = longValue(key, fallback);
        if (v != (int)v)
        {
            throw invalid(key, "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE, null);
        }
        return (int)v;
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as a boolean ({@code true/false, yes/no, on/off, 1/0}).
     * @throws IllegalArgumentException {@code KEY must be true or false, got 'V'}.
     */
    public boolean bool(final String key, final boolean fallback)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return fallback;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT))
        {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw invalid(key, "true or false", null);
        };
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as a size in bytes: a number with an optional unit {@code K, KB, KiB, M, MB, MiB, G, GB,
     *         GiB, T...} (decimal units are powers of 1000, binary ones and bare letters powers of 1024).
     * @throws IllegalArgumentException {@code KEY must be a size such as 4GiB or 512MB, got 'V'}.
     */
    public long bytes(final String key, final long fallback)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return fallback;
        }
        try
        {
            return parseBytes(v);
        }
        catch (final IllegalArgumentException ex)
        {
            throw invalid(key, "a size such as 4GiB or 512MB", ex);
        }
    }

    /**
     * @param key an option.
     * @return its value as a list of positive integers ({@code 1,2,4,8}), or {@code null} when not given.
     * @throws IllegalArgumentException {@code KEY must be a list of positive integers such as 1,8,64, got 'V'}.
     */
    public int[] intList(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return null;
        }
        final String[] parts = v.strip().split("\\s*,\\s*");
        final int[] list = new int[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                list[i] = Integer.parseInt(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw invalid(key, "a list of positive integers such as 1,8,64", ex);
            }
            if (list[i] <= 0)
            {
                throw invalid(key, "a list of positive integers such as 1,8,64", null);
            }
        }
        return list;
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as a wait strategy.
     * @throws IllegalArgumentException {@code KEY must be auto, spin, park, yield, backoff or sleep, got 'V'}.
     */
    public CompletionWaitStrategy idle(final String key, final CompletionWaitStrategy fallback)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return fallback;
        }
        try
        {
            return CompletionWaitStrategy.valueOf(v.strip().toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw invalid(key, "auto, spin, park, yield, backoff or sleep", ex);
        }
    }

    /**
     * @param key      an option.
     * @param fallback its default.
     * @return its value as CPUs: a list such as {@code 0-3,8}, {@code all} (the CPUs this thread may run on) or
     *         {@code none} (empty).
     * @throws IllegalArgumentException {@code KEY must be a CPU list such as 0-3,8, all or none, got 'V'}.
     */
    public int[] cpus(final String key, final int[] fallback)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return fallback;
        }
        final String s = v.strip().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("none") || s.equals("false"))
        {
            return new int[0];
        }
        final BitSet set;
        try
        {
            set = s.equals("all") || s.equals("true") ? ThreadAffinity.currentThreadCpus()
                : ThreadAffinity.parseCpuList(s);
        }
        catch (final IllegalArgumentException ex)
        {
            throw invalid(key, "a CPU list such as 0-3,8, all or none", ex);
        }
        return set.stream().toArray();
    }

    /**
     * @param key an option.
     * @return its value as a sample placement, or {@code null} when not given.
     * @throws IllegalArgumentException {@code KEY must be copy or mapped, got 'V'}.
     */
    public SampleStore.Placement placement(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return null;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT))
        {
            case "copy" -> SampleStore.Placement.COPY;
            case "mapped", "map" -> SampleStore.Placement.MAPPED;
            default -> throw invalid(key, "copy or mapped", null);
        };
    }

    /**
     * @param key an option.
     * @return its value as a NumPy dtype, or {@code null} when not given.
     * @throws IllegalArgumentException naming the option and why the dtype is not understood.
     */
    public DType dtype(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return null;
        }
        try
        {
            return DType.parse(v);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(key + ": " + ex.getMessage() + where(key), ex);
        }
    }

    /**
     * @param key an option.
     * @return its value as a shape ({@link #parseShape}), or {@code null} when not given.
     * @throws IllegalArgumentException {@code KEY must be dimensions such as 3,224,224, got 'V'}.
     */
    public long[] shape(final String key)
    {
        final String v = values.get(key);
        if (v == null)
        {
            return null;
        }
        try
        {
            return parseShape(v);
        }
        catch (final IllegalArgumentException ex)
        {
            throw invalid(key, "dimensions such as 3,224,224 (none negative)", ex);
        }
    }

    /**
     * @param key      the option whose value is wrong.
     * @param expected what it must be, e.g. {@code "an integer"}, {@code "argmax, topk:K or none"}.
     * @param cause    the parser's exception, or {@code null}.
     * @return {@code KEY must be EXPECTED, got 'VALUE' (ORIGIN)}, for the caller to throw.
     */
    public IllegalArgumentException invalid(final String key, final String expected, final Throwable cause)
    {
        return new IllegalArgumentException(key + " must be " + expected + ", got '" + values.get(key) + "'"
            + where(key), cause);
    }

    private String where(final String key)
    {
        final String origin = origins.get(key);
        return origin == null ? "" : " (" + origin + ")";
    }

    /**
     * @param text e.g. {@code 3,224,224}, {@code 3x224x224}, {@code [3, 224, 224]} or {@code (3,224,224)}; empty
     *             brackets for a scalar sample.
     * @return the dimensions.
     * @throws IllegalArgumentException for a negative or non-numeric dimension.
     */
    public static long[] parseShape(final String text)
    {
        final String inner = text.strip().replaceAll("^[\\[(]|[\\])]$", "").strip();
        if (inner.isEmpty())
        {
            return new long[0];
        }
        final String[] parts = inner.split("\\s*[,x]\\s*|\\s+");
        final long[] dims = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                dims[i] = Long.parseLong(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("'" + parts[i] + "' is not a dimension", ex);
            }
            if (dims[i] < 0)
            {
                throw new IllegalArgumentException("dimension " + dims[i] + " is negative");
            }
        }
        return dims;
    }

    /**
     * @param text a number of bytes with an optional unit: {@code 1073741824}, {@code 1GiB}, {@code 1G},
     *             {@code 1.5GB}, {@code 512 MiB}.
     * @return the bytes.
     * @throws IllegalArgumentException for anything else, or a size over 2^63 - 1.
     */
    public static long parseBytes(final String text)
    {
        final String s = text.strip().replace("_", "");
        int end = 0;
        while (end < s.length() && (Character.isDigit(s.charAt(end)) || s.charAt(end) == '.'))
        {
            end++;
        }
        if (end == 0)
        {
            throw new IllegalArgumentException("'" + text + "' does not start with a number");
        }
        final double number = Double.parseDouble(s.substring(0, end));
        final String unit = s.substring(end).strip().toLowerCase(Locale.ROOT);
        final double scale = switch (unit)
        {
            case "", "b" -> 1;
            case "k", "kib" -> 1L << 10;
            case "m", "mib" -> 1L << 20;
            case "g", "gib" -> 1L << 30;
            case "t", "tib" -> 1L << 40;
            case "kb" -> 1e3;
            case "mb" -> 1e6;
            case "gb" -> 1e9;
            case "tb" -> 1e12;
            default -> throw new IllegalArgumentException("unknown unit '" + unit + "' in '" + text + "'");
        };
        final double bytes = number * scale;
        if (bytes >= 0x1p63 || bytes != Math.rint(bytes))
        {
            throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes below 2^63");
        }
        return (long)bytes;
    }
}
