package org.jloadgen.sut.cpu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.testing.ChildCli;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.jloadgen.testing.OfficialPython;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The submission path end to end: the cpu SUT (embedded Fashion-MNIST model) under the official LoadGen through
 * the bridge, an accuracy run, a performance run and the TEST01 and TEST04 audit runs (each with the official
 * {@code audit.config} in its working directory, where LoadGen finds it), then the official verification scripts,
 * which must pass. Server at a fixed rate keeps the performance figure the schedule's, not the shared machine's;
 * batches of one keep each sample's logits bit-identical between runs (TEST01 compares them).
 */
class OfficialComplianceTest
{
    private static final List<String> COMMON = List.of("run", "--engine", "official", "--sut", "cpu",
        "--sut-opt", "batch=1", "--scenario", "Server", "--quiet", "--set", "performance_sample_count_override=500",
        "--set", "accuracy_sample_count_override=500");
    /** A latency bound (30 s) far above the SUT's, so a stall of the shared machine cannot make a run INVALID. */
    private static final List<String> PERFORMANCE = List.of("--set", "server_target_qps=500",
        "--set", "min_duration_ms=3000", "--set", "min_query_count=1000",
        "--set", "server_target_latency_ns=30000000000");

    @TempDir
    Path dir;

    @BeforeAll
    static void build()
    {
        OfficialLoadGenFixture.build();
        OfficialPython.assumeAvailable();
    }

    @Test
    void shouldPassTheOfficialTest01AndTest04Verifications() throws IOException
    {
        final Path compliance = OfficialLoadGenFixture.mlperfInference().resolve("compliance");
        final Path results = dir.resolve("results");
        run(dir.resolve("plain"), results.resolve("accuracy"), "--mode", "AccuracyOnly",
            "--set", "server_target_qps=2000");
        run(dir.resolve("plain"), results.resolve("performance").resolve("run_1"), PERFORMANCE);
        final Path test01 = audited(compliance.resolve("TEST01/resnet50/audit.config"), "test01");
        final Path test04 = audited(compliance.resolve("TEST04/audit.config"), "test04");

        final OfficialPython.Result verify01 = OfficialPython.run(dir, compliance.resolve("TEST01/run_verification.py")
            .toString(), "-r", results.toString(), "-c", test01.toString(), "-o", dir.resolve("out").toString(),
            "--dtype", "float32");
        assertTrue(verify01.output().contains("Accuracy check pass: True"), verify01.output());
        assertTrue(verify01.output().contains("Performance check pass: True"), verify01.output());

        final OfficialPython.Result verify04 = OfficialPython.run(dir, compliance.resolve("TEST04/run_verification.py")
            .toString(), "-r", results.toString(), "-c", test04.toString(), "-o", dir.resolve("out").toString());
        assertTrue(verify04.output().contains("Performance check pass: True"), verify04.output());
    }

    /** A performance run with an audit.config in the working directory; returns its log folder. */
    private Path audited(final Path auditConfig, final String name) throws IOException
    {
        final Path work = dir.resolve(name);
        Files.createDirectories(work);
        Files.copy(auditConfig, work.resolve("audit.config"));
        final Path logs = work.resolve("logs");
        run(work, logs, PERFORMANCE);
        assertTrue(Files.readString(logs.resolve("mlperf_log_detail.txt")).contains("Found Audit Config file"),
            name + ": LoadGen read the audit.config");
        return logs;
    }

    private void run(final Path workingDir, final Path logs, final List<String> extra)
    {
        run(workingDir, logs, extra.toArray(String[]::new));
    }

    private void run(final Path workingDir, final Path logs, final String... extra)
    {
        final List<String> command = new ArrayList<>(COMMON);
        command.addAll(List.of("--out", logs.toString()));
        command.addAll(List.of(extra));
        final ChildCli.Result result = ChildCli.run(workingDir, 300, command.toArray(String[]::new));
        assertEquals(0, result.exitCode(), () -> String.join(" ", command) + "\n" + result.both() + "\n"
            + read(logs.resolve("mlperf_log_summary.txt")) + errors(logs.resolve("mlperf_log_detail.txt")));
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return "(no " + file + ")";
        }
    }

    private static String errors(final Path detail)
    {
        return String.join("\n", read(detail).lines().filter(line -> line.contains("\"is_error\": true")).toList());
    }
}
