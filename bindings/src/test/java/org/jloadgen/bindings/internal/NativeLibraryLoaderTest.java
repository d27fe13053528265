package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeLibraryLoaderTest
{
    private static final Path BUILT = StructLayoutTest.nativeBuildDir().resolve("lib").resolve("libjlg_native.so");

    @TempDir
    Path tempDir;

    @Test
    void shouldLoadThisBuildsLibraryForTheTests()
    {
        final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
        assertTrue(result.isLoaded(), result.failure());
        assertNull(result.failure());
        assertTrue(result.source().startsWith("build output"), result.source());
    }

    @Test
    void shouldLoadFromThePropertyGivenAFileOrItsDirectory()
    {
        final NativeLibraryLoader.Result file = NativeLibraryLoader.load(BUILT.toString(), List.of(), null);
        assertTrue(file.isLoaded(), file.failure());
        assertEquals(BUILT, file.path());

        final NativeLibraryLoader.Result dir = NativeLibraryLoader.load(BUILT.getParent().toString(), List.of(), null);
        assertTrue(dir.isLoaded(), dir.failure());
        assertTrue(dir.source().startsWith("system property jloadgen.native.path="), dir.source());
    }

    @Test
    void shouldNotFallThroughWhenThePropertyIsWrong()
    {
        final Path missing = tempDir.resolve("nowhere/libjlg_native.so");
        final NativeLibraryLoader.Result result =
            NativeLibraryLoader.load(missing.toString(), List.of(BUILT), getClass().getClassLoader());

        assertFalse(result.isLoaded());
        assertTrue(result.failure().contains("1. system property jloadgen.native.path=" + missing), result.failure());
        assertTrue(result.failure().contains(missing + ": no such file"), result.failure());
        assertFalse(result.failure().contains("2."), "the property is the only place looked at: " + result.failure());
        assertTrue(result.failure().contains("Fix or unset -Djloadgen.native.path"), result.failure());
    }

    @Test
    void shouldListEveryPlaceLookedAtWhenNothingIsFound()
    {
        final Path first = tempDir.resolve("a/native/target/native/lib/libjlg_native.so");
        final Path second = tempDir.resolve("b/native/target/native/lib/libjlg_native.so");
        final ClassLoader empty = new URLClassLoader(new URL[0], null);

        final NativeLibraryLoader.Result result = NativeLibraryLoader.load(null, List.of(first, second), empty);

        assertFalse(result.isLoaded());
        final String message = result.failure();
        assertTrue(message.startsWith("libjlg_native.so could not be loaded (platform linux-"), message);
        assertTrue(message.contains("1. system property jloadgen.native.path: not set"), message);
        assertTrue(message.contains("2. build output " + first + ": no such file"), message);
        assertTrue(message.contains("3. build output " + second + ": no such file"), message);
        assertTrue(message.contains("4. classpath resource " + NativeLibraryLoader.resourcePath() + ": not found"),
            message);
        assertTrue(message.contains("mvn -pl bindings -am package"), message);
    }

    @Test
    void shouldExtractTheCopyPackagedAsAResource() throws IOException
    {
        final Path resource = tempDir.resolve("jar" + NativeLibraryLoader.resourcePath());
        Files.createDirectories(resource.getParent());
        Files.copy(BUILT, resource);
        try (URLClassLoader jar = new URLClassLoader(new URL[] {tempDir.resolve("jar").toUri().toURL()}, null))
        {
            final NativeLibraryLoader.Result result =
                NativeLibraryLoader.load(null, List.of(tempDir.resolve("missing.so")), jar);

            assertTrue(result.isLoaded(), result.failure());
            assertTrue(result.source().startsWith("classpath resource " + NativeLibraryLoader.resourcePath() +
                " extracted to "), result.source());
            assertTrue(result.lookup().find("jlg_mlock").isPresent());
            assertEquals(Files.size(BUILT), Files.size(result.path()));
        }
    }

    @Test
    void shouldRejectAFileThatIsNotASharedLibrary() throws IOException
    {
        // An executable (the layout probe) is a well-formed ELF file that dlopen refuses; a text file would do as
        // well but makes HotSpot print a stack-guard warning while it inspects the file.
        final Path executable = Files.copy(StructLayoutTest.nativeBuildDir().resolve("bin").resolve("jlg_layout_probe"),
            tempDir.resolve("libjlg_native.so"));

        final NativeLibraryLoader.Result result = NativeLibraryLoader.load(null, List.of(executable), null);

        assertFalse(result.isLoaded());
        assertTrue(result.failure().contains("build output " + executable + ": cannot be opened ("), result.failure());
    }

    @Test
    void shouldRejectAnotherLibraryThatLacksTheProbeSymbol()
    {
        final Path other = Path.of(System.getProperty("java.home"), "lib", "libjli.so");

        final NativeLibraryLoader.Result result = NativeLibraryLoader.load(other.toString(), List.of(), null);

        assertFalse(result.isLoaded());
        assertTrue(result.failure().contains(other + ": opened, but it has no symbol jlg_page_size"),
            result.failure());
    }
}
