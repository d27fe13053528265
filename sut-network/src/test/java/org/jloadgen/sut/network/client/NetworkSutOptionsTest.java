package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.jloadgen.sut.network.SutOptions;
import org.junit.jupiter.api.Test;

/**
 * The network SUT's options: defaults, and errors that name the option.
 */
class NetworkSutOptionsTest
{
    private static NetworkSutOptions parse(final Map<String, String> values)
    {
        final SutOptions o = new SutOptions("network", values);
        final NetworkSutOptions options = NetworkSutOptions.parse(o);
        Dataset.spec(o);
        o.finish();
        return options;
    }

    private static String error(final Map<String, String> values)
    {
        return assertThrows(IllegalArgumentException.class, () -> parse(values)).getMessage();
    }

    @Test
    void shouldTakeTheDefaults()
    {
        final NetworkSutOptions o = parse(Map.of("endpoints", "a:1, b:2", "model", "resnet50"));
        assertEquals(List.of("a:1", "b:2"), o.endpoints());
        assertEquals(NetworkSutOptions.IN_FLIGHT_DEFAULT, o.inFlight());
        assertEquals(NetworkSutOptions.Balance.LEAST_OUTSTANDING, o.balance());
        assertEquals(1, o.connections());
        assertEquals(NetworkSutOptions.MAX_MESSAGE_MB_DEFAULT << 20, o.maxMessageBytes());
        assertEquals("", o.modelVersion());
    }

    @Test
    void shouldNameTheBadOption()
    {
        assertEquals("the network SUT needs --sut-opt endpoints=host:port[,host:port...]",
            error(Map.of("model", "m")));
        assertEquals("the network SUT needs --sut-opt model=...", error(Map.of("endpoints", "a:1")));
        assertEquals("endpoint 'a' must be host:port", error(Map.of("endpoints", "a", "model", "m")));
        assertEquals("endpoints lists a node twice: [a:1, a:1]", error(Map.of("endpoints", "a:1,a:1", "model", "m")));
        assertEquals("network SUT option inflight must be at least 1, got 0",
            error(Map.of("endpoints", "a:1", "model", "m", "inflight", "0")));
        assertEquals("network SUT option balance must be one of least-outstanding, round-robin, got 'random'",
            error(Map.of("endpoints", "a:1", "model", "m", "balance", "random")));
        assertEquals("tls-ca and tls-authority need tls=true",
            error(Map.of("endpoints", "a:1", "model", "m", "tls-authority", "x")));
        assertEquals("sample-bytes makes up synthetic samples; it cannot go with --dataset",
            error(Map.of("endpoints", "a:1", "model", "m", "dataset", "x.npy", "sample-bytes", "4")));
        assertEquals("dtype, sample-shape, header-bytes, sample-count and files describe a dataset: give --dataset too",
            error(Map.of("endpoints", "a:1", "model", "m", "dtype", "float32")));
        final String unknown = error(Map.of("endpoints", "a:1", "model", "m", "inflihgt", "8"));
        assertEquals(true, unknown.startsWith("unknown network SUT option inflihgt; known: "), unknown);
    }
}
