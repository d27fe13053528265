package org.jloadgen.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;

/**
 * The intended order of the core modules' packages, read from the "Package order" table of {@code docs/architecture.md}
 * (one row per package: level, package relative to {@code org.jloadgen}, what it holds), and the rule that a class
 * uses only packages on lower levels than its own. The rule takes the root package as a parameter, so the same
 * table and rule check the core modules ({@code org.jloadgen}) and the test fixture that proves the rule can fail.
 */
final class PackageOrder
{
    /** Writes the root package itself in the table. */
    static final String ROOT_ROW = "org.jloadgen";

    private static final Pattern ROW = Pattern.compile("^\\|\\s*(\\d+)\\s*\\|\\s*`([a-z.]+)`\\s*\\|");

    private final Map<String, Integer> levels;
    private final String source;

    private PackageOrder(final Map<String, Integer> levels, final String source)
    {
        this.levels = levels;
        this.source = source;
    }

    /**
     * @param readme the architecture document.
     * @return the order its "Package order" table gives.
     * @throws IllegalStateException naming the file and line of a malformed or repeated row, or if there is no table.
     */
    static PackageOrder read(final Path readme)
    {
        final java.util.List<String> lines;
        try
        {
            lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the package order table in " + readme, ex);
        }
        final Map<String, Integer> levels = new LinkedHashMap<>();
        boolean inSection = false;
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (line.startsWith("## "))
            {
                inSection = line.equals("## Package order");
                continue;
            }
            if (!inSection || !line.startsWith("| ") || line.startsWith("| level"))
            {
                continue;
            }
            final Matcher m = ROW.matcher(line);
            if (!m.find())
            {
                throw new IllegalStateException(readme + ":" + (i + 1) + ": not a package order row: " + line);
            }
            final String name = m.group(2).equals(ROOT_ROW) ? "" : m.group(2);
            if (levels.put(name, Integer.parseInt(m.group(1))) != null)
            {
                throw new IllegalStateException(readme + ":" + (i + 1) + ": package listed twice: " + m.group(2));
            }
        }
        if (levels.isEmpty())
        {
            throw new IllegalStateException(readme + ": no \"## Package order\" table");
        }
        final Path absolute = readme.toAbsolutePath();
        return new PackageOrder(Map.copyOf(levels), absolute.getParent().getFileName() + "/" + absolute.getFileName());
    }

    /**
     * @param relativePackage a package relative to the root ({@code ""} for the root itself).
     * @return its level, or {@code null} if the table does not list it.
     */
    Integer level(final String relativePackage)
    {
        return levels.get(relativePackage);
    }

    /**
     * @param rootPackage the package the table's names are relative to.
     * @return the rule: every class under the root lives in a listed package and uses, under the root, only classes
     *         of its own package or of packages on lower levels.
     */
    ArchRule rule(final String rootPackage)
    {
        return ArchRuleDefinition.classes().should(new ArchCondition<JavaClass>(
            "use only packages below their own in " + source + "'s package order")
        {
            @Override
            public void check(final JavaClass origin, final ConditionEvents events)
            {
                final String from = relative(rootPackage, origin.getPackageName());
                if (from == null)
                {
                    return;
                }
                final Integer fromLevel = level(from);
                if (fromLevel == null)
                {
                    events.add(SimpleConditionEvent.violated(origin, origin.getName() + " is in "
                        + origin.getPackageName() + ", which " + source + "'s package order does not list"));
                    return;
                }
                // One event per (class, target class): ArchUnit sees each call, field and signature separately.
                final Set<String> reported = new HashSet<>();
                for (final Dependency dependency : origin.getDirectDependenciesFromSelf())
                {
                    final JavaClass target = dependency.getTargetClass().getBaseComponentType();
                    final String to = relative(rootPackage, target.getPackageName());
                    if (to == null || to.equals(from) || !reported.add(target.getName()))
                    {
                        continue;
                    }
                    final Integer toLevel = level(to);
                    if (toLevel == null || toLevel >= fromLevel)
                    {
                        events.add(SimpleConditionEvent.violated(dependency, origin.getName() + " (" + describe(from)
                            + ", level " + fromLevel + ") uses " + target.getName() + " (" + describe(to) + ", "
                            + (toLevel == null ? "not listed" : "level " + toLevel) + "): "
                            + dependency.getDescription()));
                    }
                }
            }
        });
    }

    private static String describe(final String relativePackage)
    {
        return relativePackage.isEmpty() ? "the root package" : relativePackage;
    }

    /**
     * @return {@code packageName} relative to the root ({@code ""} for the root), or {@code null} outside it.
     */
    private static String relative(final String rootPackage, final String packageName)
    {
        if (packageName.equals(rootPackage))
        {
            return "";
        }
        return packageName.startsWith(rootPackage + ".") ? packageName.substring(rootPackage.length() + 1) : null;
    }
}
