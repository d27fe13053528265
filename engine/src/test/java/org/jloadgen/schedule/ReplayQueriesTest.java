package org.jloadgen.schedule;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replayed traces: the text and CSV formats, scaling, writing, and SyLT's Poisson generator.
 */
class ReplayQueriesTest
{
    @TempDir
    Path dir;

    private Path file(final String name, final String text) throws IOException
    {
        final Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private static long[] offsets(final ReplayQueries q)
    {
        final long[] o = new long[q.queryCount()];
        final StringBuilder text = new StringBuilder();
        try
        {
            q.write(text, ReplayQueries.Format.TEXT);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        final String[] lines = text.toString().split("\n");
        for (int i = 0; i < o.length; i++)
        {
            o[i] = Long.parseLong(lines[i].split(" ")[1]);
        }
        return o;
    }

    @Test
    void shouldReadACsvCaptureWithItsHeaderFromItsFirstTimestamp() throws IOException
    {
        final ReplayQueries q = ReplayQueries.read(file("capture.csv",
            "# captured 2025-01-01\ntimestamp_ns,sample_index\n1700000000000000000,5\n1700000000000001000,7\n\n"
                + "1700000000000001000,3\n1700000000002000000, 9\n"));
        assertEquals(4, q.queryCount());
        assertEquals(4, q.sampleCount());
        assertArrayEquals(new long[] {0, 1_000, 1_000, 2_000_000}, offsets(q));
        assertEquals(9, q.maxIndex());
        assertEquals(3 / 0.002, q.samplesPerSecond(), 1e-9);
        assertArrayEquals(new long[] {5, 7, 3, 9}, q.loadableSet().indices());
    }

    @Test
    void shouldReadACsvWithoutHeader() throws IOException
    {
        final ReplayQueries q = ReplayQueries.read(file("plain.csv", "100,1\n300,2\n"));
        assertArrayEquals(new long[] {0, 200}, offsets(q));
    }

    @Test
    void shouldNameFileAndLineOfABadCsvRow() throws IOException
    {
        assertMessage(file("h.csv", "time,index\n0,1\n"), "h.csv: line 1: expected the CSV header "
            + "'timestamp_ns,sample_index' or a first row, got 'time,index'");
        assertMessage(file("f.csv", "0,1\n5,2,3\n"), "f.csv: line 2: expected 2 fields 'timestamp_ns,sample_index', "
            + "got 3: '5,2,3'");
        assertMessage(file("n.csv", "0,1\n5,x\n"), "n.csv: line 2: sample_index 'x' is not an integer");
        assertMessage(file("d.csv", "timestamp_ns,sample_index\n10,1\n5,2\n"), "d.csv: line 3: timestamp -5 ns (from "
            + "the first) is negative or earlier than the previous query's");
        assertMessage(file("i.csv", "0,-3\n"), "i.csv: line 1: negative qsl index -3");
        assertMessage(file("m.csv", "timestamp_ns,sample_index\n-5,1\n"), "m.csv: line 2: timestamp_ns -5 is "
            + "negative (a capture's times are 0 or more)");
        assertMessage(file("e.csv", "timestamp_ns,sample_index\n"), "e.csv: no queries ('Q' lines or CSV rows): "
            + "nothing to replay");
    }

    private static void assertMessage(final Path file, final String expectedEnd)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ReplayQueries.read(file));
        assertTrue(ex.getMessage().endsWith(expectedEnd), ex.getMessage());
        assertTrue(ex.getMessage().startsWith(file.toString()), ex.getMessage());
    }

    @Test
    void shouldStillReadTheTextFormat() throws IOException
    {
        final ReplayQueries q = ReplayQueries.read(file("t.txt", "L 1 2 3\nQ 10 1 2\nQ 50 3\nU 1 2 3\n"));
        assertEquals(2, q.queryCount());
        assertEquals(3, q.sampleCount());
        assertArrayEquals(new long[] {10, 50}, offsets(q));
    }

    @Test
    void shouldWriteWhatItReads() throws IOException
    {
        final ReplayQueries q = ReplayQueries.read(file("t.txt", "Q 0 4 5\nQ 70 6\n"));
        for (final ReplayQueries.Format format : ReplayQueries.Format.values())
        {
            final StringBuilder out = new StringBuilder();
            q.write(out, format);
            final ReplayQueries back = ReplayQueries.read(file("back-" + format + ".txt", out.toString()));
            assertEquals(3, back.sampleCount());
            assertEquals(70, back.lastOffsetNs());
            assertArrayEquals(new long[] {4, 5, 6}, back.loadableSet().indices());
        }
        final StringBuilder csv = new StringBuilder();
        q.write(csv, ReplayQueries.Format.CSV);
        assertEquals("timestamp_ns,sample_index\n0,4\n0,5\n70,6\n", csv.toString());
        assertEquals(ReplayQueries.Format.CSV, ReplayQueries.Format.forFile(Path.of("a/b.CSV")));
        assertEquals(ReplayQueries.Format.TEXT, ReplayQueries.Format.forFile(Path.of("b.trace")));
    }

