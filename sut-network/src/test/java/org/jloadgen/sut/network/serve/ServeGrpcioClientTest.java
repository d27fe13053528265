package org.jloadgen.sut.network.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.sut.network.ServeProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jloadgen serve} driven by a client the project did not write: Debian's python3-grpcio with message classes
 * that protoc (Debian's protobuf-compiler) generates from the project's proto ({@code src/test/python/
 * kserve_conformance.py}). Valid requests are answered; each malformed one ({@code [1,64]} carrying 32 bytes,
 * {@code [1,-5]}, {@code [0,64]}, a wrong datatype, input, model, no raw contents, a request over
 * {@code --max-message-mb}) gets the protocol's status code and the right reason; the server stays up and answers
 * again; the oversized request is one line on the server's console, never a stack trace. Skipped, with the reason,
 * where python3-grpcio, python3-protobuf or protobuf-compiler is not installed.
 */
class ServeGrpcioClientTest
{
    /** Debian's interpreter, which Debian's python3-grpcio installs into. */
    static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path dir;

    @BeforeAll
    static void needsDebianGrpcio() throws InterruptedException
    {
        Assumptions.assumeTrue(Files.isExecutable(Path.of(PYTHON)), "no " + PYTHON + ": apt-get install python3");
        Assumptions.assumeTrue(exitCode(PYTHON, "-c", "import grpc, google.protobuf") == 0,
            "python3-grpcio or python3-protobuf is not installed (apt-get install python3-grpcio python3-protobuf)");
        Assumptions.assumeTrue(exitCode("protoc", "--version") == 0,
            "protoc is not installed (apt-get install protobuf-compiler)");
    }

    private static int exitCode(final String... command) throws InterruptedException
    {
        try
        {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS))
            {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        }
        catch (final IOException ex)
        {
            return -1;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "synthetic"})
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldAnswerEveryMalformedRequestWithItsStatusAndStayUp(final String sut) throws Exception
    {
        final int maxMessageMb = 1;
        try (ServeProcess node = ServeProcess.start(dir, "node-" + sut, "--sut", sut, "--max-message-mb",
            Integer.toString(maxMessageMb)))
        {
            final Path proto = Path.of("src", "main", "proto").toAbsolutePath();
            final Path script = Path.of("src", "test", "python", "kserve_conformance.py").toAbsolutePath();
            final Path output = dir.resolve("client-" + sut + ".txt");
            final Process client = new ProcessBuilder(List.of(PYTHON, script.toString(), proto.toString(),
                dir.resolve("generated-" + sut).toString(), node.endpoint(), sut, Integer.toString(maxMessageMb << 20)))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
            assertTrue(client.waitFor(120, TimeUnit.SECONDS), "the Python client did not finish");
            final String printed = Files.readString(output, StandardCharsets.UTF_8);
            assertEquals(0, client.exitValue(), printed + "\nserver:\n" + node.log());
            assertTrue(printed.contains("14 passed, 0 failed"), printed);
            assertTrue(printed.contains("[1,64] carrying 32 bytes: INVALID_ARGUMENT: input 'input' UINT8 [1,64] "
                + "needs 64 bytes (64 elements of 1 B), raw_input_contents has 32"), printed);

            final String log = node.log();
            assertTrue(log.contains("bind   loopback only (127.0.0.1)"), log);
            final long refusals = log.lines().filter(l -> l.startsWith("jloadgen serve: refused a request: "
                + "RESOURCE_EXHAUSTED: gRPC message exceeds maximum size 1048576")).count();
            assertEquals(1, refusals, log);
            assertFalse(log.contains("\tat ") || log.contains("Exception"), log);
            assertEquals(ServeProcess.EXIT_SIGTERM, node.terminate(), node::log);
        }
    }
}
