package org.jloadgen.sut.synthetic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.testing.MmcQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthetic SUT in simulated time: an M/M/c queue whose latencies match queueing theory, deterministic, and a
 * clock that keeps time for the engine.
 */
class SimulatedSutTest
{
    @TempDir
    Path dir;

    private static SutInstance simulated(final String... kv)
    {
        final Map<String, String> options = new java.util.HashMap<>();
        options.put("time", "simulated");
        for (int i = 0; i < kv.length; i += 2)
        {
            options.put(kv[i], kv[i + 1]);
        }
        return new BuiltinSutProviders.Synthetic().create(new SutContext(TestScenario.SERVER, options, 1024, 1024));
    }

    private static TestResult server(final SutInstance instance, final Path out, final double qps,
        final long durationMs)
    {
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
            .serverTargetQps(qps).serverTargetLatencyNs(100_000_000).minDurationMs(durationMs).minQueryCount(100);
        final EngineOptions options = instance.engineOptions(new EngineOptions().completionTimeoutMs(5_000));
        return new TestRunner(instance.sut(), instance.qsl(), s, new LogSettings().outputDirectory(out), options,
            null, List.of(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
    }

    private static double percentileSeconds(final PerformanceSummary summary, final double p)
    {
        return summary.sampleLatencyPercentileNs(PerformanceSummary.percentileIndex(p)) / 1e9;
    }

    @Test
    void shouldServeAnMm1QueueAsTheoryPredicts()
    {
        // mu = 1000/s, lambda = 600/s: T is exponential with rate 400/s; p50 1.73 ms, p99 11.5 ms, mean 2.5 ms.
        try (SutInstance instance = simulated("service", "exponential:1ms", "workers", "1", "seed", "11",
            "tick", "10us"))
        {
            final PerformanceSummary s = server(instance, dir.resolve("mm1"), 600, 200_000).performance().get(0);
            final MmcQueue theory = new MmcQueue(1, 1_000);
            assertEquals(Math.log(100) / 400, theory.percentileSeconds(600, 0.99), 1e-9, "the formula itself");
            assertEquals(theory.meanSeconds(600), s.sampleLatencyMeanNs() / 1e9, theory.meanSeconds(600) * 0.04);
            assertEquals(theory.percentileSeconds(600, 0.5), percentileSeconds(s, 0.5),
                theory.percentileSeconds(600, 0.5) * 0.04);
            assertEquals(theory.percentileSeconds(600, 0.99), percentileSeconds(s, 0.99),
                theory.percentileSeconds(600, 0.99) * 0.05);
            assertTrue(s.sampleCount() > 110_000, "200 s of simulated load: " + s.sampleCount());
        }
    }

    @Test
    void shouldServeAnMmcQueueAsTheoryPredicts()
    {
        // c = 4, mu = 500/s, lambda = 1800/s (90% busy): Erlang C says 79% of arrivals wait.
        try (SutInstance instance = simulated("service", "exponential:2ms", "workers", "4", "seed", "5",
            "tick", "10us"))
        {
            final PerformanceSummary s = server(instance, dir.resolve("mm4"), 1_800, 200_000).performance().get(0);
            final MmcQueue theory = new MmcQueue(4, 500);
            assertEquals(0.7878, theory.waitProbability(1_800), 1e-4, "Erlang C (4 servers, a = 3.6)");
            for (final double p : new double[] {0.5, 0.9, 0.99})
            {
                final double expected = theory.percentileSeconds(1_800, p);
                assertEquals(expected, percentileSeconds(s, p), expected * 0.06, "p" + p);
            }
        }
    }

    @Test
    void shouldGiveTheSameRunTwice()
    {
        final String[] options = {"service", "exponential:500us", "workers", "2", "batch", "4", "seed", "3"};
        try (SutInstance a = simulated(options); SutInstance b = simulated(options))
        {
            final PerformanceSummary first = server(a, dir.resolve("a"), 3_000, 5_000).performance().get(0);
            final PerformanceSummary second = server(b, dir.resolve("b"), 3_000, 5_000).performance().get(0);
            assertEquals(first.sampleCount(), second.sampleCount());
            for (int i = 0; i < PerformanceSummary.percentiles().length; i++)
            {
                assertEquals(first.sampleLatencyPercentileNs(i), second.sampleLatencyPercentileNs(i));
            }
            assertEquals(first.sampleLatencyMeanNs(), second.sampleLatencyMeanNs());
        }
    }

    @Test
    void shouldBatchWhatWaitsWhenAServerFrees()
    {
        // One server, fixed 10 ms per batch of up to 8, at 2000 QPS: 20 arrivals per batch time, so nearly every
        // batch is full and the queue grows: the run is INVALID, but every sample completes.
        try (SutInstance instance = simulated("service", "fixed:10ms", "workers", "1", "batch", "8"))
        {
            final TestResult r = server(instance, dir.resolve("overload"), 2_000, 1_000);
            final SimulatedSut sut = (SimulatedSut)instance.sut();
            assertTrue(sut.batches() * 7 < sut.samples(), sut.batches() + " batches, " + sut.samples() + " samples");
            assertEquals(0, r.errorCount());
            assertTrue(!r.performance().get(0).perfConstraintsMet());
            assertEquals(r.performance().get(0).sampleCount(), sut.samples());
        }
    }

    @Test
    void shouldKeepTheClockMonotonicAndRunEventsAtTheirTimes()
    {
        final SimulatedClock clock = new SimulatedClock(10);
        final long[] due = {Long.MAX_VALUE};
        final long[] ranAt = new long[1];
        clock.drive(new SimulatedClock.Events()
        {
            @Override
            public long nextEventNs()
            {
                return due[0];
            }

            @Override
            public void runNextEvent()
            {
                ranAt[0] = clock.nanoTime();
                due[0] = Long.MAX_VALUE;
            }
        });
        final long t0 = clock.nanoTime();
        assertEquals(t0 + 10, clock.nanoTime());
        due[0] = t0 + 25;
        assertEquals(t0 + 20, clock.nanoTime(), "not due yet");
        assertEquals(t0 + 30, clock.nanoTime());
        assertEquals(t0 + 25, ranAt[0], "readings inside an event give its time");
        due[0] = t0 + 1_000_000;
        clock.runAllEvents();
        assertEquals(t0 + 1_000_000, ranAt[0]);
        assertEquals(t0 + 1_000_010, clock.nanoTime(), "time goes on after the last event");
        assertTrue(Math.abs(t0 / 1_000_000 - System.currentTimeMillis()) < 60_000, "starts at the epoch time");
        assertThrows(IllegalArgumentException.class, () -> new SimulatedClock(0));
    }

    @Test
    void shouldLetOtherThreadsLookWithoutMovingTime() throws InterruptedException
    {
        final SimulatedClock clock = new SimulatedClock(10);
        final long t0 = clock.nanoTime();
        final long[] seen = new long[3];
        final Thread onlooker = new Thread(() ->
        {
            for (int i = 0; i < seen.length; i++)
            {
                seen[i] = clock.nanoTime();
            }
        });
        onlooker.start();
        onlooker.join();
        assertEquals(List.of(t0, t0, t0), java.util.Arrays.stream(seen).boxed().toList(), "the last reading, unmoved");
        assertEquals(t0 + 10, clock.nanoTime());
    }

    @Test
    void shouldRefuseOptionsThatDoNotApplyInSimulatedTime()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> simulated("inline", "true"));
        assertTrue(ex.getMessage().contains("inline is not a synthetic (time=simulated) SUT option; known: batch, "
            + "name, per-sample, seed, service, tick, workers"), ex.getMessage());
        final IllegalArgumentException time = assertThrows(IllegalArgumentException.class,
            () -> new BuiltinSutProviders.Synthetic().create(new SutContext(TestScenario.SERVER,
                Map.of("time", "virtual"), 16, 16)));
        assertTrue(time.getMessage().contains("time=virtual: expected real or simulated"), time.getMessage());
        assertThrows(IllegalArgumentException.class, () -> simulated("workers", "0"));
    }
}
