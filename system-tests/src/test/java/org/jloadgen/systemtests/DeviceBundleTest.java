package org.jloadgen.systemtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code sut-tensorrt/device-bundle} on the jars this build has just packaged: the bundle is written, is at most
 * 60 MiB, and its {@code run} starts the Java side from the bundle's own cut-down runtime ({@code --version} and the
 * CUDA probe) and then, on this machine without a GPU, stops with exit code 2 naming what is missing. Skipped where
 * {@code libjlg_cuda.so} was not built (no nvcc) and where a GPU driver is installed (the run would go on to the
 * check itself).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DeviceBundleTest
{
    /** The limit a device machine takes. */
    static final long LIMIT_BYTES = 60L << 20;

    private static Path root()
    {
        final String dir = System.getProperty("jloadgen.root.dir");
        return dir != null ? Path.of(dir).toAbsolutePath().normalize() : Path.of("..").toAbsolutePath().normalize();
    }

    private static String run(final Map<String, String> env, final Path dir, final List<String> command,
        final int[] exit) throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().remove("LD_LIBRARY_PATH");
        builder.environment().remove("CUDA_HOME");
        builder.environment().putAll(env);
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(240, TimeUnit.SECONDS), "timed out: " + command);
        exit[0] = process.exitValue();
        return output;
    }

    private static long size(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.walk(dir))
        {
            return files.filter(Files::isRegularFile).mapToLong(p ->
            {
                try
                {
                    return Files.size(p);
                }
                catch (final IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            }).sum();
        }
    }

    @Test
    void shouldBuildABundleOfAtMost60MiBWhoseRunStopsWithExitCode2WithoutAGpu() throws Exception
    {
        final Path root = root();
        assumeTrue(Files.isRegularFile(root.resolve("native/target/native/lib/libjlg_cuda.so")),
            "libjlg_cuda.so was not built (no nvcc on this machine): the bundle needs it");
        assumeFalse(Files.exists(Path.of("/dev/nvidiactl")), "an NVIDIA driver is installed here: run the bundle "
            + "by hand (sut-tensorrt/target/device-bundle/run)");
        final Path bundle = root.resolve("system-tests/target/device-bundle");
        final int[] exit = new int[1];
        final String built = run(Map.of(), root, List.of("bash", root.resolve("sut-tensorrt/device-bundle").toString(),
            "--no-build", "--out", bundle.toString(), "--archive"), exit);
        assertEquals(0, exit[0], built);
        final long bytes = size(bundle);
        assertTrue(bytes <= LIMIT_BYTES, "the bundle has " + bytes + " bytes, over 60 MiB:\n" + built);
        assertTrue(Files.isExecutable(bundle.resolve("java/bin/java")), "a Java runtime in the bundle");
        assertTrue(Files.isRegularFile(bundle.resolve("lib/libjlg_cuda.so")));
        assertTrue(Files.isRegularFile(bundle.resolve("data/fashion-mnist/model.onnx")));

        // PATH without a JDK or Maven: the bundle's runtime is the only Java.
        final String output = run(Map.of("PATH", "/usr/bin:/bin", "OUT", bundle.resolve("out").toString()),
            bundle.getParent(), List.of(bundle.resolve("run").toString()), exit);
        assertEquals(2, exit[0], output);
        assertTrue(output.contains("run:   libcuda.so.1: MISSING"), output);
        assertTrue(output.contains("JLoadGen "), "--version from the bundle's runtime:\n" + output);
        assertTrue(output.contains("gpu-check: CUDA probe, cublas backend: the NVIDIA driver library libcuda.so.1 "
            + "was not found"), output);
        assertTrue(output.contains("run: no usable GPU stack here: missing libcuda.so.1"), output);
        assertTrue(output.indexOf("JLoadGen ") < output.indexOf("run: no usable GPU stack"), output);

        // What travels to a lent machine: the archive, unpacked and run there by device-call.
        final Path archive = root.resolve("system-tests/target/device-bundle.tar.xz");
        assertTrue(Files.size(archive) <= LIMIT_BYTES / 3 * 2, "the archive has " + Files.size(archive) + " bytes");
        final Path callOut = bundle.resolveSibling("device-call-out");
        final String called = run(Map.of("PATH", "/usr/bin:/bin"), root, List.of("bash",
            root.resolve("sut-tensorrt/device-call").toString(), callOut.toString(), archive.toString()), exit);
        assertEquals(2, exit[0], called);
        assertTrue(called.contains("run: no usable GPU stack here: missing libcuda.so.1"), called);
        assertTrue(called.contains("device-call: exit 2"), called);
        final String missing = run(Map.of(), root, List.of("bash", root.resolve("sut-tensorrt/device-call").toString(),
            callOut.toString(), bundle.resolveSibling("none.tar.xz").toString()), exit);
        assertEquals(2, exit[0], missing);
        assertTrue(missing.contains("device-call: no bundle archive at "), missing);
    }
}
