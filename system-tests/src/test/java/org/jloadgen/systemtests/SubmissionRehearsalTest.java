package org.jloadgen.systemtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code jloadgen submission --rehearsal} on the embedded model (the built-in configuration: open division, Offline
 * and Server, every run under the official LoadGen), through the real {@code ./jloadgen} launcher: the tree it
 * builds is checked here by the official checker from {@code ../shared}, which may report only the errors a short
 * run must cause; tampered copies of the tree are caught, each with the step to redo; and a flow interrupted by
 * SIGINT resumes without repeating its finished steps. Skipped without {@code ../shared/mlperf-inference} or a
 * Python with numpy and yaml.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubmissionRehearsalTest
{
    private static final String SYSTEM = "open/JLoadGen/results/cpu-2core-onnxruntime/fashion-mnist-mlp/";
    private static final long LIMIT_S = 900;
    /**
     * The checker errors a rehearsal must cause, and only those: each performance run is shorter than the checker's
     * 600 s ({@code min_duration_check}); a 2 s Server run may also have too few queries for early stopping to bound
     * the 99th percentile when a few queries were late (LoadGen says how many more queries it would need:
     * {@code latency_check}), which counts as a short-run error only when the run's own 99th percentile is within
     * its latency bound (fewer than 1% late: a full-length run at that rate meets early stopping; over it the machine
     * was too busy to serve the target, and the test is aborted with the figures as its reason); so the performance
     * checks fail, so the checker counts no result for the run and its summary says the submission has errors.
     */
    private static final List<Pattern> SHORT_RUN_ERRORS = List.of(
        Pattern.compile(".*/performance/run_1/mlperf_log_detail.txt Test duration less than 600s in user config\\. "
            + "expected=600000, found=2000"),
        Pattern.compile("Early stopping condition was not met, msg= \\* Run unsuccessful\\. +\\* Processed \\d+ "
            + "queries\\. +\\* Would need to run at least \\d+ more queries, +with the run being successful if every "
            + "additional +query were under latency\\."),
        Pattern.compile("Some performance checks Checks failed for: .*/performance/run_1/mlperf_log_detail.txt"),
        Pattern.compile("NoResults .*/performance/run_1/mlperf_log_detail.txt"),
        Pattern.compile("SUMMARY: submission has errors"));

    private Path root;
    private Path shared;
    private Path work;
    private Path rehearsal;
    private String rehearsalOutput;

    @BeforeAll
    void rehearse() throws Exception
    {
        root = Path.of(System.getProperty("jloadgen.root.dir", "..")).toAbsolutePath().normalize();
        shared = root.resolve("../shared/mlperf-inference").normalize();
        assumeTrue(Files.isRegularFile(shared.resolve("tools/submission/submission_checker/main.py")),
            "no official checker at " + shared);
        assumeTrue(exec(root, List.of("python3", "-c", "import numpy, yaml"), 60).status() == 0,
            "python3 with numpy and yaml is needed for the official scripts");
        work = Files.createDirectories(root.resolve("system-tests/target/submission-test"));
        rehearsal = work.resolve("rehearsal");
        deleteTree(rehearsal);
        final Exec run = jloadgen(List.of("submission", "--rehearsal", "--out", rehearsal.toString()));
        rehearsalOutput = run.output();
        assertEquals(3, run.status(), "a rehearsal's checker reports the short runs\n" + run.output());
    }

    @Test
    void shouldBuildATreeTheOfficialCheckerFaultsOnlyForShortRuns() throws Exception
    {
        final Path tree = rehearsal.resolve("submission");
        assertTrue(rehearsalOutput.contains("cd " + shared.resolve("tools/submission") + " && python3 -m "
            + "submission_checker.main --input " + tree), "the exact checker command line\n" + rehearsalOutput);
        assertTrue(Files.readString(tree.resolve("open/JLoadGen/model_mapping.json"))
            .contains("\"fashion-mnist-mlp\": \"resnet\""));
        for (final String scenario : List.of("Offline", "Server"))
        {
            final Path dir = tree.resolve(SYSTEM + scenario);
            for (final String file : List.of("measurements.json", "user.conf", "mlperf.conf", "README.md",
                "accuracy/accuracy.txt", "performance/run_1/mlperf_log_detail.txt", "TEST01/verify_accuracy.txt",
                "TEST01/verify_performance.txt", "TEST04/verify_performance.txt",
                "TEST04/performance/run_1/mlperf_log_detail.txt"))
            {
                assertTrue(Files.isRegularFile(dir.resolve(file)), dir.resolve(file).toString());
            }
            final Path truncated = dir.resolve("accuracy/mlperf_log_accuracy.json");
            final Path untruncated = rehearsal.resolve("build").resolve(SYSTEM + scenario)
                .resolve("accuracy/mlperf_log_accuracy.json");
            assertTrue(Files.size(truncated) <= 10 * 1024, "truncated: " + truncated);
            assertTrue(Files.readString(dir.resolve("accuracy/accuracy.txt"))
                .contains("hash=" + sha256(untruncated)), "accuracy.txt holds the hash of the untruncated log");
            assertTrue(Files.readString(dir.resolve("accuracy/accuracy.txt")).startsWith("accuracy=89.19%"));
            assertTrue(Files.readString(dir.resolve("user.conf")).contains("resnet50." + scenario + ".min_duration"));
        }
        // The metric ends the row, or has a line of its own under it where the row would pass 80 columns.
        // The compliance tests' columns say pass or FAIL: on a busy machine the short audit runs may miss their bounds.
        assertTrue(rehearsalOutput.matches("(?s).*\nfashion-mnist-mlp +Offline +(IN)?VALID +(pass|FAIL) +(pass|FAIL)"
            + "\\s+Samples per second: [0-9.]+\n.*"), "the final table\n" + rehearsalOutput);
        for (final String line : rehearsalOutput.split("\n"))
        {
            // Prose is wrapped to 80 columns; commands, lone paths and the checker's own lines are not.
            final String text = line.strip();
            assertTrue(line.length() <= 80 || text.startsWith("cd ") || text.startsWith("jloadgen submission --out ")
                || text.startsWith("checker error: ") || !text.contains(" "),
                () -> "wider than 80 columns: " + line + "\n" + rehearsalOutput);
        }
        // Last, as it may be aborted on an overloaded machine.
        final Exec checker = officialChecker(tree);
        final List<String> errors = onlyShortRunErrors(checker, tree);
        assertEquals(2, errors.stream().filter(e -> e.contains("Test duration less than 600s")).count(),
            "one short performance run per scenario\n" + checker.output());
    }

    @Test
    void shouldNameTheStepThatWroteAnEditedPerformanceLog() throws Exception
    {
        final Path copy = copyOfRehearsal("edited-log");
        final Path detail = copy.resolve("submission")
            .resolve(SYSTEM + "Offline/performance/run_1/mlperf_log_detail.txt");
        final String text = Files.readString(detail);
        final String edited = text.replaceFirst("(\"key\": \"effective_sample_index_rng_seed\", \"value\": )\\d+",
            "$1123");
        assertFalse(text.equals(edited), "the seed line is in the detail log");
        Files.writeString(detail, edited);
        final Exec check = jloadgen(List.of("submission", "--rehearsal", "--check", "--out", copy.toString()));
        assertEquals(3, check.status(), check.output());
        assertTrue(check.output().contains("sample_index_rng_seed is wrong"), check.output());
        assertTrue(check.output().replaceAll("\\s+", " ").contains("point to step "
            + "fashion-mnist-mlp/Offline/performance; fix its cause, then redo it: jloadgen submission --out " + copy
            + " --rehearsal --redo fashion-mnist-mlp/Offline/performance"), check.output());
    }

    @Test
    void shouldNameTheStepThatWroteAMeasurementsFileMissingAField() throws Exception
    {
        final Path copy = copyOfRehearsal("measurements");
        final Path file = copy.resolve("submission").resolve(SYSTEM + "Server/measurements.json");
        Files.writeString(file, Files.readString(file).replaceFirst("\\s*\"retraining\": \"no\",", ""));
        final Exec check = jloadgen(List.of("submission", "--rehearsal", "--check", "--out", copy.toString()));
        assertEquals(3, check.status(), check.output());
        assertTrue(check.output().contains("field retraining is missing"), check.output());
        assertTrue(check.output().replaceAll("\\s+", " ").contains("point to step fashion-mnist-mlp/Server/conf;"),
            check.output());
    }

    @Test
    void shouldNameTheStepOfAMissingTest04Folder() throws Exception
    {
        final Path copy = copyOfRehearsal("test04");
        final Path test04 = copy.resolve("submission").resolve(SYSTEM + "Offline/TEST04");
        deleteTree(test04);
        final Exec check = jloadgen(List.of("submission", "--rehearsal", "--check", "--out", copy.toString()));
        assertEquals(3, check.status(), check.output());
        // The checker skips compliance folders in the open division; the tool's own file check names the step.
        assertTrue(check.output().contains("missing " + test04.resolve("verify_performance.txt")
            + " (written by step fashion-mnist-mlp/Offline/TEST04; redo it: jloadgen submission --out " + copy
            + " --rehearsal --redo fashion-mnist-mlp/Offline/TEST04)"), check.output());
    }

    @Test
    void shouldResumeAfterSigintWithoutRepeatingFinishedSteps() throws Exception
    {
        final Path out = work.resolve("interrupted");
        deleteTree(out);
        final List<String> command = launcher(List.of("submission", "--rehearsal", "--out", out.toString()));
        command.addAll(0, List.of("env", "--default-signal=INT"));
        final Path log = work.resolve("interrupted.log");
        final ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("JLOADGEN_NO_BUILD", "1");
        final Process process = builder.start();
        final String marker = "fashion-mnist-mlp/Offline/performance: performance run";
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_S);
        while (!Files.readString(log).contains(marker))
        {
            assertTrue(process.isAlive(), "ended before its performance step\n" + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "no performance step\n" + Files.readString(log));
            Thread.sleep(200);
        }
        Thread.sleep(1500);
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "ends after SIGINT\n" + Files.readString(log));
        final String first = Files.readString(log);
        assertEquals(130, process.exitValue(), first);
        assertTrue(first.contains("interrupted; the step in progress is lost"), first);
        assertFalse(Files.exists(out.resolve("build").resolve(SYSTEM + "Offline/performance")),
            "nothing of the interrupted step in the tree");
        final Path accuracy = out.resolve("build").resolve(SYSTEM + "Offline/accuracy/mlperf_log_accuracy.json");
        final String accuracyHash = sha256(accuracy);

        final Exec resumed = jloadgen(List.of("submission", "--rehearsal", "--out", out.toString()));
        assertEquals(3, resumed.status(), resumed.output());
        for (final String step : List.of("system", "fashion-mnist-mlp/Offline/measure",
            "fashion-mnist-mlp/Offline/conf", "fashion-mnist-mlp/Offline/accuracy"))
        {
            assertTrue(resumed.output().replaceAll("\\s+", " ").contains("] " + step
                + ": done earlier, inputs unchanged; skipped"), step + " is not repeated\n" + resumed.output());
        }
        assertTrue(resumed.output().matches("(?s).*] fashion-mnist-mlp/Offline/performance: performance run .*?"
            + "\\.\\.\\.\n +done in .*"), resumed.output());
        assertEquals(accuracyHash, sha256(accuracy), "the finished accuracy run's log is the same file");
        assertEquals(files(rehearsal.resolve("submission")), files(out.resolve("submission")),
            "the same tree as the uninterrupted rehearsal");
        // The checker's verdict on the resumed tree, unless the machine was too busy for the Server run to meet its
        // bound: the resumption itself is checked above either way, so a busy machine does not skip this test.
        if (ServerLatency.of(out.resolve("submission")).met())
        {
            final List<String> errors = onlyShortRunErrors(officialChecker(out.resolve("submission")),
                out.resolve("submission"));
            assertEquals(2, errors.stream().filter(e -> e.contains("Test duration less than 600s")).count());
        }
    }

    /** The Server performance run's 99th percentile and its bound, from its summary. */
    private record ServerLatency(long p99Ns, long boundNs)
    {
        static ServerLatency of(final Path tree) throws IOException
        {
            final String summary = Files.readString(tree.resolve(SYSTEM + "Server/performance/run_1/"
                + "mlperf_log_summary.txt"));
            return new ServerLatency(number(summary, "99.00 percentile latency \\(ns\\) *: (\\d+)"),
                number(summary, "target_latency \\(ns\\): (\\d+)"));
        }

        boolean met()
        {
            return p99Ns <= boundNs;
        }
    }

    private Exec officialChecker(final Path tree) throws IOException, InterruptedException
    {
        return exec(shared.resolve("tools/submission"), List.of("python3", "-m", "submission_checker.main", "--input",
            tree.toString(), "--version", "v6.1", "--submitter", "JLoadGen", "--csv",
            work.resolve("summary.csv").toString(), "--skip-dataset-size-check"), 300);
    }

    /**
     * @return the checker's error messages, each checked to be one a short run must cause.
     */
    private static List<String> onlyShortRunErrors(final Exec checker, final Path tree) throws IOException
    {
        final List<String> errors = checker.output().lines().filter(l -> l.contains(" ERROR] ")).map(
            l -> l.substring(l.indexOf(" ERROR] ") + " ERROR] ".length()).strip()).toList();
        for (final String error : errors)
        {
            assertTrue(SHORT_RUN_ERRORS.stream().anyMatch(p -> p.matcher(error).matches()),
                "a checker error a short run does not explain: " + error + "\n" + checker.output());
        }
        assertTrue(checker.output().contains("Loading Accuracy log"), checker.output());
        if (errors.stream().anyMatch(e -> e.startsWith("Early stopping condition was not met")))
        {
            final ServerLatency server = ServerLatency.of(tree);
            // Over the bound the machine could not serve the target (a shared machine under load): no verdict on the
            // tree then, which is the same as on a quiet machine in every other file.
            assumeTrue(server.met(), "the machine is too busy for a Server verdict: early stopping failed with a 99th "
                + "percentile of " + server.p99Ns() + " ns over the " + server.boundNs() + " ns bound (load average "
                + loadAverage() + ")");
        }
        return errors;
    }

    private static String loadAverage()
    {
        try
        {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        }
        catch (final IOException ex)
        {
            return "unknown";
        }
    }

    private static long number(final String text, final String regex)
    {
        final java.util.regex.Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in\n" + text);
        return Long.parseLong(m.group(1));
    }

    private Path copyOfRehearsal(final String name) throws IOException
    {
        final Path copy = work.resolve("copy-" + name);
        deleteTree(copy);
        try (Stream<Path> files = Files.walk(rehearsal))
        {
            for (final Path file : files.toList())
            {
                final Path target = copy.resolve(rehearsal.relativize(file).toString());
                if (Files.isDirectory(file))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return copy;
    }

    private static List<String> files(final Path tree) throws IOException
    {
        try (Stream<Path> files = Files.walk(tree))
        {
            return files.filter(Files::isRegularFile).map(f -> tree.relativize(f).toString()).sorted().toList();
        }
    }

    private record Exec(int status, String output)
    {
    }

    private List<String> launcher(final List<String> args)
    {
        final List<String> command = new ArrayList<>(List.of(root.resolve("jloadgen").toString()));
        command.addAll(args);
        return command;
    }

    private Exec jloadgen(final List<String> args) throws IOException, InterruptedException
    {
        return exec(root, launcher(args), LIMIT_S);
    }

    private static Exec exec(final Path dir, final List<String> command, final long limitS)
        throws IOException, InterruptedException
    {
        final Path log = Files.createTempFile("submission-test", ".log");
        final ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile());
        builder.environment().put("JLOADGEN_NO_BUILD", "1");
        final Process process = builder.start();
        if (!process.waitFor(limitS, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            fail("still running after " + limitS + " s: " + command + "\n" + Files.readString(log));
        }
        final String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        return new Exec(process.exitValue(), output);
    }

    private static String sha256(final Path file) throws IOException, NoSuchAlgorithmException
    {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            for (final Path p : files.sorted(java.util.Comparator.reverseOrder()).toList())
            {
                Files.delete(p);
            }
        }
    }
}
