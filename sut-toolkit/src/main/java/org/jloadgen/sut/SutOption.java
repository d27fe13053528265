package org.jloadgen.sut;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One option a SUT takes ({@code --sut-opt KEY=VALUE}, or a line of its descriptor file): what
 * {@code jloadgen run --sut NAME --help} lists, and the keys {@link SutOptions#parse} accepts, from one declaration,
 * so the help cannot name an option the SUT refuses or leave out one it takes.
 *
 * @param key          the key, e.g. {@code workers}.
 * @param type         what the value is, e.g. {@code integer >= 1}, {@code time}, {@code path}, {@code a|b|c}.
 * @param defaultValue the value when the option is not given, in words where it depends (e.g. {@code per scenario});
 *                     empty when there is none.
 * @param meaning      one or two sentences on what it does.
 */
public record SutOption(String key, String type, String defaultValue, String meaning)
{
    /** The type of options whose descriptor values are paths relative to the descriptor's folder. */
    public static final String PATH = "path";

    /**
     * @param options the declarations.
     * @return their keys, in order.
     */
    public static Set<String> keys(final List<SutOption> options)
    {
        final Set<String> keys = new LinkedHashSet<>();
        options.forEach(o -> keys.add(o.key()));
        return keys;
    }

    /**
     * @param options the declarations.
     * @return the keys of type {@link #PATH}.
     */
    public static Set<String> pathKeys(final List<SutOption> options)
    {
        final Set<String> keys = new LinkedHashSet<>();
        options.stream().filter(o -> o.type().equals(PATH)).forEach(o -> keys.add(o.key()));
        return keys;
    }

    /**
     * The options as a table: key, type and default on one line, the meaning indented below on one line (the
     * command line's help wraps it to the terminal's classic 80 columns).
     *
     * @param sutName the SUT.
     * @param options its options.
     * @return the table, lines ending in a line break.
     */
    public static String format(final String sutName, final List<SutOption> options)
    {
        if (options.isEmpty())
        {
            return "--sut " + sutName + " takes no --sut-opt options.\n";
        }
        final StringBuilder out = new StringBuilder("Options of --sut " + sutName
            + " (--sut-opt KEY=VALUE, or KEY = VALUE lines of a file given as --sut-opt " + SutOptions.DESCRIPTOR
            + "=FILE):\n");
        for (final SutOption o : options)
        {
            out.append("  ").append(o.key()).append("=<").append(o.type()).append('>')
                .append(o.defaultValue().isEmpty() ? "" : "  (default: " + o.defaultValue() + ")").append('\n')
                .append("      ").append(o.meaning()).append('\n');
        }
        return out.toString();
    }
}
