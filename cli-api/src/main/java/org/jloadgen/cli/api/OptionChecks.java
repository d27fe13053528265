package org.jloadgen.cli.api;

/**
 * Range checks of numeric command-line options, with messages that name the option.
 */
public final class OptionChecks
{
    private OptionChecks()
    {
    }

    /**
     * @param option the option, e.g. {@code --jit-warmup-ms}.
     * @param value  its value.
     * @param min    the smallest value it takes.
     * @throws IllegalArgumentException {@code OPTION must be at least MIN, got VALUE}.
     */
    public static void atLeast(final String option, final long value, final long min)
    {
        if (value < min)
        {
            throw new IllegalArgumentException(option + " must be at least " + min + ", got " + value);
        }
    }
}
