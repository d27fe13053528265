package org.jloadgen.bindings;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bridge's API without a test running (a test needs a process of its own): what the library says about the
 * LoadGen it was built from, settings through LoadGen's own FromConfig and by field name, and completions that
 * arrive while no test runs, which are dropped.
 */
class LoadGenBridgeTest
{
    @TempDir
    Path dir;

    @BeforeAll
    static void open()
    {
        OfficialBridgeBuild.openLibrary();
    }

    @Test
    void shouldReportTheLoadGenItWasBuiltFrom() throws Exception
    {
        final Path source = OfficialBridgeBuild.loadgenSource();
        assertEquals(Files.readString(source.resolve("VERSION.txt")).strip(), LoadGenBridge.loadgenVersion());
        assertEquals(Files.readString(source.resolve("mlperf.conf")), LoadGenBridge.builtinMlperfConf());
        assertEquals(sha1OfFiles(source), LoadGenBridge.loadgenFileSha1());
    }

    @Test
    void shouldSetAndReadFieldsOfEachType()
    {
        try (LoadGenBridge.Settings settings = LoadGenBridge.Settings.create(2, 2))
        {
            settings.setDouble("server_target_qps", 1234.5);
            settings.setUnsigned("schedule_rng_seed", -1L);
            settings.setInt("server_find_peak_qps_decimals_of_precision", 3);
            settings.setBoolean("server_coalesce_queries", true);
            settings.mode(1);

            assertEquals(1234.5, settings.getDouble("server_target_qps"));
            assertEquals(-1L, settings.getUnsigned("schedule_rng_seed"), "18446744073709551615 unsigned");
            assertEquals(3L, settings.getUnsigned("server_find_peak_qps_decimals_of_precision"));
            assertEquals(1L, settings.getUnsigned("server_coalesce_queries"));
            assertEquals(1, settings.mode());
            assertEquals(100_000_000L, settings.getUnsigned("server_target_latency_ns"), "LoadGen's default");
        }
    }

    @Test
    void shouldRejectUnknownFieldsAndWrongTypesByName()
    {
        try (LoadGenBridge.Settings settings = LoadGenBridge.Settings.create(0, 2))
        {
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> settings.setDouble("server_target_qpz", 1));
            assertTrue(unknown.getMessage().contains("no field 'server_target_qpz'"), unknown.getMessage());
            final IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> settings.setDouble("min_duration_ms", 1));
            assertTrue(type.getMessage().contains("'min_duration_ms' has another type"), type.getMessage());
            assertThrows(IllegalArgumentException.class, () -> settings.mode(7));
        }
        assertThrows(IllegalArgumentException.class, () -> LoadGenBridge.Settings.create(4, 2));
    }

    @Test
    void shouldReadConfigFilesThroughLoadGensFromConfig() throws IOException
    {
        final Path user = Files.writeString(dir.resolve("user.conf"),
            "*.Server.target_qps = 321\nresnet50.Server.target_latency = 7\n*.*.min_duration = 2500\n");
        try (LoadGenBridge.Settings settings = LoadGenBridge.Settings.create(2, 2))
        {
            assertEquals(0, settings.fromConfig(user.toString(), "resnet50", "Server", 1));
            assertEquals(321.0, settings.getDouble("server_target_qps"));
            assertEquals(7_000_000L, settings.getUnsigned("server_target_latency_ns"), "ms to ns, as LoadGen does");
            assertEquals(2_500L, settings.getUnsigned("min_duration_ms"));
            assertEquals(1024L, settings.getUnsigned("performance_sample_count_override"),
                "the built-in mlperf.conf applied first (resnet50's performance_sample_count_override)");
        }
        try (LoadGenBridge.Settings settings = LoadGenBridge.Settings.create(2, 2))
        {
            assertEquals(-2, settings.fromConfig(dir.resolve("missing.conf").toString(), "*", "Server", 2),
                "-ENOENT");
            final Path broken = Files.writeString(dir.resolve("broken.conf"), "*.Server.target_qps = fast\n");
            assertEquals(-22, settings.fromConfig(broken.toString(), "*", "Server", 2), "-EINVAL");
            assertEquals(1.0, settings.getDouble("server_target_qps"), "nothing applied from a broken file");
        }
    }

    @Test
    void shouldDropCompletionsWhileNoTestRuns()
    {
        final LoadGenBridge.Progress before = LoadGenBridge.progress();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment responses = arena.allocate(32L * 4, 8);
            for (int i = 0; i < 4; i++)
            {
                responses.set(java.lang.foreign.ValueLayout.JAVA_LONG, 32L * i, 0x1000L + 64L * i);
            }
            assertEquals(4L, LoadGenBridge.complete(responses, 4));
            assertEquals(1L, LoadGenBridge.completeOne(0x2000L, 0, 0, 0));
            assertEquals(1L, LoadGenBridge.firstTokenOne(0x2000L, 0, 0));
        }
        final LoadGenBridge.Progress after = LoadGenBridge.progress();
        assertFalse(after.running());
        assertEquals(before.dropped() + 6, after.dropped());
        assertEquals(0L, after.completed());
        assertEquals(0L, after.issued());
    }

    private static Map<String, String> sha1OfFiles(final Path source) throws IOException, NoSuchAlgorithmException
    {
        final Map<String, String> sha1 = new TreeMap<>();
        for (final String folder : List.of("", "bindings/"))
        {
            try (Stream<Path> files = Files.list(folder.isEmpty() ? source : source.resolve(folder)))
            {
                for (final Path file : files.filter(Files::isRegularFile).toList())
                {
                    sha1.put("/" + folder + file.getFileName(), HexFormat.of().formatHex(
                        MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(file))));
                }
            }
        }
        return sha1;
    }
}
