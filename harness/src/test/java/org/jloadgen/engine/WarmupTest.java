package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.TestScenario;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class WarmupTest
{
    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldIssueTheSameTraceRoundAfterRoundInEveryScenario(final TestScenario scenario)
    {
        // A completion of a reused trace that was not reset would be a duplicate and stall the round on the
        // completion timeout; each scenario runs rounds with and without the latency histogram.
        assertTrue(Warmup.run(scenario, new EngineOptions().latencyHistogram(true), 20) >= 1);
        assertTrue(Warmup.run(scenario, new EngineOptions().latencyHistogram(false), 20) >= 1);
    }

    @Test
    void shouldDoNothingWithoutABudget()
    {
        assertEquals(0, Warmup.run(TestScenario.SERVER, new EngineOptions(), 0));
    }
}
