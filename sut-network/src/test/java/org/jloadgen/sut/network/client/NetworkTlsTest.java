package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jloadgen.sut.network.ServeProcess;
import org.jloadgen.testing.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node serving over TLS with a certificate the test makes (the JDK's keytool): a client that trusts it runs, a
 * plaintext client is refused before the run with a message naming the node.
 */
class NetworkTlsTest
{
    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    Path dir;

    private void keytool(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        final Process p = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("keytool.log").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, () -> String.join(" ", command) + ": "
            + read(dir.resolve("keytool.log")));
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldServeAndLoadANodeOverTls() throws Exception
    {
        final Path keystore = dir.resolve("node.p12");
        keytool("-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore",
            keystore.toString(), "-storepass", "changeit", "-keypass", "changeit");
        final Path cert = dir.resolve("node.pem");
        keytool("-exportcert", "-rfc", "-alias", "node", "-keystore", keystore.toString(), "-storepass", "changeit",
            "-file", cert.toString());
        final KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keystore.toFile()))
        {
            ks.load(in, PASSWORD);
        }
        final PrivateKey key = (PrivateKey)ks.getKey("node", PASSWORD);
        final Path keyFile = dir.resolve("node.key");
        Files.writeString(keyFile, "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
            + "\n-----END PRIVATE KEY-----\n");

        try (ServeProcess node = ServeProcess.start(dir.resolve("node"), "node-tls", "--sut", "null", "--tls-cert",
            cert.toString(), "--tls-key", keyFile.toString()))
        {
            assertTrue(node.log().contains("(TLS)"), node::log);
            final CliRun trusted = CliRun.of("run", "--sut", "network", "--sut-opt", "endpoints=" + node.endpoint(),
                "--sut-opt", "model=null", "--sut-opt", "tls=true", "--sut-opt", "tls-ca=" + cert,
                "--sut-opt", "tls-authority=localhost", "--scenario", "Offline", "--mode", "AccuracyOnly",
                "--completion-wait", "SLEEP", "--out", dir.resolve("tls").toString(), "--quiet");
            assertEquals(0, trusted.exitCode(), trusted::toString);
            assertTrue(trusted.err().contains("node 'node-tls' (" + node.endpoint() + "): 1024 sent, 1024 answered, "
                + "0 failed"), trusted::toString);

            final CliRun plaintext = CliRun.of("run", "--sut", "network", "--sut-opt", "endpoints=" + node.endpoint(),
                "--sut-opt", "model=null", "--sut-opt", "connect-timeout-ms=300", "--scenario", "Offline",
                "--out", dir.resolve("plain").toString());
            assertEquals(2, plaintext.exitCode(), plaintext::toString);
            assertTrue(plaintext.err().contains("node " + node.endpoint() + " is not reachable within 300 ms"),
                plaintext::toString);
        }
    }
}
