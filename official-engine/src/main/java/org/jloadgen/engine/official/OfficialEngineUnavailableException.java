package org.jloadgen.engine.official;

/**
 * {@code --engine official} cannot run: no LoadGen source, or its build failed. The message says what to set.
 */
public final class OfficialEngineUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is missing and what to set.
     */
    public OfficialEngineUnavailableException(final String message)
    {
        super(message);
    }
}
