package org.jloadgen.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What JLoadGen reports in the version records LoadGen writes first (spec §8.2 item 1; loadgen/version.cc,
 * LogLoadgenVersion): its own version, build time, and a SHA-1 per jar of the engine, in place of LoadGen's
 * per-source-file hashes. The submission checker does not read these; people do.
 */
public final class VersionInfo
{
    /** LoadGen version whose behaviour JLoadGen reproduces. */
    public static final String LOADGEN_COMPATIBLE_VERSION = "6.0.17";

    private static final Properties PROPERTIES = load();

    private VersionInfo()
    {
    }

    private static Properties load()
    {
        final Properties p = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream("/org/jloadgen/version.properties"))
        {
            if (in != null)
            {
                p.load(in);
            }
        }
        catch (final IOException ex)
        {
            // Version records then say NA, as LoadGen's do when it was built outside git.
        }
        return p;
    }

    /**
     * @return e.g. {@code "JLoadGen 0.1.0-SNAPSHOT (LoadGen 6.0.17 compatible)"}.
     */
    public static String version()
    {
        return "JLoadGen " + PROPERTIES.getProperty("version", "NA") + " (LoadGen " + LOADGEN_COMPATIBLE_VERSION
            + " compatible)";
    }

    private static final java.time.format.DateTimeFormatter LOADGEN_BUILD_DATE =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS");

    /**
     * @return build time in UTC as LoadGen prints it ({@code YYYY-MM-DDTHH:MM:SS.ffffff}), or {@code NA}.
     */
    public static String buildDateUtc()
    {
        return buildDate(java.time.ZoneOffset.UTC);
    }

    /**
     * @return build time in the local time zone, or {@code NA}.
     */
    public static String buildDateLocal()
    {
        return buildDate(java.time.ZoneId.systemDefault());
    }

    private static String buildDate(final java.time.ZoneId zone)
    {
        try
        {
            final java.time.Instant built = java.time.Instant.parse(PROPERTIES.getProperty("build.timestamp", ""));
            return LOADGEN_BUILD_DATE.format(built.atZone(zone));
        }
        catch (final java.time.format.DateTimeParseException ex)
        {
            return "NA";
        }
    }

    /**
     * @return SHA-1 of each JLoadGen jar or class directory on the class path, keyed {@code "/<name>"}.
     */
    public static Map<String, String> codeSha1()
    {
        final Map<String, String> hashes = new TreeMap<>();
        final String classPath = System.getProperty("java.class.path", "");
        for (final String entry : classPath.split(java.io.File.pathSeparator))
        {
            final Path p = Path.of(entry);
            final String name = p.getFileName() == null ? entry : p.getFileName().toString();
            if (name.startsWith("jloadgen-") && name.endsWith(".jar") && Files.isRegularFile(p))
            {
                hashes.put("/" + name, cachedSha1(p));
            }
        }
        return hashes;
    }

    /**
     * The SHA-1 of a jar, from {@code <jar>.sha1} beside it when that names the jar's present size and modification
     * time, else computed and written there for the next run (where the folder is writable): hashing the 8 MB of
     * JLoadGen's jars took about 90 ms of every process's start, in code the JIT had not compiled yet.
     *
     * @param jar the jar.
     * @return its SHA-1 in hex, or {@code NA} if it cannot be read.
     */
    static String cachedSha1(final Path jar)
    {
        final Path cache = jar.resolveSibling(jar.getFileName() + ".sha1");
        final String stamp;
        try
        {
            stamp = Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis() + " ";
            if (Files.isRegularFile(cache))
            {
                final String cached = Files.readString(cache);
                if (cached.startsWith(stamp) && cached.length() == stamp.length() + SHA1_HEX_CHARS)
                {
                    return cached.substring(stamp.length());
                }
            }
        }
        catch (final IOException ex)
        {
            return sha1(jar);
        }
        final String sha1 = sha1(jar);
        if (!"NA".equals(sha1))
        {
            try
            {
                final Path tmp = Files.createTempFile(cache.getParent(), cache.getFileName().toString(), ".tmp");
                Files.writeString(tmp, stamp + sha1);
                Files.move(tmp, cache, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            catch (final IOException | UnsupportedOperationException ex)
            {
                // A read-only installation: the hash is computed again next time.
            }
        }
        return sha1;
    }

    private static final int SHA1_HEX_CHARS = 40;

    static String sha1(final Path file)
    {
        try
        {
            final MessageDigest digest = MessageDigest.getInstance("SHA-1");
            return HexFormat.of().formatHex(digest.digest(Files.readAllBytes(file)));
        }
        catch (final IOException | NoSuchAlgorithmException ex)
        {
            return "NA";
        }
    }
}
