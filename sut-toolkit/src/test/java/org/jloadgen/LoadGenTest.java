package org.jloadgen;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.NullSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadGenTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunOneTestAtATimeAndAbortIt() throws Exception
    {
        assertFalse(LoadGen.abortTest("nothing runs"));
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(1000)
            .minDurationMs(60_000);
        final EngineOptions options = new EngineOptions().jitWarmupMs(0);
        final CompletableFuture<TestResult> running = CompletableFuture.supplyAsync(() -> LoadGen.startTest(
            new NullSut(), new SyntheticQsl(64, 64), s, new LogSettings().outputDirectory(dir), options, null));
        // Wait until the test has opened its logs, then try a second one and abort the first.
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(dir.resolve("mlperf_log_detail.txt.partial")) && System.nanoTime() < deadlineNs)
        {
            Thread.sleep(10);
        }
        assertThrows(IllegalStateException.class, () -> LoadGen.startTest(new NullSut(), new SyntheticQsl(64, 64),
            s, new LogSettings().outputDirectory(dir.resolve("second")), options, null));
        assertTrue(LoadGen.abortTest("test over"));
        final TestResult result = running.get(30, TimeUnit.SECONDS);
        assertFalse(result.valid());
        assertTrue(Files.readString(result.detailFile()).contains("Test aborted: test over"));
    }
}
