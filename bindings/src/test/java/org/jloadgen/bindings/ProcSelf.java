package org.jloadgen.bindings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the kernel says about this process, to check native calls against an independent source.
 */
final class ProcSelf
{
    private ProcSelf()
    {
    }

    /**
     * @param address an address inside a mapping.
     * @param field   an smaps field such as {@code Locked} or {@code THPeligible}.
     * @return its value (first word), or {@code null} if the mapping or field is absent.
     */
    static String smapsField(final long address, final String field) throws IOException
    {
        final List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"), StandardCharsets.US_ASCII);
        boolean inside = false;
        for (final String line : lines)
        {
            final int dash = line.indexOf('-');
            final int space = line.indexOf(' ');
            if (dash > 0 && space > dash && line.substring(0, dash).matches("[0-9a-f]+"))
            {
                final long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                final long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            }
            else if (inside && line.startsWith(field + ":"))
            {
                return line.substring(field.length() + 1).strip().split("\\s+")[0];
            }
        }
        return null;
    }

    /**
     * @param file  e.g. {@code /proc/thread-self/status}.
     * @param field e.g. {@code Cpus_allowed_list}.
     * @return the value after the colon, stripped.
     */
    static String statusField(final String file, final String field) throws IOException
    {
        for (final String line : Files.readAllLines(Path.of(file), StandardCharsets.US_ASCII))
        {
            if (line.startsWith(field + ":"))
            {
                return line.substring(field.length() + 1).strip();
            }
        }
        throw new IOException(field + " not in " + file);
    }

    /**
     * @param line a line of /proc/self/limits, e.g. {@code Max locked memory}.
     * @return {soft, hard}, -1 for unlimited.
     */
    static long[] limits(final String line) throws IOException
    {
        for (final String row : Files.readAllLines(Path.of("/proc/self/limits"), StandardCharsets.US_ASCII))
        {
            if (row.startsWith(line))
            {
                final String[] words = row.substring(line.length()).strip().split("\\s+");
                return new long[] {parseLimit(words[0]), parseLimit(words[1])};
            }
        }
        throw new IOException(line + " not in /proc/self/limits");
    }

    private static long parseLimit(final String word)
    {
        return "unlimited".equals(word) ? -1 : Long.parseLong(word);
    }
}
