package org.jloadgen.cli.api;

import java.nio.file.Path;
import java.util.List;

import org.jloadgen.bindings.JvmFlags;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChildJvmCommandTest
{
    @Test
    void shouldPutTheRequiredFlagsFirstAndTheMainClassAfterTheClassPath()
    {
        final List<String> command = new ChildJvmCommand(Path.of("/jdk/bin/java"), "a.jar:b.jar")
            .command(List.of("-Xmx1g", "-Dx=y"), "org.example.Main", List.of("run", "--sut", "null"));
        assertEquals(List.of("/jdk/bin/java", JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE, "-Xmx1g", "-Dx=y",
            "@" + ChildJvmCommand.classPathFile("a.jar:b.jar"), "org.example.Main", "run", "--sut", "null"), command);
    }

    @Test
    void shouldLaunchLikeThisJvm()
    {
        final ChildJvmCommand thisJvm = ChildJvmCommand.likeThisJvm();
        assertEquals(Path.of(System.getProperty("java.home"), "bin", "java"), thisJvm.javaBinary());
        assertEquals(System.getProperty("java.class.path"), thisJvm.classPath());
    }
}
