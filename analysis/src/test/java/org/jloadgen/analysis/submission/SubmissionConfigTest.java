package org.jloadgen.analysis.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class SubmissionConfigTest
{
    private static final Path HOME = Path.of("/jloadgen");

    private static SubmissionConfig parse(final String text)
    {
        return SubmissionConfig.fromText("my.conf", HOME, text);
    }

    private static String example()
    {
        return SubmissionConfig.exampleText();
    }

    @Test
    void shouldReadTheBuiltInConfiguration()
    {
        final SubmissionConfig c = SubmissionConfig.builtIn(HOME);
        assertEquals("open", c.division());
        assertEquals("JLoadGen", c.submitter());
        assertEquals("v6.1", c.checkerVersion());
        assertEquals(List.of("--skip-dataset-size-check"), c.checkerFlags());
        final SubmissionConfig.Benchmark b = c.benchmarks().get(0);
        assertEquals("fashion-mnist-mlp", b.name());
        assertEquals("resnet", b.mlperfModel());
        assertEquals("resnet50", b.loadgenModel());
        assertEquals(List.of("Offline", "Server"), b.scenarios());
        assertEquals(List.of("--sut", "cpu", "--sut-opt", "batch=1"), b.runArgs());
        assertEquals("peak", b.serverTarget());
        assertEquals("measured", b.offlineExpected());
        assertEquals(10_000, b.datasetSize());
        assertEquals("{home}/sut-cpu/src/main/resources/org/jloadgen/sut/cpu/fashionmnist/t10k-labels-idx1-ubyte.gz",
            b.accuracyCommand().get(b.accuracyCommand().size() - 1), "a line ending in \\ goes on on the next");
        assertEquals("0", c.systemFields().get("accelerators_per_node"));
        assertEquals(5, b.measurements().size());
        assertEquals(2000, c.rehearsal().minDurationMs());
    }

    @Test
    void shouldNameTheLineOfAnUnknownKey()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> parse(example() + "fashion-mnist-mlp.scenarios_typo = Offline\n"));
        assertTrue(ex.getMessage().contains("my.conf:" + (example().split("\n", -1).length) + ": "
            + "fashion-mnist-mlp.scenarios_typo"), ex.getMessage());
    }

    @Test
    void shouldNameAMissingFileOnceWithTheReason()
    {
        final Path missing = Path.of("no-such-dir", "submission.conf");
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> SubmissionConfig.read(missing));
        assertEquals(missing + ": cannot read the configuration (No such file or directory)", ex.getMessage());
    }

    @Test
    void shouldRefuseAKeyGivenTwice()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> parse("division = open\nsubmitter = X\ndivision = closed\n"));
        assertEquals("my.conf:3: key division is already set on line 1", ex.getMessage());
    }

    @Test
    void shouldRefuseBadValuesNamingTheKey()
    {
        final IllegalArgumentException division = assertThrows(IllegalArgumentException.class,
            () -> parse(example().replace("division = open", "division = public")));
        assertTrue(division.getMessage().matches("my\\.conf:\\d+: division: must be closed, open or network, got "
            + "'public'"), division.getMessage());
        final IllegalArgumentException scenario = assertThrows(IllegalArgumentException.class,
            () -> parse(example().replace("scenarios = Offline, Server", "scenarios = Offline, Online")));
        assertTrue(scenario.getMessage().contains("fashion-mnist-mlp.scenarios: unknown scenario 'Online'"),
            scenario.getMessage());
        final IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
            () -> parse(example().replace("fashion-mnist-mlp.server_target_qps = peak\n", "")));
        assertTrue(server.getMessage().contains("Server needs fashion-mnist-mlp.server_target_qps"),
            server.getMessage());
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> parse("division = open\n"));
        assertEquals("my.conf: key submitter is missing", missing.getMessage());
        final IllegalArgumentException line = assertThrows(IllegalArgumentException.class,
            () -> parse("division open\n"));
        assertEquals("my.conf:1: expected 'key = value', got 'division open'", line.getMessage());
    }

    @Test
    void shouldSplitCommandWordsWithQuotes()
    {
        assertEquals(List.of("a", "b c", "d"), SubmissionConfig.words("a 'b c'  d"));
        assertEquals(List.of("x=1 2"), SubmissionConfig.words("x=\"1 2\""));
    }
}
