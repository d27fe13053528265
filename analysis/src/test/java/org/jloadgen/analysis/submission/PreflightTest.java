package org.jloadgen.analysis.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks before anything runs, against tables in the checker helper's format and a LoadGen mlperf.conf.
 */
class PreflightTest
{
    private static final String SEEDS = "*.*.qsl_rng_seed = 2085463073848966840\n"
        + "*.*.sample_index_rng_seed = 2747215439041700203\n*.*.schedule_rng_seed = 16159082839903944936\n";
    private static final String TABLES = String.join("\n",
        "versions\tv6.0\tv6.1", "mlperf_model\tresnet", "mlperf_model_plain\tfashion-mnist-mlp",
        "models\tresnet\tbert-99",
        "known\tyes", "compliance_tests\tTEST01\tTEST04", "seed\tqsl_rng_seed\t2085463073848966840",
        "seed\tsample_index_rng_seed\t2747215439041700203", "seed\tschedule_rng_seed\t16159082839903944936",
        "test_duration_ms\t600000", "performance_sample_count\t1024", "latency_constraint_ns\tServer\t15000000",
        "min_queries\tOffline\t1",
        "system_required\tdivision\tsubmitter\tstatus\tcooling\tsystem_type\tnumber_of_nodes",
        "system_meaningful\tcooling\tstatus", "system_status\tavailable\tpreview\trdi",
        "measurements_required\tretraining\tweight_data_types", "max_accuracy_log_bytes\t10240",
        "path\tSRC_PATH\t{division}/{submitter}/src", "");

    @TempDir
    Path dir;
    private OfficialTools tools;

    @BeforeEach
    void loadgen() throws IOException
    {
        Files.createDirectories(dir.resolve("loadgen"));
        Files.writeString(dir.resolve("loadgen/mlperf.conf"), SEEDS);
        tools = new OfficialTools(dir, "python3");
    }

    private List<String> problems(final String config, final boolean rehearsal)
    {
        final SubmissionConfig c = SubmissionConfig.fromText("my.conf", dir, config);
        return Preflight.check(c, Map.of(c.benchmarks().get(0).name(), CheckerTables.parse(TABLES)), tools, rehearsal)
            .stream().filter(p -> !p.startsWith("python3 ")).toList();
    }

    private static String config(final String system, final String extra)
    {
        return "division = open\nsubmitter = Me\nchecker_version = v6.1\nsystem = box\n" + system
            + "benchmarks = fashion-mnist-mlp\nfashion-mnist-mlp.mlperf_model = resnet\n"
            + "fashion-mnist-mlp.loadgen_model = resnet50\nfashion-mnist-mlp.scenarios = Offline, Server\n"
            + "fashion-mnist-mlp.server_target_qps = 100\nfashion-mnist-mlp.dataset_size = 10\n"
            + "fashion-mnist-mlp.accuracy_command = jloadgen accuracy --log {log}\n" + extra;
    }

    private static final String GOOD_SYSTEM = "system.status = available\nsystem.cooling = air\n"
        + "system.system_type = datacenter\nsystem.number_of_nodes = 1\n";
    private static final String GOOD_MEASUREMENTS = "fashion-mnist-mlp.measurements.retraining = no\n"
        + "fashion-mnist-mlp.measurements.weight_data_types = fp32\n";

    @Test
    void shouldPassAComplete() throws IOException
    {
        assertEquals(List.of(), problems(config(GOOD_SYSTEM, GOOD_MEASUREMENTS), false));
    }

    @Test
    void shouldNameEveryMissingOrEmptyRequiredField()
    {
        final List<String> problems = problems(config("system.status = available\nsystem.cooling =\n"
            + "system.number_of_nodes = one\n", "fashion-mnist-mlp.measurements.retraining = no\n"), false);
        assertTrue(problems.contains("my.conf: system.cooling is empty (checker v6.1 requires a meaningful value)"),
            problems.toString());
        assertTrue(problems.contains("my.conf: system.system_type is missing (checker v6.1 requires it in "
            + "systems/box.json)"), problems.toString());
        assertTrue(problems.contains("my.conf: system.number_of_nodes must be a whole number, got 'one'"),
            problems.toString());
        assertTrue(problems.contains("my.conf: fashion-mnist-mlp.measurements.weight_data_types is missing (checker "
            + "v6.1 requires it in measurements.json)"), problems.toString());
        assertEquals(4, problems.size(), problems.toString());
    }

    @Test
    void shouldRefuseSeedsThatAreNotTheCheckers() throws IOException
    {
        Files.writeString(dir.resolve("loadgen/mlperf.conf"), SEEDS.replace("2747215439041700203", "1"));
        final List<String> problems = problems(config(GOOD_SYSTEM, GOOD_MEASUREMENTS), false);
        assertEquals(List.of(dir.resolve("loadgen/mlperf.conf") + ": sample_index_rng_seed is 1 but checker v6.1 "
            + "demands 2747215439041700203 (use the LoadGen that belongs to this checker version)"), problems);
    }

    @Test
    void shouldRefuseUserConfLinesTheCheckerRejects() throws IOException
    {
        Files.writeString(dir.resolve("user.conf"), "# mine\n*.*.schedule_rng_seed = 5\n"
            + "resnet50.Offline.min_duration = 60000\nresnet50.Server.target_latency = 20\n"
            + "resnet50.*.performance_sample_count_override = 500\nother.Offline.min_duration = 1\n");
        final String config = config(GOOD_SYSTEM, GOOD_MEASUREMENTS + "fashion-mnist-mlp.user_conf = user.conf\n");
        final List<String> problems = problems(config, false);
        final Path u = dir.resolve("user.conf");
        assertTrue(problems.contains(u + ":2: *.*.schedule_rng_seed: seeds come from mlperf.conf; the checker rejects "
            + "any other"), problems.toString());
        assertTrue(problems.contains(u + ":3: resnet50.Offline.min_duration: 60000 ms is under the checker's "
            + "600000 ms"), problems.toString());
        assertTrue(problems.contains(u + ":4: resnet50.Server.target_latency: 20 ms is above the checker's Server "
            + "bound of 15.0 ms for resnet"), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(u + ":5: resnet50.*.performance_sample_count_override: "
            + "500 is under the checker's performance sample count 1024")), problems.toString());
        assertEquals(5, problems.size(), "line 6 is another model's; the override counts once per scenario\n"
            + problems);
        assertEquals(4, problems(config, true).size(), "a rehearsal may run shorter");
    }

    @Test
    void shouldRefuseAnUnknownVersionOrBenchmark()
    {
        final SubmissionConfig c = SubmissionConfig.fromText("my.conf", dir, config(GOOD_SYSTEM, GOOD_MEASUREMENTS));
        final List<String> version = Preflight.check(c, Map.of("fashion-mnist-mlp", CheckerTables.parse(
            "versions\tv6.0\tv6.1\n")), tools, false);
        assertTrue(version.contains("my.conf: checker_version v6.1 is not a version of the checker (it has v6.0, "
            + "v6.1)"), version.toString());
        final List<String> model = Preflight.check(c, Map.of("fashion-mnist-mlp", CheckerTables.parse(
            TABLES.replace("known\tyes", "known\tno"))), tools, false);
        assertTrue(model.contains("my.conf: fashion-mnist-mlp.mlperf_model resnet is not a benchmark of checker v6.1 "
            + "(it has resnet, bert-99)"), model.toString());
    }
}
