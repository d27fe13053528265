package org.jloadgen.benchmarks.overhead;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.api.TestScenario;
import org.jloadgen.engine.official.OfficialLoadGenBuild;
import org.jloadgen.testing.OfficialLoadGenFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OfficialComparisonTest
{
    @Test
    void shouldRunTheJavaAndTheCppNullSutUnderTheOfficialLoadGenSideBySide(@TempDir final Path work)
    {
        // The smoke pair (20k SingleStream queries each): both sides run in fresh processes and report.
        final OfficialLoadGenBuild build = OfficialLoadGenFixture.build();
        final ByteArrayOutputStream progress = new ByteArrayOutputStream();
        final OfficialComparison.Report report = new OverheadRunner(
            new OverheadRunner.Options().repeats(1).workDir(work).quiet(1.0, 0).floorMs(0),
            ChildJvm.likeThisJvm(List.of("-XX:+UseSerialGC", "-Xmx256m"), 120_000),
            new PrintStream(progress, true, StandardCharsets.UTF_8))
            .compareWithOfficial(List.of(OfficialComparison.SMOKE), build.nullSut(), null);

        final RunResult java = report.java().get(OfficialComparison.SMOKE).get(0);
        final RunResult cpp = report.cpp().get(OfficialComparison.SMOKE).get(0);
        assertEquals(0, java.exitCode(), java.problem());
        assertEquals(0, cpp.exitCode(), cpp.problem());
        assertEquals("NullInlineSUT", java.detail().text("sut_name"));
        assertEquals("NullInlineSUT", cpp.detail().text("sut_name"));
        assertEquals(20_000, java.number("result_query_count"));
        assertEquals(20_000, cpp.number("result_query_count"));
        assertTrue(java.detail().text("loadgen_version").startsWith(build.version() + " @"), "the official LoadGen");
        assertTrue(cpp.peakRssKib() > 0, "the C++ side's report: " + cpp.peakRssKib());
        assertTrue(Files.isRegularFile(work.resolve("official-smoke-cpp/1/mlperf_log_summary.txt")));
        final String markdown = report.markdown();
        assertTrue(markdown.matches("(?s).*\\| SingleStream smoke test: queries/s with loadgen overhead "
            + "\\(20k queries\\) \\| [0-9.]+[kM]?/s \\([^)]*\\) \\| [0-9.]+[kM]?/s \\([^)]*\\) "
            + "\\| [0-9]+\\.[0-9]{2} \\| (met|not met) \\(≥ 0\\.9\\) \\|.*"), markdown);
    }

    @Test
    void shouldGiveBothSidesTheSameSettingsAndTheCppSideItsOwnOptions()
    {
        final OfficialComparison.Row row = OfficialComparison.row(OfficialComparison.OFFLINE_3M, Path.of("/b/nullsut"),
            Path.of("/lg"));
        assertEquals(List.of("run", "--sut", "null", "--scenario", "Offline", "--quiet", "--no-audit-config", "--set",
            "min_duration_ms=10000", "--set", "offline_expected_qps=300000", "--set", "max_duration_ms=20000",
            "--engine", "official", "--loadgen-dir", "/lg"), row.java().arguments());
        assertEquals(List.of("--scenario", "Offline", "--quiet", "--no-audit-config", "--chunk", "1024", "--set",
            "min_duration_ms=10000", "--set", "offline_expected_qps=300000", "--set", "max_duration_ms=20000"),
            row.cpp().arguments());
        assertEquals(TestScenario.OFFLINE, row.cpp().scenario());
        final ChildJvm child = new ChildJvm(Path.of("/jdk/bin/java"), "a.jar", List.of(), 1);
        assertEquals(List.of("/b/nullsut", "--out", "/w", "--report", "/w/child-report.txt"),
            child.command(Path.of("/w"), row.cpp(), List.of("--out", "/w")));
        assertEquals(List.of(OfficialComparison.SINGLE_STREAM, OfficialComparison.SERVER_10K),
            OfficialComparison.ordered(List.of(OfficialComparison.SERVER_10K, OfficialComparison.SINGLE_STREAM)));
        assertThrows(IllegalArgumentException.class, () -> OfficialComparison.ordered(List.of("official-fast")));
    }
}
