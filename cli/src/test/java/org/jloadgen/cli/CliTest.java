package org.jloadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.log.MlLogParser;
import org.jloadgen.testing.CommandLineRun;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code jloadgen} command line, driven in-process: output, files, exit codes and error messages.
 */
class CliTest
{
    @TempDir
    Path dir;

    /** What a command did. */
    record Outcome(int exitCode, String out, String err)
    {
    }

    static Outcome jloadgen(final String... args)
    {
        final CommandLineRun run = CommandLineRun.jloadgen(args);
        return new Outcome(run.exitCode(), run.out(), run.err());
    }

    static Stream<String> goldenTraces() throws IOException
    {
        final Path folder = Path.of("../engine/src/test/resources/golden-traces");
        try (Stream<Path> files = Files.list(folder))
        {
            return files.map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(".trace"))
                .filter(n -> !n.equals("example-singlestream-seed0.trace")
                    && !n.equals("example-multistream-seed0.trace"))
                .sorted().toList().stream();
        }
    }

    /**
     * {@code jloadgen trace} prints, byte for byte, what the C++ reference built on libstdc++ printed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenTraces")
    void shouldPrintTheSameTraceAsTheLibstdcxxReference(final String name) throws IOException
    {
        final List<String> lines = Files.readAllLines(Path.of("../engine/src/test/resources/golden-traces", name));
        final List<String> args = new ArrayList<>(List.of("trace", "--no-audit-config"));
        String expectedHash = null;
        long expectedLines = -1;
        for (final String line : lines)
        {
            if (line.startsWith("@ "))
            {
                final String kv = line.substring(2);
                final String key = kv.substring(0, kv.indexOf('='));
                final String value = kv.substring(kv.indexOf('=') + 1);
                switch (key)
                {
                    case "scenario" -> args.addAll(List.of("--scenario", value));
                    case "mode" -> args.addAll(List.of("--mode", value));
                    case "qsl_total_sample_count" -> args.addAll(List.of("--qsl-total", value));
                    case "qsl_performance_sample_count" -> args.addAll(List.of("--qsl-performance", value));
                    default -> args.addAll(List.of("--set", kv));
                }
            }
            else if (line.startsWith("= fnv1a64 "))
            {
                expectedHash = line.substring("= fnv1a64 ".length());
            }
            else if (line.startsWith("= lines "))
            {
                expectedLines = Long.parseLong(line.substring("= lines ".length()));
            }
        }
        final Outcome o = jloadgen(args.toArray(String[]::new));
        assertEquals(0, o.exitCode(), o.err());
        assertEquals(expectedLines, o.out().chars().filter(c -> c == '\n').count(), "line count");
        long hash = 0xcbf29ce484222325L;
        for (final byte b : o.out().getBytes(StandardCharsets.UTF_8))
        {
            hash ^= b & 0xFF;
            hash *= 0x100000001b3L;
        }
        assertEquals(expectedHash, String.format("%016x", hash), "FNV-1a of jloadgen trace's output");
    }

    @Test
    void shouldRunAndExitZeroWhenValid()
    {
        // A 30 s bound: this checks the CLI's flow and files, and a loaded machine can stall a real-clock run's
        // p99 past the 100 ms default.
        final Outcome o = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--set", "server_target_qps=2000", "--set", "min_duration_ms=300", "--set",
            "server_target_latency_ns=30000000000", "--out", dir.toString(), "--completion-timeout-ms", "5000");
        assertEquals(ExitCodes.VALID, o.exitCode(), o.out() + o.err());
        assertTrue(o.out().contains("Result is : VALID"), o.out());
        assertTrue(o.out().contains("Logs: " + dir.toAbsolutePath()), o.out());
        MlLogParser.parse(dir.resolve("mlperf_log_detail.txt"))
            .requireCheckerKeys(org.jloadgen.api.TestScenario.SERVER, false, false);
        assertTrue(Files.exists(dir.resolve("mlperf_log_latency.hlog")));
    }

    @Test
    void shouldSayInTheDetailLogHowEveryThreadWaitedAndWhy() throws IOException
    {
        final Outcome o = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null-worker",
            "--set", "server_target_qps=2000", "--set", "min_duration_ms=300", "--out", dir.toString(),
            "--completion-timeout-ms", "5000", "--quiet");
        assertEquals(ExitCodes.VALID, o.exitCode(), o.out() + o.err());
        final MlLogParser detail = MlLogParser.parse(dir.resolve("mlperf_log_detail.txt"));
        final int cpus = org.jloadgen.concurrent.CpuBudget.process().cpus();
        // One worker thread registered: the issue thread spins only with a CPU left over for everything else and for
        // what other processes keep busy (measured once in this JVM, so the run saw the same figure).
        final int free = cpus - 1 - org.jloadgen.concurrent.CpuBudget.process().otherBusyCpus();
        final String server = (String)detail.value("jloadgen_server_wait");
        // 2000 QPS: a quarter of the 500 us mean gap (capped at --hybrid-spin-ns) is long enough to spin on a shared
        // CPU.
        final String expected = free >= 2 ? "SPIN" : free == 1 ? "HYBRID" : "SLEEP";
        assertTrue(server.startsWith(expected + " (auto: " + cpus + (cpus == 1 ? " CPU" : " CPUs")
            + ", 1 SUT thread, "),
            server);
        assertTrue(((String)detail.value("jloadgen_completion_wait")).contains("auto: "), o.out());
        final String jit = (String)detail.value("jloadgen_jit_threads");
        assertTrue(jit.startsWith("IDLE while each measured series runs (auto: Server is latency-bound; ")
            || jit.startsWith("NORMAL (auto: "), jit);
        final String workers = (String)detail.value("jloadgen_sut_threads");
        assertTrue(workers.startsWith("NullWorkerSUT: 1 worker, idle wait " + (free >= 2 ? "SPIN" : "PARK")),
            workers);
        // The hand-off times of the toolkit's worker are beside the logs.
        final org.jloadgen.sut.SutStatistics.Snapshot stats = org.jloadgen.sut.SutStatistics.Snapshot.read(
            dir.resolve(org.jloadgen.sut.SutStatistics.FILE_NAME));
        assertEquals(stats.batches(), stats.stage(org.jloadgen.sut.SutStatistics.HANDOFF_STAGE).histogram()
            .getTotalCount());

        final Outcome explicit = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--server-wait", "SLEEP", "--set", "server_target_qps=2000", "--set", "min_duration_ms=100", "--out",
            dir.resolve("explicit").toString(), "--quiet");
        // Sleeping to each query on a busy machine may well miss the latency bound: VALID or not, the log says why.
        assertTrue(explicit.exitCode() == ExitCodes.VALID || explicit.exitCode() == ExitCodes.INVALID,
            explicit.out() + explicit.err());
        assertEquals("SLEEP (set explicitly; sleeps to each query with a 1 ns timer slack, as LoadGen sleeps)",
            MlLogParser.parse(dir.resolve("explicit/mlperf_log_detail.txt")).value("jloadgen_server_wait"));
    }

    @Test
    void shouldExplainTheAutomaticWaitsInTheHelp()
    {
        final Outcome o = jloadgen("run", "--help");
        assertEquals(0, o.exitCode());
        final String help = o.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--server-wait=STRATEGY How the Server issue thread waits for scheduled times: AUTO, "
            + "SPIN, YIELD, SLEEP, HYBRID (default: AUTO: SPIN where a CPU is free for it"), help);
        assertTrue(help.contains("the detail log says which ran and why"), help);
        assertTrue(help.contains("--completion-wait=STRATEGY"), help);
    }

    @Test
    void shouldKeepFileNamesWholeInTheHelp()
    {
        // picocli breaks a line wherever java.text.BreakIterator allows it, which includes after the dot of
        // "mlperf.conf" and between the dots and the slash of "../shared": such names are placed where they fit.
        final String help = jloadgen("run", "--help").out();
        for (final String name : new String[] {"built-in mlperf.conf", "../shared/mlperf-inference/loadgen",
            "user.conf", "mlperf_log_accuracy.json"})
        {
            assertTrue(help.contains(name), () -> name + " broken across lines in\n" + help);
        }
        for (final String line : help.split("\n"))
        {
            assertTrue(line.length() <= 80, () -> "wider than 80 columns: " + line);
        }
    }

    @Test
    void shouldListTheSutsInEightyColumns()
    {
        final Outcome o = jloadgen("run", "--list-suts");
        assertEquals(0, o.exitCode(), o.err());
        for (final String name : new String[] {"null", "synthetic", "null-worker"})
        {
            assertTrue(o.out().lines().anyMatch(l -> l.startsWith(name + ": ")), name + " missing from\n" + o.out());
        }
        for (final String line : o.out().split("\n"))
        {
            assertTrue(line.length() <= 80, () -> "wider than 80 columns: " + line);
        }
    }

    @Test
    void shouldWriteTheSutStatisticsBesideTheLogs() throws IOException
    {
        final Outcome o = jloadgen("run", "--no-audit-config", "--scenario", "Offline", "--sut", "synthetic",
            "--sut-opt", "batch=8", "--sut-opt", "workers=2", "--sut-opt", "service=fixed:10ms", "--qsl-total", "100",
            "--set", "min_duration_ms=100", "--set", "offline_expected_qps=2000", "--out", dir.toString(),
            "--completion-timeout-ms", "5000", "--quiet");
        assertEquals(ExitCodes.VALID, o.exitCode(), o.out() + o.err());
        final org.jloadgen.sut.SutStatistics.Snapshot stats = org.jloadgen.sut.SutStatistics.Snapshot.read(
            dir.resolve(org.jloadgen.sut.SutStatistics.FILE_NAME));
        // offline_expected_qps x 1.1 x min_duration: 220 samples in batches of up to 8, 10 ms each on 2 workers, so the
        // run lasts over min_duration.
        assertEquals(220, stats.samples());
        assertTrue(stats.batches() >= 28, "at most 8 samples a batch: " + stats.batches());
        assertTrue(o.out().contains("SUT statistics: " + stats.batches() + " batches, 220 samples"), o.out());
    }

    @Test
    void shouldExitThreeWhenTheRunIsInvalid()
    {
        // 10 ms at 100 QPS: the schedule's last query comes before min_duration is met? No: generation extends to
        // min_duration; but min_query_count 100000 cannot be reached in a 200 ms max_duration.
        final Outcome o = jloadgen("run", "--no-audit-config", "--scenario", "SingleStream", "--sut", "synthetic",
            "--sut-opt", "inline=true", "--sut-opt", "service=fixed:1ms",
            "--set", "min_duration_ms=100", "--set", "min_query_count=100000", "--set", "max_duration_ms=200",
            "--set", "single_stream_expected_latency_ns=1000000", "--out", dir.toString(), "--quiet");
        assertEquals(ExitCodes.INVALID, o.exitCode(), o.out() + o.err());
        assertTrue(o.err().contains("Ending early: Max test duration reached"), o.err());
    }

    @Test
    void shouldNameFileLineAndKeyOfAMalformedConfig() throws IOException
    {
        final Path user = dir.resolve("user.conf");
        Files.writeString(user, "# fine\n*.Server.target_qps = 100\n*.Server.target_latency =15\n");
        final Outcome o = jloadgen("run", "--scenario", "Server", "--user-config", user.toString(),
            "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, o.exitCode(), o.err());
        assertTrue(o.err().contains(user + ":3"), o.err());
        assertTrue(o.err().contains("*.Server.target_latency"), o.err());
        assertTrue(Files.notExists(dir.resolve("mlperf_log_detail.txt")), "nothing ran");
    }

    @Test
    void shouldWarnAboutAnUnknownKeyWithItsLine() throws IOException
    {
        final Path user = dir.resolve("user.conf");
        Files.writeString(user, "*.Server.target_qsp = 100\n");
        final Outcome o = jloadgen("trace", "--scenario", "Server", "--user-config", user.toString(),
            "--set", "min_duration_ms=10");
        assertEquals(0, o.exitCode(), o.err());
        assertTrue(o.err().contains(user + ":1"), o.err());
        assertTrue(o.err().contains("target_qsp"), o.err());
    }

    @Test
    void shouldRejectAnUnknownSettingWithSuggestions()
    {
        final Outcome o = jloadgen("trace", "--scenario", "Server", "--set", "server_target_qsp=5");
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().contains("server_target_qsp"), o.err());
        assertTrue(o.err().contains("server_target_qps"), o.err());
    }

    @Test
    void shouldRejectAnUnknownSut()
    {
        final Outcome o = jloadgen("run", "--sut", "tpu", "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().contains("unknown SUT 'tpu'"), o.err());
        assertTrue(o.err().contains("synthetic"), o.err());
    }

    @Test
    void shouldReadTheOfficialConfigFilesUnchanged()
    {
        final Outcome o = jloadgen("trace", "--scenario", "Offline", "--model", "resnet50",
            "--config", SharedData.data("mlperf.conf").toString(),
            "--set", "min_duration_ms=10", "--set", "offline_expected_qps=100",
            "--qsl-total", "50000", "--qsl-performance", "1024");
        assertEquals(0, o.exitCode(), o.err());
        // resnet50 Offline: min_query_count 24576 samples in one query from a 1024-sample set.
        final String query = o.out().lines().filter(l -> l.startsWith("Q ")).findFirst().orElseThrow();
        assertEquals(24576 + 2, query.split(" ").length);
        assertTrue(o.err().isEmpty(), o.err());
    }

    @Test
    void shouldScoreAnAccuracyLog() throws IOException
    {
        final Path log = dir.resolve("acc.json");
        Files.writeString(log, "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 0, \"data\" : \"01000000\" },\n"
            + "{ \"seq_id\" : 1, \"qsl_idx\" : 1, \"data\" : \"00000000\" },\n"
            + "{ \"seq_id\" : 2, \"qsl_idx\" : 2, \"data\" : \"000000000000803F00000000\" }\n]\n");
        final Path labels = dir.resolve("labels.txt");
        Files.writeString(labels, "1\n1\n1\n");
        final Outcome o = jloadgen("accuracy", "--log", log.toString(), "--labels", labels.toString(),
            "--data-type", "auto");
        assertEquals(0, o.exitCode(), o.err());
        // 1 == 1, 0 != 1, float32 logits [0, 1, 0] -> class 1 == 1.
        assertTrue(o.out().contains("top-1 accuracy: 66.67% (2 of 3 samples)"), o.out());
    }

    @Test
    void shouldNameTheOffsetOfATruncatedAccuracyLog() throws IOException
    {
        final Path log = dir.resolve("acc.json");
        Files.writeString(log, "[\n{ \"seq_id\" : 0, \"qsl_idx\" : 0, \"data\" : \"01");
        final Path labels = dir.resolve("labels.txt");
        Files.writeString(labels, "1\n");
        final Outcome o = jloadgen("accuracy", "--log", log.toString(), "--labels", labels.toString());
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().contains(log + ": offset "), o.err());
    }

    @Test
    void shouldLeaveLogsThatSayWhyWhenTheSutCannotStart() throws IOException
    {
        final Outcome o = jloadgen("run", "--no-audit-config", "--sut", "synthetic", "--sut-opt", "servise=fixed:1ms",
            "--out", dir.toString(), "--quiet");
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().contains("--sut-opt servise is not a synthetic SUT option; known: batch, "), o.err());
        final MlLogParser detail = MlLogParser.parse(dir.resolve("mlperf_log_detail.txt"));
        assertEquals(1, detail.errorCount());
        assertTrue(String.valueOf(detail.value("error_runtime")).contains("could not be started"));
        assertTrue(Files.readString(dir.resolve("mlperf_log_summary.txt")).endsWith(
            "1 ERROR encountered. See detailed log.\n"));
    }

    @Test
    void shouldGenerateASyltTraceAndReplayItFasterFromCsv() throws IOException
    {
        final Path csv = dir.resolve("poisson.csv");
        final Outcome g = jloadgen("trace", "--generate", "--qps", "500", "--min-queries", "200",
            "--min-duration-ms", "1000", "--qsl-total", "64", "--seed", "3", "--output", csv.toString());
        assertEquals(ExitCodes.VALID, g.exitCode(), g.err());
        final List<String> rows = Files.readAllLines(csv);
        assertEquals("timestamp_ns,sample_index", rows.get(0));
        assertTrue(rows.size() - 1 >= 450 && rows.size() - 1 <= 560, "about 500 QPS x 1 s: " + (rows.size() - 1));
        assertTrue(g.err().contains("wrote " + (rows.size() - 1) + " queries over "), g.err());

        final Path out = dir.resolve("replay");
        final Outcome r = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--trace", csv.toString(), "--trace-speed", "2", "--qsl-total", "64", "--set", "min_duration_ms=400",
            "--set", "min_query_count=100", "--set", "server_target_latency_ns=30000000000", "--out",
            out.toString(), "--quiet", "--completion-timeout-ms", "5000");
        // The 30 s bound is past any stall of a busy machine, so the replay must be VALID.
        assertEquals(ExitCodes.VALID, r.exitCode(), r.out() + r.err());
        final MlLogParser detail = MlLogParser.parse(out.resolve("mlperf_log_detail.txt"));
        assertEquals(0, detail.errorCount(), r.out() + r.err());
        assertEquals(rows.size() - 1L, ((Number)detail.value("result_query_count")).longValue());
        // Twice as fast: the replay's rate is twice the trace's, and the schedule half as long.
        final double scheduled = ((Number)detail.value("result_scheduled_samples_per_sec")).doubleValue();
        assertTrue(scheduled > 900 && scheduled < 1_100, "scheduled " + scheduled);
        assertTrue(String.valueOf(detail.records().stream().filter(x -> x.key().equals("generic_message"))
            .map(MlLogParser.Record::value).toList()).contains("poisson.csv at speed 2.0"));

        final Outcome text = jloadgen("trace", "--generate", "--qps", "100", "--min-queries", "3");
        assertEquals(ExitCodes.VALID, text.exitCode(), text.err());
        assertTrue(text.out().startsWith("Q 0 "), text.out());
        assertEquals(3, text.out().lines().count());
    }

    @Test
    void shouldAdviseAShortReplayOnWhatAReplayCanChangeNotTheTargetQps() throws IOException
    {
        final Path csv = Files.writeString(dir.resolve("short.csv"), "0,1\n1000000,2\n2000000,3\n");
        final Path out = dir.resolve("short-replay");
        final Outcome r = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--trace", csv.toString(), "--qsl-total", "64", "--set", "min_duration_ms=1000",
            "--set", "min_query_count=1", "--out", out.toString(), "--quiet");
        assertEquals(ExitCodes.INVALID, r.exitCode(), r.out() + r.err());
        final String summary = Files.readString(out.resolve("mlperf_log_summary.txt"));
        assertTrue(summary.contains("Min duration satisfied : NO"), summary);
        assertTrue(summary.contains(" * " + org.jloadgen.results.PerformanceSummary.MIN_DURATION_RECO_REPLAY),
            summary);
        assertFalse(summary.contains("Increase the target QPS"), summary);
    }

    @Test
    void shouldListASutsOptionsWithTypesDefaultsAndMeaningsUnderHelp()
    {
        final Outcome help = jloadgen("run", "--sut", "synthetic", "--help");
        assertEquals(ExitCodes.VALID, help.exitCode(), help.err());
        assertTrue(help.out().contains("Usage: jloadgen run"), help.out());
        assertTrue(help.out().contains("Options of --sut synthetic (--sut-opt KEY=VALUE"), help.out());
        assertTrue(help.out().contains("  workers=<integer >= 1>  (default: 1)\n      Worker threads that serve "
            + "batches."), help.out());
        for (final String key : org.jloadgen.sut.synthetic.SyntheticSut.KNOWN_OPTIONS)
        {
            assertTrue(help.out().contains("\n  " + key + "=<"), key + " missing from\n" + help.out());
        }
        assertTrue(help.out().contains("\n  time=<real|simulated>  (default: real)"), help.out());
        assertTrue(jloadgen("run", "--sut", "null", "--help").out().contains("--sut null takes no --sut-opt "
            + "options."));
        assertTrue(jloadgen("run", "--sut", "null-worker", "--help").out().contains(
            "  wait=<auto|spin|park|yield|backoff|sleep>  (default: auto)"));
        final Outcome unknown = jloadgen("run", "--sut", "nope", "--help");
        assertEquals(ExitCodes.USAGE, unknown.exitCode());
        assertTrue(unknown.err().contains("unknown SUT 'nope'"), unknown.err());
        // Without --sut, --help is the command's usage alone, which says how to get a SUT's options.
        final Outcome plain = jloadgen("run", "--help");
        assertFalse(plain.out().contains("Options of --sut"), plain.out());
        assertTrue(plain.out().replaceAll("\\s+", " ").contains("--sut NAME --help lists its --sut-opt options"),
            plain.out());
    }

    @Test
    void shouldListTraceWithAWholeSentence()
    {
        final String help = jloadgen("--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("trace Print the trace a test would issue, in issue order, without running anything "
            + "(or, with --generate, write a SyLT Poisson trace to replay)."), help);
    }

    @Test
    void shouldRefuseConflictingTraceOptions()
    {
        final Outcome noQps = jloadgen("trace", "--generate");
        assertEquals(ExitCodes.USAGE, noQps.exitCode());
        assertTrue(noQps.err().contains("--generate needs --qps"), noQps.err());
        final Outcome mixed = jloadgen("trace", "--generate", "--qps", "10", "--set", "min_duration_ms=5");
        assertEquals(ExitCodes.USAGE, mixed.exitCode());
        assertTrue(mixed.err().contains("--set describes a test's trace; --generate writes a Poisson trace"),
            mixed.err());
        final Outcome stray = jloadgen("trace", "--qps", "10");
        assertEquals(ExitCodes.USAGE, stray.exitCode());
        assertTrue(stray.err().contains("--qps is an option of --generate"), stray.err());
        final Outcome speed = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--trace-speed", "2", "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, speed.exitCode());
        assertTrue(speed.err().contains("--trace-speed scales a replayed trace: give --trace FILE too"), speed.err());
        final Outcome warmup = jloadgen("run", "--no-audit-config", "--scenario", "Offline", "--sut", "null",
            "--warmup-ms", "100", "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, warmup.exitCode());
        assertTrue(warmup.err().contains("needs the Server scenario, not Offline"), warmup.err());
        final Outcome negative = jloadgen("run", "--no-audit-config", "--scenario", "Server", "--sut", "null",
            "--startup-ms", "-1", "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, negative.exitCode());
        assertTrue(negative.err().contains("--startup-ms must be at least 0, got -1"), negative.err());
    }

    /**
     * Every SUT option of every built-in SUT: a bad value is named with what it must be, never a bare
     * {@code For input string: "abc"}.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
        synthetic   | workers=abc             | workers must be an integer, got 'abc' (--sut-opt)
        synthetic   | workers=0               | workers must be a whole number of at least 1, got '0' (--sut-opt)
        synthetic   | batch=1.5               | batch must be an integer, got '1.5' (--sut-opt)
        synthetic   | timeout-us=-1           | timeout-us must be a whole number of at least 0, got '-1' (--sut-opt)
        synthetic   | queue=1000              | queue must be a power of two of at least the batch size (1), got '1000'
        synthetic   | service=fast            | service must be a service time such as fixed:100us, uniform:50us:200us \
        or exponential:250us, got 'fast' (--sut-opt)
        synthetic   | per-sample=2 lightyears | per-sample must be a time such as 200us, 1.5ms or 0 (units ns, us, ms, \
        s), got '2 lightyears' (--sut-opt)
        synthetic   | first-token=x           | first-token must be a time such as 200us
        synthetic   | inline=maybe            | inline must be true or false, got 'maybe' (--sut-opt)
        synthetic   | wait=forever            | wait must be spin, sleep or auto, got 'forever' (--sut-opt)
        synthetic   | tokens=many             | tokens must be an integer, got 'many' (--sut-opt)
        synthetic   | seed=0x1                | seed must be an integer, got '0x1' (--sut-opt)
        synthetic   | misbehave=sometimes     | misbehave must be none, never, twice, unknown, throw, throw-flush or \
        fail, got 'sometimes' (--sut-opt)
        synthetic   | misbehave-after=-3      | misbehave-after must be a whole number of at least 0, got '-3'
        null-worker | wait=forever            | wait must be auto, spin, park, yield, backoff or sleep, got \
        'forever' (--sut-opt)
        null        | workers=2               | --sut-opt workers is not a null SUT option; known:
        """)
    void shouldNameTheOptionAndWhatItMustBeForABadSutOptionValue(final String sut, final String option,
        final String message)
    {
        final Outcome o = jloadgen("run", "--no-audit-config", "--sut", sut, "--sut-opt", option, "--out",
            dir.toString(), "--quiet");
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().contains("could not be started: " + message), o.err());
    }

    @Test
    void shouldSayThatTheLogFolderIsAFile() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("results"), "not a folder");
        final Outcome o = jloadgen("run", "--no-audit-config", "--sut", "null", "--out", file.toString());
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertEquals("jloadgen: cannot create the log directory " + file + ": it is a file, not a directory\n",
            o.err());
        final Outcome below = jloadgen("run", "--no-audit-config", "--sut", "null", "--out",
            file.resolve("sub").toString());
        assertEquals("jloadgen: cannot create the log directory " + file.resolve("sub") + ": Not a directory\n",
            below.err(), "the OS reason when a parent is a file");
    }

    @Test
    void shouldRefuseOptionsOutOfRangeNamingThem()
    {
        final Outcome warmup = jloadgen("run", "--no-audit-config", "--sut", "null", "--jit-warmup-ms", "-5",
            "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, warmup.exitCode());
        assertEquals("jloadgen: --jit-warmup-ms must be at least 0, got -5\n", warmup.err());
        final Outcome qsl = jloadgen("run", "--no-audit-config", "--sut", "null", "--qsl-total", "1000",
            "--qsl-performance", "2000", "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, qsl.exitCode());
        assertEquals("jloadgen: --qsl-performance 2000 exceeds --qsl-total 1000: the performance samples are a part "
            + "of the library\n", qsl.err());
        final Outcome trace = jloadgen("trace", "--qsl-total", "0");
        assertEquals("jloadgen: --qsl-total must be at least 1, got 0\n", trace.err());
    }

    @Test
    void shouldSayABinaryUserConfIsNotTextInAFewLines() throws IOException
    {
        final Path binary = Path.of("/bin/ls");
        final Outcome o = jloadgen("run", "--no-audit-config", "--sut", "null", "--user-config", binary.toString(),
            "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, o.exitCode());
        assertTrue(o.err().startsWith("jloadgen: " + binary + ": not a text file (a NUL byte at offset "), o.err());
        assertTrue(o.err().length() < 300, o.err().length() + " characters");
    }

    @Test
    void shouldWarnAtTheStartWhenLoadGenFallsBackToADefault()
    {
        final Outcome o = jloadgen("run", "--no-audit-config", "--sut", "null", "--scenario", "Offline",
            "--set", "offline_expected_qps=-5", "--set", "min_duration_ms=0", "--jit-warmup-ms", "0",
            "--out", dir.toString(), "--quiet");
        assertTrue(o.out().startsWith("jloadgen: warning: Invalid value for offline_expected_qps requested. "
            + "requested: -5 using: 1 (logged as error_invalid_test_settings: the run goes on with that, and its log "
            + "cannot pass the submission checker)\n"), o.out());
    }

    @Test
    void shouldDocumentTheOneDefaultSutRule()
    {
        final Outcome help = jloadgen("run", "--help");
        final String text = help.out().replaceAll("\\s+", " ");
        assertTrue(text.contains("Default: the SUT of the default job (what a bare 'jloadgen run' runs): cpu, the "
            + "embedded model, when the sut-cpu module is installed, else synthetic; here: synthetic."), text);
        assertTrue(text.contains("With arguments but no --sut: run the default job's SUT with them."), text);
        final Outcome run = jloadgen("run", "--no-audit-config", "--scenario", "Offline", "--set",
            "min_duration_ms=0", "--jit-warmup-ms", "0", "--out", dir.toString(), "--quiet");
        assertEquals("SyntheticSUT", MlLogParser.parse(dir.resolve("mlperf_log_detail.txt")).value("sut_name"),
            run.err());
    }
}
