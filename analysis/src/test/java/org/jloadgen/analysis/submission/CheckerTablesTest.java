package org.jloadgen.analysis.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * checker_tables.py against the official checker in ../shared: the tables come from the checker's own modules.
 */
class CheckerTablesTest
{
    @TempDir
    Path dir;
    private OfficialTools tools;

    @BeforeEach
    void official()
    {
        final Path root = Path.of("..", "..", "shared", "mlperf-inference").toAbsolutePath().normalize();
        assumeTrue(Files.isRegularFile(root.resolve("tools/submission/submission_checker/constants.py")),
            "no official checker at " + root);
        tools = new OfficialTools(root, "python3");
    }

    @Test
    void shouldReadTheComplianceTestsSeedsFieldsAndPathsOfTheVersion()
    {
        final CheckerTables t = CheckerTables.read(tools, dir, "v6.1", "fashion-mnist-mlp", "resnet");
        assertTrue(t.versions().contains("v6.1"), t.versions().toString());
        assertEquals("resnet", t.mlperfModel());
        assertEquals("fashion-mnist-mlp", t.plainModel(), "without a mapping the checker reads the name as it is");
        assertTrue(t.known());
        assertEquals(List.of("TEST01", "TEST04"), t.complianceTests());
        assertEquals("2747215439041700203", t.seeds().get("sample_index_rng_seed"));
        assertEquals(600_000, t.testDurationMs());
        assertEquals(1024, t.performanceSamples());
        assertEquals(15_000_000L, t.latencyNs().get("Server"));
        assertTrue(t.systemRequired().containsAll(List.of("cooling", "accelerator_on-chip_memories", "hw_notes")));
        assertTrue(t.systemMeaningful().contains("accelerators_per_node"));
        assertEquals(List.of("input_data_types", "retraining", "starting_weights_filename", "weight_data_types",
            "weight_transformations"), t.measurementFields());
        assertEquals("open/Me/results/box/b/Offline/TEST01/", t.path("COMPLIANCE_PATH", "open", "Me", "box", "b",
            "Offline") + "TEST01/");
        assertTrue(t.accuracyPatterns().get("Offline").get(0).contains("accuracy"));
        assertEquals(List.of("TEST06"), CheckerTables.read(tools, dir, "v6.1", "llama3.1-8b", "llama3.1-8b")
            .complianceTests());
    }

    @Test
    void shouldSayWhenTheVersionOrModelIsUnknown()
    {
        final CheckerTables version = CheckerTables.read(tools, dir, "v0.5", "resnet", "resnet");
        assertFalse(version.hasVersion());
        assertTrue(version.versions().contains("v6.1"));
        assertFalse(CheckerTables.read(tools, dir, "v6.1", "mine", "no-such-benchmark").known());
    }
}
