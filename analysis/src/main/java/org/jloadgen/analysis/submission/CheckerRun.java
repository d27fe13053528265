package org.jloadgen.analysis.submission;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The official checker run on the final tree: its exact command line, its verdict, its error lines, and for each
 * error the step that wrote the offending file (from the path the error names, or the check it ran in).
 */
final class CheckerRun
{
    /** The checker's last line when the tree passes. */
    static final String OK = "SUMMARY: submission looks OK";
    private static final Pattern STARTING = Pattern.compile("Starting (.+?) for: (\\S+)");
    private static final Pattern PATH = Pattern.compile("(\\S*(?:closed|open|network)/[^\\s,()]+)");
    private static final Pattern TEST = Pattern.compile("/(TEST\\d\\d)(/|$)");

    /**
     * One error line and the step it points to.
     *
     * @param line the checker's line (its message).
     * @param step the step that wrote the offending file, or empty when no file is named.
     */
    record Error(String line, String step)
    {
    }

    /**
     * The checker's verdict.
     *
     * @param command  the command line, to rerun by hand.
     * @param exitCode its exit code.
     * @param ok       whether it said the submission looks OK.
     * @param summary  its summary lines (from the first "---" on).
     * @param errors   its error lines.
     * @param output   everything it printed.
     */
    record Verdict(String command, int exitCode, boolean ok, List<String> summary, List<Error> errors, String output)
    {
    }

    private CheckerRun()
    {
    }

    /**
     * @param ctx what every step needs.
     * @return the checker's command line (arguments after {@code python3 -m}), run from {@code tools/submission}.
     */
    static List<String> arguments(final FlowContext ctx)
    {
        final List<String> args = new ArrayList<>(List.of("-m", "submission_checker.main", "--input",
            ctx.layout().submission().toString(), "--version", ctx.config().checkerVersion(), "--submitter",
            ctx.config().submitter(), "--csv", ctx.layout().checker().resolve("summary.csv").toString()));
        if (ctx.config().division().equals("open"))
        {
            args.addAll(List.of("--extra-model-benchmark-map",
                ctx.layout().submission().resolve(ctx.config().division()).resolve(ctx.config().submitter())
                    .resolve("model_mapping.json").toString()));
        }
        args.addAll(ctx.config().checkerFlags());
        return args;
    }

    /**
     * Runs the checker and keeps its output in {@code OUT/checker}.
     *
     * @param ctx what every step needs.
     * @return its verdict.
     */
    static Verdict run(final FlowContext ctx)
    {
        final Path dir = ctx.layout().checker();
        Ledger.deleteTree(dir);
        final List<String> command = ctx.children().python(arguments(ctx).toArray(String[]::new));
        final String line = "cd " + ctx.tools().submissionTools() + " && " + String.join(" ", command);
        Ledger.writeAtomically(dir.resolve("command.txt"), line + "\n");
        final Children.Result result = ctx.children().run(command, ctx.tools().submissionTools(),
            dir.resolve("checker-run.log"));
        Ledger.writeAtomically(dir.resolve("checker.log"), result.output());
        final Verdict verdict = parse(line, result.exitCode(), result.output(), ctx);
        Ledger.writeAtomically(dir.resolve("verdict.txt"), (verdict.ok() ? OK : "the checker reports errors (exit "
            + verdict.exitCode() + ")") + "\n" + String.join("\n", verdict.summary()) + "\n");
        return verdict;
    }

    /**
     * @param command  the command line.
     * @param exitCode its exit code.
     * @param output   its output.
     * @param ctx      what every step needs (benchmarks and scenarios, for the mapping to steps).
     * @return the verdict.
     */
    static Verdict parse(final String command, final int exitCode, final String output, final FlowContext ctx)
    {
        final List<Error> errors = new ArrayList<>();
        final List<String> summary = new ArrayList<>();
        String context = "";
        boolean inSummary = false;
        for (final String raw : output.split("\n"))
        {
            final String message = message(raw);
            final Matcher starting = STARTING.matcher(message);
            if (starting.find())
            {
                context = starting.group(2);
            }
            if (message.equals("---"))
            {
                inSummary = true;
            }
            if (inSummary && !message.equals("---") && !message.isBlank() && !message.startsWith("Results ")
                && !message.startsWith("NoResults "))
            {
                summary.add(message);
            }
            if (isError(raw))
            {
                errors.add(new Error(message, step(message, context, ctx)));
            }
            else if (raw.startsWith("Traceback") || raw.matches("^\\w+Error: .*"))
            {
                errors.add(new Error("the checker crashed: " + raw.strip(), ""));
            }
        }
        return new Verdict(command, exitCode, exitCode == 0 && output.contains(OK), summary, errors, output);
    }

    private static boolean isError(final String raw)
    {
        return raw.contains(" ERROR] ") || raw.startsWith("ERROR:");
    }

    /**
     * @param raw a checker line ({@code [time file:line LEVEL] message} or {@code LEVEL:logger:message}).
     * @return its message.
     */
    static String message(final String raw)
    {
        final int bracket = raw.indexOf("] ");
        if (raw.startsWith("[") && bracket > 0)
        {
            return raw.substring(bracket + 2).strip();
        }
        final String[] parts = raw.split(":", 3);
        if (parts.length == 3 && parts[0].matches("INFO|ERROR|WARNING|DEBUG"))
        {
            return parts[2].strip();
        }
        return raw.strip();
    }

    /**
     * @param message an error message.
     * @param context the path of the check it ran in.
     * @param ctx     the flow.
     * @return the step that wrote the offending file, or empty.
     */
    static String step(final String message, final String context, final FlowContext ctx)
    {
        if (message.startsWith("SUMMARY:"))
        {
            return "";
        }
        if (message.contains("is not truncated"))
        {
            return TreeSteps.TRUNCATE;
        }
        final Matcher m = PATH.matcher(message);
        final String path = m.find() ? m.group(1) : context;
        final Map<String, String> where = where(path, ctx);
        if (where.isEmpty())
        {
            final boolean system = path.contains("/systems/") || path.endsWith("/src") || path.contains("/src/")
                || path.endsWith("model_mapping.json") || message.contains(", field ")
                || message.contains("system json") || message.contains("Some system checks")
                || message.contains(" has submitter ") || message.contains(" has division ")
                || message.contains(" has invalid ") || message.contains("network mode");
            return system ? TreeSteps.SYSTEM : "";
        }
        final String prefix = where.get("benchmark") + "/" + where.get("scenario") + "/";
        final Matcher test = TEST.matcher(path);
        if (test.find())
        {
            return prefix + test.group(1);
        }
        if (message.contains("measurements") || path.endsWith("measurements.json") || path.endsWith("user.conf")
            || path.endsWith("README.md") || message.contains(" is missing user.conf")
            || message.contains(" is missing README.md"))
        {
            return prefix + "conf";
        }
        if (path.contains("/accuracy"))
        {
            return prefix + "accuracy";
        }
        if (path.contains("/performance"))
        {
            return prefix + "performance";
        }
        return prefix + "conf";
    }

    private static Map<String, String> where(final String path, final FlowContext ctx)
    {
        final Map<String, String> where = new LinkedHashMap<>();
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            for (final String s : b.scenarios())
            {
                if (path.contains("/" + b.name() + "/" + s + "/") || path.endsWith("/" + b.name() + "/" + s))
                {
                    where.put("benchmark", b.name());
                    where.put("scenario", s);
                }
            }
        }
        return where;
    }
}
