package org.jloadgen.analysis.submission;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One step of the flow: what it is, what it depends on, what its inputs are (hashed into its record, so a change
 * redoes it), how long it should take, and what it does.
 *
 * @param id         its id, e.g. {@code fashion-mnist-mlp/Offline/performance} ({@code --redo} takes it).
 * @param title      what it does, in a few words.
 * @param dependsOn  the steps whose outputs it reads (their records are part of its inputs).
 * @param inputs     its own inputs as text: the command lines and settings it uses.
 * @param estimateMs its expected wall time.
 * @param body       what it does.
 */
record Step(String id, String title, List<String> dependsOn, Supplier<String> inputs, Supplier<Long> estimateMs,
    Body body)
{
    /**
     * What a step does.
     */
    @FunctionalInterface
    interface Body
    {
        /**
         * @return what it put in place and measured.
         * @throws Exception on failure ({@link Failure} with a message for the user).
         */
        Outcome run() throws Exception;
    }

    /**
     * What a step did.
     *
     * @param outputs the files and folders it put in place.
     * @param values  what it measured or decided (kept in its record).
     * @param note    one line for the progress line.
     */
    record Outcome(List<Path> outputs, Map<String, String> values, String note)
    {
    }

    /**
     * A step that did not succeed, with what the user should know.
     */
    static final class Failure extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        /**
         * @param message what went wrong and where to look.
         */
        Failure(final String message)
        {
            super(message, null, false, false);
        }
    }
}
