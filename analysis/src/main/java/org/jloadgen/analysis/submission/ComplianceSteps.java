package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The compliance tests the checker version requires for a benchmark (its {@code models_TESTnn} tables): each an
 * audit run (the official {@code audit.config} given to LoadGen) and the test's official
 * {@code run_verification.py}, whose outputs go where the checker looks ({@code TESTnn/} beside the scenario's
 * results, or the version's compliance folder).
 */
final class ComplianceSteps
{
    /** The tests this flow runs; the LLM and DLRM tests need outputs a classification SUT does not have. */
    static final List<String> AUTOMATED = List.of("TEST01", "TEST04");

    private final FlowContext ctx;
    private final SubmissionConfig.Benchmark b;
    private final String scenario;
    private final RunSteps runs;
    private final String prefix;

    /**
     * @param ctx       what every step needs.
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     * @param runs      the scenario's run steps (command lines, scoring).
     */
    ComplianceSteps(final FlowContext ctx, final SubmissionConfig.Benchmark benchmark, final String scenario,
        final RunSteps runs)
    {
        this.ctx = ctx;
        this.b = benchmark;
        this.scenario = scenario;
        this.runs = runs;
        this.prefix = benchmark.name() + "/" + scenario + "/";
    }

    /**
     * @return a step per compliance test the checker requires.
     */
    List<Step> steps()
    {
        final List<Step> steps = new ArrayList<>();
        for (final String test : ctx.tables().get(b.name()).complianceTests())
        {
            if (!AUTOMATED.contains(test))
            {
                throw new IllegalArgumentException("checker " + ctx.config().checkerVersion() + " requires " + test
                    + " for " + b.mlperfModel() + "; jloadgen submission runs only " + AUTOMATED);
            }
            final Path audit = auditConfig(test);
            // TEST01 compares with the accuracy run's log; every test with the performance run's.
            final List<String> dependsOn = test.equals("TEST01")
                ? List.of(prefix + "conf", prefix + "accuracy", prefix + "performance")
                : List.of(prefix + "conf", prefix + "performance");
            steps.add(new Step(prefix + test, test + " audit run and its official verification", dependsOn,
                () -> test + " " + audit + " " + sha(audit) + " " + String.join(" ", runs.runArgs("PerformanceOnly",
                    Path.of("-"), audit)) + (test.equals("TEST01") ? " --dtype " + b.test01Dtype() : ""),
                runs::runEstimateMs, () -> run(test, audit)));
        }
        return steps;
    }

    private static String sha(final Path file)
    {
        return Files.isRegularFile(file) ? Ledger.sha256(file) : "missing";
    }

    /**
     * @param test a compliance test.
     * @return its official audit.config for this benchmark: the test's own, or the one in the folder named after
     *         the benchmark (exactly, or the folder whose name starts with it, e.g. resnet50 for resnet).
     */
    Path auditConfig(final String test)
    {
        final Path dir = ctx.tools().compliance().resolve(test);
        if (Files.isRegularFile(dir.resolve("audit.config")))
        {
            return dir.resolve("audit.config");
        }
        final String model = b.mlperfModel();
        if (Files.isRegularFile(dir.resolve(model).resolve("audit.config")))
        {
            return dir.resolve(model).resolve("audit.config");
        }
        try (Stream<Path> folders = Files.list(dir))
        {
            final List<Path> candidates = folders.filter(f -> f.getFileName().toString().startsWith(model)
                || model.startsWith(f.getFileName().toString()))
                .filter(f -> Files.isRegularFile(f.resolve("audit.config"))).sorted().toList();
            if (candidates.size() == 1)
            {
                return candidates.get(0).resolve("audit.config");
            }
            throw new IllegalArgumentException(dir + ": " + (candidates.isEmpty() ? "no" : "more than one")
                + " audit.config folder for " + model + (candidates.isEmpty() ? "" : ": " + candidates));
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(dir + ": cannot list the compliance test: " + ex.getMessage(), ex);
        }
    }

    private Step.Outcome run(final String test, final Path audit) throws IOException
    {
        final String id = prefix + test;
        final Path work = ctx.layout().work(id);
        final Path logs = work.resolve("logs");
        final Path stage = work.resolve("stage");
        Ledger.deleteTree(logs);
        Ledger.deleteTree(stage);
        Files.createDirectories(work);
        final Path localAudit = work.resolve("audit.config");
        Files.copy(audit, localAudit, StandardCopyOption.REPLACE_EXISTING);
        runs.runTest(ctx.children().jloadgen(runs.runArgs("PerformanceOnly", logs, localAudit)), work, logs,
            test + " audit run");
        if (!Files.readString(logs.resolve("mlperf_log_detail.txt")).contains("audit.config"))
        {
            throw new Step.Failure(test + ": LoadGen's detail log does not mention the audit.config; see " + logs);
        }
        final Path results = ctx.layout().build().resolve(ctx.layout().accuracy(b.name(), scenario)).getParent();
        final List<String> verify = new ArrayList<>(List.of(
            ctx.tools().compliance().resolve(test).resolve("run_verification.py").toString(), "-r", results.toString(),
            "-c", logs.toString(), "-o", stage.toString()));
        if (test.equals("TEST01"))
        {
            verify.addAll(List.of("--dtype", b.test01Dtype()));
        }
        final Children.Result result = runs.runChecked(ctx.children().python(verify.toArray(String[]::new)), work,
            test + " verification");
        final Path out = stage.resolve(test);
        if (!Files.isDirectory(out))
        {
            throw new Step.Failure(test + "'s verification wrote no " + out + "; see " + RunSteps.log(work));
        }
        final Map<String, String> values = new LinkedHashMap<>();
        final boolean performance = result.output().contains("Performance check pass: True");
        values.put("performance", performance ? "pass" : "FAIL");
        boolean pass = performance;
        if (test.equals("TEST01"))
        {
            final boolean accuracy = result.output().contains("Accuracy check pass: True");
            values.put("accuracy", accuracy ? "pass" : "FAIL");
            pass &= accuracy;
            // The truncation script needs the test's accuracy.txt beside its accuracy log, as the official flow has it.
            Files.writeString(out.resolve("accuracy").resolve("accuracy.txt"),
                runs.score(out.resolve("accuracy").resolve("mlperf_log_accuracy.json"), work));
        }
        values.put("result", pass ? "pass" : "FAIL");
        final Path target = ctx.layout().build().resolve(ctx.layout().compliance(b.name(), scenario)).resolve(test);
        Ledger.publish(out, target);
        return new Step.Outcome(List.of(target), values, test + " " + (pass ? "passed" : "FAILED: " + values
            + "; see " + target));
    }
}
