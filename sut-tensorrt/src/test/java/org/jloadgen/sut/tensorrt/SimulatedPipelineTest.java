package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.SutStatistics;
import org.jloadgen.sut.tensorrt.simulated.SimulatedGpu;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The LWIS pipeline (slots, streams, events, graphs, post-processing, completion) over the simulated device, through
 * the real engine. Every dataset's labels are what the simulated model predicts, so 100% accuracy proves every
 * response reached the right sample; the device's counters show what was copied, launched and left behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimulatedPipelineTest
{
    private static final int SAMPLES = 2_000;

    @TempDir
    Path dir;

    private Sims.Files3 files;

    @BeforeEach
    void writeDataset() throws IOException
    {
        files = Sims.dataset(dir, SAMPLES);
    }

    private static void assertAllCorrect(final TensorRtSut sut, final TestResult result)
    {
        assertEquals(0, result.errorCount(), result.messages().toString());
        final ClassificationAccuracy.Report report = sut.accuracy(result.accuracyFile());
        assertEquals(SAMPLES, report.scored(), report.describe());
        assertEquals(SAMPLES, report.correct(), report.describe());
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldReturnEverySamplesOwnClassInEveryScenario(final TestScenario scenario)
    {
        // Parking threads: SingleStream's spinning defaults would take the simulated streams' cores on a small machine.
        try (Sims.Opened o = Sims.open(files.options("idle", "backoff", "completion-wait", "backoff"), scenario))
        {
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(scenario), dir.resolve(scenario.name()));
            assertAllCorrect(o.sut(), result);
            assertEquals(ClassificationAccuracy.DataType.INT32, o.sut().layout().accuracyType(), "device argmax");
            assertEquals(4, o.sut().layout().responseBytes());
            assertEquals(o.sut().settings().copyStreams(), o.sut().freeSlots(), "every slot back in the free queue");
        }
    }

    @Test
    void shouldReturnRawRowsRankedIdsAndRowsFetchedOnDemand()
    {
        for (final String[] variant : new String[][] {{"postprocess", "none"}, {"postprocess", "topk:3"},
            {"postprocess", "none", "raw-outputs", "on-demand"}})
        {
            try (Sims.Opened o = Sims.open(files.options(variant), TestScenario.OFFLINE))
            {
                final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.OFFLINE),
                    dir.resolve(String.join("-", variant).replace(':', '_')));
                assertAllCorrect(o.sut(), result);
                final long d2h = o.backend().device(0).d2hCopies();
                if (variant.length == 4)
                {
                    assertEquals(Sims.CLASSES * Float.BYTES, o.sut().layout().responseBytes());
                    assertEquals(ClassificationAccuracy.DataType.FLOAT32, o.sut().layout().accuracyType());
                    // Warm-up copies back once per size; then one fetch per logged sample, none per batch.
                    assertTrue(d2h >= SAMPLES, "a row fetched for each logged sample: " + d2h);
                }
                else if (variant[1].equals("none"))
                {
                    assertEquals(ClassificationAccuracy.DataType.FLOAT32, o.sut().layout().accuracyType());
                }
                else
                {
                    assertEquals(12, o.sut().layout().responseBytes(), "3 int32 ids");
                    assertEquals(ClassificationAccuracy.DataType.INT32_RANKED, o.sut().layout().accuracyType());
                }
            }
        }
    }

    @Test
    void shouldCopyAContiguousOfflineBatchAsItIsAndGatherAScatteredServerBatchForOneCopy()
    {
        try (Sims.Opened o = Sims.open(files.options("batch", "100"), TestScenario.OFFLINE))
        {
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.OFFLINE), dir.resolve("offline"));
            assertAllCorrect(o.sut(), result);
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            assertEquals(SAMPLES / 100, stats.batches());
            assertEquals(stats.batches(), stats.counters().get("input_copies"), "one H2D per contiguous batch");
            assertEquals(0, stats.counters().get("host_gathers"), "contiguous batches are copied as they lie");
            assertTrue(o.backend().device(0).h2dPinnedCopies() >= stats.batches(), "copies from the pinned slab");
        }
        try (Sims.Opened o = Sims.open(files.options("batch", "16", "timeout-us", "2000"), TestScenario.SERVER))
        {
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.SERVER), dir.resolve("server"));
            assertAllCorrect(o.sut(), result);
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            assertEquals(stats.batches(), stats.counters().get("input_copies"), "one H2D per batch");
            assertTrue(stats.counters().get("host_gathers") > stats.batches() / 2,
                "accuracy-mode Server samples are shuffled: most batches are gathered on the host first");
            assertTrue(o.backend().device(0).h2dPinnedCopies() >= stats.batches(), "copies from pinned memory");
        }
    }

    @Test
    void shouldStartFromDeviceMemoryWithNoHostCopyDuringTheRun()
    {
        try (Sims.Opened o = Sims.open(files.options("start-from-device", "true"), TestScenario.SERVER))
        {
            final SimulatedGpu gpu = o.backend().device(0);
            final long h2dBefore = gpu.h2dCopies();
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.SERVER), dir.resolve("device"));
            assertAllCorrect(o.sut(), result);
            assertEquals(1, gpu.h2dCopies() - h2dBefore, "the loaded set, once, at load time");
            assertEquals(o.sut().statistics().snapshot().counters().get("input_copies"), gpu.d2dCopies(),
                "every batch gathered on the device");
            assertEquals(0, gpu.registeredRegions(), "nothing pinned on the host");
        }
    }

    @Test
    void shouldPinTheSlabForTheRunOnly()
    {
        try (Sims.Opened o = Sims.open(files.options(), TestScenario.OFFLINE))
        {
            final SimulatedGpu gpu = o.backend().device(0);
            final long[] all = java.util.stream.LongStream.range(0, SAMPLES).toArray();
            o.sut().library().loadSamplesToRam(all);
            assertEquals(1, gpu.registeredRegions(), "cudaHostRegister of the slab");
            o.sut().library().unloadSamplesFromRam(all);
            assertEquals(0, gpu.registeredRegions());
        }
    }

    @Test
    void shouldLaunchTheSmallestCapturedGraphThatHoldsTheBatch()
    {
        try (Sims.Opened o = Sims.open(files.options("batch", "8", "graphs", "2,4", "timeout-us", "500",
            "copy-streams", "2"), TestScenario.SERVER))
        {
            final SimulatedGpu gpu = o.backend().device(0);
            final Map<Integer, Long> before = gpu.inferencesBySize();
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.SERVER), dir.resolve("graphs"));
            assertAllCorrect(o.sut(), result);
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            final long[] sizes = stats.batchCounts();
            final long expectedGraphs = sizes[1] + sizes[2] + sizes[3] + sizes[4];
            assertEquals(expectedGraphs, stats.counters().get("graph_launches"), "batches of up to 4 ride a graph");
            assertEquals(stats.batches() - expectedGraphs, stats.counters().get("plain_enqueues"));
            assertEquals(sizes[1] + sizes[3], stats.counters().get("graph_padding_samples"),
                "1 pads to 2, 3 pads to 4");
            final Map<Integer, Long> after = gpu.inferencesBySize();
            assertEquals(sizes[1] + sizes[2], after.getOrDefault(2, 0L) - before.getOrDefault(2, 0L));
            assertEquals(sizes[3] + sizes[4], after.getOrDefault(4, 0L) - before.getOrDefault(4, 0L));
            assertEquals(0, after.getOrDefault(1, 0L) - before.getOrDefault(1, 0L) + after.getOrDefault(3, 0L)
                - before.getOrDefault(3, 0L), "the device never ran a size that has a larger captured graph");
            // Outside graphs the kernel ran once per plain enqueue, plus at start-up: each captured size once before
            // its capture (2 sizes x 2 slots) and the warm-up of size 8, which has no graph (2 slots).
            assertEquals(2 * 2 + 2 + stats.counters().get("plain_enqueues"), gpu.topKLaunches() - gpu.graphLaunches(),
                "the top-k kernel ran inside each graph");
        }
    }

    @Test
    void shouldSpreadBatchesOverEveryGpuWithItsOwnThreads()
    {
        try (Sims.Opened o = Sims.open(files.options("sim-devices", "2", "batch", "50"), TestScenario.OFFLINE))
        {
            assertEquals(2, o.sut().gpuCount());
            final long before0 = o.backend().device(0).inferences();
            final long before1 = o.backend().device(1).inferences();
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.OFFLINE), dir.resolve("two"));
            assertAllCorrect(o.sut(), result);
            assertTrue(o.backend().device(0).inferences() > before0, "GPU 0 ran batches");
            assertTrue(o.backend().device(1).inferences() > before1, "GPU 1 ran batches");
            final Set<String> threads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.contains("-gpu")).collect(java.util.stream.Collectors.toSet());
            assertTrue(threads.stream().anyMatch(n -> n.contains("-gpu0-completion")), threads.toString());
            assertTrue(threads.stream().anyMatch(n -> n.contains("-gpu1-completion")), threads.toString());
        }
    }

    @Test
    void shouldHoldBatchesBackWhileEveryStreamIsBusyAndTakeWhatArrivedMeanwhile()
    {
        try (Sims.Opened o = Sims.open(files.options("copy-streams", "1", "batch", "64", "timeout-us", "0",
            "sim-infer-us", "3000", "warmup", "0"), TestScenario.SERVER))
        {
            final TestResult result = Sims.run(o.sut(), new TestSettings().scenario(TestScenario.SERVER)
                .mode(TestMode.PERFORMANCE_ONLY).serverTargetQps(3_000).minDurationMs(400).minQueryCount(100),
                dir.resolve("busy"));
            assertEquals(0, result.errorCount(), result.messages().toString());
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            assertTrue(stats.counters().get("full_pipeline_waits") > 0, "the one stream was busy");
            assertTrue(stats.samples() / (double)stats.batches() > 3,
                "3 ms batches at 3000 QPS gather several samples each: " + stats.describe(null));
            assertEquals(stats.batches(), stats.stage("infer").histogram().getTotalCount());
            final long meanInferNs = (long)stats.stage("infer").histogram().getMean();
            assertTrue(meanInferNs >= 2_500_000, "device time from the events: " + meanInferNs);
        }
    }

    @Test
    void shouldWarmUpEverySizeOnEverySlotThenStartTheStatisticsAfresh()
    {
        try (Sims.Opened o = Sims.open(files.options("batch", "8", "graphs", "auto", "copy-streams", "3",
            "warmup", "2"), TestScenario.SERVER))
        {
            final SimulatedGpu gpu = o.backend().device(0);
            // Sizes 1, 2, 4, 8: captured once outside a graph per slot, then 2 warm-up runs per slot.
            for (final int size : new int[] {1, 2, 4, 8})
            {
                assertEquals(3L * (1 + 2), gpu.inferencesBySize().get(size), "size " + size);
            }
            assertEquals(4 * 3 * 2, gpu.graphLaunches(), "the warm-up runs through the graphs");
            final SutStatistics.Snapshot stats = o.sut().statistics().snapshot();
            assertEquals(0, stats.batches());
            assertEquals(0, stats.counters().get("graph_launches"));
        }
    }

    @Test
    void shouldEndTheRunWithTheDevicesErrorWhenAnInferenceFails()
    {
        try (Sims.Opened o = Sims.open(files.options("sim-fail-after", "20", "batch", "16"), TestScenario.OFFLINE))
        {
            final TestResult result = Sims.run(o.sut(), Sims.accuracy(TestScenario.OFFLINE), dir.resolve("fail"));
            assertTrue(result.errorCount() > 0);
            assertTrue(result.messages().toString().contains("simulated inference failure on GPU 0 after 20 "
                + "inferences"), result.messages().toString());
        }
    }

    @Test
    void shouldLeaveNothingOnTheDeviceAfterClose()
    {
        final Sims.Opened o = Sims.open(files.options("sim-devices", "2", "graphs", "auto", "start-from-device",
            "true"), TestScenario.SERVER);
        Sims.run(o.sut(), Sims.accuracy(TestScenario.SERVER), dir.resolve("leak"));
        o.close();
        for (final int g : new int[] {0, 1})
        {
            assertEquals("streams 0, events 0, graphs 0, contexts 0, engines 0, allocations 0",
                o.backend().device(g).liveObjects(), "GPU " + g);
        }
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.isAlive()
            && t.getName().startsWith(o.sut().name() + "-")), "SUT threads stopped");
    }
}
