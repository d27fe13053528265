package org.jloadgen.config;

import org.jloadgen.clib.ControlChars;

/**
 * One finding about a config file line: an error LoadGen reports as {@code error_invalid_config}, or a
 * warning/note about a line LoadGen silently ignores.
 *
 * @param source         file path (or the name of the built-in defaults) as given by the caller.
 * @param line           1-based line number; 0 when the finding is about the whole file.
 * @param key            the key of the line (its first token), or {@code ""} when there is none.
 * @param severity       how serious it is.
 * @param message        what is wrong, for people.
 * @param loadGenMessage for errors: the exact text LoadGen logs as {@code error_invalid_config}; otherwise
 *                       {@code null}.
 */
public record ConfigDiagnostic(
    String source, int line, String key, Severity severity, String message, String loadGenMessage)
{
    /**
     * How serious a diagnostic is.
     */
    public enum Severity
    {
        /** LoadGen logs an {@code error_invalid_config} record; the submission checker rejects the log. */
        ERROR,
        /** LoadGen ignores the line or key without a word; most likely a mistake. */
        WARNING,
        /** LoadGen ignores the line by design (e.g. model-specific lines in audit.config). */
        NOTE
    }

    /**
     * @param source         file.
     * @param line           line number.
     * @param key            key.
     * @param message        for people.
     * @param loadGenMessage LoadGen's {@code error_invalid_config} text.
     * @return an error.
     */
    public static ConfigDiagnostic error(
        final String source, final int line, final String key, final String message, final String loadGenMessage)
    {
        return new ConfigDiagnostic(source, line, key, Severity.ERROR, message, loadGenMessage);
    }

    /**
     * @param source  file.
     * @param line    line number.
     * @param key     key.
     * @param message for people.
     * @return a warning.
     */
    public static ConfigDiagnostic warning(final String source, final int line, final String key, final String message)
    {
        return new ConfigDiagnostic(source, line, key, Severity.WARNING, message, null);
    }

    /**
     * @param source  file.
     * @param line    line number.
     * @param key     key.
     * @param message for people.
     * @return a note.
     */
    public static ConfigDiagnostic note(final String source, final int line, final String key, final String message)
    {
        return new ConfigDiagnostic(source, line, key, Severity.NOTE, message, null);
    }

    /**
     * @return {@code path:line: key 'k': message}, control characters escaped; the line part is left out for
     *         whole-file findings and the key part when there is no key.
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(source.length() + message.length() + key.length() + 24);
        sb.append(source).append(':');
        if (line > 0)
        {
            sb.append(line).append(':');
        }
        sb.append(' ');
        if (!key.isEmpty())
        {
            sb.append("key '").append(key).append("': ");
        }
        return ControlChars.escape(sb.append(message).toString());
    }
}
