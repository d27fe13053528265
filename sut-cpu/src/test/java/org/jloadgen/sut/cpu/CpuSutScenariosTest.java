package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.sut.DatasetDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The embedded Fashion-MNIST model through the real engine in every scenario: accuracy equal to the model's
 * known 8919 of 10000 whatever the batching, and short performance runs that complete every sample.
 */
class CpuSutScenariosTest
{
    @TempDir
    Path dir;

    private static TestSettings accuracySettings(final TestScenario scenario)
    {
        // Server: all 10,000 queries are scheduled; a high rate keeps the run short.
        return new TestSettings().scenario(scenario).mode(TestMode.ACCURACY_ONLY).serverTargetQps(100_000);
    }

    @ParameterizedTest
    @EnumSource(TestScenario.class)
    void shouldScoreTheModelsKnownAccuracyInEveryScenario(final TestScenario scenario) throws Exception
    {
        try (CpuSut sut = CpuSut.open(Runs.fashion(), InferenceSettings.defaults(scenario)))
        {
            final TestResult result = Runs.engine(sut, accuracySettings(scenario), dir);
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            final ClassificationAccuracy.Report report = sut.accuracy(result.accuracyFile());
            assertEquals(FashionMnist.SAMPLE_COUNT, report.scored());
            assertEquals(FashionMnist.KNOWN_CORRECT, report.correct());
            assertEquals(0, report.missing());
            assertEquals("top-1 accuracy: 89.19% (8919 of 10000 samples)",
                report.describe().replaceAll("; \\d+ repeated entries ignored", ""));
            assertEquals(0, MlLogParser.parse(result.detailFile()).errorCount());
        }
    }

    @Test
    void shouldReadOfflineBatchesStraightFromTheSlabAndStageScatteredServerBatches() throws Exception
    {
        try (CpuSut offline = CpuSut.open(Runs.fashion(), InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            Runs.engine(offline, accuracySettings(TestScenario.OFFLINE), dir.resolve("offline"));
            assertTrue(offline.zeroCopyBatches()
                >= FashionMnist.SAMPLE_COUNT / InferenceSettings.OFFLINE_BATCH_DEFAULT);
            assertEquals(0, offline.stagedBatches());
            final org.jloadgen.sut.SutStatistics.Snapshot stats = offline.statistics().snapshot();
            assertEquals(FashionMnist.SAMPLE_COUNT, stats.samples());
            assertEquals(stats.batches(), stats.stage("inference").histogram().getTotalCount(),
                "one inference time per batch");
            assertEquals(offline.zeroCopyBatches(), stats.counters().get("zero_copy_batches"));
            assertEquals(stats.batches(), stats.counters().get("zero_copy_batches"));
        }
        try (CpuSut server = CpuSut.open(Runs.fashion(), new InferenceSettings(32, 2_000, 1, 1, false,
            org.jloadgen.api.CompletionWaitStrategy.BACKOFF, new int[0], InferenceSettings.QUEUE_CAPACITY_DEFAULT)))
        {
            final TestResult result = Runs.engine(server, accuracySettings(TestScenario.SERVER),
                dir.resolve("server"));
            assertEquals(FashionMnist.KNOWN_CORRECT, server.accuracy(result.accuracyFile()).correct());
            assertTrue(server.stagedBatches() > 0, "accuracy-mode Server samples arrive in shuffled order");
        }
    }

    @Test
    void shouldRunFromMappedFilesWithTheSameAccuracy() throws Exception
    {
        final ModelDescriptor copy = Runs.fashion();
        final ModelDescriptor mapped = new ModelDescriptor(null, copy.modelFile(), null, null, new DatasetDescriptor(
            copy.data().dataset(), copy.data().labels(), null, null, FashionMnist.IMAGE_HEADER_BYTES, -1, null, 0,
            SampleStore.Placement.MAPPED, 0, null));
        for (final TestScenario scenario : new TestScenario[] {TestScenario.OFFLINE, TestScenario.SERVER})
        {
            try (CpuSut sut = CpuSut.open(mapped, InferenceSettings.defaults(scenario)))
            {
                assertEquals("ONNXRuntime-CPU(model.onnx)", sut.name());
                assertEquals(FashionMnist.SAMPLE_COUNT, sut.library().totalSampleCount());
                final TestResult result = Runs.engine(sut, accuracySettings(scenario), dir.resolve(scenario.name()));
                assertEquals(FashionMnist.KNOWN_CORRECT, sut.accuracy(result.accuracyFile()).correct());
            }
        }
    }

    @Test
    void shouldCompleteAShortOfflinePerformanceRunThatWrapsTheLoadedSet() throws Exception
    {
        try (CpuSut sut = CpuSut.open(Runs.fashion(), InferenceSettings.defaults(TestScenario.OFFLINE)))
        {
            // 25,000 samples: two and a half passes over the loaded set, wrapping around it twice.
            final TestResult result = Runs.engine(sut, new TestSettings().scenario(TestScenario.OFFLINE)
                .mode(TestMode.PERFORMANCE_ONLY).minDurationMs(0).minQueryCount(25_000), dir);
            final PerformanceSummary p = result.performance().get(0);
            assertEquals(25_000, p.sampleCount());
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            assertTrue(result.valid());
            // Only a batch that crosses the end of the loaded set is copied: at most one per wrap.
            assertTrue(sut.stagedBatches() <= 2, () -> "staged " + sut.stagedBatches());
            assertTrue(sut.zeroCopyBatches() >= 25_000 / InferenceSettings.OFFLINE_BATCH_DEFAULT - 2);
            final MlLogParser log = MlLogParser.parse(result.detailFile());
            assertEquals("VALID", log.value("result_validity"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = TestScenario.class, names = {"SINGLE_STREAM", "MULTI_STREAM", "SERVER"})
    void shouldCompleteAShortPerformanceRun(final TestScenario scenario) throws Exception
    {
        final TestSettings settings = new TestSettings().scenario(scenario).mode(TestMode.PERFORMANCE_ONLY)
            // Enough queries for early stopping to estimate MultiStream's 99th percentile.
            .minDurationMs(300).minQueryCount(1_000)
            // Expected latencies far below the real ones, so the engine generates more queries than it needs.
            .singleStreamExpectedLatencyNs(5_000).multiStreamExpectedLatencyNs(10_000)
            // A 30 s Server bound: VALID here is about the run's flow, and a loaded machine can queue 4,000 QPS
            // of real inference past the 100 ms default.
            .serverTargetQps(4_000).serverTargetLatencyNs(30_000_000_000L);
        try (CpuSut sut = CpuSut.open(Runs.fashion(), InferenceSettings.defaults(scenario)))
        {
            final TestResult result = Runs.engine(sut, settings, dir);
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            final PerformanceSummary p = result.performance().get(0);
            assertTrue(p.queryCount() >= 1_000, () -> "queries " + p.queryCount());
            assertTrue(p.minDurationMet());
            assertTrue(p.valid(), () -> "INVALID: " + p.minDurationMet() + " " + p.minQueriesMet() + " "
                + p.perfConstraintsMet() + " " + p.earlyStoppingMet());
            final MlLogParser log = MlLogParser.parse(result.detailFile());
            assertEquals(0, log.errorCount());
            assertEquals(sut.name(), log.value("sut_name"));
            assertTrue(Files.readString(result.summaryFile()).contains("Result is : VALID"));
        }
    }
}
