package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps that build the tree around the runs: the system description, model mapping and source folder first;
 * the official truncation of the accuracy logs last (into the final tree, the untruncated one kept beside it). Also
 * the tool's own check that every file the checker reads is where it looks, each missing one named with the step
 * that writes it.
 */
final class TreeSteps
{
    /** The id of the first step. */
    static final String SYSTEM = "system";
    /** The id of the truncation step. */
    static final String TRUNCATE = "truncate";

    private final FlowContext ctx;

    /**
     * @param ctx what every step needs.
     */
    TreeSteps(final FlowContext ctx)
    {
        this.ctx = ctx;
    }

    /**
     * @return the system step.
     */
    Step system()
    {
        return new Step(SYSTEM, "systems/" + ctx.config().system() + ".json, model mapping, src/", List.of(),
            () -> systemJson() + mapping() + src(), () -> 100L, this::writeSystem);
    }

    /**
     * @param dependsOn every step that writes into the tree.
     * @return the truncation step.
     */
    Step truncate(final List<String> dependsOn)
    {
        return new Step(TRUNCATE, "official truncate_accuracy_log.py into the final tree", List.copyOf(dependsOn),
            () -> ctx.tools().submissionTools().resolve("truncate_accuracy_log.py").toString(), () -> 5_000L,
            this::runTruncation);
    }

    private String systemJson()
    {
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("division", ctx.config().division());
        fields.put("submitter", ctx.config().submitter());
        for (final Map.Entry<String, String> field : ctx.config().systemFields().entrySet())
        {
            // A JSON 0 is "empty" to the checker's meaningful-value check (Python's `not 0`): zero stays a string.
            fields.put(field.getKey(), Preflight.INTEGER_FIELDS.contains(field.getKey()) && field.getValue().matches(
                "[1-9]\\d*") ? (Object) Long.parseLong(field.getValue()) : field.getValue());
        }
        return Json.object(fields);
    }

    private String mapping()
    {
        final Map<String, String> map = new LinkedHashMap<>();
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            if (!b.name().equals(b.mlperfModel()))
            {
                map.put(b.name(), b.mlperfModel());
            }
        }
        return map.isEmpty() || !ctx.config().division().equals("open") ? "" : Json.object(map);
    }

    private String src()
    {
        return "# Source\n\nThe results were produced by JLoadGen (`jloadgen submission`), which runs the SUT "
            + "under the "
            + "official LoadGen (" + ctx.tools().loadgen() + ") through its bridge (`--engine official`).\n"
            + "How each run was started is in the README.md of its scenario folder; the flow is described in "
            + "JLoadGen's README.md, section \"Submitting\".\n";
    }

    /**
     * @return where the model mapping goes (open division), relative to the tree's root.
     */
    Path mappingFile()
    {
        return ctx.layout().submitter().resolve("model_mapping.json");
    }

    private Step.Outcome writeSystem()
    {
        final Path build = ctx.layout().build();
        final List<Path> outputs = new ArrayList<>();
        final Path system = build.resolve(ctx.layout().systemJson());
        Ledger.writeAtomically(system, systemJson());
        outputs.add(system);
        final String mapping = mapping();
        if (!mapping.isEmpty())
        {
            final Path file = build.resolve(mappingFile());
            Ledger.writeAtomically(file, mapping);
            outputs.add(file);
        }
        final Path readme = build.resolve(ctx.layout().src()).resolve("README.md");
        Ledger.writeAtomically(readme, src());
        outputs.add(readme);
        return new Step.Outcome(outputs, Map.of(), mapping.isEmpty() ? ctx.layout().systemJson().toString()
            : ctx.layout().systemJson() + ", " + mappingFile());
    }

    private Step.Outcome runTruncation() throws IOException
    {
        final Path work = ctx.layout().work(TRUNCATE);
        final Path output = work.resolve("tree");
        Ledger.deleteTree(output);
        Files.createDirectories(work);
        final Children.Result result = ctx.children().run(ctx.children().python(
            ctx.tools().submissionTools().resolve("truncate_accuracy_log.py").toString(), "--input",
            ctx.layout().build().toString(), "--output", output.toString(), "--submitter", ctx.config().submitter()),
            work, RunSteps.log(work));
        final List<String> errors = result.output().lines().filter(l -> l.startsWith("ERROR")).toList();
        if (result.exitCode() != 0 || !errors.isEmpty())
        {
            throw new Step.Failure("the official truncation failed (exit " + result.exitCode() + "): "
                + String.join("; ", errors) + "; see " + RunSteps.log(work));
        }
        final long max = ctx.tables().values().iterator().next().maxAccuracyLogBytes();
        for (final Path file : Ledger.files(List.of(output)))
        {
            if (file.getFileName().toString().equals("mlperf_log_accuracy.json") && Files.size(file) > max)
            {
                throw new Step.Failure("after truncation " + output.relativize(file) + " still has " + Files.size(file)
                    + " bytes (the checker allows " + max + "); see " + RunSteps.log(work));
            }
        }
        Ledger.publish(output, ctx.layout().submission());
        return new Step.Outcome(List.of(ctx.layout().submission()), Map.of(), "final tree in "
            + ctx.layout().submission() + "; untruncated logs kept in " + ctx.layout().build());
    }

    /**
     * A file the checker reads and the step that writes it.
     *
     * @param path the file, relative to the tree's root.
     * @param step the step that writes it.
     */
    record Expected(Path path, String step)
    {
    }

    /**
     * @return every file the checker reads in this submission, with the step that writes it.
     */
    List<Expected> expected()
    {
        final List<Expected> files = new ArrayList<>();
        final Layout l = ctx.layout();
        files.add(new Expected(l.systemJson(), SYSTEM));
        files.add(new Expected(l.src().resolve("README.md"), SYSTEM));
        if (!mapping().isEmpty())
        {
            files.add(new Expected(mappingFile(), SYSTEM));
        }
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            for (final String s : b.scenarios())
            {
                final String p = b.name() + "/" + s + "/";
                final Path conf = l.measurements(b.name(), s).getParent();
                files.add(new Expected(l.measurements(b.name(), s), p + "conf"));
                for (final String f : List.of("user.conf", "mlperf.conf", "README.md"))
                {
                    files.add(new Expected(conf.resolve(f), p + "conf"));
                }
                for (final String f : List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt",
                    "mlperf_log_accuracy.json", "accuracy.txt"))
                {
                    files.add(new Expected(l.accuracy(b.name(), s).resolve(f), p + "accuracy"));
                }
                for (final String f : List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt"))
                {
                    files.add(new Expected(l.performance(b.name(), s).resolve(f), p + "performance"));
                }
                for (final String test : ctx.tables().get(b.name()).complianceTests())
                {
                    final Path dir = l.compliance(b.name(), s).resolve(test);
                    files.add(new Expected(dir.resolve("verify_performance.txt"), p + test));
                    files.add(new Expected(dir.resolve("performance/run_1/mlperf_log_detail.txt"), p + test));
                    files.add(new Expected(dir.resolve("performance/run_1/mlperf_log_summary.txt"), p + test));
                    if (test.equals("TEST01"))
                    {
                        files.add(new Expected(dir.resolve("verify_accuracy.txt"), p + test));
                        files.add(new Expected(dir.resolve("accuracy/mlperf_log_accuracy.json"), p + test));
                    }
                }
            }
        }
        return files;
    }

    /**
     * @param root a tree's root.
     * @return the files the checker reads that are missing from it.
     */
    List<Expected> missing(final Path root)
    {
        return expected().stream().filter(e -> !Files.isRegularFile(root.resolve(e.path()))).toList();
    }
}
