package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.clib.CFormat;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ChromeTraceWriter} against the first 400 lines of an official Server trace: every event is decoded to
 * the ns timestamps LoadGen had, written again, and must come out identical, header included.
 */
class ChromeTraceWriterTest
{
    private static final long ORIGIN_NS = 5_000_000_000L;
    private static final Pattern COMPLETE = Pattern.compile(
        "\\{\"name\":\"(\\w+)\",\"ph\":\"X\",\"pid\":(\\d+),\"tid\":(\\d+),\"ts\":([\\d.]+),\"dur\":([\\d.]+),"
        + "\"args\":\\{\\}\\},");
    private static final Pattern BEGIN = Pattern.compile(
        "\\{\"name\":\"(\\w+)\",\"cat\":\"default\",\"ph\":\"b\",\"pid\":(\\d+),\"id\":(\\d+),\"ts\":([\\d.]+),"
        + "\"args\":\\{\"sample_seq\":(\\d+),\"query_seq\":(\\d+),\"sample_idx\":(\\d+),\"issue_start_ns\":(\\d+),"
        + "\"complete_ns\":(\\d+)\\}\\},");
    private static final Pattern COUNTER = Pattern.compile(
        "\\{\"name\":\"(\\w+)\",\"ph\": \"C\",\"pid\":(\\d+),\"ts\":([\\d.]+),\"args\":\\{ \"issue_delay\":(\\d+),"
        + "\"issue_to_done\":(\\d+)\\}\\},");

    @TempDir
    Path dir;

    @Test
    void shouldRewriteTheOfficialTraceHeadIdentically() throws IOException
    {
        final List<String> official = Files.readAllLines(
            SharedData.data("example-logs/Server-traced/mlperf_log_trace.head400.json"));
        final Path file = dir.resolve("mlperf_log_trace.json");
        try (ChromeTraceWriter writer = new ChromeTraceWriter(file, ORIGIN_NS, 0))
        {
            for (int i = 1; i < official.size(); i++)
            {
                final String line = official.get(i);
                Matcher m = COMPLETE.matcher(line);
                if (m.matches())
                {
                    final long start = ns(m.group(4));
                    writer.complete(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), start,
                        start + ns(m.group(5)) - ORIGIN_NS);
                    continue;
                }
                m = BEGIN.matcher(line);
                if (m.matches())
                {
                    final long scheduled = ns(m.group(4));
                    writer.sample(m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(5)),
                        Long.parseLong(m.group(6)), Long.parseLong(m.group(7)),
                        scheduled, scheduled + Long.parseLong(m.group(8)), scheduled + Long.parseLong(m.group(9)));
                    i++;
                    continue;
                }
                m = COUNTER.matcher(line);
                if (m.matches())
                {
                    final long scheduled = ns(m.group(3));
                    final long issued = scheduled + Long.parseLong(m.group(4));
                    writer.latencyCounter(m.group(1), Long.parseLong(m.group(2)), scheduled, issued,
                        issued + Long.parseLong(m.group(5)));
                    continue;
                }
                throw new AssertionError("unexpected line " + (i + 1) + ": " + line);
            }
        }
        final List<String> ours = Files.readAllLines(file);
        assertEquals(official, ours.subList(0, official.size()));
    }

    @Test
    void shouldEndWithLoadGensFooter() throws IOException
    {
        final Path file = dir.resolve("t.json");
        try (ChromeTraceWriter writer = new ChromeTraceWriter(file, 100, 1_763_765_455_123_456_789L))
        {
            writer.complete("IssueQuery", 1, 2, 1_100, 1_350);
        }
        assertEquals("{\"traceEvents\":[\n"
            + "{\"name\":\"IssueQuery\",\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1.000,\"dur\":0.250,\"args\":{}},\n"
            + "{\"name\":\"LastTrace\"}\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\n"
            + "\"ts\":" + CFormat.fixed(1_763_765_455_123_456_789L / 1000.0, 3) + ",\n"
            + "\"version\":\"MLPerf LoadGen v1.0\"\n}\n}\n", Files.readString(file));
    }

    @Test
    void shouldPrintMicrosecondsLikeFixedThreeDecimals()
    {
        for (final long ns : new long[] {0, 1, 999, 1000, 1001, 818_086, -1, -500, -1_234_567, 123_456_789_012_345L,
            999_999_999_999_999L})
        {
            final StringBuilder sb = new StringBuilder();
            ChromeTraceWriter.appendMicros(sb, ns);
            assertEquals(CFormat.fixed(ns / 1000.0, 3), sb.toString(), "ns=" + ns);
        }
        final StringBuilder far = new StringBuilder();
        ChromeTraceWriter.appendMicros(far, 4_000_000_000_000_000_001L);
        assertEquals(CFormat.fixed(4_000_000_000_000_000_001L / 1000.0, 3), far.toString());
    }

    @Test
    void shouldWriteArgumentsOfGenericEvents() throws IOException
    {
        final Path file = dir.resolve("g.json");
        try (ChromeTraceWriter writer = new ChromeTraceWriter(file, 0, 0))
        {
            writer.asyncInstant("Mark", 3, 9, 2_500, new String[] {"a", "b"}, new long[] {1, -2});
            writer.asyncBegin("Token", 3, 9, 1_000, null, null);
            writer.asyncEnd("Token", 3, 9, 3_000);
            writer.complete("LoadSamples", 3, 4, 0, 10, new String[] {"count"}, new long[] {1024});
        }
        final String text = Files.readString(file);
        assertTrue(text.contains("{\"name\":\"Mark\",\"cat\":\"default\",\"ph\":\"n\",\"pid\":3,\"id\":9,"
            + "\"ts\":2.500,\"args\":{\"a\":1,\"b\":-2}},\n"), text);
        assertTrue(text.contains("{\"name\":\"Token\",\"cat\":\"default\",\"ph\":\"b\",\"pid\":3,\"id\":9,"
            + "\"ts\":1.000,\"args\":{}},\n{\"name\":\"Token\",\"cat\":\"default\",\"ph\":\"e\", \"pid\":3,\"id\":9,"
            + "\"ts\":3.000},\n"), text);
        assertTrue(text.contains("\"dur\":0.010,\"args\":{\"count\":1024}},\n"), text);
    }

    @Test
    void shouldRejectEventsAfterClose()
    {
        final ChromeTraceWriter writer = new ChromeTraceWriter(dir.resolve("c.json"), 0, 0);
        writer.close();
        writer.close();
        assertThrows(IllegalStateException.class, () -> writer.complete("X", 1, 1, 0, 1));
        assertFalse(Files.exists(dir.resolve("c.json.partial")));
    }

    /** Origin plus a µs value with three decimals, exactly. */
    private static long ns(final String micros)
    {
        return ORIGIN_NS + new BigDecimal(micros).movePointRight(3).longValueExact();
    }
}
