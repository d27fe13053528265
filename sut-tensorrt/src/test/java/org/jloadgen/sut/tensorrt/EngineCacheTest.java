package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.EngineBuild;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineCacheTest
{
    private static final String SHA = "a".repeat(64);

    @TempDir
    Path dir;

    private static EngineBuild build(final Path model, final int max, final int opt, final int profiles,
        final boolean fp16, final boolean int8, final long workspace, final int level, final String input,
        final long[] sample)
    {
        return new EngineBuild(model, input, sample, max, opt, profiles, fp16, int8, true, workspace, level);
    }

    @Test
    void shouldChangeTheKeyWithEveryInputThatChangesTheEngine()
    {
        final Path m = Path.of("m.onnx");
        final long[] s = {1, 28, 28};
        final EngineBuild base = build(m, 64, 64, 4, false, false, 0, -1, "input", s);
        final List<String> keys = List.of(
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", base),
            EngineCache.key("b".repeat(64), "10.15.1", "H100 sm_90", base),
            EngineCache.key(SHA, "10.15.2", "H100 sm_90", base),
            EngineCache.key(SHA, "10.15.1", "L4 sm_89", base),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 128, 64, 4, false, false, 0, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 32, 4, false, false, 0, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 2, false, false, 0, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, true, false, 0, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, false, true, 0, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, false, false, 1 << 30, -1, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, false, false, 0, 5, "input", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", new EngineBuild(m, "input", s, 64, 64, 4, false, false, false,
                0, -1)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, false, false, 0, -1, "x", s)),
            EngineCache.key(SHA, "10.15.1", "H100 sm_90", build(m, 64, 64, 4, false, false, 0, -1, "input",
                new long[] {3, 28, 28})));
        final Set<String> distinct = new HashSet<>(keys);
        assertEquals(keys.size(), distinct.size(), "every input changes the key: " + keys);
        assertEquals(keys.get(0), EngineCache.key(SHA, "10.15.1", "H100 sm_90",
            build(Path.of("elsewhere/m.onnx"), 64, 64, 4, false, false, 0, -1, "input", s)),
            "the model's path is not part of the key, its content is");
        assertTrue(keys.get(0).matches("[0-9a-f]{64}"));
    }

    @Test
    void shouldBuildOnceAndReuseTheCachedEngineInLaterProcesses() throws IOException
    {
        final Path model = Files.writeString(dir.resolve("resnet.onnx"), "model bytes");
        final EngineBuild request = build(model, 8, 8, 2, false, false, 0, -1, "input", new long[] {1, 28, 28});
        final SimulatedBackend first = new SimulatedBackend(SimulationSettings.DEFAULT);
        final Gpu gpu = first.open(0);
        final EngineCache cache = new EngineCache(dir.resolve("cache"));
        final EngineCache.Obtained built = cache.obtain(first, gpu, request);
        assertTrue(built.built());
        assertEquals(1, first.builds());
        final String name = built.file().getFileName().toString();
        assertTrue(name.matches("resnet-[0-9a-f]{16}\\.engine"), name);
        final String recipe = Files.readString(built.file().resolveSibling(name + ".txt"));
        assertTrue(recipe.contains("model_sha256 " + EngineCache.sha256(model)), recipe);
        assertTrue(recipe.contains("tensorrt simulated-1"), recipe);
        assertTrue(recipe.contains("gpu JLoadGen simulated GPU sm_00"), recipe);
        assertTrue(recipe.contains("build " + request.canonical()), recipe);
        assertEquals(EngineCache.key(EngineCache.sha256(model), "simulated-1", gpu.identity(), request), built.key());

        final EngineCache.Obtained again = cache.obtain(first, gpu, request);
        assertFalse(again.built());
        assertEquals(1, first.builds(), "the second GPU of a kind reuses the engine in this process");

        final SimulatedBackend later = new SimulatedBackend(SimulationSettings.DEFAULT);
        final EngineCache.Obtained cached = new EngineCache(dir.resolve("cache")).obtain(later, later.open(0),
            request);
        assertFalse(cached.built());
        assertEquals(0, later.builds(), "a later process reads the cached file");
        assertArrayEquals(built.plan(), cached.plan());
        assertTrue(cached.description().startsWith("cached engine "), cached.description());

        Files.writeString(model, "a retrained model");
        assertTrue(new EngineCache(dir.resolve("cache")).obtain(later, later.open(0), request).built(),
            "another model content, another engine");
    }

    @Test
    void shouldRebuildAnEvictedEngineAndKeepEnginesInMemoryWithoutACacheFolder() throws IOException
    {
        final Path model = Files.writeString(dir.resolve("m.onnx"), "m");
        final EngineBuild request = build(model, 4, 4, 1, false, false, 0, -1, "input", new long[] {1, 28, 28});
        final SimulatedBackend backend = new SimulatedBackend(SimulationSettings.DEFAULT);
        final Gpu gpu = backend.open(0);
        final EngineCache cache = new EngineCache(dir.resolve("c"));
        final EngineCache.Obtained built = cache.obtain(backend, gpu, request);
        cache.evict(built);
        assertFalse(Files.exists(built.file()));
        assertTrue(cache.obtain(backend, gpu, request).built());
        assertEquals(2, backend.builds());

        final EngineCache off = new EngineCache(null);
        final EngineCache.Obtained memory = off.obtain(backend, gpu, request);
        assertNull(memory.file());
        assertTrue(memory.description().contains("engine cache off"), memory.description());
        assertFalse(off.obtain(backend, gpu, request).built());
        assertEquals(3, backend.builds());
        assertEquals(DType.UINT8, backend.inspect(model).get(0).dtype());
    }
}
