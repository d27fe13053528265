package org.jloadgen.cli;

import org.jloadgen.cli.api.QslOptions;

import org.jloadgen.cli.api.SettingsOptions;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;

import org.jloadgen.cli.api.ExitCodes;

import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.schedule.PoissonTrace;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.schedule.TraceText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen trace}: prints the loads, queries and unloads a test would issue, without running anything; or,
 * with {@code --generate}, writes a SyLT Poisson trace for {@code run --trace} and {@code peak --trace}.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
        "Print the trace a test would issue, in issue order, without running anything (or, with --generate, write a "
            + "SyLT Poisson trace to replay).",
        "Lines:",
        "  L <qsl indices>                 each LoadSamplesToRam call",
        "  Q <scheduled_ns> <qsl indices>  each query (Server: Poisson offsets; SingleStream/MultiStream: "
            + "k * expected latency; Offline: 0)",
        "  U <qsl indices>                 each UnloadSamplesFromRam call",
        "Identical to LoadGen 6.0.17's for the same settings and seeds (libstdc++ draws).",
        "With --generate: write a SyLT trace instead: queries of one sample, drawn uniformly with replacement "
            + "from --qsl-total samples, at Poisson arrival times of average rate --qps, until at least "
            + "--min-queries queries and --min-duration-ms are reached (the arrivals of LoadGen's Server schedule "
            + "for schedule_rng_seed = --seed). Text ('Q' lines) or CSV (timestamp_ns,sample_index)."})
final class TraceCommand implements Callable<Integer>
{
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    SettingsOptions settings;

    @Option(names = "--generate", description = "Write a SyLT Poisson trace (see --qps) instead of a test's trace.")
    boolean generate;

    @Option(names = "--qps", paramLabel = "QPS", description = "--generate: average arrival rate.")
    Double qps;

    @Option(names = "--min-queries", paramLabel = "N", defaultValue = "1",
        description = "--generate: at least this many queries (default: ${DEFAULT-VALUE}).")
    long minQueries;

    @Option(names = "--min-duration-ms", paramLabel = "MS", defaultValue = "0",
        description = "--generate: the last query arrives at or after this time (default: ${DEFAULT-VALUE}).")
    long minDurationMs;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "0",
        description = "--generate: seed of the arrival times (the sample choice uses SEED + 1; default: "
            + "${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--output", paramLabel = "FILE",
        description = "--generate: write the trace here (default: standard output).")
    java.nio.file.Path output;

    @Option(names = "--format", paramLabel = "FORMAT",
        description = "--generate: TEXT or CSV (default: CSV for a .csv --output, else TEXT).")
    ReplayQueries.Format format;

    @Mixin
    QslOptions qsl;

    @Override
    public Integer call() throws Exception
    {
        final picocli.CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        final List<String> generateOnly = List.of("--qps", "--min-queries", "--min-duration-ms", "--seed", "--output",
            "--format");
        final List<String> testOnly = List.of("--scenario", "--mode", "--model", "--config", "--user-config",
            "--audit-config", "--no-audit-config", "--set", "--lenient-config", "--qsl-performance");
        for (final String option : generate ? testOnly : generateOnly)
        {
            if (parsed.hasMatchedOption(option))
            {
                throw new IllegalArgumentException(generate
                    ? option + " describes a test's trace; --generate writes a Poisson trace from --qps, "
                        + "--min-queries, --min-duration-ms, --seed and --qsl-total"
                    : option + " is an option of --generate");
            }
        }
        if (generate)
        {
            return generate();
        }
        final PrintStream err = System.err;
        final SettingsOptions.Loaded loaded = settings.load(err);
        if (!loaded.errors().isEmpty())
        {
            loaded.errors().forEach(e -> err.println("jloadgen: config error: " + e));
        }
        final BufferedWriter out = new BufferedWriter(
            new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        TraceText.write(loaded.settings(), qsl.total(), qsl.performance(), out,
            OffHeapAllocator.arena());
        out.flush();
        return ExitCodes.VALID;
    }

    private int generate() throws java.io.IOException
    {
        if (qps == null)
        {
            throw new IllegalArgumentException("--generate needs --qps, the trace's average arrival rate");
        }
        final ReplayQueries trace = PoissonTrace.generate(qps, minQueries, minDurationMs * 1_000_000L, qsl.total(),
            seed,
            seed + 1);
        final ReplayQueries.Format chosen = format != null ? format
            : output != null ? ReplayQueries.Format.forFile(output) : ReplayQueries.Format.TEXT;
        if (output == null)
        {
            final BufferedWriter out = new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
            trace.write(out, chosen);
            out.flush();
        }
        else
        {
            try (BufferedWriter out = java.nio.file.Files.newBufferedWriter(output, StandardCharsets.UTF_8))
            {
                trace.write(out, chosen);
            }
            System.err.printf(java.util.Locale.ROOT, "jloadgen: wrote %d queries over %.3f s (%.2f QPS) to %s%n",
                trace.queryCount(), trace.lastOffsetNs() / 1e9, trace.samplesPerSecond(), output);
        }
        return ExitCodes.VALID;
    }
}
