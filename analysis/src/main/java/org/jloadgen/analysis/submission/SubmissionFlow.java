package org.jloadgen.analysis.submission;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jloadgen.cli.api.ConsoleText;

/**
 * The steps of a submission in order, and their execution: each step whose record stands (same inputs, outputs
 * unchanged) is skipped, the others run one after the other, with progress lines for each (what runs and why, then
 * how it ended), wrapped to 80 columns. A failing step stops the flow, naming its log; a signal stops the step in
 * flight, which then has no record and runs again next time.
 */
final class SubmissionFlow
{
    /** Where a step's continuation lines start: under the text after its {@code [n/N]}. */
    private static final String STEP_INDENT = "       ";

    private final FlowContext ctx;
    private final List<Step> steps;

    /**
     * @param ctx what every step needs.
     */
    SubmissionFlow(final FlowContext ctx)
    {
        this.ctx = ctx;
        final TreeSteps tree = new TreeSteps(ctx);
        final List<Step> all = new ArrayList<>();
        all.add(tree.system());
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            for (final String scenario : b.scenarios())
            {
                final RunSteps runs = new RunSteps(ctx, b, scenario);
                all.addAll(runs.steps());
                all.addAll(new ComplianceSteps(ctx, b, scenario, runs).steps());
            }
        }
        final List<String> ids = all.stream().map(Step::id).toList();
        all.add(tree.truncate(ids));
        this.steps = List.copyOf(all);
    }

    /**
     * @return the steps, in order.
     */
    List<Step> steps()
    {
        return steps;
    }

    /**
     * @param step a step.
     * @return the hash of its inputs now: its own, and its dependencies' records.
     */
    String inputs(final Step step)
    {
        final StringBuilder b = new StringBuilder(step.inputs().get());
        for (final String dependency : step.dependsOn())
        {
            b.append('\n').append(dependency).append('=').append(ctx.ledger().fingerprint(dependency));
        }
        return Ledger.sha256Text(b.toString());
    }

    /**
     * Prints the steps, whether each would run, and the wall time the flow should take.
     *
     * @param out where to print.
     */
    void plan(final PrintStream out)
    {
        long totalMs = 0;
        out.println(ConsoleText.wrap(String.format(Locale.ROOT, "jloadgen submission --plan: %d steps%s, into %s",
            steps.size() + 1, ctx.rehearsal() ? " (rehearsal: short runs)" : "", ctx.layout().out()), "  "));
        final List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++)
        {
            final Step step = steps.get(i);
            final Optional<String> stale = ctx.ledger().staleBecause(step.id(), inputs(step));
            final long estimate = stale.isPresent() ? step.estimateMs().get() : 0;
            totalMs += estimate;
            rows.add(new String[] {step.id(), stale.isPresent() ? "~" + duration(estimate) : "done", step.title()});
        }
        rows.add(new String[] {"checker", "~" + duration(5_000), "the official submission checker on the final tree"});
        final int idWidth = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        final int estimateWidth = rows.stream().mapToInt(r -> r[1].length()).max().orElse(0);
        final String format = "  %2d. %-" + idWidth + "s  %-" + estimateWidth + "s";
        // Each step on one line where every one fits in 80 columns; otherwise each title under its step.
        final boolean oneLine = rows.stream().allMatch(r ->
            String.format(Locale.ROOT, format, 0, r[0], r[1]).length() + 2 + r[2].length() <= ConsoleText.COLUMNS);
        for (int i = 0; i < rows.size(); i++)
        {
            final String[] r = rows.get(i);
            final String head = String.format(Locale.ROOT, format, i + 1, r[0], r[1]);
            out.println(oneLine ? head + "  " + r[2] : head.stripTrailing() + "\n"
                + ConsoleText.wrap("      " + r[2], "      "));
        }
        out.println(ConsoleText.wrap(String.format(Locale.ROOT, "Estimated wall time: %s (start-up of %d s per run "
            + "included; a measured target sets the accuracy runs' length)", duration(totalMs + 5_000),
            RunSteps.STARTUP_MS / 1000), "  "));
    }

    /**
     * Runs every step that is not done.
     *
     * @param out where progress goes.
     * @return the id of the step that failed, or empty when all are done.
     */
    Optional<String> run(final PrintStream out)
    {
        final int n = steps.size() + 1;
        for (int i = 0; i < steps.size(); i++)
        {
            final Step step = steps.get(i);
            final String inputs = inputs(step);
            final Optional<String> stale = ctx.ledger().staleBecause(step.id(), inputs);
            final String head = String.format(Locale.ROOT, "[%d/%d] %s", i + 1, n, step.id());
            if (stale.isEmpty())
            {
                final Ledger.Record record = ctx.ledger().record(step.id()).orElseThrow();
                out.println(ConsoleText.wrap(head + ": done earlier, inputs unchanged; skipped"
                    + note(record.values()), STEP_INDENT));
                continue;
            }
            out.println(ConsoleText.wrap(head + ": " + step.title() + " (" + stale.get() + "; ~"
                + duration(step.estimateMs().get()) + ") ...", STEP_INDENT));
            out.flush();
            final long startNs = System.nanoTime();
            final Step.Outcome outcome;
            try
            {
                outcome = step.body().run();
            }
            catch (final Step.Failure ex)
            {
                // The error itself stays on one line, so that it can be searched for.
                out.println(STEP_INDENT + "FAILED: " + ex.getMessage());
                out.println(ConsoleText.wrap(STEP_INDENT + "Fix the cause and run the same command again: finished "
                    + "steps are kept; this one runs again.", STEP_INDENT));
                return Optional.of(step.id());
            }
            catch (final Children.StoppedException ex)
            {
                out.println(STEP_INDENT + "interrupted");
                throw ex;
            }
            catch (final Exception ex)
            {
                out.println(STEP_INDENT + "FAILED: " + ex.getMessage() + " (see "
                    + RunSteps.log(ctx.layout().work(step.id())) + ")");
                return Optional.of(step.id());
            }
            final long wallMs = (System.nanoTime() - startNs) / 1_000_000;
            ctx.ledger().finish(step.id(), inputs, outcome.outputs(), outcome.values(), wallMs);
            out.println(ConsoleText.wrap(STEP_INDENT + "done in " + duration(wallMs) + ": " + outcome.note(),
                STEP_INDENT + "  "));
            out.flush();
        }
        return Optional.empty();
    }

    private static String note(final Map<String, String> values)
    {
        return values.isEmpty() ? "" : " (" + String.join(", ", values.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue()).toList()) + ")";
    }

    /**
     * @param ms milliseconds.
     * @return e.g. {@code 12 s}, {@code 3 min 20 s}, {@code 1 h 5 min}.
     */
    static String duration(final long ms)
    {
        final long s = Math.round(ms / 1000.0);
        if (s < 60)
        {
            return s + " s";
        }
        if (s < 3600)
        {
            return s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }

    /**
     * Prints the final table: benchmark, scenario, validity, each compliance test's result, and the metric. Columns
     * are as wide as their widest cell. Where a row with its metric would be wider than 80 columns, every metric goes
     * on a line of its own under its row.
     *
     * @param out where to print.
     */
    void table(final PrintStream out)
    {
        final List<String> tests = new ArrayList<>();
        for (final CheckerTables t : ctx.tables().values())
        {
            t.complianceTests().stream().filter(x -> !tests.contains(x)).forEach(tests::add);
        }
        final List<List<String>> rows = new ArrayList<>();
        final List<String> header = new ArrayList<>(List.of("benchmark", "scenario", "validity"));
        header.addAll(tests);
        header.add("metric");
        rows.add(header);
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            for (final String s : b.scenarios())
            {
                final String p = b.name() + "/" + s + "/";
                final Map<String, String> perf = ctx.ledger().record(p + "performance").map(Ledger.Record::values)
                    .orElse(Map.of());
                final List<String> row = new ArrayList<>(List.of(b.name(), s, perf.getOrDefault("validity", "-")));
                for (final String test : tests)
                {
                    row.add(ctx.tables().get(b.name()).complianceTests().contains(test)
                        ? ctx.ledger().record(p + test).map(r -> r.values().getOrDefault("result", "?")).orElse("-")
                        : "n/a");
                }
                row.add(perf.getOrDefault("metric", "-"));
                rows.add(row);
            }
        }
        final int[] widths = new int[header.size() - 1];
        for (final List<String> row : rows)
        {
            for (int c = 0; c < widths.length; c++)
            {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        final int columnsWidth = Arrays.stream(widths).map(w -> w + 2).sum();
        final boolean metricInRow = rows.stream()
            .allMatch(row -> columnsWidth + row.get(widths.length).length() <= ConsoleText.COLUMNS);
        for (int r = 0; r < rows.size(); r++)
        {
            final List<String> row = rows.get(r);
            final StringBuilder line = new StringBuilder();
            for (int c = 0; c < widths.length; c++)
            {
                line.append(String.format(Locale.ROOT, "%-" + widths[c] + "s  ", row.get(c)));
            }
            final String metric = row.get(widths.length);
            if (metricInRow)
            {
                out.println(line.append(metric));
            }
            else
            {
                out.println(r == 0 ? line.append("(metric below)") : line.toString().stripTrailing());
                if (r > 0)
                {
                    out.println(ConsoleText.wrap("  " + metric, "    "));
                }
            }
        }
    }
}
