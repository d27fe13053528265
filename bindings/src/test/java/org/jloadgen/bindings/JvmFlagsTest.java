package org.jloadgen.bindings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JVM flags are written three times, once per world: {@link JvmFlags} for Java, {@code JLOADGEN_JVM_FLAGS}
 * in {@code scripts/env.sh} for the shell, {@code jloadgen.nativeAccess} in the root POM for Maven. They must be
 * the same flags.
 */
class JvmFlagsTest
{
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shouldPassTheSameFlagsFromTheShellScripts() throws IOException
    {
        assertEquals(String.join(" ", JvmFlags.REQUIRED),
            value(ROOT.resolve("scripts/env.sh"), Pattern.compile("(?m)^JLOADGEN_JVM_FLAGS=\"([^\"]*)\"$")));
    }

    @Test
    void shouldPassTheSameFlagsFromMaven() throws IOException
    {
        assertEquals(String.join(" ", JvmFlags.REQUIRED),
            value(ROOT.resolve("pom.xml"), Pattern.compile("<jloadgen.nativeAccess>([^<]*)</jloadgen.nativeAccess>")));
    }

    @Test
    void shouldRunThisTestWithTheFlags()
    {
        // Surefire's argLine is ${jloadgen.nativeAccess}: this JVM has native access for unnamed modules.
        assertTrue(JvmFlagsTest.class.getModule().isNativeAccessEnabled());
    }

    private static String value(final Path file, final Pattern pattern) throws IOException
    {
        final Matcher matcher = pattern.matcher(Files.readString(file, StandardCharsets.UTF_8));
        assertTrue(matcher.find(), "no " + pattern + " in " + file);
        return matcher.group(1);
    }
}
