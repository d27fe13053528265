package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the allow-list tests compare: the names an allow-list lists, the functions a header declares and the
 * wrappers a hand-written header class has.
 */
final class AllowLists
{
    private static final Pattern FUNCTION = Pattern.compile("\\b(jlg_[a-z_0-9]+)\\(");

    private AllowLists()
    {
    }

    /**
     * @param includes an allow-list ({@code --include-function NAME} lines and the like).
     * @param option   which lines, e.g. {@code --include-struct}.
     * @return their names, in order.
     * @throws IOException if the file cannot be read.
     */
    static List<String> listed(final Path includes, final String option) throws IOException
    {
        final List<String> names = new ArrayList<>();
        for (final String line : Files.readAllLines(includes, StandardCharsets.UTF_8))
        {
            final String[] words = line.strip().split("\\s+");
            if (words.length == 2 && option.equals(words[0]))
            {
                names.add(words[1]);
            }
        }
        return names;
    }

    /**
     * @param header a C header.
     * @return the {@code jlg_*} functions it declares.
     * @throws IOException if the file cannot be read.
     */
    static Set<String> declaredFunctions(final Path header) throws IOException
    {
        final Set<String> declared = new TreeSet<>();
        final Matcher matcher = FUNCTION.matcher(Files.readString(header, StandardCharsets.UTF_8));
        while (matcher.find())
        {
            declared.add(matcher.group(1));
        }
        return declared;
    }

    /**
     * @param headerClass a class in jextract's header-class shape.
     * @return the names of its public {@code jlg_*} wrappers (not the {@code $descriptor}-style accessors).
     */
    static Set<String> wrappers(final Class<?> headerClass)
    {
        final Set<String> wrappers = new TreeSet<>();
        for (final Method method : headerClass.getDeclaredMethods())
        {
            if (Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("jlg_")
                && !method.getName().contains("$"))
            {
                wrappers.add(method.getName());
            }
        }
        return wrappers;
    }
}
