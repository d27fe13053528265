package org.jloadgen.cli.api;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of the live status line and how it shrinks to fit a terminal: fields are shortened, then dropped, in a
 * fixed order (least useful first: the series' long name, the issued count, the step, the job's step name, the rate,
 * the target, the counts, the p99) until the line fits; the elapsed time against {@code min_duration} goes last, and
 * a line that still does not fit is cut at the width.
 */
final class StatusFields
{
    /** A field of the line, in the order they are shown. */
    enum Field
    {
        JOB, STEP, SERIES, PREPARING, TIME, COUNTS, RATE, P99
    }

    /** A shortening step: the field and the form it takes (1: short, 2: dropped). */
    private record Reduction(Field field, int level)
    {
    }

    private static final String SEPARATOR = " | ";
    private static final List<Reduction> ORDER = List.of(new Reduction(Field.SERIES, 1),
        new Reduction(Field.COUNTS, 1), new Reduction(Field.STEP, 2), new Reduction(Field.JOB, 1),
        new Reduction(Field.PREPARING, 1), new Reduction(Field.RATE, 2), new Reduction(Field.JOB, 2),
        new Reduction(Field.SERIES, 2), new Reduction(Field.COUNTS, 2), new Reduction(Field.P99, 2));

    private final Map<Field, String[]> forms = new EnumMap<>(Field.class);

    /**
     * @param field     the field.
     * @param full      its full text.
     * @param shortText its short text, or {@code null} (then shortening drops it).
     * @return this.
     */
    StatusFields put(final Field field, final String full, final String shortText)
    {
        forms.put(field, new String[] {full, shortText == null ? full : shortText});
        return this;
    }

    /**
     * @return every field in full.
     */
    String full()
    {
        return join(new EnumMap<>(Field.class));
    }

    /**
     * @param width the most characters the line may take (at least 1).
     * @return the line, at most {@code width} characters.
     */
    String fit(final int width)
    {
        final Map<Field, Integer> levels = new EnumMap<>(Field.class);
        String line = join(levels);
        for (final Reduction r : ORDER)
        {
            if (line.length() <= width)
            {
                return line;
            }
            if (forms.containsKey(r.field()) && levels.getOrDefault(r.field(), 0) < r.level())
            {
                levels.put(r.field(), r.level());
                line = join(levels);
            }
        }
        return line.length() <= width ? line : line.substring(0, Math.max(1, width));
    }

    private String join(final Map<Field, Integer> levels)
    {
        final StringBuilder line = new StringBuilder(120);
        for (final Map.Entry<Field, String[]> e : forms.entrySet())
        {
            final int level = levels.getOrDefault(e.getKey(), 0);
            if (level >= 2)
            {
                continue;
            }
            if (!line.isEmpty())
            {
                line.append(SEPARATOR);
            }
            line.append(e.getValue()[level]);
        }
        return line.toString();
    }
}
