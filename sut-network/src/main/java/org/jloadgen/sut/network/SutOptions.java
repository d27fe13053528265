package org.jloadgen.sut.network;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --sut-opt key=value} pairs of one SUT, read once each with typed getters whose errors name the
 * SUT, the key and the value. {@link #finish()} rejects keys that no getter asked for, so a typo is an error
 * instead of a silently ignored option.
 */
public final class SutOptions
{
    private final String sutName;
    private final Map<String, String> values;
    private final Set<String> read = new TreeSet<>();

    /**
     * @param sutName the SUT, for messages ({@code network}, {@code openai}).
     * @param values  the options.
     */
    public SutOptions(final String sutName, final Map<String, String> values)
    {
        this.sutName = sutName;
        this.values = new LinkedHashMap<>(values);
    }

    /**
     * @param key option name.
     * @return whether it was given.
     */
    public boolean has(final String key)
    {
        read.add(key);
        return values.containsKey(key);
    }

    /**
     * @param key      option name.
     * @param fallback value when absent.
     * @return the value, stripped.
     */
    public String string(final String key, final String fallback)
    {
        read.add(key);
        final String v = values.get(key);
        return v == null ? fallback : v.strip();
    }

    /**
     * @param key option name.
     * @return the value.
     * @throws IllegalArgumentException when it is absent or empty.
     */
    public String required(final String key)
    {
        final String v = string(key, null);
        if (v == null || v.isEmpty())
        {
            throw new IllegalArgumentException("the " + sutName + " SUT needs --sut-opt " + key + "=...");
        }
        return v;
    }

    /**
     * @param key      option name.
     * @param fallback value when absent.
     * @param min      smallest allowed value.
     * @return the value ({@code _} separators allowed).
     */
    public long integer(final String key, final long fallback, final long min)
    {
        final String v = string(key, null);
        if (v == null)
        {
            return fallback;
        }
        final long value;
        try
        {
            value = Long.parseLong(v.replace("_", ""));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(sutName + " SUT option " + key + " must be an integer, got '" + v + "'",
                ex);
        }
        if (value < min)
        {
            throw new IllegalArgumentException(sutName + " SUT option " + key + " must be at least " + min + ", got "
                + value);
        }
        return value;
    }

    /**
     * @param key      option name.
     * @param fallback value when absent.
     * @return the value ({@code true/false}, {@code yes/no}, {@code on/off}, {@code 1/0}).
     */
    public boolean bool(final String key, final boolean fallback)
    {
        final String v = string(key, null);
        if (v == null)
        {
            return fallback;
        }
        return switch (v.toLowerCase(Locale.ROOT))
        {
            case "true", "1", "yes", "on" -> true;
            case "false", "0", "no", "off" -> false;
            default -> throw new IllegalArgumentException(sutName + " SUT option " + key
                + " must be true or false, got '" + v + "'");
        };
    }

    /**
     * @param key option name.
     * @return the path, or {@code null} when absent.
     */
    public Path path(final String key)
    {
        final String v = string(key, null);
        if (v == null)
        {
            return null;
        }
        if (v.isEmpty())
        {
            throw new IllegalArgumentException(sutName + " SUT option " + key + " is empty");
        }
        return Path.of(v);
    }

    /**
     * @param key     option name.
     * @param choices allowed values, the first being the default.
     * @return the value, lower case.
     */
    public String choice(final String key, final String... choices)
    {
        final String v = string(key, choices[0]).toLowerCase(Locale.ROOT);
        for (final String c : choices)
        {
            if (c.equals(v))
            {
                return c;
            }
        }
        throw new IllegalArgumentException(sutName + " SUT option " + key + " must be one of "
            + String.join(", ", choices) + ", got '" + v + "'");
    }

    /**
     * @param key option name.
     * @return the comma-separated values, stripped, empty ones dropped; empty when absent.
     */
    public List<String> list(final String key)
    {
        final String v = string(key, "");
        final List<String> items = new ArrayList<>();
        for (final String item : v.split(","))
        {
            if (!item.isBlank())
            {
                items.add(item.strip());
            }
        }
        return items;
    }

    /**
     * @throws IllegalArgumentException naming the given keys that no getter read, and the known ones.
     */
    public void finish()
    {
        final Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(read);
        if (!unknown.isEmpty())
        {
            throw new IllegalArgumentException("unknown " + sutName + " SUT option" + (unknown.size() == 1 ? " " : "s ")
                + String.join(", ", unknown) + "; known: " + String.join(", ", read));
        }
    }
}
