package org.jloadgen.benchmarks.overhead;

import java.util.function.DoublePredicate;

import org.jloadgen.api.TestScenario;

/**
 * One row of the budget table: a number taken from each run of one configuration.
 *
 * @param label            the figure, as the table names it.
 * @param configId         the configuration whose runs it is read from.
 * @param loadgen          the official LoadGen's figure (text), or an em dash.
 * @param target           the budget's target (text), or an em dash.
 * @param format           how values are printed.
 * @param value            the value of one run.
 * @param meets            whether a median meets the target, or {@code null} where there is none.
 * @param baselineScenario scenario of the tiny run whose peak RSS the value subtracts, or {@code null}.
 */
public record Figure(
    String label,
    String configId,
    String loadgen,
    String target,
    Format format,
    RunValue value,
    DoublePredicate meets,
    TestScenario baselineScenario)
{
    /**
     * The value of a figure for one run.
     */
    @FunctionalInterface
    public interface RunValue
    {
        /**
         * @param run         the run.
         * @param baselineKib median peak RSS of the tiny run of the same scenario (KiB), or 0 if not needed.
         * @return the value.
         */
        double of(RunResult run, double baselineKib);
    }

    /**
     * @param key a detail-log key.
     * @return the value of that key.
     */
    static RunValue key(final String key)
    {
        return (run, baselineKib) -> run.number(key);
    }
}
