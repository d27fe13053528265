package org.jloadgen.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChildJvmStartupCacheTest
{
    private static final String PROPERTY = "jloadgen.aotCache";

    @TempDir
    Path dir;

    @Test
    void shouldStartChildrenWithTheLaunchersStartupCache() throws IOException
    {
        final String before = System.getProperty(PROPERTY);
        try
        {
            final Path cache = Files.writeString(dir.resolve("jloadgen.aot"), "cache");
            System.setProperty(PROPERTY, cache.toString());
            assertEquals(List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off,cds=off", "-XX:+UseSerialGC"),
                ChildJvm.withStartupCache(List.of("-XX:+UseSerialGC")));
            assertEquals(List.of("-XX:AOTCache=" + cache, "-Xlog:aot=off,cds=off", "-XX:+UseSerialGC"),
                ChildJvm.likeThisJvm(List.of("-XX:+UseSerialGC"), 1_000).jvmFlags());

            System.setProperty(PROPERTY, dir.resolve("gone.aot").toString());
            assertEquals(List.of("-XX:+UseSerialGC"), ChildJvm.withStartupCache(List.of("-XX:+UseSerialGC")),
                "a cache that is not there is not passed on");
            System.clearProperty(PROPERTY);
            assertEquals(List.of("-XX:+UseSerialGC"), ChildJvm.withStartupCache(List.of("-XX:+UseSerialGC")));
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty(PROPERTY);
            }
            else
            {
                System.setProperty(PROPERTY, before);
            }
        }
    }
}
