package org.jloadgen.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown in strict mode when a config file has errors, before any of its keys is applied. The message lists the
 * first {@value #MAX_LISTED} diagnostics, one per line, as {@code path:line: key 'k': message}, and counts the rest.
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigDiagnostic> diagnostics;

    /** Errors listed in the message; the rest are counted. */
    public static final int MAX_LISTED = 5;

    /**
     * @param diagnostics the errors, at least one.
     */
    public ConfigException(final List<ConfigDiagnostic> diagnostics)
    {
        super(describe(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    private static String describe(final List<ConfigDiagnostic> diagnostics)
    {
        final String listed = diagnostics.stream().limit(MAX_LISTED).map(ConfigDiagnostic::toString)
            .collect(Collectors.joining("\n"));
        final int more = diagnostics.size() - MAX_LISTED;
        return more <= 0 ? listed : listed + "\n... and " + more + " more error" + (more == 1 ? "" : "s");
    }

    /**
     * @return the errors, in the order LoadGen would log them.
     */
    public List<ConfigDiagnostic> diagnostics()
    {
        return diagnostics;
    }
}
