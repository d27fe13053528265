package org.jloadgen.sut.network.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jloadgen.sut.DatasetDescriptor;
import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.network.FailurePolicy;

/**
 * The options of {@code --sut network}; each field is the {@code --sut-opt} key of the same name (also accepted in
 * a {@code --descriptor} file). The dataset's keys are the toolkit's ({@link DatasetDescriptor}).
 *
 * @param endpoints        {@code endpoints=host:port,...}: one inference server (node) each.
 * @param model            {@code model=NAME}: the model every node serves.
 * @param modelVersion     {@code model-version=V}; empty lets the servers choose.
 * @param input            {@code input=NAME}: the input tensor; default the model's only input.
 * @param output           {@code output=NAME}: the output whose bytes are the response; default the first.
 * @param inFlight         {@code inflight=N}: calls in flight per node at most.
 * @param connections      {@code connections=N}: TCP connections per node.
 * @param balance          {@code balance=least-outstanding|round-robin}: how a node is picked for a sample.
 * @param stream           {@code stream=true}: requests go on one {@code ModelStreamInfer} stream per connection
 *                         (Triton's extension, also served by {@code jloadgen serve}) instead of a call each.
 * @param tls              {@code tls=true}: TLS instead of plaintext.
 * @param tlsCa            {@code tls-ca=FILE}: PEM certificates to trust (default: the system's).
 * @param tlsAuthority     {@code tls-authority=NAME}: host name the servers' certificates must match.
 * @param connectTimeoutMs {@code connect-timeout-ms}: how long to wait for every node to come up.
 * @param requestTimeoutMs {@code timeout-ms}: a call unanswered this long fails its node and the run.
 * @param maxMessageBytes  {@code max-message-mb}: largest answer accepted, in bytes.
 * @param sampleBytes      {@code sample-bytes=N}: without a dataset, the size of each synthetic sample.
 * @param dataset          the dataset ({@code --dataset} and the raw layout keys), or {@code null} for synthetic
 *                         samples.
 * @param warmupMs         {@code warmup-ms=N}: how long requests warm the connections and both sides' code paths
 *                         before the run (0: no warm-up).
 * @param failurePolicy    {@code on-error=fail|count}, {@code retries=N}: what a failed request does.
 */
