package org.jloadgen.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VersionInfoSha1Test
{
    @TempDir
    Path dir;

    @Test
    void shouldHashAJarOnceAndAgainWhenItChanges() throws IOException
    {
        final Path jar = dir.resolve("jloadgen-x.jar");
        Files.writeString(jar, "abc");
        // SHA-1("abc"), the FIPS 180 example.
        final String abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
        assertEquals(abc, VersionInfo.cachedSha1(jar));
        final Path cache = dir.resolve("jloadgen-x.jar.sha1");
        assertTrue(Files.readString(cache).endsWith(" " + abc), Files.readString(cache));

        // A cache naming the jar's size and time is believed (the hash is not recomputed)...
        final String stamp = Files.readString(cache).substring(0, Files.readString(cache).length() - abc.length());
        Files.writeString(cache, stamp + "0".repeat(40));
        assertEquals("0".repeat(40), VersionInfo.cachedSha1(jar));

        // ...and one that does not is replaced.
        Files.writeString(jar, "abcd");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 1_000));
        assertEquals("81fe8bfe87576c3ecb22426f8e57847382917acf", VersionInfo.cachedSha1(jar));
        assertEquals(VersionInfo.sha1(jar), VersionInfo.cachedSha1(jar));
    }

    @Test
    void shouldSayNaForAJarThatCannotBeRead()
    {
        assertEquals("NA", VersionInfo.cachedSha1(dir.resolve("jloadgen-missing.jar")));
    }
}
