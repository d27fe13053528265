package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jloadgen.clib.IoErrors;

/**
 * The text of a {@code jloadgen submission} configuration: {@code key = value} lines (a line ending in {@code \}
 * goes on on the next), {@code #} comments, blank lines; each key once. Errors name the file, the line and the key.
 * Keys that nothing reads are reported by {@link #unreadKeys()}, so a misspelt key is an error instead of a silently
 * ignored line.
 */
final class ConfigFile
{
    /**
     * One line.
     *
     * @param key   its key.
     * @param value its value, trimmed (may be empty).
     * @param line  its line number (1-based).
     */
    record Entry(String key, String value, int line)
    {
    }

    private final String name;
    private final Path folder;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Set<String> read = new LinkedHashSet<>();

    private ConfigFile(final String name, final Path folder)
    {
        this.name = name;
        this.folder = folder;
    }

    /**
     * @param file a configuration file.
     * @return its entries.
     * @throws IllegalArgumentException on a line that is not {@code key = value} or a key given twice.
     */
    static ConfigFile read(final Path file)
    {
        try
        {
            final Path absolute = file.toAbsolutePath();
            return parse(file.toString(), absolute.getParent(), Files.readString(file, StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            // The reason, not the exception's message: a missing file's message is its path again.
            throw new UncheckedIOException(file + ": cannot read the configuration (" + IoErrors.reason(ex) + ")", ex);
        }
    }

    /**
     * @param name   what errors call the text (a file name).
     * @param folder relative paths in values are resolved against this folder.
     * @param text   the configuration.
     * @return its entries.
     */
    static ConfigFile parse(final String name, final Path folder, final String text)
    {
        final ConfigFile config = new ConfigFile(name, folder);
        final String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            final int first = i;
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            while (line.endsWith("\\") && i + 1 < lines.length)
            {
                line = line.substring(0, line.length() - 1).strip() + " " + lines[++i].strip();
            }
            final int eq = line.indexOf('=');
            if (eq <= 0)
            {
                throw new IllegalArgumentException(name + ":" + (first + 1) + ": expected 'key = value', got '" + line
                    + "'");
            }
            final String key = line.substring(0, eq).strip();
            final Entry previous = config.entries.get(key);
            if (previous != null)
            {
                throw new IllegalArgumentException(name + ":" + (first + 1) + ": key " + key
                    + " is already set on line " + previous.line());
            }
            config.entries.put(key, new Entry(key, line.substring(eq + 1).strip(), first + 1));
        }
        return config;
    }

    /**
     * @return what errors call this configuration.
     */
    String name()
    {
        return name;
    }

    /**
     * @return the folder relative paths are resolved against.
     */
    Path folder()
    {
        return folder;
    }

    /**
     * @param key a key.
     * @return its value, if the key is set (an empty value counts as set).
     */
    Optional<String> get(final String key)
    {
        read.add(key);
        final Entry entry = entries.get(key);
        return entry == null ? Optional.empty() : Optional.of(entry.value());
    }

    /**
     * @param key a key that must be set.
     * @return its value, not empty.
     */
    String required(final String key)
    {
        final String value = get(key).orElseThrow(() -> new IllegalArgumentException(name + ": key " + key
            + " is missing"));
        if (value.isEmpty())
        {
            throw error(key, "needs a value");
        }
        return value;
    }

    /**
     * @param key      a key.
     * @param fallback the value when the key is not set.
     * @return its value, or the fallback.
     */
    String get(final String key, final String fallback)
    {
        return get(key).orElse(fallback);
    }

    /**
     * @param prefix a key prefix such as {@code system.}.
     * @return the keys that start with it, in file order.
     */
    List<String> keysWithPrefix(final String prefix)
    {
        final List<String> keys = new ArrayList<>();
        for (final String key : entries.keySet())
        {
            if (key.startsWith(prefix))
            {
                keys.add(key);
            }
        }
        return keys;
    }

    /**
     * @param key     the key at fault.
     * @param message what is wrong.
     * @return an error naming the file, the key's line and the key.
     */
    IllegalArgumentException error(final String key, final String message)
    {
        final Entry entry = entries.get(key);
        return new IllegalArgumentException(name + (entry == null ? "" : ":" + entry.line()) + ": " + key + ": "
            + message);
    }

    /**
     * @param key a key holding a path.
     * @return the path, resolved against the configuration's folder, if the key is set.
     */
    Optional<Path> path(final String key)
    {
        return get(key).filter(v -> !v.isEmpty()).map(v -> folder.resolve(v).normalize());
    }

    /**
     * @return the keys no accessor has asked for.
     */
    List<String> unreadKeys()
    {
        final List<String> unread = new ArrayList<>();
        for (final Entry entry : entries.values())
        {
            if (!read.contains(entry.key()))
            {
                unread.add(name + ":" + entry.line() + ": " + entry.key());
            }
        }
        return unread;
    }
}
