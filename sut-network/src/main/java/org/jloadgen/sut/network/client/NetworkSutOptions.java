package org.jloadgen.sut.network.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.sut.network.SutOptions;

/**
 * The options of {@code --sut network} beside the dataset's ({@link Dataset}): which nodes, which model, how many
 * calls in flight, how queries are spread, TLS and time limits. Each field is the {@code --sut-opt} key of the
 * same name.
 *
 * @param endpoints        {@code endpoints=host:port,...}: one inference server (node) each.
 * @param model            {@code model=NAME}: the model every node serves.
 * @param modelVersion     {@code model-version=V}; empty lets the servers choose.
 * @param input            {@code input=NAME}: the input tensor; default the model's only input.
 * @param output           {@code output=NAME}: the output whose bytes are the response; default the first.
 * @param inFlight         {@code inflight=N}: calls in flight per node at most.
 * @param connections      {@code connections=N}: TCP connections per node.
 * @param balance          {@code balance=least-outstanding|round-robin}: how a node is picked for a sample.
 * @param tls              {@code tls=true}: TLS instead of plaintext.
 * @param tlsCa            {@code tls-ca=FILE}: PEM certificates to trust (default: the system's).
 * @param tlsAuthority     {@code tls-authority=NAME}: host name the servers' certificates must match.
 * @param connectTimeoutMs {@code connect-timeout-ms}: how long to wait for every node to come up.
 * @param requestTimeoutMs {@code timeout-ms}: a call unanswered this long fails its node and the run.
 * @param maxMessageBytes  {@code max-message-mb}: largest answer accepted, in MiB.
 * @param labels           {@code labels=FILE}: the dataset's labels, to score top-1 accuracy.
 * @param labelOffset      {@code label-offset=N}: added to each label.
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
    boolean tls,
    Path tlsCa,
    String tlsAuthority,
    long connectTimeoutMs,
    long requestTimeoutMs,
    int maxMessageBytes,
    Path labels,
    int labelOffset)
{
    /** Default calls in flight per node. */
    public static final int IN_FLIGHT_DEFAULT = 256;
    /** Default time to wait for the nodes to come up. */
    public static final long CONNECT_TIMEOUT_MS_DEFAULT = 10_000;
    /** Default time after which an unanswered call fails the run. */
    public static final long REQUEST_TIMEOUT_MS_DEFAULT = 30_000;
    /** Default largest answer, in MiB. */
    public static final int MAX_MESSAGE_MB_DEFAULT = 256;

    /** How the issuing thread picks a node for each sample. */
    public enum Balance
    {
        /** The node with the most free slots (fewest calls in flight): slower nodes get fewer samples. */
        LEAST_OUTSTANDING,
        /** Each node in turn, skipping nodes whose slots are all in flight. */
        ROUND_ROBIN
    }

    /**
     * Copies the lists.
     */
    public NetworkSutOptions
    {
        endpoints = List.copyOf(endpoints);
    }

    /**
     * Reads the network options; the dataset's keys are left for {@link Dataset#spec}.
     *
     * @param o the SUT's options.
     * @return the options.
     * @throws IllegalArgumentException naming the bad key or value.
     */
    public static NetworkSutOptions parse(final SutOptions o)
    {
        final List<String> endpoints = o.list("endpoints");
        if (endpoints.isEmpty())
        {
            throw new IllegalArgumentException("the network SUT needs --sut-opt endpoints=host:port[,host:port...]");
        }
        for (final String e : endpoints)
        {
            final int colon = e.lastIndexOf(':');
            if (colon <= 0 || colon == e.length() - 1)
            {
                throw new IllegalArgumentException("endpoint '" + e + "' must be host:port");
            }
        }
        if (endpoints.stream().distinct().count() != endpoints.size())
        {
            throw new IllegalArgumentException("endpoints lists a node twice: " + endpoints);
        }
        final String model = o.required("model");
        final Balance balance = o.choice("balance", "least-outstanding", "round-robin").equals("round-robin")
            ? Balance.ROUND_ROBIN : Balance.LEAST_OUTSTANDING;
        final boolean tls = o.bool("tls", false);
        final Path ca = o.path("tls-ca");
        final String authority = o.string("tls-authority", null);
        if (!tls && (ca != null || authority != null))
        {
            throw new IllegalArgumentException("tls-ca and tls-authority need tls=true");
        }
        if (ca != null && !Files.isRegularFile(ca))
        {
            throw new IllegalArgumentException("tls-ca file not found: " + ca);
        }
        final Path labels = o.path("labels");
        if (labels != null && !Files.isRegularFile(labels))
        {
            throw new IllegalArgumentException("labels file not found: " + labels);
        }
        return new NetworkSutOptions(endpoints, model, o.string("model-version", ""), o.string("input", null),
            o.string("output", null), (int)Math.min(1 << 20, o.integer("inflight", IN_FLIGHT_DEFAULT, 1)),
            (int)Math.min(64, o.integer("connections", 1, 1)), balance, tls, ca, authority,
            o.integer("connect-timeout-ms", CONNECT_TIMEOUT_MS_DEFAULT, 0),
            o.integer("timeout-ms", REQUEST_TIMEOUT_MS_DEFAULT, 1),
            (int)Math.min(2047, o.integer("max-message-mb", MAX_MESSAGE_MB_DEFAULT, 1)) << 20,
            labels, (int)o.integer("label-offset", 0, Integer.MIN_VALUE));
    }
}