    @Test
    void shouldScaleTime() throws IOException
    {
        final ReplayQueries q = ReplayQueries.read(file("t.csv", "0,1\n1000,2\n3001,3\n"));
        final ReplayQueries fast = q.scaled(2.0);
        assertArrayEquals(new long[] {0, 500, 1501}, offsets(fast));
        assertEquals(2 * q.samplesPerSecond(), fast.samplesPerSecond(), q.samplesPerSecond() * 1e-3);
        assertArrayEquals(new long[] {0, 4000, 12004}, offsets(q.scaled(0.25)));
        assertSame(q, q.scaled(1.0));
        assertTrue(fast.source().endsWith("t.csv at speed 2.0"), fast.source());
        for (final double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> q.scaled(bad));
            assertTrue(ex.getMessage().startsWith("trace speed must be a positive number"), ex.getMessage());
        }
    }

    @Test
    void shouldGenerateTheArrivalsOfLoadGensServerSchedule()
    {
        // Same seed, rate and stopping rule as a Server run: the generated offsets are LoadGen's.
        final TestSettings s = new TestSettings().scenario(TestScenario.SERVER).mode(TestMode.PERFORMANCE_ONLY)
            .serverTargetQps(1234.5).minDurationMs(800).minQueryCount(50).scheduleRngSeed(987654321L);
        final EffectiveSettings settings = new EffectiveSettings(s, 1024, 1024);
        final LoadableSet set = LoadableSets.generate(1024, 1024, 1024, TestScenario.SERVER, 1, 0).get(0);
        try (Trace server = QueryGenerator.generate(settings, set, TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena()))
        {
            final ReplayQueries generated = PoissonTrace.generate(1234.5, 50, 800_000_000L, 1024, 987654321L, 1);
            assertEquals(server.queryCount(), generated.queryCount());
            final long[] offsets = offsets(generated);
            for (int q = 0; q < offsets.length; q++)
            {
                assertEquals(server.scheduledOffsetNs(q), offsets[q], "query " + q);
            }
        }
    }

    @Test
    void shouldMeetBothMinimumsAndDrawSamplesUniformly()
    {
        final ReplayQueries byLength = PoissonTrace.generate(1_000, 20_000, 1_000_000L, 10, 7, 8);
        assertEquals(20_000, byLength.queryCount());
        assertEquals(1_000, byLength.samplesPerSecond(), 1_000 * 0.03);
        final int[] counts = new int[10];
        for (final long index : sampleIndices(byLength))
        {
            counts[(int)index]++;
        }
        for (final int c : counts)
        {
            // 2000 expected per index; 5 standard deviations is about 212.
            assertTrue(Math.abs(c - 2_000) < 250, java.util.Arrays.toString(counts));
        }
        final ReplayQueries byDuration = PoissonTrace.generate(500, 1, 2_000_000_000L, 10, 7, 8);
        assertTrue(byDuration.lastOffsetNs() >= 2_000_000_000L);
        final long[] offsets = offsets(byDuration);
        assertTrue(offsets[offsets.length - 2] < 2_000_000_000L, "stops at the first arrival past the minimum");
        assertThrows(IllegalArgumentException.class, () -> PoissonTrace.generate(0, 1, 0, 10, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> PoissonTrace.generate(1, 0, 0, 10, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> PoissonTrace.generate(1, 1, 0, 0, 0, 1));
        final IllegalArgumentException huge = assertThrows(IllegalArgumentException.class,
            () -> PoissonTrace.generate(1e9, 1, 3_600_000_000_000L, 10, 0, 1));
        assertTrue(huge.getMessage().contains("over the limit"), huge.getMessage());
    }

    private static long[] sampleIndices(final ReplayQueries q)
    {
        final StringBuilder csv = new StringBuilder();
        try
        {
            q.write(csv, ReplayQueries.Format.CSV);
        }
        catch (final IOException ex)
        {
            throw new AssertionError(ex);
        }
        return csv.toString().lines().skip(1).mapToLong(l -> Long.parseLong(l.substring(l.indexOf(',') + 1)))
            .toArray();
    }
}
