package org.jloadgen.sut.synthetic;

/**
 * Deliberate SUT bugs the synthetic SUT can play, to prove each ends in a clear error, never a hang or a lost
 * log. Each starts after a configurable number of queries.
 */
public enum Misbehaviour
{
    /** Behave. */
    NONE,
    /** Stop completing samples. */
    NEVER,
    /** Complete every sample twice. */
    TWICE,
    /** Complete an id the engine never handed out, besides the real one. */
    UNKNOWN,
    /** Throw from {@code issueQuery}. */
    THROW,
    /** Throw from {@code flushQueries}. */
    THROW_FLUSH,
    /** A worker's inference fails: the SUT reports it through {@code ResponseSink.fail}. */
    FAIL;

    /** The names {@link #parse} accepts, for messages. */
    public static final String CHOICES = "none, never, twice, unknown, throw, throw-flush or fail";

    /**
     * @param text a name such as {@code never} or {@code throw-flush}.
     * @return the misbehaviour.
     */
    public static Misbehaviour parse(final String text)
    {
        for (final Misbehaviour m : values())
        {
            if (m.name().replace('_', '-').equalsIgnoreCase(text.trim()))
            {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown misbehaviour '" + text + "' (expected " + CHOICES + ")");
    }
}
