package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SutStatisticsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldMergeEveryRecorderIntoOneSnapshot()
    {
        final SutStatistics stats = new SutStatistics("gpu sut", 8, List.of("h2d", "infer", "d2h"));
        final SutStatistics.Recorder a = stats.newRecorder();
        final SutStatistics.Recorder b = stats.newRecorder();
        a.recordBatch(8);
        a.recordBatch(8);
        b.recordBatch(3);
        b.recordBatch(100);
        a.recordStageNs(stats.stage("infer"), 1_000);
        b.recordStageNs(stats.stage("infer"), 3_000);
        b.recordStageNs(stats.stage("h2d"), 0);
        final SutStatistics.Snapshot s = stats.snapshot();
        assertArrayEquals(new long[] {0, 0, 0, 1, 0, 0, 0, 0, 3}, s.batchCounts(), "100 counts as the maximum");
        assertEquals(4, s.batches());
        assertEquals(3 + 3 * 8, s.samples());
        final Histogram infer = s.stage("infer").histogram();
        assertEquals(2, infer.getTotalCount());
        assertEquals(2_000, infer.getMean(), 2);
        assertEquals(1, s.stage("h2d").histogram().getMinValue(), "0 ns is clamped to the histogram's 1 ns");
        assertEquals(0, s.stage("d2h").histogram().getTotalCount());
    }

    @Test
    void shouldReportEachIntervalOnceAndForgetWhatAResetDiscards()
    {
        final AtomicLong graphs = new AtomicLong();
        final SutStatistics stats = new SutStatistics("s", 4, List.of("infer"));
        stats.counter("graph_launches", graphs::get);
        final SutStatistics.Recorder r = stats.newRecorder();
        r.recordBatch(4);
        r.recordStageNs(0, 50);
        graphs.addAndGet(7);
        stats.reset();
        r.recordBatch(2);
        r.recordStageNs(0, 70);
        graphs.addAndGet(3);
        final SutStatistics.Snapshot first = stats.snapshot();
        assertArrayEquals(new long[] {0, 0, 1, 0, 0}, first.batchCounts());
        assertEquals(1, first.stage("infer").histogram().getTotalCount());
        assertEquals(70, first.stage("infer").histogram().getMaxValue());
        assertEquals(Map.of("graph_launches", 3L), first.counters());
        final SutStatistics.Snapshot second = stats.snapshot();
        assertEquals(0, second.batches());
        assertEquals(0, second.stage("infer").histogram().getTotalCount());
        assertEquals(0L, second.counters().get("graph_launches"));
    }

    @Test
    void shouldWriteTheDocumentedFormatAndReadItBack() throws IOException
    {
        final SutStatistics stats = new SutStatistics("TensorRT(model.onnx) on 2 GPUs", 16, List.of("h2d", "infer"));
        stats.counter("zero_copy_batches", () -> 5);
        final SutStatistics.Recorder r = stats.newRecorder();
        for (int i = 0; i < 10; i++)
        {
            r.recordBatch(16);
            r.recordStageNs(1, 1_000 + i);
        }
        r.recordBatch(1);
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final Path file = stats.write(dir, new PrintStream(console, true, StandardCharsets.UTF_8));
        assertEquals(dir.resolve(SutStatistics.FILE_NAME), file);
        final List<String> lines = Files.readAllLines(file).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals("format 1", lines.get(0));
        assertEquals("sut TensorRT(model.onnx) on 2 GPUs", lines.get(1));
        assertEquals("batches 11", lines.get(2));
        assertEquals("samples 161", lines.get(3));
        assertEquals("batch_size 1 1", lines.get(4));
        assertEquals("batch_size 16 10", lines.get(5));
        assertEquals("stage h2d count 0 min_ns 0 mean_ns 0.0 p50_ns 0 p90_ns 0 p99_ns 0 p999_ns 0 max_ns 0",
            lines.get(6));
        assertTrue(lines.get(7).startsWith("stage_histogram h2d "), lines.get(7));
        // Values below 2048 ns are exact at 3 significant digits.
        assertEquals("stage infer count 10 min_ns 1000 mean_ns 1004.5 p50_ns 1004 p90_ns 1008 p99_ns 1009 "
            + "p999_ns 1009 max_ns 1009", lines.get(8));
        assertEquals("counter zero_copy_batches 5", lines.get(10));
        assertEquals(11, lines.size());

        final SutStatistics.Snapshot read = SutStatistics.Snapshot.read(file);
        assertEquals("TensorRT(model.onnx) on 2 GPUs", read.sutName());
        assertEquals(11, read.batches());
        assertEquals(161, read.samples());
        assertEquals(10, read.stage("infer").histogram().getTotalCount());
        assertEquals(1_000, read.stage("infer").histogram().getMinValue());
        assertEquals(Map.of("zero_copy_batches", 5L), read.counters());

        final String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.startsWith("SUT statistics: 11 batches, 161 samples, mean batch 14.6\n"
            + "  batch sizes 16 x10, 1 x1\n"), printed);
        assertTrue(printed.contains("  infer      n 10, mean 1005 ns, p50 1004 ns, p99 1009 ns, max 1009 ns"), printed);
        assertTrue(printed.contains("  h2d        no recordings"), printed);
        assertTrue(printed.contains("written to " + file.toAbsolutePath()), printed);
    }

    @Test
    void shouldPrintAnOfflineRunsLongHandOffsWithinEightyColumns() throws IOException
    {
        // An Offline run's queue: 5,165 batches of 128 waiting up to a second (the default job's figures).
        final SutStatistics stats = new SutStatistics("cpu", 128, List.of("handoff"));
        final SutStatistics.Recorder r = stats.newRecorder();
        for (int i = 0; i < 5_165; i++)
        {
            r.recordBatch(i == 0 ? 50 : 128);
            r.recordStageNs(0, 1_250_000L + i * 210_000L);
        }
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        stats.write(dir, new PrintStream(console, true, StandardCharsets.UTF_8));
        final List<String> printed = console.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("SUT statistics: 5165 batches, 661042 samples, mean batch 128.0", printed.get(0));
        assertEquals("  batch sizes 128 x5164, 50 x1", printed.get(1));
        assertTrue(printed.get(2).matches("  handoff    n 5165, mean 54\\d\\.\\d ms, p50 54\\d\\.\\d ms, "
            + "p99 1\\.07\\d s, max 1\\.0\\d\\d s"), printed.get(2));
        for (final String line : printed.subList(0, 3))
        {
            assertTrue(line.length() <= 80, line);
        }
    }

    @Test
    void shouldNameTheLineOfAMalformedFile() throws IOException
    {
        final Path file = dir.resolve("bad.txt");
        Files.writeString(file, "format 1\nsut x\nbatch_size two 3\n");
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> SutStatistics.Snapshot.read(file));
        assertTrue(bad.getMessage().startsWith(file + ":3: malformed 'batch_size' record"), bad.getMessage());
        Files.writeString(file, "hello\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SutStatistics.Snapshot.read(file))
            .getMessage().contains("not a SUT statistics file"));
        Files.writeString(file, "format 2\nsut x\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SutStatistics.Snapshot.read(file))
            .getMessage().contains(":1: format 2"));
    }

    @Test
    void shouldRejectNamesTheFormatCannotHold()
    {
        assertThrows(IllegalArgumentException.class, () -> new SutStatistics("s", 4, List.of("host to device")));
        assertThrows(IllegalArgumentException.class, () -> new SutStatistics("s", 4, List.of("a", "a")));
        assertThrows(IllegalArgumentException.class, () -> new SutStatistics("s", 0, List.of()));
        final SutStatistics stats = new SutStatistics("s", 4, List.of("infer"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> stats.stage("h2d")).getMessage()
            .contains("stages: [infer]"));
        stats.counter("c", () -> 0);
        assertThrows(IllegalArgumentException.class, () -> stats.counter("c", () -> 1));
        assertThrows(IllegalArgumentException.class, () -> stats.counter("c d", () -> 1));
    }
}