public record NetworkSutOptions(
    List<String> endpoints,
    String model,
    String modelVersion,
    String input,
    String output,
    int inFlight,
    int connections,
    Balance balance,
    boolean stream,
    boolean tls,
    Path tlsCa,
    String tlsAuthority,
    long connectTimeoutMs,
    long requestTimeoutMs,
    int maxMessageBytes,
    long sampleBytes,
    DatasetDescriptor dataset,
    long warmupMs,
    FailurePolicy failurePolicy)
{
    /** Default time the client warms its connections and code paths up before the run. */
    public static final long WARMUP_MS_DEFAULT = 15_000;
    /** Default calls in flight per node. */
    public static final int IN_FLIGHT_DEFAULT = 256;
    /** Default time to wait for the nodes to come up. */
    public static final long CONNECT_TIMEOUT_MS_DEFAULT = 10_000;
    /** Default time after which an unanswered call fails the run. */
    public static final long REQUEST_TIMEOUT_MS_DEFAULT = 30_000;
    /** Default largest answer, in MiB. */
    public static final int MAX_MESSAGE_MB_DEFAULT = 256;
    /** Default synthetic sample size. */
    public static final long SAMPLE_BYTES_DEFAULT = 64;
    /** The client's own options, with types, defaults and meanings ({@code run --sut network --help}). */
    static final List<SutOption> OWN_OPTIONS = List.of(
        new SutOption("endpoints", "host:port[,host:port...]", "", "The inference servers (nodes), KServe v2 gRPC; "
            + "required."),
        new SutOption("model", "text", "", "The model every node serves; required."),
        new SutOption("model-version", "text", "the servers' choice", "The model version to call."),
        new SutOption("input", "text", "the model's only input", "The input tensor the samples feed."),
        new SutOption("output", "text", "the model's first output", "The output whose bytes are the response."),
        new SutOption("inflight", "integer 1..1048576", Integer.toString(IN_FLIGHT_DEFAULT), "Calls in flight per "
            + "node at most."),
        new SutOption("connections", "integer 1..64", "1", "TCP connections per node."),
        new SutOption("balance", "least-outstanding|round-robin", "least-outstanding", "How a node is picked for "
            + "each sample: the one with the fewest calls in flight, or each in turn."),
        new SutOption("stream", "true|false", "false", "Send requests on one ModelStreamInfer stream per connection "
            + "(Triton's extension, also served by jloadgen serve) instead of a call each."),
        new SutOption("tls", "true|false", "false", "TLS instead of plaintext."),
        new SutOption("tls-ca", SutOption.PATH, "the system's certificates", "PEM certificates to trust."),
        new SutOption("tls-authority", "host name", "the endpoint's host", "Host name the servers' certificates "
            + "must match."),
        new SutOption("connect-timeout-ms", "integer >= 0", Long.toString(CONNECT_TIMEOUT_MS_DEFAULT), "How long to "
            + "wait for every node to come up."),
        new SutOption("timeout-ms", "integer >= 0", Long.toString(REQUEST_TIMEOUT_MS_DEFAULT), "A call unanswered "
            + "this long fails its node and the run."),
        new SutOption("max-message-mb", "integer 1..2047", Integer.toString(MAX_MESSAGE_MB_DEFAULT), "Largest "
            + "answer accepted, in MiB."),
        new SutOption("sample-bytes", "integer >= 0", Long.toString(SAMPLE_BYTES_DEFAULT), "Without a dataset, the "
            + "size of each synthetic sample."),
        new SutOption("warmup-ms", "integer >= 0", Long.toString(WARMUP_MS_DEFAULT), "Longest time requests warm the "
            + "connections and both sides' code paths before the clock starts (they stop once the answer rate stops "
            + "rising, after " + String.format(Locale.ROOT, "%,d", WarmupStop.MIN_REQUESTS)
            + " requests at least); 0 for none."));
    /** Every option: the client's and the dataset's. */
    static final List<SutOption> OPTIONS = concat(concat(OWN_OPTIONS, FailurePolicy.OPTIONS),
        DatasetDescriptor.OPTIONS);
    /** The client's own keys. */
    static final Set<String> OWN_KEYS = SutOption.keys(OWN_OPTIONS);
    /** Every key: the client's and the dataset's. */
    static final Set<String> KEYS = SutOption.keys(OPTIONS);
    /** Keys whose descriptor values are paths. */
    static final Set<String> PATH_KEYS = SutOption.pathKeys(OPTIONS);

    /** How the issuing thread picks a node for each sample. */
    public enum Balance
    {
        /** The node with the most free slots (fewest calls in flight): slower nodes get fewer samples. */
        LEAST_OUTSTANDING,
        /** Each node in turn, skipping nodes whose slots are all in flight. */
        ROUND_ROBIN
    }

    /**
     * Copies the list.
     */
    public NetworkSutOptions
    {
        endpoints = List.copyOf(endpoints);
    }

    private static List<SutOption> concat(final List<SutOption> a, final List<SutOption> b)
    {
        final List<SutOption> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /**
     * @param commandLine {@code --sut-opt} pairs and the named flags ({@code --dataset}, {@code --labels},
     *                    {@code --descriptor}).
     * @return the options.
     * @throws IllegalArgumentException naming the bad key or value.
     */
    public static NetworkSutOptions parse(final Map<String, String> commandLine)
    {
        final SutOptions o = SutOptions.parse(NetworkSutProvider.NAME, commandLine, KEYS, PATH_KEYS);
        final List<String> endpoints = new ArrayList<>();
        for (final String e : o.string("endpoints", "").split(","))
        {
            if (e.isBlank())
            {
                continue;
            }
            final String endpoint = e.strip();
            final int colon = endpoint.lastIndexOf(':');
            if (colon <= 0 || colon == endpoint.length() - 1)
            {
                throw o.invalid("endpoints", "host:port[,host:port...]", null);
            }
            if (endpoints.contains(endpoint))
            {
                throw new IllegalArgumentException("endpoints lists node " + endpoint + " twice");
            }
            endpoints.add(endpoint);
        }
        if (endpoints.isEmpty())
        {
            throw new IllegalArgumentException("the network SUT needs --sut-opt endpoints=host:port[,host:port...]");
        }
        final String model = o.string("model");
        if (model == null || model.isBlank())
        {
            throw new IllegalArgumentException("the network SUT needs --sut-opt model=NAME (the model the nodes "
                + "serve)");
        }
        final Balance balance = switch (o.string("balance", "least-outstanding").strip().toLowerCase(Locale.ROOT))
        {
            case "least-outstanding" -> Balance.LEAST_OUTSTANDING;
            case "round-robin" -> Balance.ROUND_ROBIN;
            default -> throw o.invalid("balance", "least-outstanding or round-robin", null);
        };
        final boolean tls = o.bool("tls", false);
        final Path ca = o.path("tls-ca");
        final String authority = o.string("tls-authority");
        if (!tls && (ca != null || authority != null))
        {
            throw new IllegalArgumentException("tls-ca and tls-authority need tls=true");
        }
        if (ca != null && !Files.isRegularFile(ca))
        {
            throw new IllegalArgumentException("tls-ca file not found: " + ca);
        }
        final boolean hasDataset = o.has(DatasetDescriptor.DATASET);
        if (!hasDataset && o.keys().stream().anyMatch(k -> DatasetDescriptor.KEYS.contains(k)))
        {
            throw new IllegalArgumentException(String.join(", ", o.keys().stream()
                .filter(DatasetDescriptor.KEYS::contains).toList()) + " describe a dataset: give --dataset too");
        }
        if (hasDataset && o.has("sample-bytes"))
        {
            throw new IllegalArgumentException("sample-bytes makes up synthetic samples; it cannot go with --dataset");
        }
        return new NetworkSutOptions(endpoints, model.strip(), o.string("model-version", ""), o.string("input"),
            o.string("output"), positive(o, "inflight", IN_FLIGHT_DEFAULT, 1 << 20),
            positive(o, "connections", 1, 64), balance, o.bool("stream", false), tls, ca, authority,
            nonNegative(o, "connect-timeout-ms", CONNECT_TIMEOUT_MS_DEFAULT),
            Math.max(1, nonNegative(o, "timeout-ms", REQUEST_TIMEOUT_MS_DEFAULT)),
            positive(o, "max-message-mb", MAX_MESSAGE_MB_DEFAULT, 2047) << 20,
            nonNegative(o, "sample-bytes", SAMPLE_BYTES_DEFAULT),
            hasDataset ? DatasetDescriptor.fromOptions(o, "the network SUT") : null,
            nonNegative(o, "warmup-ms", WARMUP_MS_DEFAULT), FailurePolicy.parse(o));
    }

    private static int positive(final SutOptions o, final String key, final int fallback, final int max)
    {
        final int v = o.intValue(key, fallback);
        if (v < 1 || v > max)
        {
            throw o.invalid(key, "an integer from 1 to " + max, null);
        }
        return v;
    }

    private static long nonNegative(final SutOptions o, final String key, final long fallback)
    {
        final long v = o.longValue(key, fallback);
        if (v < 0)
        {
            throw o.invalid(key, "an integer >= 0", null);
        }
        return v;
    }
}
