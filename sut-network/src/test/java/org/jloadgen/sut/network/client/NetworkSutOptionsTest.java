package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The network SUT's options: defaults, and errors that name the option.
 */
class NetworkSutOptionsTest
{
    private static String error(final Map<String, String> values)
    {
        return assertThrows(IllegalArgumentException.class, () -> NetworkSutOptions.parse(values)).getMessage();
    }

    @Test
    void shouldTakeTheDefaults()
    {
        final NetworkSutOptions o = NetworkSutOptions.parse(Map.of("endpoints", "a:1, b:2", "model", "resnet50"));
        assertEquals(List.of("a:1", "b:2"), o.endpoints());
        assertEquals(NetworkSutOptions.IN_FLIGHT_DEFAULT, o.inFlight());
        assertEquals(NetworkSutOptions.Balance.LEAST_OUTSTANDING, o.balance());
        assertEquals(1, o.connections());
        assertEquals(NetworkSutOptions.MAX_MESSAGE_MB_DEFAULT << 20, o.maxMessageBytes());
        assertEquals("", o.modelVersion());
        assertEquals(NetworkSutOptions.SAMPLE_BYTES_DEFAULT, o.sampleBytes());
        assertNull(o.dataset());
        assertEquals(16, NetworkSutOptions.parse(Map.of("endpoints", "a:1", "model", "m", "dataset", "x.raw",
            "header-bytes", "16")).dataset().headerBytes());
    }

    @Test
    void shouldNameTheBadOption()
    {
        assertEquals("the network SUT needs --sut-opt endpoints=host:port[,host:port...]",
            error(Map.of("model", "m")));
        assertEquals("the network SUT needs --sut-opt model=NAME (the model the nodes serve)",
            error(Map.of("endpoints", "a:1")));
        assertEquals("endpoints must be host:port[,host:port...], got 'a' (--sut-opt)",
            error(Map.of("endpoints", "a", "model", "m")));
        assertEquals("endpoints lists node a:1 twice", error(Map.of("endpoints", "a:1,a:1", "model", "m")));
        assertEquals("inflight must be an integer from 1 to 1048576, got '0' (--sut-opt)",
            error(Map.of("endpoints", "a:1", "model", "m", "inflight", "0")));
        assertEquals("balance must be least-outstanding or round-robin, got 'random' (--sut-opt)",
            error(Map.of("endpoints", "a:1", "model", "m", "balance", "random")));
        assertEquals("tls-ca and tls-authority need tls=true",
            error(Map.of("endpoints", "a:1", "model", "m", "tls-authority", "x")));
        assertEquals("sample-bytes makes up synthetic samples; it cannot go with --dataset",
            error(Map.of("endpoints", "a:1", "model", "m", "dataset", "x.npy", "sample-bytes", "4")));
        assertEquals("dtype describe a dataset: give --dataset too",
            error(Map.of("endpoints", "a:1", "model", "m", "dtype", "float32")));
        final String unknown = error(Map.of("endpoints", "a:1", "model", "m", "inflihgt", "8"));
        assertTrue(unknown.contains("inflihgt"), unknown);
    }
}
