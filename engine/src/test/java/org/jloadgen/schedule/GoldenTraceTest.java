package org.jloadgen.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rebuilds every golden trace of {@code src/test/resources/golden-traces} (written by the C++ reference
 * {@code tools/loadgen-reference/trace_reference} with the real libstdc++ and glibc) from JLoadGen's own
 * classes — {@link EffectiveSettings}, {@link LoadableSets}, {@link QueryGenerator}, {@link SequenceGen} — in
 * LoadGen's mode flow, formats it as {@code L}/{@code Q}/{@code U} lines and compares exactly: the stored lines
 * verbatim, then the line, query and sample counts, each series' generated duration and the FNV-1a hash of the
 * whole text.
 */
class GoldenTraceTest
{
    private static final String FOLDER = "/golden-traces";

    static Stream<Path> goldenFiles()
    {
        try (Stream<Path> files = Files.list(folder()))
        {
            return files.filter(p -> p.getFileName().toString().endsWith(".trace")).sorted().toList().stream();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void shouldReproduceGoldenTrace(final Path file) throws IOException
    {
        final GoldenTrace golden = GoldenTrace.parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        // StdRandom reproduces glibc's FMA-build log; a file written where glibc ran its SSE2 build may differ.
        assertEquals("fma", golden.glibcLog, "glibc log build that wrote the file");
        final TraceDigest actual = new TraceDigest(golden.keptLines.size());
        trace(golden.requested(), golden.qslTotalSampleCount(), golden.qslPerformanceSampleCount(), actual);

        for (int i = 0; i < golden.keptLines.size(); i++)
        {
            if (i >= actual.kept.size())
            {
                fail("JLoadGen's trace ends after " + actual.kept.size() + " lines; golden line " + (i + 1)
                    + " is " + clip(golden.keptLines.get(i)));
            }
            if (!golden.keptLines.get(i).equals(actual.kept.get(i)))
            {
                fail("trace line " + (i + 1) + " differs\n  golden:   " + clip(golden.keptLines.get(i))
                    + "\n  jloadgen: " + clip(actual.kept.get(i)));
            }
        }
        assertEquals(golden.lines, actual.lines, "trace lines");
        assertEquals(golden.queries, actual.queries, "generated queries");
        assertEquals(golden.samples, actual.samples, "generated samples");
        assertEquals(golden.durationsNs, actual.durationsNs, "generated_query_duration of each series");
        assertEquals(Long.toHexString(golden.fnv1a64), Long.toHexString(actual.hash), "FNV-1a of the whole trace");
    }

    static Stream<Arguments> officialExampleRuns()
    {
        return Stream.of(
            Arguments.of("example-server-seed0.trace", "Server"),
            Arguments.of("example-singlestream-seed0.trace", "SingleStream"),
            Arguments.of("example-multistream-seed0.trace", "MultiStream"),
            Arguments.of("example-offline-seed0.trace", "Offline"),
            Arguments.of("example-accuracy-singlestream-seed0.trace", "Accuracy-SingleStream"));
    }

    /**
     * The example-* golden files use the settings of the official LoadGen 6.0.17 runs in
     * {@code shared/data/example-logs}: their loaded set and generated counts must be what LoadGen logged.
     */
    @ParameterizedTest(name = "{0} vs example-logs/{1}")
    @MethodSource("officialExampleRuns")
    void shouldAgreeWithOfficialLoadGenExampleLog(final String goldenName, final String exampleDir) throws IOException
    {
        final GoldenTrace golden =
            GoldenTrace.parse(Files.readAllLines(folder().resolve(goldenName), StandardCharsets.UTF_8));
        final Map<String, String> log = detailLogValues(
            SharedData.data("example-logs/" + exampleDir + "/mlperf_log_detail.txt"));

        for (final Map.Entry<String, String> setting : golden.settings.entrySet())
        {
            final String key = switch (setting.getKey())
            {
                case "mode" -> "requested_test_mode";
                case "qsl_total_sample_count" -> "qsl_reported_total_count";
                case "qsl_performance_sample_count" -> "qsl_reported_performance_count";
                default -> "requested_" + setting.getKey();
            };
            final String logged = log.get(key);
            assertTrue(logged != null, "example log has no " + key);
            final String value = logged.replace("\"", "");
            if (value.equals(setting.getValue()))
            {
                continue;
            }
            // Numbers may be written differently ("1e+06" and "1000000").
            assertEquals(new BigDecimal(setting.getValue()).compareTo(new BigDecimal(value)), 0, key);
        }
        final String loaded = log.get("loaded_qsl_set");
        assertEquals("L " + loaded.substring(1, loaded.length() - 1).replace(',', ' '), golden.keptLines.get(0),
            "loaded_qsl_set");
        assertEquals(Long.parseLong(log.get("generated_query_count")), golden.queries, "generated_query_count");
        assertEquals(List.of(Long.parseLong(log.get("generated_query_duration"))), golden.durationsNs,
            "generated_query_duration");
        assertEquals(Long.parseLong(log.get("generated_samples_per_query")) * golden.queries, golden.samples,
            "generated_samples_per_query");
    }

    @Test
    void shouldCoverEveryScenarioAndModeWithAtLeastTwentyFiles() throws IOException
    {
        final List<Path> files = goldenFiles().toList();
        assertTrue(files.size() >= 20, "golden traces: " + files.size());
        final Map<TestScenario, Set<TestMode>> covered = new LinkedHashMap<>();
        long serverQueries = 0;
        for (final Path file : files)
        {
            final GoldenTrace golden = GoldenTrace.parse(Files.readAllLines(file, StandardCharsets.UTF_8));
            final TestSettings requested = golden.requested();
            covered.computeIfAbsent(requested.scenario(), s -> EnumSet.noneOf(TestMode.class)).add(requested.mode());
            if (requested.scenario() == TestScenario.SERVER)
            {
                serverQueries += golden.queries;
            }
        }
        final Set<TestMode> modes = EnumSet.of(TestMode.PERFORMANCE_ONLY, TestMode.ACCURACY_ONLY,
            TestMode.SUBMISSION_RUN);
        for (final TestScenario scenario : TestScenario.values())
        {
            assertEquals(modes, covered.get(scenario), "modes covered for " + scenario);
        }
        // Every Server query draws one exponential interval: glibc's log must be exercised widely.
        assertTrue(serverQueries >= 200_000, "Server intervals across golden traces: " + serverQueries);
    }

    @Test
    void shouldListEveryGoldenFileInReadme() throws IOException
    {
        final String readme = Files.readString(folder().resolve("README.md"), StandardCharsets.UTF_8);
        for (final Path file : goldenFiles().toList())
        {
            final String name = file.getFileName().toString();
            assertTrue(readme.contains("`" + name + "`"), name + " is not listed in README.md");
            assertTrue(readme.contains("> " + name), "README.md has no command for " + name);
        }
    }

    @Test
    void shouldHashLikeFnv1a64()
    {
        // Published FNV-1a 64-bit test vectors.
        assertEquals(0xcbf29ce484222325L, fnv1a(""));
        assertEquals(0xaf63dc4c8601ec8cL, fnv1a("a"));
        assertEquals(0x85944171f73967e8L, fnv1a("foobar"));
    }

    @Test
    void shouldCountAndHashEveryLineButKeepOnlyThePrefix()
    {
        final TraceDigest digest = new TraceDigest(1);
        digest.line("L 1 2");
        digest.query(new LineBuilder().append("Q 0 1"), 1);
        digest.endSeries(1_000_000);
        digest.line("U 1 2");
        assertEquals(List.of("L 1 2"), digest.kept);
        assertEquals(3, digest.lines);
        assertEquals(1, digest.queries);
        assertEquals(1, digest.samples);
        assertEquals(List.of(1_000_000L), digest.durationsNs);
        assertEquals(fnv1a("L 1 2\nQ 0 1\nU 1 2\n"), digest.hash);
    }

    @Test
    void shouldFormatNumbersLikeLongToString()
    {
        final LineBuilder line = new LineBuilder();
        final long[] values = {0, 7, 10, 1024, -1, Long.MAX_VALUE, Long.MIN_VALUE, 20_000_002_500L};
        final StringBuilder expected = new StringBuilder("Q");
        line.append('Q');
        for (final long v : values)
        {
            line.append(' ').append(v);
            expected.append(' ').append(v);
        }
        for (int i = 0; i < 40; i++)
        {
            // Past the initial capacity.
            line.append(' ').append(Long.MAX_VALUE);
            expected.append(' ').append(Long.MAX_VALUE);
        }
        assertEquals(expected.toString(), line.toString());
    }

    @Test
    void shouldMatchSpecEndToEndVectorThroughTheFormatter()
    {
        final TraceDigest digest = new TraceDigest(7);
        final TestSettings requested = QueryGeneratorTest.officialSeeds(TestScenario.SERVER).serverTargetQps(100)
            .minDurationMs(1000);
        trace(requested, 50_000, 1024, digest);
        assertTrue(digest.kept.get(0).startsWith("L 216 267 822 906 663 580 710 908 "));
        assertEquals(List.of("Q 0 784", "Q 18436540 618", "Q 23015776 960", "Q 35874399 248", "Q 43004346 513",
            "Q 46868412 635"), digest.kept.subList(1, 7));
    }

    @Test
    void shouldRejectUnknownSettingKey()
    {
        final List<String> lines = withEmptyDigest("@ scenario=Server", "@ target_latency=5");
        final IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> GoldenTrace.parse(lines).requested());
        assertTrue(e.getMessage().contains("target_latency"), e.getMessage());
    }

    @Test
    void shouldRejectFileWithoutDigest()
    {
        final List<String> lines = List.of("@ scenario=Server", "@ qsl_total_sample_count=4",
            "@ qsl_performance_sample_count=4", "L 0 1 2 3");
        assertThrows(IllegalArgumentException.class, () -> GoldenTrace.parse(lines));
    }

    @Test
    void shouldRejectUnparsableSeed()
    {
        final List<String> lines = withEmptyDigest("@ qsl_rng_seed=18446744073709551616");
        assertThrows(NumberFormatException.class, () -> GoldenTrace.parse(lines).requested());
    }

    private static List<String> withEmptyDigest(final String... settings)
    {
        final List<String> lines = new ArrayList<>(List.of(settings));
        lines.addAll(List.of("= lines 0", "= queries 0", "= samples 0", "= durations_ns",
            "= fnv1a64 cbf29ce484222325"));
        return lines;
    }

    /**
     * @return {@code key -> value} (value as raw JSON text) of every record of an MLLOG detail log.
     */
    private static Map<String, String> detailLogValues(final Path detailLog) throws IOException
    {
        final Pattern record = Pattern.compile(
            "\"key\": \"([a-z0-9_]+)\", \"value\": (\\[[^\\]]*\\]|\"[^\"]*\"|[^,]*),");
        final Map<String, String> values = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(detailLog, StandardCharsets.UTF_8))
        {
            final Matcher m = record.matcher(line);
            if (line.startsWith(":::MLLOG ") && m.find())
            {
                values.put(m.group(1), m.group(2));
            }
        }
        return values;
    }

