package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SutOptionsTest
{
    private static final Set<String> KNOWN = Set.of("batch", "workspace", "model-file", "fp16", "graphs", "idle",
        "pin", "placement", "dtype", "sample-shape", "name");
    private static final Set<String> PATHS = Set.of("model-file");

    @TempDir
    Path dir;

    private static SutOptions parse(final String... kv)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2)
        {
            map.put(kv[i], kv[i + 1]);
        }
        return SutOptions.parse("test", map, KNOWN, PATHS);
    }

    @Test
    void shouldMergeTheCommandLineOverTheDescriptorAndSayWhereEachValueCameFrom() throws IOException
    {
        final Path desc = dir.resolve("d/job.desc");
        Files.createDirectories(desc.getParent());
        Files.writeString(desc, "# a comment\nmodel-file = m.onnx\nbatch = 16\n\nfp16 = yes\n");
        final SutOptions o = parse("descriptor", desc.toString(), "batch", "32");
        assertEquals(desc.getParent().resolve("m.onnx").toAbsolutePath().normalize(), o.path("model-file"));
        assertEquals(32, o.intValue("batch", 1));
        assertTrue(o.bool("fp16", false));
        assertEquals(SutOptions.COMMAND_LINE, o.origin("batch"));
        assertEquals(desc + ":5", o.origin("fp16"));
        assertNull(o.origin("graphs"));
        assertEquals(List.of("model-file", "batch", "fp16"), List.copyOf(o.keys()));
        assertFalse(o.has("descriptor"));
    }

    @Test
    void shouldNameOptionValueExpectedTypeAndOriginOfABadValue() throws IOException
    {
        final IllegalArgumentException integer = assertThrows(IllegalArgumentException.class,
            () -> parse("batch", "many").intValue("batch", 1));
        assertEquals("batch must be an integer, got 'many' (--sut-opt)", integer.getMessage());
        final IllegalArgumentException wide = assertThrows(IllegalArgumentException.class,
            () -> parse("batch", "3000000000").intValue("batch", 1));
        assertEquals("batch must be an integer from -2147483648 to 2147483647, got '3000000000' (--sut-opt)",
            wide.getMessage());
        final Path desc = dir.resolve("bad.desc");
        Files.writeString(desc, "fp16 = perhaps\n");
        final IllegalArgumentException bool = assertThrows(IllegalArgumentException.class,
            () -> parse("descriptor", desc.toString()).bool("fp16", false));
        assertEquals("fp16 must be true or false, got 'perhaps' (" + desc + ":1)", bool.getMessage());
        assertEquals("workspace must be a size such as 4GiB or 512MB, got '4 parsecs' (--sut-opt)",
            assertThrows(IllegalArgumentException.class, () -> parse("workspace", "4 parsecs").bytes("workspace", 0))
                .getMessage());
        assertEquals("graphs must be a list of positive integers such as 1,8,64, got '1,0' (--sut-opt)",
            assertThrows(IllegalArgumentException.class, () -> parse("graphs", "1,0").intList("graphs"))
                .getMessage());
        assertEquals("idle must be auto, spin, park, yield, backoff or sleep, got 'nap' (--sut-opt)",
            assertThrows(IllegalArgumentException.class, () -> parse("idle", "nap").idle("idle", null))
                .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("pin", "x-y").cpus("pin", null))
            .getMessage().startsWith("pin must be a CPU list such as 0-3,8, all or none, got 'x-y'"));
        assertEquals("placement must be copy or mapped, got 'disk' (--sut-opt)",
            assertThrows(IllegalArgumentException.class, () -> parse("placement", "disk").placement("placement"))
                .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("sample-shape", "3,-1")
            .shape("sample-shape")).getMessage().startsWith("sample-shape must be dimensions such as 3,224,224"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("dtype", "float7").dtype("dtype"))
            .getMessage().startsWith("dtype: "));
        assertEquals("name is empty (--sut-opt)",
            assertThrows(IllegalArgumentException.class, () -> parse("name", " ").path("name")).getMessage());
    }

    @Test
    void shouldReadEveryTypeItKnows()
    {
        final SutOptions o = parse("batch", "1_024", "workspace", "1.5GiB", "graphs", "1, 8,64", "idle", "yield",
            "pin", "0-1,3", "placement", "mapped", "dtype", "<f4", "sample-shape", "3x224x224");
        assertEquals(1024, o.intValue("batch", 0));
        assertEquals(3L << 29, o.bytes("workspace", 0));
        assertArrayEquals(new int[] {1, 8, 64}, o.intList("graphs"));
        assertEquals(CompletionWaitStrategy.YIELD, o.idle("idle", CompletionWaitStrategy.SPIN));
        assertArrayEquals(new int[] {0, 1, 3}, o.cpus("pin", new int[0]));
        assertEquals(SampleStore.Placement.MAPPED, o.placement("placement"));
        assertEquals(DType.FLOAT32, o.dtype("dtype"));
        assertArrayEquals(new long[] {3, 224, 224}, o.shape("sample-shape"));
        assertEquals(7, o.intValue("fp16", 7), "absent: the default");
        assertNull(o.intList("fp16"));
        assertArrayEquals(new int[0], parse("pin", "none").cpus("pin", new int[] {1}));
    }

    @Test
    void shouldParseSizesInDecimalAndBinaryUnits()
    {
        assertEquals(4L << 30, SutOptions.parseBytes("4GiB"));
        assertEquals(4L << 30, SutOptions.parseBytes("4g"));
        assertEquals(512_000_000L, SutOptions.parseBytes("512 MB"));
        assertEquals(1234, SutOptions.parseBytes("1234"));
        assertEquals(1L << 40, SutOptions.parseBytes("1TiB"));
        assertThrows(IllegalArgumentException.class, () -> SutOptions.parseBytes("GiB"));
        assertThrows(IllegalArgumentException.class, () -> SutOptions.parseBytes("1.0000001KiB"));
        assertThrows(IllegalArgumentException.class, () -> SutOptions.parseBytes("9000000TiB"));
    }

    @Test
    void shouldRejectUnknownKeysWithTheKnownOnes() throws IOException
    {
        final IllegalArgumentException cli = assertThrows(IllegalArgumentException.class, () -> parse("bacth", "8"));
        assertTrue(cli.getMessage().startsWith("--sut-opt bacth is not a test SUT option; known: batch, dtype, fp16"),
            cli.getMessage());
        final Path desc = dir.resolve("x.desc");
        Files.writeString(desc, "batch = 1\nbatch = 2\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("descriptor", desc.toString()))
            .getMessage().equals(desc + ":2: 'batch' is given twice"));
        Files.writeString(desc, "descriptor = other.desc\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("descriptor", desc.toString()))
            .getMessage().contains("cannot name another descriptor"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> parse("descriptor", dir.resolve("none").toString())).getMessage().startsWith("descriptor not found"));
    }
}
