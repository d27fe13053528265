package org.jloadgen.analysis.submission;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.cli.api.InterruptGuard;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen submission}: from a SUT to a submission tree the official checker accepts, in one resumable
 * command. See {@code example-submission.conf} for the configuration and the README's "Submitting" section.
 */
@Command(
    name = "submission",
    mixinStandardHelpOptions = true,
    description = {
        "Build one submitter's MLPerf Inference submission tree and check it with the official checker: per "
            + "benchmark and scenario an accuracy run and its score, a performance run, the compliance tests the "
            + "checker version requires with their official verification, then measurements.json, user.conf, "
            + "mlperf.conf, the system description and README.md, the official truncation of the accuracy logs, and "
            + "the official checker. Every run uses the official LoadGen (--engine official).",
        "Resumable: each step records its inputs and outputs under --out; running the same command again skips "
            + "finished steps whose inputs did not change. Ctrl-C loses at most the run in progress.",
        "Exit codes: 0 the checker accepts the tree, 3 a step failed or the checker reports errors, 2 a bad "
            + "configuration (nothing ran), 1 unexpected failure, 130 interrupted."})
public final class SubmissionCommand implements Callable<Integer>
{
    @Option(names = "--config", paramLabel = "FILE",
        description = "The submission's configuration (see --example). Default: the built-in one, the embedded "
            + "Fashion-MNIST model on the cpu SUT, open division, Offline and Server.")
    Path configFile;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "out/submission",
        description = "Output folder: build/ (untruncated tree), submission/ (the final tree), work/, state/, "
            + "checker/ (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--rehearsal",
        description = "Every step, file and check on short runs, to find setup mistakes in minutes.")
    boolean rehearsal;

    @Option(names = "--plan", description = "Print the steps and their estimated wall time; run nothing.")
    boolean plan;

    @Option(names = "--check",
        description = "Run no step: check the final tree already under --out (the tool's own file check, then the "
            + "official checker) and name the step to redo for each error.")
    boolean check;

    @Option(names = "--redo", paramLabel = "STEP",
        description = "Run this step again even if it is done (repeatable; --plan lists the step ids).")
    List<String> redo = new ArrayList<>();

    @Option(names = "--mlperf-inference", paramLabel = "DIR",
        description = "The official mlperf-inference folder (checker, compliance tests, LoadGen). Default: $"
            + OfficialTools.ENV + ", else the folder ../shared/mlperf-inference beside the JLoadGen folder.")
    Path mlperfInference;

    @Option(names = "--python", paramLabel = "EXE", defaultValue = "python3",
        description = "Python 3 with numpy and yaml, for the official scripts (default: ${DEFAULT-VALUE}).")
    String python;

    @Option(names = "--example", description = "Print the example configuration (the built-in one) and exit.")
    boolean example;

    @Override
    public Integer call()
    {
        final PrintStream stdout = System.out;
        if (example)
        {
            stdout.print(SubmissionConfig.exampleText());
            return ExitCodes.VALID;
        }
        final Path home = Path.of(System.getProperty("jloadgen.home", ".")).toAbsolutePath().normalize();
        final SubmissionConfig config = configFile == null ? SubmissionConfig.builtIn(home)
            : SubmissionConfig.read(configFile);
        final OfficialTools tools = OfficialTools.locate(mlperfInference, home, python);
        final Path outDir = out.toAbsolutePath().normalize();
        final Map<String, CheckerTables> tables = new LinkedHashMap<>();
        for (final SubmissionConfig.Benchmark b : config.benchmarks())
        {
            tables.put(b.name(), CheckerTables.read(tools, outDir.resolve("state"), config.checkerVersion(), b.name(),
                b.mlperfModel()));
        }
        final List<String> problems = Preflight.check(config, tables, tools, rehearsal);
        if (!problems.isEmpty())
        {
            System.err.println("jloadgen submission: the configuration does not give what checker "
                + config.checkerVersion() + " demands; nothing ran:");
            problems.forEach(p -> System.err.println("  - " + p));
            return ExitCodes.USAGE;
        }
        final Children children = new Children(home, python);
        final Ledger ledger = new Ledger(outDir);
        final FlowContext ctx = new FlowContext(config, tables, tools,
            new Layout(outDir, config, tables.values().iterator().next()), children, ledger, rehearsal);
        final SubmissionFlow flow = new SubmissionFlow(ctx);
        for (final String step : redo)
        {
            if (flow.steps().stream().noneMatch(s -> s.id().equals(step)))
            {
                throw new IllegalArgumentException("--redo " + step + ": no such step; they are: " + String.join(", ",
                    flow.steps().stream().map(Step::id).toList()));
            }
            ledger.forget(step);
        }
        if (plan)
        {
            flow.plan(stdout);
            return ExitCodes.VALID;
        }
        // Prose is wrapped to 80 columns (ConsoleText); commands, paths and the checker's own lines stay whole.
        stdout.println(ConsoleText.wrap("jloadgen submission: " + config.division() + "/" + config.submitter()
            + ", system " + config.system() + ", checker " + config.checkerVersion()
            + (rehearsal ? ", REHEARSAL (short runs)" : "") + "; "
            + (configFile == null ? "built-in configuration" : "configuration " + configFile) + "; into " + outDir,
            "  "));
        if (!check)
        {
            final InterruptGuard guard = InterruptGuard.install(reason -> children.stop());
            try
            {
                final Optional<String> failed = flow.run(stdout);
                if (failed.isPresent())
                {
                    flow.table(stdout);
                    return ExitCodes.INVALID;
                }
            }
            catch (final Children.StoppedException ex)
            {
                stdout.println(ConsoleText.wrap("jloadgen submission: interrupted; the step in progress is lost, the "
                    + "finished ones are kept. Run the same command again to go on.", "  "));
                return 130;
            }
            finally
            {
                guard.close();
            }
        }
        return verdict(ctx, flow, stdout);
    }

    private int verdict(final FlowContext ctx, final SubmissionFlow flow, final PrintStream stdout)
    {
        if (!Files.isDirectory(ctx.layout().submission()))
        {
            stdout.println("jloadgen submission: there is no tree in " + ctx.layout().submission()
                + " yet; run the same command without --check first");
            return ExitCodes.INVALID;
        }
        final TreeSteps tree = new TreeSteps(ctx);
        final List<TreeSteps.Expected> missing = tree.missing(ctx.layout().submission());
        for (final TreeSteps.Expected file : missing)
        {
            stdout.println("jloadgen submission: missing " + ctx.layout().submission().resolve(file.path())
                + " (written by step " + file.step() + "; redo it: " + redoCommand(file.step()) + ")");
        }
        stdout.println("[" + (flow.steps().size() + 1) + "/" + (flow.steps().size() + 1)
            + "] checker: the official submission checker on the final tree");
        final CheckerRun.Verdict verdict = CheckerRun.run(ctx);
        stdout.println("  " + verdict.command());
        final Map<String, Integer> steps = new LinkedHashMap<>();
        for (final CheckerRun.Error error : verdict.errors())
        {
            stdout.println("  checker error: " + error.line() + (error.step().isEmpty() ? ""
                : "  [step " + error.step() + "]"));
            if (!error.step().isEmpty())
            {
                steps.merge(error.step(), 1, Integer::sum);
            }
        }
        verdict.summary().forEach(line -> stdout.println("  " + line));
        for (final Map.Entry<String, Integer> step : steps.entrySet())
        {
            stdout.println(ConsoleText.wrap("  " + step.getValue() + " checker error line(s) point to step "
                + step.getKey() + "; fix its cause, then redo it:", "    "));
            stdout.println("    " + redoCommand(step.getKey()));
        }
        stdout.println(ConsoleText.wrap("  Verdict: " + (verdict.ok() ? "the checker accepts the tree"
            : "the checker reports " + verdict.errors().size() + " error line(s)") + "; its output is in "
            + ctx.layout().checker(), "    "));
        flow.table(stdout);
        return verdict.ok() && missing.isEmpty() ? ExitCodes.VALID : ExitCodes.INVALID;
    }

    private String redoCommand(final String step)
    {
        return "jloadgen submission" + (configFile == null ? "" : " --config " + configFile) + " --out " + out
            + (rehearsal ? " --rehearsal" : "") + " --redo " + step;
    }
}
