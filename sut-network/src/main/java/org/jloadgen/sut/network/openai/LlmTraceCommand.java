package org.jloadgen.sut.network.openai;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.jloadgen.cli.api.ConsoleText;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.schedule.ReplayQueries;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen llm-trace}: the load shapes LLM serving benchmarks use, written as a trace that
 * {@code jloadgen run --trace} replays (the engine's existing replay, CSV {@code timestamp_ns,sample_index}):
 * <ul>
 *   <li>Poisson arrivals at a rate with a burstiness factor, as vLLM's {@code bench serve} draws them: gaps from a
 *       gamma distribution of shape {@code burstiness} and mean {@code 1/rate} (1: Poisson; below 1: burstier;
 *       above 1: steadier);</li>
 *   <li>a public LLM trace replayed with its timestamps and lengths: BurstGPT's CSV ({@code Timestamp} in seconds,
 *       {@code Request tokens}, {@code Response tokens}) or Mooncake's JSON Lines ({@code timestamp} in ms,
 *       {@code input_length}, {@code output_length}). Each request becomes a prompt of its input length in token ids
 *       ({@code prompt-format=tokens}) and a line of the max-tokens file with its output length, so that the openai
 *       SUT sends each request as the trace had it.</li>
 * </ul>
 * Fixed concurrency (N requests in flight, vLLM's {@code --max-concurrency}) needs no trace: an Offline run with
 * {@code --sut-opt inflight=N} keeps exactly N streams open per server.
 */
@Command(
    name = "llm-trace",
    mixinStandardHelpOptions = true,
    description = {
        "Write an LLM load shape as a trace for `jloadgen run --trace`: Poisson arrivals with a burstiness factor "
            + "(gamma gaps, as vLLM bench serve), or a BurstGPT (CSV) or Mooncake (JSON Lines) trace with its "
            + "timestamps, and for those the prompts (token ids of each input length) and max tokens (each output "
            + "length) for --sut openai."})
public final class LlmTraceCommand implements Callable<Integer>
{
    /** The token id every generated prompt repeats (a common word in most vocabularies' low range). */
    static final long PROMPT_TOKEN_ID = 1000;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source
    {
        @Option(names = "--rate", paramLabel = "QPS", description = "Poisson arrivals at this rate (requests/s).")
        Double rate;

        @Option(names = "--from", paramLabel = "FILE",
            description = "A BurstGPT .csv or a Mooncake .jsonl trace to replay.")
        Path from;
    }

    @Option(names = "--burstiness", paramLabel = "GAMMA", defaultValue = "1",
        description = "With --rate: the gamma shape of the gaps (1: Poisson, <1: burstier; default ${DEFAULT-VALUE}).")
    double burstiness;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1000",
        description = "With --rate: requests to generate (default ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "1",
        description = "With --rate: prompts the requests cycle through (sample index = request mod N; default "
            + "${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Random seed (default 0).")
    long seed;

    @Option(names = "--limit", paramLabel = "N", description = "With --from: the first N requests only.")
    Integer limit;

    @Option(names = "--out", paramLabel = "DIR", required = true,
        description = "Where trace.csv (and with --from prompts.txt and max-tokens.txt) go.")
    Path out;

    /**
     * One request of a trace.
     *
     * @param offsetNs     when, from the first.
     * @param inputTokens  its prompt's length, or -1.
     * @param outputTokens its answer's length, or -1.
     */
    record Request(long offsetNs, long inputTokens, long outputTokens)
    {
    }

    @Override
    public Integer call() throws IOException
    {
        Files.createDirectories(out);
        final List<Request> requests = source.rate != null ? poisson(source.rate, burstiness, count, seed)
            : read(source.from, limit == null ? Integer.MAX_VALUE : limit);
        final boolean lengths = source.from != null;
        final Path trace = out.resolve("trace.csv");
        try (BufferedWriter w = Files.newBufferedWriter(trace, StandardCharsets.US_ASCII))
        {
            w.write(ReplayQueries.CSV_HEADER + "\n");
            for (int i = 0; i < requests.size(); i++)
            {
                w.write(requests.get(i).offsetNs() + "," + (lengths ? i : i % Math.max(1, samples)) + "\n");
            }
        }
        final double seconds = requests.isEmpty() ? 0 : requests.get(requests.size() - 1).offsetNs() / 1e9;
        System.out.println(ConsoleText.wrap(String.format(Locale.ROOT,
            "jloadgen llm-trace: %d requests over %.3f s (%.2f requests/s) -> %s",
            requests.size(), seconds, seconds > 0 ? (requests.size() - 1) / seconds : 0.0, trace), "  "));
        if (lengths)
        {
            final Path prompts = out.resolve("prompts.txt");
            final Path maxTokens = out.resolve("max-tokens.txt");
            try (BufferedWriter p = Files.newBufferedWriter(prompts, StandardCharsets.US_ASCII);
                 BufferedWriter m = Files.newBufferedWriter(maxTokens, StandardCharsets.US_ASCII))
            {
                for (final Request r : requests)
                {
                    final StringBuilder line = new StringBuilder();
                    for (long t = 0; t < Math.max(1, r.inputTokens()); t++)
                    {
                        line.append(t == 0 ? "" : " ").append(PROMPT_TOKEN_ID);
                    }
                    p.write(line.append('\n').toString());
                    m.write(Math.max(1, r.outputTokens()) + "\n");
                }
            }
            System.out.println(ConsoleText.wrap("  prompts " + prompts + " (token ids of each input length), "
                + "max tokens " + maxTokens, "          "));
            // The command stays on one line, so that it can be copied as it is.
            System.out.println("  run: jloadgen run --sut openai --sut-opt url=... --sut-opt model=... --dataset "
                + prompts + " --sut-opt prompt-format=tokens --sut-opt max-tokens-file=" + maxTokens
                + " --sut-opt extra-body='{\"ignore_eos\":true}' --scenario Server --trace " + trace);
        }
        return ExitCodes.VALID;
    }

    /**
     * @param rate       requests per second.
     * @param burstiness the gamma shape.
     * @param count      requests.
     * @param seed       the random seed.
     * @return the arrivals, the first at 0.
     */
    static List<Request> poisson(final double rate, final double burstiness, final int count, final long seed)
    {
        if (!(rate > 0) || !(burstiness > 0) || count < 1)
        {
            throw new IllegalArgumentException("--rate and --burstiness must be > 0 and --count at least 1, got "
                + rate + ", " + burstiness + ", " + count);
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final double scale = 1.0 / (rate * burstiness);
        final List<Request> requests = new ArrayList<>(count);
        double atS = 0;
        for (int i = 0; i < count; i++)
        {
            requests.add(new Request(Math.round(atS * 1e9), -1, -1));
            atS += gamma(random, burstiness) * scale;
        }
        return requests;
    }

    /**
     * A gamma variate of shape {@code k} and scale 1 (Marsaglia and Tsang; shapes below 1 by Stuart's boost).
     */
    static double gamma(final SplittableRandom random, final double k)
    {
        if (k < 1)
        {
            return gamma(random, k + 1) * Math.pow(random.nextDouble(), 1 / k);
        }
        final double d = k - 1.0 / 3;
        final double c = 1 / Math.sqrt(9 * d);
        while (true)
        {
            double x;
            double v;
            do
            {
                x = normal(random);
                v = 1 + c * x;
            }
            while (v <= 0);
            v = v * v * v;
            final double u = random.nextDouble();
            if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v)))
            {
                return d * v;
            }
        }
    }

    private static double normal(final SplittableRandom random)
    {
        // Box-Muller; one of the pair is enough here.
        final double u1 = 1 - random.nextDouble();
        final double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * @param file  a BurstGPT CSV or Mooncake JSON Lines trace.
     * @param limit the most requests to read.
     * @return its requests, times from the first.
     * @throws IllegalArgumentException naming the file and line of what cannot be read.
     */
    static List<Request> read(final Path file, final int limit) throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("trace file not found: " + file);
        }
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final List<Request> requests = new ArrayList<>();
        final boolean json = lines.stream().filter(l -> !l.isBlank()).findFirst().map(l -> l.strip().startsWith("{"))
            .orElse(false);
        long firstNs = Long.MIN_VALUE;
        long lastNs = Long.MIN_VALUE;
        int[] columns = null;
        for (int n = 0; n < lines.size() && requests.size() < limit; n++)
        {
            final String line = lines.get(n).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final long[] row;
            if (json)
            {
                row = mooncake(file, n + 1, line);
            }
            else if (columns == null)
            {
                columns = burstGptHeader(file, n + 1, line);
                continue;
            }
            else
            {
                row = burstGpt(file, n + 1, line, columns);
            }
            if (firstNs == Long.MIN_VALUE)
            {
                firstNs = row[0];
            }
            if (row[0] < lastNs)
            {
                throw new IllegalArgumentException(file + " line " + (n + 1) + ": the timestamp goes back in time");
            }
            lastNs = row[0];
            requests.add(new Request(row[0] - firstNs, row[1], row[2]));
        }
        if (requests.isEmpty())
        {
            throw new IllegalArgumentException(file + " holds no request");
        }
        return requests;
    }

    private static int[] burstGptHeader(final Path file, final int line, final String header)
    {
        final List<String> names = List.of(header.split("\\s*,\\s*"));
        final int[] at = {names.indexOf("Timestamp"), names.indexOf("Request tokens"),
            names.indexOf("Response tokens")};
        if (at[0] < 0 || at[1] < 0 || at[2] < 0)
        {
            throw new IllegalArgumentException(file + " line " + line + ": a BurstGPT CSV starts with a header naming "
                + "Timestamp, Request tokens and Response tokens; got '" + header + "'");
        }
        return at;
    }

    private static long[] burstGpt(final Path file, final int line, final String text, final int[] at)
    {
        final String[] f = text.split("\\s*,\\s*");
        try
        {
            return new long[] {Math.round(Double.parseDouble(f[at[0]]) * 1e9), Long.parseLong(f[at[1]]),
                Long.parseLong(f[at[2]])};
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException(file + " line " + line + ": not a BurstGPT row (Timestamp in "
                + "seconds, token counts): '" + text + "'", ex);
        }
    }

    private static long[] mooncake(final Path file, final int line, final String text) throws IOException
    {
        long timestampMs = -1;
        long input = -1;
        long output = -1;
        try (JsonParser p = new JsonFactory().createParser(text))
        {
            if (p.nextToken() != JsonToken.START_OBJECT)
            {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME)
            {
                final String name = p.currentName();
                p.nextToken();
                switch (name)
                {
                    case "timestamp" -> timestampMs = p.getValueAsLong(-1);
                    case "input_length" -> input = p.getValueAsLong(-1);
                    case "output_length" -> output = p.getValueAsLong(-1);
                    default -> p.skipChildren();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException(file + " line " + line + ": not a Mooncake record: " + ex.getMessage(),
                ex);
        }
        if (timestampMs < 0 || input < 0 || output < 0)
        {
            throw new IllegalArgumentException(file + " line " + line + ": a Mooncake record needs timestamp (ms), "
                + "input_length and output_length: '" + text + "'");
        }
        return new long[] {timestampMs * 1_000_000L, input, output};
    }
}
