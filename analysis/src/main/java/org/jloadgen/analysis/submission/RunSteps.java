package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The steps of one benchmark and scenario that run the SUT: the measurement of a target (a measured Offline run, or
 * jloadgen peak for Server), the scenario's files (user.conf, mlperf.conf, measurements.json, README.md), the
 * accuracy run with its score, and the performance run. Every run is {@code jloadgen run --engine official}.
 */
final class RunSteps
{
    /** LoadGen's files of a run, the only ones that go into the tree. */
    static final List<String> LOG_FILES = List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt",
        "mlperf_log_accuracy.json");
    private static final Pattern TOP1 = Pattern.compile("top-1 accuracy: ([0-9.]+)% \\((\\d+) of (\\d+) samples\\)");
    private static final Pattern PEAK = Pattern.compile("Peak: ([0-9.]+) QPS");
    private static final Pattern TOTAL = Pattern.compile("\"key\": \"qsl_reported_total_count\", \"value\": (\\d+)");
    /** Start-up of a child run: JVM, SUT, the official LoadGen. */
    static final long STARTUP_MS = 6_000;

    private final FlowContext ctx;
    private final SubmissionConfig.Benchmark b;
    private final String scenario;
    private final String prefix;

    /**
     * @param ctx       what every step needs.
     * @param benchmark the benchmark.
     * @param scenario  the scenario.
     */
    RunSteps(final FlowContext ctx, final SubmissionConfig.Benchmark benchmark, final String scenario)
    {
        this.ctx = ctx;
        this.b = benchmark;
        this.scenario = scenario;
        this.prefix = benchmark.name() + "/" + scenario + "/";
    }

    /**
     * @return this scenario's run steps, in order.
     */
    List<Step> steps()
    {
        final List<Step> steps = new ArrayList<>();
        // Not the system step: a change to the system description must not redo the runs.
        final List<String> confDeps = new ArrayList<>();
        if (scenario.equals("Offline") && b.offlineExpected().equals("measured"))
        {
            steps.add(new Step(prefix + "measure", "Offline expected QPS from a measured Offline run", List.of(),
                () -> String.join(" ", measureArgs(0, Path.of("-"))) + userConfHash(),
                () -> 2 * (measureMs() + STARTUP_MS),
                this::measureOffline));
            confDeps.add(prefix + "measure");
        }
        if (scenario.equals("Server") && b.serverTarget().equals("peak"))
        {
            steps.add(new Step(prefix + "peak", "Server target QPS from jloadgen peak less " + peakMargin() * 100
                + "%", List.of(), () -> String.join(" ", peakArgs(Path.of("-"))) + " margin " + peakMargin()
                + userConfHash(),
                this::peakEstimateMs, this::peak));
            confDeps.add(prefix + "peak");
        }
        steps.add(new Step(prefix + "conf", "user.conf, mlperf.conf, measurements.json, README.md",
            List.copyOf(confDeps), this::userConf, () -> 100L, this::writeConf));
        steps.add(new Step(prefix + "accuracy", "accuracy run (AccuracyOnly) and its score", List.of(prefix + "conf"),
            () -> String.join(" ", runArgs("AccuracyOnly", Path.of("-"), null)) + " | "
                + String.join(" ", b.accuracyCommand()), this::accuracyEstimateMs, this::accuracy));
        steps.add(new Step(prefix + "performance", "performance run (PerformanceOnly)", List.of(prefix + "conf"),
            () -> String.join(" ", runArgs("PerformanceOnly", Path.of("-"), null)), this::runEstimateMs,
            this::performance));
        return steps;
    }

    /**
     * @param mode  the test mode.
     * @param out   the run's log folder.
     * @param audit an audit.config, or {@code null} for none.
     * @return the {@code jloadgen} arguments of an official run of this scenario.
     */
    List<String> runArgs(final String mode, final Path out, final Path audit)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--engine", "official", "--loadgen-dir",
            ctx.tools().loadgen().toString()));
        args.addAll(b.runArgs());
        args.addAll(List.of("--scenario", scenario, "--mode", mode, "--model", b.loadgenModel(), "--user-config",
            ctx.layout().build().resolve(confDir()).resolve("user.conf").toString(), "--quiet", "--out",
            out.toString()));
        if (audit == null)
        {
            args.add("--no-audit-config");
        }
        else
        {
            args.addAll(List.of("--audit-config", audit.toString()));
        }
        return args;
    }

    /**
     * @return the folder of measurements.json, user.conf, mlperf.conf and README.md, relative to the tree's root.
     */
    Path confDir()
    {
        return ctx.layout().measurements(b.name(), scenario).getParent();
    }

    long runEstimateMs()
    {
        final long duration = ctx.rehearsal() ? ctx.config().rehearsal().minDurationMs()
            : ctx.tables().get(b.name()).testDurationMs();
        return duration + duration / 10 + STARTUP_MS;
    }

    private long accuracyEstimateMs()
    {
        final double rate = scenario.equals("Server") ? value(prefix + "peak", "target_qps", 0)
            : value(prefix + "measure", "expected_qps", 0);
        return STARTUP_MS + (rate > 0 ? (long) (1000 * b.datasetSize() / rate) : 30_000);
    }

    private String userConfHash()
    {
        return b.userConf().map(u -> " user.conf " + Ledger.sha256(u)).orElse("");
    }

    private long measureMs()
    {
        return ctx.rehearsal() ? ctx.config().rehearsal().measureMs() : b.measureMs();
    }

    private long peakEstimateMs()
    {
        final List<String> args = peakOptions();
        final long duration = Long.parseLong(option(args, "--duration-ms", "10000"));
        final long runs = Long.parseLong(option(args, "--max-runs", "60"));
        return runs * (duration + 1_000) + STARTUP_MS;
    }

    private double value(final String step, final String key, final double fallback)
    {
        return ctx.ledger().record(step).map(r -> r.values().get(key)).map(Double::parseDouble).orElse(fallback);
    }

    private List<String> measureArgs(final double expectedQps, final Path out)
    {
        final List<String> args = new ArrayList<>(List.of("run", "--engine", "official", "--loadgen-dir",
            ctx.tools().loadgen().toString()));
        args.addAll(b.runArgs());
        args.addAll(List.of("--scenario", "Offline", "--mode", "PerformanceOnly", "--model", b.loadgenModel()));
        b.userConf().ifPresent(u -> args.addAll(List.of("--user-config", u.toString())));
        args.addAll(List.of("--set", "min_duration_ms=" + measureMs(), "--quiet", "--no-audit-config", "--out",
            out.toString()));
        if (expectedQps > 0)
        {
            args.addAll(List.of("--set", String.format(Locale.ROOT, "offline_expected_qps=%.1f", expectedQps)));
        }
        return args;
    }

    /**
     * Offline runs until one meets its minimum duration (the first, at a guessed rate, may end early), at most three,
     * each at the rate the previous one measured; the last run's samples per second is the expected QPS.
     */
    private Step.Outcome measureOffline() throws IOException
    {
        final Path work = ctx.layout().work(prefix + "measure");
        double expected = 1000;
        Map<String, String> summary = Map.of();
        for (int attempt = 1; attempt <= 3; attempt++)
        {
            final Path out = work.resolve("run-" + attempt);
            Ledger.deleteTree(out);
            runTest(ctx.children().jloadgen(measureArgs(expected, out)), work, out, "measuring Offline run");
            summary = summary(out.resolve("mlperf_log_summary.txt"));
            expected = Double.parseDouble(summary.getOrDefault("Samples per second", "0"));
            if (summary.getOrDefault("Min duration satisfied", "").equals("Yes"))
            {
                break;
            }
        }
        if (!(expected > 0))
        {
            throw new Step.Failure("the measuring Offline run reported no samples per second; see " + log(work));
        }
        final String qps = String.format(Locale.ROOT, "%.1f", expected);
        return new Step.Outcome(List.of(), Map.of("expected_qps", qps), "offline_expected_qps = " + qps);
    }

    private List<String> peakOptions()
    {
        return ctx.rehearsal() ? ctx.config().rehearsal().peakArgs() : b.peakArgs();
    }

    private List<String> peakArgs(final Path out)
    {
        final List<String> args = new ArrayList<>(List.of("peak"));
        args.addAll(b.runArgs());
        args.addAll(List.of("--scenario", "Server", "--config", ctx.tools().loadgen().resolve("mlperf.conf").toString(),
            "--model", b.loadgenModel(), "--no-audit-config"));
        b.userConf().ifPresent(u -> args.addAll(List.of("--user-config", u.toString())));
        args.addAll(peakOptions());
        args.addAll(List.of("--out", out.toString()));
        return args;
    }

    private Step.Outcome peak()
    {
        final Path work = ctx.layout().work(prefix + "peak");
        final Path out = work.resolve("search");
        Ledger.deleteTree(out);
        final Children.Result result = ctx.children().run(ctx.children().jloadgen(peakArgs(out)), work, log(work));
        final Matcher m = PEAK.matcher(result.output());
        if (!m.find())
        {
            throw new Step.Failure("jloadgen peak found no peak (exit " + result.exitCode() + "); see " + log(work)
                + " and " + out.resolve("peak.md") + "; or set " + b.name() + ".server_target_qps to a number");
        }
        final double peak = Double.parseDouble(m.group(1));
        final double target = peak * (1 - peakMargin());
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("peak_qps", String.format(Locale.ROOT, "%.2f", peak));
        values.put("target_qps", String.format(Locale.ROOT, "%.2f", target));
        return new Step.Outcome(List.of(), values, String.format(Locale.ROOT,
            "peak %.2f QPS, target %.2f QPS (%.0f%% margin)", peak, target, peakMargin() * 100));
    }

    /**
     * @return the fraction taken off the peak: the rehearsal's own where it sets one, else the benchmark's.
     */
    private double peakMargin()
    {
        final double rehearsal = ctx.config().rehearsal().peakMargin();
        return ctx.rehearsal() && !Double.isNaN(rehearsal) ? rehearsal : b.peakMargin();
    }

    /**
     * @return the user.conf this scenario's runs use: the user's lines, then the targets and rehearsal durations.
     */
    private String userConf()
    {
        final StringBuilder u = new StringBuilder();
        u.append("# user.conf of ").append(b.name()).append(' ').append(scenario).append(", written by jloadgen ")
            .append("submission").append(ctx.rehearsal() ? " (rehearsal: short runs)" : "").append('\n');
        b.userConf().ifPresent(file ->
        {
            try
            {
                u.append("# from ").append(file.getFileName()).append('\n')
                    .append(Files.readString(file, StandardCharsets.UTF_8).stripTrailing()).append('\n');
            }
            catch (final IOException ex)
            {
                throw new Step.Failure(file + ": cannot read: " + ex.getMessage());
            }
        });
        final String m = b.loadgenModel() + "." + scenario + ".";
        if (scenario.equals("Offline") && !b.offlineExpected().isEmpty())
        {
            final String qps = b.offlineExpected().equals("measured")
                ? ctx.ledger().record(prefix + "measure").map(r -> r.values().get("expected_qps")).orElse("0")
                : b.offlineExpected();
            u.append("# offline_expected_qps: ").append(b.offlineExpected().equals("measured")
                ? "measured by step " + prefix + "measure" : "from the configuration").append('\n');
            u.append(m).append("target_qps = ").append(qps).append('\n');
        }
        if (scenario.equals("Server"))
        {
            final String qps = b.serverTarget().equals("peak")
                ? ctx.ledger().record(prefix + "peak").map(r -> r.values().get("target_qps")).orElse("0")
                : b.serverTarget();
            u.append("# server_target_qps: ").append(b.serverTarget().equals("peak")
                ? "jloadgen peak's result less " + b.peakMargin() * 100 + "% (step " + prefix + "peak)"
                : "from the configuration").append('\n');
            u.append(m).append("target_qps = ").append(qps).append('\n');
        }
        if (ctx.rehearsal())
        {
            u.append("# rehearsal: a short run; the checker requires ")
                .append(ctx.tables().get(b.name()).testDurationMs()).append(" ms\n");
            u.append(m).append("min_duration = ").append(ctx.config().rehearsal().minDurationMs()).append('\n');
        }
        return u.toString();
    }

    private Step.Outcome writeConf() throws IOException
    {
        final Path dir = ctx.layout().build().resolve(confDir());
        final Path user = dir.resolve("user.conf");
        final Path mlperf = dir.resolve("mlperf.conf");
        final Path measurements = ctx.layout().build().resolve(ctx.layout().measurements(b.name(), scenario));
        final Path readme = dir.resolve("README.md");
        Ledger.writeAtomically(user, userConf());
        Ledger.writeAtomically(mlperf, Files.readString(ctx.tools().loadgen().resolve("mlperf.conf")));
        Ledger.writeAtomically(measurements, Json.object(b.measurements()));
        Ledger.writeAtomically(readme, readme());
        return new Step.Outcome(List.of(user, mlperf, measurements, readme), Map.of(), "in " + dir);
    }

    private String readme()
    {
        final StringBuilder r = new StringBuilder();
        r.append("# ").append(b.name()).append(", ").append(scenario).append("\n\n");
        r.append("Produced by `jloadgen submission` (JLoadGen) under the official LoadGen (`--engine official`)");
        r.append(ctx.rehearsal() ? ", as a rehearsal with short runs (not a valid result).\n\n" : ".\n\n");
        if (!b.name().equals(b.mlperfModel()))
        {
            r.append("The model `").append(b.name()).append("` is the submitter's own, submitted as the `")
                .append(b.mlperfModel()).append("` benchmark through `model_mapping.json`; LoadGen's settings are `")
                .append(b.loadgenModel()).append("`'s.\n\n");
        }
        r.append("To reproduce, with the same configuration: `jloadgen submission --config CONFIG --out DIR")
            .append(ctx.rehearsal() ? " --rehearsal" : "").append("`. Each run, as it was started:\n\n```\n")
            .append("jloadgen ").append(String.join(" ", runArgs("AccuracyOnly", Path.of("OUT"), null))).append('\n')
            .append("jloadgen ").append(String.join(" ", runArgs("PerformanceOnly", Path.of("OUT"), null)))
            .append("\n```\n\nThe compliance runs add `--audit-config` with the official audit.config of each test.\n");
        return r.toString();
    }

    private Step.Outcome accuracy() throws IOException
    {
        final String id = prefix + "accuracy";
        final Path work = ctx.layout().work(id);
        final Path run = work.resolve("run");
        final Path stage = work.resolve("accuracy");
        Ledger.deleteTree(run);
        Ledger.deleteTree(stage);
        runChecked(ctx.children().jloadgen(runArgs("AccuracyOnly", run, null)), work, "accuracy run");
        final Matcher total = TOTAL.matcher(Files.readString(run.resolve("mlperf_log_detail.txt")));
        final long samples = total.find() ? Long.parseLong(total.group(1)) : -1;
        if (samples != b.datasetSize())
        {
            throw new Step.Failure("the accuracy run covered " + samples + " samples, not " + b.datasetSize()
                + " (" + b.name() + ".dataset_size); see " + run);
        }
        stageLogs(run, stage);
        final String score = score(run.resolve("mlperf_log_accuracy.json"), work);
        Files.writeString(stage.resolve("accuracy.txt"), score);
        final Path target = ctx.layout().build().resolve(ctx.layout().accuracy(b.name(), scenario));
        Ledger.publish(stage, target);
        final String first = score.lines().findFirst().orElse("");
        return new Step.Outcome(List.of(target), Map.of("accuracy", first), first);
    }

    /**
     * Scores an accuracy log with the benchmark's command.
     *
     * @param accuracyLog the log.
     * @param work        the step's folder.
     * @return accuracy.txt's text: the command's output, led by a line the checker's pattern reads.
     */
    String score(final Path accuracyLog, final Path work)
    {
        final List<String> words = new ArrayList<>();
        for (final String word : b.accuracyCommand())
        {
            words.add(word.replace("{log}", accuracyLog.toString()));
        }
        final Children.Result result = runChecked(ctx.children().command(words), work, "accuracy command");
        String text = result.output().strip() + "\n";
        final List<String> patterns = ctx.tables().get(b.name()).accuracyPatterns().getOrDefault(scenario, List.of());
        if (!patterns.isEmpty() && !matchesAll(text, patterns))
        {
            final Matcher m = TOP1.matcher(text);
            if (m.find())
            {
                text = String.format(Locale.ROOT, "accuracy=%s%%, good=%s, total=%s%n", m.group(1), m.group(2),
                    m.group(3)) + text;
            }
            if (!matchesAll(text, patterns))
            {
                throw new Step.Failure("the accuracy command's output has no line the checker reads as "
                    + b.mlperfModel() + " accuracy (pattern " + patterns + "); output: " + text.strip());
            }
        }
        return text;
    }

    private static boolean matchesAll(final String text, final List<String> patterns)
    {
        for (final String pattern : patterns)
        {
            final Pattern p = Pattern.compile(pattern);
            if (text.lines().noneMatch(line -> p.matcher(line).matches()))
            {
                return false;
            }
        }
        return true;
    }

    private Step.Outcome performance() throws IOException
    {
        final String id = prefix + "performance";
        final Path work = ctx.layout().work(id);
        final Path run = work.resolve("run");
        final Path stage = work.resolve("run_1");
        Ledger.deleteTree(run);
        Ledger.deleteTree(stage);
        runTest(ctx.children().jloadgen(runArgs("PerformanceOnly", run, null)), work, run, "performance run");
        Files.createDirectories(stage);
        for (final String file : List.of("mlperf_log_summary.txt", "mlperf_log_detail.txt"))
        {
            Files.copy(run.resolve(file), stage.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
        final Map<String, String> summary = summary(run.resolve("mlperf_log_summary.txt"));
        final String metricName = scenario.equals("Server") ? "Completed samples per second"
            : scenario.equals("Offline") ? "Samples per second" : "90th percentile latency (ns)";
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("metric", metricName + ": " + summary.getOrDefault(metricName, "?"));
        values.put("validity", summary.getOrDefault("Result is", "?"));
        final Path target = ctx.layout().build().resolve(ctx.layout().performance(b.name(), scenario));
        Ledger.publish(stage, target);
        return new Step.Outcome(List.of(target), values, values.get("metric") + ", " + values.get("validity"));
    }

    /**
     * Copies LoadGen's files of a run into a staging folder.
     *
     * @param run   the run's folder.
     * @param stage the staging folder.
     * @throws IOException when a file cannot be copied.
     */
    static void stageLogs(final Path run, final Path stage) throws IOException
    {
        Files.createDirectories(stage);
        for (final String file : LOG_FILES)
        {
            Files.copy(run.resolve(file), stage.resolve(file), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * @param work a step's folder.
     * @return its log.
     */
    static Path log(final Path work)
    {
        return work.resolve("step.log");
    }

    /**
     * Runs a child, which must exit 0.
     *
     * @param command the command line.
     * @param work    the step's folder (working directory and log).
     * @param what    what it is, for the error.
     * @return its output.
     */
    Children.Result runChecked(final List<String> command, final Path work, final String what)
    {
        final Children.Result result = ctx.children().run(command, work, log(work));
        if (result.exitCode() != 0)
        {
            final String tail = String.join("\n", result.output().strip().lines()
                .skip(Math.max(0, result.output().strip().lines().count() - 5)).toList());
            throw new Step.Failure(what + " failed (exit " + result.exitCode() + "); see " + log(work) + "\n" + tail);
        }
        return result;
    }

    /**
     * Runs a performance test in a child: exit 0 (VALID) or 3 with a summary (INVALID, which the final table shows
     * and the checker judges) both count as done.
     *
     * @param command the command line.
     * @param work    the step's folder.
     * @param run     the run's log folder.
     * @param what    what it is, for the error.
     */
    void runTest(final List<String> command, final Path work, final Path run, final String what)
    {
        final Children.Result result = ctx.children().run(command, work, log(work));
        if (result.exitCode() == 0 || result.exitCode() == 3 && Files.isRegularFile(run.resolve(
            "mlperf_log_summary.txt")))
        {
            return;
        }
        final String tail = String.join("\n", result.output().strip().lines()
            .skip(Math.max(0, result.output().strip().lines().count() - 5)).toList());
        throw new Step.Failure(what + " failed (exit " + result.exitCode() + "); see " + log(work) + "\n" + tail);
    }

    /**
     * @param summary a mlperf_log_summary.txt.
     * @return its {@code name : value} lines.
     */
    static Map<String, String> summary(final Path summary)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        try
        {
            for (final String line : Files.readAllLines(summary, StandardCharsets.UTF_8))
            {
                final int colon = line.indexOf(':');
                if (colon > 0)
                {
                    values.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
                }
            }
        }
        catch (final IOException ex)
        {
            throw new Step.Failure(summary + ": cannot read: " + ex.getMessage());
        }
        return values;
    }

    private static String option(final List<String> args, final String name, final String fallback)
    {
        final int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : fallback;
    }
}
