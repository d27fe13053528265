package org.jloadgen.analysis.submission;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The steps of a submission in order, and their execution: each step whose record stands (same inputs, outputs
 * unchanged) is skipped, the others run one after the other, one progress line each (what runs and why, then how it
 * ended). A failing step stops the flow, naming its log; a signal stops the step in flight, which then has no record
 * and runs again next time.
 */
final class SubmissionFlow
{
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
        out.printf(Locale.ROOT, "jloadgen submission --plan: %d steps%s, into %s%n", steps.size(),
            ctx.rehearsal() ? " (rehearsal: short runs)" : "", ctx.layout().out());
        for (int i = 0; i < steps.size(); i++)
        {
            final Step step = steps.get(i);
            final Optional<String> stale = ctx.ledger().staleBecause(step.id(), inputs(step));
            final long estimate = stale.isPresent() ? step.estimateMs().get() : 0;
            totalMs += estimate;
            out.printf(Locale.ROOT, "  %2d. %-40s %-13s %s%n", i + 1, step.id(), stale.isPresent()
                ? "~" + duration(estimate) : "done", step.title());
        }
        out.printf(Locale.ROOT, "  %2d. %-40s %-13s %s%n", steps.size() + 1, "checker", "~" + duration(5_000),
            "the official submission checker on the final tree");
        out.printf(Locale.ROOT, "Estimated wall time: %s (start-up of %d s per run included; a measured target"
            + " sets the accuracy runs' length)%n", duration(totalMs + 5_000), RunSteps.STARTUP_MS / 1000);
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
                out.println(head + ": done earlier, inputs unchanged; skipped" + note(record.values()));
                continue;
            }
            out.print(head + ": " + step.title() + " (" + stale.get() + "; ~" + duration(step.estimateMs().get())
                + ") ... ");
            out.flush();
            final long startNs = System.nanoTime();
            final Step.Outcome outcome;
            try
            {
                outcome = step.body().run();
            }
            catch (final Step.Failure ex)
            {
                out.println("FAILED: " + ex.getMessage());
                out.println("  Fix the cause and run the same command again: finished steps are kept; this one runs "
                    + "again.");
                return Optional.of(step.id());
            }
            catch (final Children.StoppedException ex)
            {
                out.println("interrupted");
                throw ex;
            }
            catch (final Exception ex)
            {
                out.println("FAILED: " + ex.getMessage() + " (see "
                    + RunSteps.log(ctx.layout().work(step.id())) + ")");
                return Optional.of(step.id());
            }
            final long wallMs = (System.nanoTime() - startNs) / 1_000_000;
            ctx.ledger().finish(step.id(), inputs, outcome.outputs(), outcome.values(), wallMs);
            out.println("done in " + duration(wallMs) + ": " + outcome.note());
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
     * Prints the final table: benchmark, scenario, metric, validity, and each compliance test's result.
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
        final StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-22s %-9s %-44s %-9s",
            "benchmark", "scenario", "metric", "validity"));
        tests.forEach(t -> header.append(String.format(Locale.ROOT, " %-7s", t)));
        out.println(header);
        for (final SubmissionConfig.Benchmark b : ctx.config().benchmarks())
        {
            for (final String s : b.scenarios())
            {
                final String p = b.name() + "/" + s + "/";
                final Map<String, String> perf = ctx.ledger().record(p + "performance").map(Ledger.Record::values)
                    .orElse(Map.of());
                final StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-22s %-9s %-44s %-9s",
                    b.name(), s, perf.getOrDefault("metric", "-"), perf.getOrDefault("validity", "-")));
                for (final String test : tests)
                {
                    final String result = ctx.tables().get(b.name()).complianceTests().contains(test)
                        ? ctx.ledger().record(p + test).map(r -> r.values().getOrDefault("result", "?")).orElse("-")
                        : "n/a";
                    row.append(String.format(Locale.ROOT, " %-7s", result));
                }
                out.println(row);
            }
        }
    }
}
