package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.record.AccuracyLogCollector;
import org.junit.jupiter.api.Test;

class TestLogsTest
{
    private static final int SMALL = AccuracyLogCollector.SMALL_CAPACITY_BYTES;
    private static final int DEFAULT = AccuracyLogCollector.DEFAULT_CAPACITY_BYTES;

    @Test
    void shouldGiveTheSmallRingOnlyToATestThatLogsNoSample()
    {
        assertEquals(SMALL, TestLogs.accuracyRingBytes(test(TestMode.PERFORMANCE_ONLY), false));
        assertEquals(SMALL, TestLogs.accuracyRingBytes(test(TestMode.FIND_PEAK_PERFORMANCE), false));
    }

    @Test
    void shouldGiveTheDefaultRingToEveryTestThatMayLogSamples()
    {
        // Every sample of an accuracy series is logged.
        assertEquals(DEFAULT, TestLogs.accuracyRingBytes(test(TestMode.ACCURACY_ONLY), false));
        assertEquals(DEFAULT, TestLogs.accuracyRingBytes(test(TestMode.SUBMISSION_RUN), false));
        // A performance series logs the samples its probability or sampling target selects (compliance TEST01).
        assertEquals(DEFAULT, TestLogs.accuracyRingBytes(test(TestMode.PERFORMANCE_ONLY)
            .accuracyLogProbability(0.1), false));
        assertEquals(DEFAULT, TestLogs.accuracyRingBytes(test(TestMode.PERFORMANCE_ONLY)
            .accuracyLogSamplingTarget(1024), false));
        // An audit.config may set either after the logs open.
        assertEquals(DEFAULT, TestLogs.accuracyRingBytes(test(TestMode.PERFORMANCE_ONLY), true));
    }

    private static TestSettings test(final TestMode mode)
    {
        return new TestSettings().scenario(TestScenario.SINGLE_STREAM).mode(mode);
    }
}
