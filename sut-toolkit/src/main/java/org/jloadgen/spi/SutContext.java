package org.jloadgen.spi;

import java.util.Map;

import org.jloadgen.api.TestScenario;

/**
 * What a {@link SutProvider} gets from the command line.
 *
 * @param scenario            the scenario about to run (SUTs pick batching defaults per scenario).
 * @param options             {@code --sut-opt key=value} pairs plus the named SUT flags ({@code model-file},
 *                            {@code dataset}, {@code labels}, {@code descriptor}) when given.
 * @param qslTotalCount       {@code --qsl-total}: size of a synthetic sample library.
 * @param qslPerformanceCount {@code --qsl-performance}: its performance sample count.
 */
public record SutContext(
    TestScenario scenario, Map<String, String> options, long qslTotalCount, long qslPerformanceCount)
{
    /**
     * @param key   option name.
     * @param value default.
     * @return the option's value or the default.
     */
    public String option(final String key, final String value)
    {
        return options.getOrDefault(key, value);
    }
}
