package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.NullWorkerSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's warm-up with the toolkit's warm-up SUTs installed (as on the command line): which rounds it runs for
 * which test SUT, and what the detail log says of it.
 */
class ToolkitWarmupTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunNoWorkerRoundsForATestOfTheInlineNullSut()
    {
        final EffectiveSettings offline = new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE),
            1024, 1024);
        final Warmup.Warmed inline = Warmup.run(offline, EngineFixture.fastOptions(), 20, new NullSut("x"), false);
        assertFalse(inline.workerRounds(), "the test runs no worker: " + inline.describe());
        assertTrue(inline.rounds() >= 1);
        assertNotNull(inline.ending());
        try (BatchingSut worker = NullWorkerSut.create(CompletionWaitStrategy.PARK))
        {
            assertTrue(Warmup.run(offline, EngineFixture.fastOptions(), 20, worker, false).workerRounds(),
                "a worker SUT's test gets the toolkit's hand-off compiled");
        }
        assertTrue(Warmup.run(offline, EngineFixture.fastOptions(), 20, null, false).workerRounds(), "unknown SUT");
    }

    @Test
    void shouldSayInTheDetailLogHowLongTheWarmupRanAndWhyItEnded()
    {
        final EngineFixture.Run run = EngineFixture.run(dir, new NullSut(), new SyntheticQsl(1024, 1024),
            new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(0).minQueryCount(1000),
            EngineFixture.fastOptions().jitWarmupMs(20), null, List.of());
        final String warmup = (String)run.detail().value(TestRunner.WARMUP_KEY);
        assertTrue(warmup.matches("\\d+ ms, \\d+ rounds, no worker rounds \\(.*\\); ended: .+"), warmup);
        final long ms = Long.parseLong(warmup.substring(0, warmup.indexOf(' ')));
        assertTrue(ms >= 20, "at least its budget: " + warmup);
        // Before the series, after the settings.
        assertTrue(run.detail().first(TestRunner.WARMUP_KEY).line() > run.detail().first("effective_scenario").line());

        try (BatchingSut worker = NullWorkerSut.create(CompletionWaitStrategy.PARK))
        {
            final EngineFixture.Run workerRun = EngineFixture.run(dir.resolve("worker"), worker,
                new SyntheticQsl(1024, 1024),
                new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(0).minQueryCount(1000),
                EngineFixture.fastOptions().jitWarmupMs(20), null, List.of());
            final String described = (String)workerRun.detail().value(TestRunner.WARMUP_KEY);
            assertTrue(described.contains(", with worker rounds; ended: "), described);
        }

        final EngineFixture.Run none = EngineFixture.run(dir.resolve("none"), new NullSut(),
            new TestSettings().scenario(TestScenario.SINGLE_STREAM).minDurationMs(0).minQueryCount(1000));
        assertEquals(null, none.detail().first(TestRunner.WARMUP_KEY), "no warm-up (jitWarmupMs 0), no record");
    }
}
