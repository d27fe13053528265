package org.jloadgen.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown in strict mode when a config file has errors, before any of its keys is applied. The message lists
 * every diagnostic, one per line, as {@code path:line: key 'k': message}.
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigDiagnostic> diagnostics;

    /**
     * @param diagnostics the errors, at least one.
     */
    public ConfigException(final List<ConfigDiagnostic> diagnostics)
    {
        super(diagnostics.stream().map(ConfigDiagnostic::toString).collect(Collectors.joining("\n")));
        this.diagnostics = List.copyOf(diagnostics);
    }

    /**
     * @return the errors, in the order LoadGen would log them.
     */
    public List<ConfigDiagnostic> diagnostics()
    {
        return diagnostics;
    }
}