    private static Path folder()
    {
        final URL url = GoldenTraceTest.class.getResource(FOLDER);
        if (url == null)
        {
            throw new IllegalStateException("test resource folder " + FOLDER + " is missing");
        }
        try
        {
            return Path.of(url.toURI());
        }
        catch (final URISyntaxException e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static String clip(final String line)
    {
        return line.length() <= 200 ? line : line.substring(0, 200) + "... (" + line.length() + " chars)";
    }

    private static long fnv1a(final String text)
    {
        final TraceDigest digest = new TraceDigest(0);
        digest.hashText(text);
        return digest.hash;
    }

    /**
     * Feeds the main {@link TraceText} mode flow into a digest, formatting lines in a
     * reused byte array: formatting millions of lines through {@link StringBuilder} dominated this test's time.
     */
    static void trace(final TestSettings requested, final long qslTotal, final long qslPerformance,
        final TraceDigest out)
    {
        final LineBuilder line = new LineBuilder();
        TraceText.visit(requested, qslTotal, qslPerformance, OffHeapAllocator.arena(),
            new TraceText.Visitor()
            {
                @Override
                public void load(final long[] indices)
                {
                    out.line(indices(line, 'L', indices));
                }

                @Override
                public void query(final Trace trace, final long q)
                {
                    final int spq = trace.samplesPerQuery();
                    line.clear();
                    line.append('Q').append(' ').append(trace.scheduledOffsetNs(q));
                    for (long s = q * spq, end = s + spq; s < end; s++)
                    {
                        line.append(' ').append(trace.sampleIndex(s));
                    }
                    out.query(line, spq);
                }

                @Override
                public void endSeries(final Trace trace)
                {
                    out.endSeries(trace.durationNs());
                }

                @Override
                public void unload(final long[] indices)
                {
                    out.line(indices(line, 'U', indices));
                }
            });
    }

    private static LineBuilder indices(final LineBuilder line, final char tag, final long[] indices)
    {
        line.clear();
        line.append(tag);
        for (final long index : indices)
        {
            line.append(' ').append(index);
        }
        return line;
    }

    /**
     * One ASCII trace line, built in a reused byte array: formatting millions of lines through
     * {@link StringBuilder} and hashing them char by char dominated this test's run time.
     */
    static final class LineBuilder
    {
        private final byte[] digits = new byte[20];
        private byte[] bytes = new byte[256];
        private int length;

        LineBuilder clear()
        {
            length = 0;
            return this;
        }

        LineBuilder append(final char c)
        {
            ensure(1);
            bytes[length++] = (byte)c;
            return this;
        }

        LineBuilder append(final long value)
        {
            if (value < 0)
            {
                append('-');
                if (value == Long.MIN_VALUE)
                {
                    return append(String.valueOf(value).substring(1));
                }
                return append(-value);
            }
            int n = 0;
            long v = value;
            do
            {
                digits[n++] = (byte)('0' + v % 10);
                v /= 10;
            }
            while (v != 0);
            ensure(n);
            while (n > 0)
            {
                bytes[length++] = digits[--n];
            }
            return this;
        }

        LineBuilder append(final String text)
        {
            for (int i = 0; i < text.length(); i++)
            {
                append(text.charAt(i));
            }
            return this;
        }

        @Override
        public String toString()
        {
            return new String(bytes, 0, length, StandardCharsets.US_ASCII);
        }

        private void ensure(final int more)
        {
            if (length + more > bytes.length)
            {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }

    /**
     * Counts, hashes (64-bit FNV-1a, every line followed by {@code '\n'}) and keeps the first lines of a trace.
     */
    static final class TraceDigest
    {
        private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
        private static final long FNV_PRIME = 0x100000001b3L;

        final int keep;
        final List<String> kept = new ArrayList<>();
        final List<Long> durationsNs = new ArrayList<>();
        long lines;
        long queries;
        long samples;
        long hash = FNV_OFFSET_BASIS;

        TraceDigest(final int keep)
        {
            this.keep = keep;
        }

        void line(final LineBuilder text)
        {
            final byte[] bytes = text.bytes;
            for (int i = 0, n = text.length; i < n; i++)
            {
                hashByte(bytes[i]);
            }
            hashByte('\n');
            lines++;
            if (kept.size() < keep)
            {
                kept.add(text.toString());
            }
        }

        void line(final String text)
        {
            line(new LineBuilder().append(text));
        }

        void query(final LineBuilder text, final int samplesInQuery)
        {
            line(text);
            queries++;
            samples += samplesInQuery;
        }

        void endSeries(final long durationNs)
        {
            durationsNs.add(durationNs);
        }

        void hashText(final String text)
        {
            // Trace text is ASCII, so each char is its UTF-8 byte.
            for (int i = 0, n = text.length(); i < n; i++)
            {
                hashByte(text.charAt(i));
            }
        }

        private void hashByte(final int b)
        {
            hash = (hash ^ (b & 0xFF)) * FNV_PRIME;
        }
    }

    /**
     * A parsed golden file: requested settings ({@code @ key=value}), the stored prefix of the trace and the
     * digest of the whole trace ({@code = name value}).
     */
    static final class GoldenTrace
    {
        private static final String LOG_MARK = "glibc log ";

        final Map<String, String> settings = new LinkedHashMap<>();
        final List<String> keptLines = new ArrayList<>();
        final List<Long> durationsNs = new ArrayList<>();
        long lines = -1;
        long queries = -1;
        long samples = -1;
        long fnv1a64;
        boolean hasHash;
        boolean hasDurations;
        String glibcLog = "unknown";

        static GoldenTrace parse(final List<String> fileLines)
        {
            final GoldenTrace g = new GoldenTrace();
            for (final String line : fileLines)
            {
                if (line.startsWith("#") || line.isEmpty())
                {
                    final int mark = line.indexOf(LOG_MARK);
                    if (line.startsWith("# reference:") && mark >= 0)
                    {
                        g.glibcLog = line.substring(mark + LOG_MARK.length()).trim();
                    }
                    continue;
                }
                if (line.startsWith("@ "))
                {
                    final int eq = line.indexOf('=');
                    if (eq < 0)
                    {
                        throw new IllegalArgumentException("setting without '=': " + line);
                    }
                    g.settings.put(line.substring(2, eq), line.substring(eq + 1));
                }
                else if (line.startsWith("= "))
                {
                    g.digestLine(line.substring(2));
                }
                else if (line.startsWith("L ") || line.startsWith("Q ") || line.startsWith("U "))
                {
                    g.keptLines.add(line);
                }
                else
                {
                    throw new IllegalArgumentException("not a golden-trace line: " + clip(line));
                }
            }
            if (g.lines < 0 || g.queries < 0 || g.samples < 0 || !g.hasHash || !g.hasDurations)
            {
                throw new IllegalArgumentException("golden trace without a complete digest (lines, queries, samples, "
                    + "durations_ns, fnv1a64)");
            }
            return g;
        }

        private void digestLine(final String digest)
        {
            final String[] parts = digest.split(" ", -1);
            switch (parts[0])
            {
                case "lines" -> lines = Long.parseLong(parts[1]);
                case "queries" -> queries = Long.parseLong(parts[1]);
                case "samples" -> samples = Long.parseLong(parts[1]);
                case "fnv1a64" ->
                {
                    fnv1a64 = Long.parseUnsignedLong(parts[1], 16);
                    hasHash = true;
                }
                case "durations_ns" ->
                {
                    for (int i = 1; i < parts.length; i++)
                    {
                        durationsNs.add(Long.parseLong(parts[i]));
                    }
                    hasDurations = true;
                }
                default -> throw new IllegalArgumentException("unknown digest entry: " + digest);
            }
        }

        long qslTotalSampleCount()
        {
            return Long.parseUnsignedLong(required("qsl_total_sample_count"));
        }

        long qslPerformanceSampleCount()
        {
            return Long.parseUnsignedLong(required("qsl_performance_sample_count"));
        }

        private String required(final String key)
        {
            final String v = settings.get(key);
            if (v == null)
            {
                throw new IllegalArgumentException("golden trace lacks @ " + key);
            }
            return v;
        }

        /**
         * @return the requested settings: LoadGen defaults plus the file's {@code @} entries.
         */
        TestSettings requested()
        {
            final TestSettings s = new TestSettings();
            for (final Map.Entry<String, String> e : settings.entrySet())
            {
                final String v = e.getValue();
                switch (e.getKey())
                {
                    case "scenario" -> s.scenario(TestScenario.fromLogName(v));
                    case "mode" -> s.mode(TestMode.fromLogName(v));
                    case "qsl_total_sample_count", "qsl_performance_sample_count" ->
                    {
                        // QSL counts, not settings.
                    }
                    case "single_stream_expected_latency_ns" -> s.singleStreamExpectedLatencyNs(Double.parseDouble(v));
                    case "multi_stream_expected_latency_ns" -> s.multiStreamExpectedLatencyNs(Double.parseDouble(v));
                    case "multi_stream_samples_per_query" -> s.multiStreamSamplesPerQuery(Long.parseUnsignedLong(v));
                    case "server_target_qps" -> s.serverTargetQps(Double.parseDouble(v));
                    case "offline_expected_qps" -> s.offlineExpectedQps(Double.parseDouble(v));
                    case "min_duration_ms" -> s.minDurationMs(Long.parseUnsignedLong(v));
                    case "min_query_count" -> s.minQueryCount(Long.parseUnsignedLong(v));
                    case "qsl_rng_seed" -> s.qslRngSeed(Long.parseUnsignedLong(v));
                    case "sample_index_rng_seed" -> s.sampleIndexRngSeed(Long.parseUnsignedLong(v));
                    case "schedule_rng_seed" -> s.scheduleRngSeed(Long.parseUnsignedLong(v));
                    case "performance_issue_unique" -> s.performanceIssueUnique(flag(v));
                    case "performance_issue_same" -> s.performanceIssueSame(flag(v));
                    case "performance_issue_same_index" -> s.performanceIssueSameIndex(Long.parseUnsignedLong(v));
                    case "performance_sample_count_override" ->
                        s.performanceSampleCountOverride(Long.parseUnsignedLong(v));
                    case "accuracy_sample_count_override" -> s.accuracySampleCountOverride(Long.parseUnsignedLong(v));
                    case "sample_concatenate_permutation" -> s.sampleConcatenatePermutation(flag(v));
                    default -> throw new IllegalArgumentException("unknown setting in golden trace: " + e.getKey());
                }
            }
            return s;
        }

        private static boolean flag(final String v)
        {
            return switch (v)
            {
                case "0" -> false;
                case "1" -> true;
                default -> throw new IllegalArgumentException("flag must be 0 or 1: " + v);
            };
        }
    }
}
