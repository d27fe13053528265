package org.jloadgen.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.testing.ScriptedClock;
import org.jloadgen.testing.ScriptedSut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a run records beside LoadGen's files for jitter analysis: Server issue lateness and the flight recording.
 */
class RunRecordingsTest
{
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheIssueLatenessOfEveryQueryOnAScriptedClock() throws IOException
    {
        // Queries at 0, 1, 2, 2.1, 2.2 and 5 ms, then one a ms; every call takes 0.5 ms of the scripted clock. So
        // the SUT is busy when the fourth and fifth are due: they go out 0.4 and 0.8 ms late, every other on time.
        final StringBuilder text = new StringBuilder();
        final long[] scheduledNs = {0, MS, 2 * MS, 2 * MS + MS / 10, 2 * MS + 2 * MS / 10, 5 * MS};
        for (final long ns : scheduledNs)
        {
            text.append("Q ").append(ns).append(" 1\n");
        }
        final int queries = 600;
        for (int i = scheduledNs.length; i < queries; i++)
        {
            text.append("Q ").append(i * MS).append(' ').append(i % 50).append('\n');
        }
        final Path trace = Files.writeString(dir.resolve("trace.txt"), text);
        final ScriptedClock clock = new ScriptedClock(1_000_000_000_000L);
        final Path out = Files.createDirectories(dir.resolve("out"));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final TestRunner runner = new TestRunner(new ScriptedSut(clock, MS / 2), new SyntheticQsl(1024, 1024),
            new TestSettings().scenario(TestScenario.SERVER).minDurationMs(100).minQueryCount(10),
            new LogSettings().outputDirectory(out), EngineFixture.fastOptions().clock(clock).wallClock(clock)
                .histogramIntervalMs(2), null, List.of(), new PrintStream(console));
        runner.replay(ReplayQueries.read(trace));
        final TestResult result = runner.run();
        EngineFixture.read(result, out, console);
        assertEquals(out.resolve("mlperf_log_issue_lateness.hlog"), result.issueLatenessFile());

        final List<Histogram> intervals = intervals(result.issueLatenessFile());
        // One interval per 2 ms of scheduled time: [0, 2) holds queries 0 and 1, [2, 4) queries 2 to 4, [4, 6) query
        // 5, then two queries an interval.
        assertEquals(queries / 2, intervals.size());
        assertEquals(2, intervals.get(0).getTotalCount());
        assertEquals(3, intervals.get(1).getTotalCount());
        assertEquals(queries, intervals.stream().mapToLong(Histogram::getTotalCount).sum());
        // On time means within a few clock reads (1 ns each).
        assertTrue(intervals.get(0).getMaxValue() < 100, "on time: " + intervals.get(0).getMaxValue());
        final Histogram late = intervals.get(1);
        assertEquals(8 * MS / 10, late.getMaxValue(), 800, "the fifth query waits 0.8 ms");
        assertTrue(late.getValueAtPercentile(50) > 390_000 && late.getValueAtPercentile(50) < 410_000,
            "the fourth waits 0.4 ms: " + late.getValueAtPercentile(50));
        assertTrue(late.getMinValue() < 100, "the third is on time");
        for (int i = 2; i < intervals.size(); i++)
        {
            assertTrue(intervals.get(i).getMaxValue() < 100, "interval " + i + ": " + intervals.get(i).getMaxValue());
        }
        // Interval stamps are the series start plus whole intervals of scheduled time.
        assertEquals(intervals.get(0).getStartTimeStamp() + 2, intervals.get(1).getStartTimeStamp());
    }

    @Test
    void shouldWriteNoIssueLatenessOutsideServerOrWhenOff() throws IOException
    {
        final TestSettings offline = new TestSettings().scenario(TestScenario.OFFLINE).offlineExpectedQps(100_000)
            .minDurationMs(100);
        final EngineFixture.Run a = EngineFixture.run(Files.createDirectories(dir.resolve("offline")), new NullSut(),
            offline);
        assertNull(a.result().issueLatenessFile());
        assertFalse(Files.exists(a.dir().resolve("mlperf_log_issue_lateness.hlog")));

        final TestSettings server = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(100).minQueryCount(10);
        final Path off = Files.createDirectories(dir.resolve("off"));
        final EngineFixture.Run b = EngineFixture.run(off, new NullSut(), new SyntheticQsl(1024, 1024), server,
            EngineFixture.fastOptions().issueLateness(false), null, List.of());
        assertNull(b.result().issueLatenessFile());
        assertFalse(Files.exists(off.resolve("mlperf_log_issue_lateness.hlog")));
    }

    @Test
    void shouldRecordPausesAndTheSeriesIntoAFlightRecording() throws IOException
    {
        // A SUT that asks for a full GC once during the series, so the recording must hold a pause inside it.
        final SystemUnderTest collecting = new SystemUnderTest()
        {
            private long queries;

            @Override
            public String name()
            {
                return "collecting";
            }

            @Override
            public void issueQuery(final QuerySamples samples, final ResponseSink sink)
            {
                if (queries++ == 100)
                {
                    System.gc();
                }
                for (int i = 0; i < samples.size(); i++)
                {
                    sink.complete(samples.responseId(i));
                }
            }

            @Override
            public void flushQueries()
            {
            }
        };
        final TestSettings server = new TestSettings().scenario(TestScenario.SERVER).serverTargetQps(2_000)
            .minDurationMs(300).minQueryCount(100);
        final EngineFixture.Run run = EngineFixture.run(dir, collecting, new SyntheticQsl(1024, 1024), server,
            EngineFixture.fastOptions().jfr(true), null, List.of());
        final Path jfr = run.result().jfrFile();
        assertEquals(dir.resolve("mlperf_log_jfr.jfr"), jfr);
        assertTrue(Files.size(jfr) > 0);

        final List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        final List<RecordedEvent> series = events.stream()
            .filter(e -> e.getEventType().getName().equals(SeriesEvent.NAME)).toList();
        assertEquals(1, series.size(), "one performance series");
        final RecordedEvent s = series.get(0);
        assertTrue(s.getString("series").startsWith("series: Server PerformanceOnly target_qps 2000"),
            s.getString("series"));
        assertEquals(((Number)run.detail().value("result_query_count")).longValue(), s.getLong("queriesIssued"));
        assertEquals(Thread.currentThread().getName(), s.getThread().getJavaName(), "the issue thread");
        final Instant from = s.getStartTime();
        final Instant to = s.getEndTime();
        final List<RecordedEvent> gcs = new ArrayList<>();
        for (final RecordedEvent e : events)
        {
            if (e.getEventType().getName().equals("jdk.GarbageCollection") && !e.getStartTime().isBefore(from)
                && !e.getEndTime().isAfter(to))
            {
                gcs.add(e);
            }
        }
        assertFalse(gcs.isEmpty(), "the System.gc() pause inside the series");
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.SafepointBegin")),
            "safepoints are recorded");
        assertNotNull(run.result().latencyLogFile());
    }

    private static List<Histogram> intervals(final Path hlog) throws IOException
    {
        final List<Histogram> list = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile()))
        {
            while (reader.hasNext())
            {
                list.add((Histogram)reader.nextIntervalHistogram());
            }
        }
        return list;
    }
}
