package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one allow-list ({@code src/main/jextract/includes.txt}) agrees with the header, the library's exported
 * symbols and the hand-written {@link JlgNative}.
 */
class AllowListTest
{
    private static final Path INCLUDES = Path.of("src", "main", "jextract", "includes.txt");
    private static final Path CRITICAL = Path.of("src", "main", "jextract", "critical.txt");
    private static final Path HEADER = Path.of("..", "native", "src", "main", "c", "include", "jlg_native.h");
    private static final Path CUDA_INCLUDES = Path.of("src", "main", "jextract", "includes-cuda.txt");
    private static final Path CUDA_HEADER = Path.of("..", "native", "src", "main", "c", "include", "jlg_cuda.h");

    @Test
    void shouldBindExactlyTheAllowListedFunctions() throws IOException
    {
        final List<String> allowed = listed("--include-function");
        assertEquals(allowed, JlgNative.FUNCTIONS);

        final Set<String> wrappers = new TreeSet<>();
        for (final Method method : JlgNative.class.getDeclaredMethods())
        {
            if (Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("jlg_") &&
                !method.getName().contains("$"))
            {
                wrappers.add(method.getName());
            }
        }
        assertEquals(new TreeSet<>(allowed), wrappers);
    }

    @Test
    void shouldFindEveryAllowListedFunctionInTheHeaderAndTheLibrary() throws IOException
    {
        final String header = Files.readString(HEADER, StandardCharsets.UTF_8);
        final Set<String> declared = new TreeSet<>();
        final Matcher matcher = Pattern.compile("\\b(jlg_[a-z_0-9]+)\\(").matcher(header);
        while (matcher.find())
        {
            declared.add(matcher.group(1));
        }
        assertEquals(declared, new TreeSet<>(listed("--include-function")), "functions declared in " + HEADER);

        final NativeLibraryLoader.Result result = NativeLibraryLoader.result();
        assertTrue(result.isLoaded(), result.failure());
        for (final String function : JlgNative.FUNCTIONS)
        {
            assertTrue(result.lookup().find(function).isPresent(), function + " exported by " + result.path());
        }
    }

    @Test
    void shouldMarkOnlyBoundFunctionsCritical() throws IOException
    {
        final List<String> critical = new ArrayList<>();
        for (final String line : Files.readAllLines(CRITICAL, StandardCharsets.UTF_8))
        {
            if (!line.isBlank())
            {
                critical.add(line.strip());
            }
        }
        assertTrue(JlgNative.FUNCTIONS.containsAll(critical), critical.toString());
        assertTrue(!critical.contains("jlg_mlock") && !critical.contains("jlg_mbind_node") &&
            !critical.contains("jlg_map_anonymous"), "calls that may fault in or move memory must not be critical");
    }

    @Test
    void shouldBindExactlyTheAllowListedCudaFunctionsAndFindThemInTheHeader() throws IOException
    {
        final List<String> allowed = listed(CUDA_INCLUDES, "--include-function");
        assertEquals(allowed, JlgCuda.FUNCTIONS);
        final Set<String> wrappers = new TreeSet<>();
        for (final Method method : JlgCuda.class.getDeclaredMethods())
        {
            if (Modifier.isPublic(method.getModifiers()) && method.getName().startsWith("jlg_")
                && !method.getName().contains("$"))
            {
                wrappers.add(method.getName());
            }
        }
        assertEquals(new TreeSet<>(allowed), wrappers);
        final String header = Files.readString(CUDA_HEADER, StandardCharsets.UTF_8);
        final Set<String> declared = new TreeSet<>();
        final Matcher matcher = Pattern.compile("\\b(jlg_[a-z_0-9]+)\\(").matcher(header);
        while (matcher.find())
        {
            declared.add(matcher.group(1));
        }
        assertEquals(declared, new TreeSet<>(allowed), "functions declared in " + CUDA_HEADER);
        final NativeLibraryLoader.Result result = NativeLibraryLoader.cudaResult();
        if (result.isLoaded())
        {
            for (final String function : JlgCuda.FUNCTIONS)
            {
                assertTrue(result.lookup().find(function).isPresent(), function + " exported by " + result.path());
            }
        }
    }

    @Test
    void shouldListEveryStructOnceInTheAllowList() throws IOException
    {
        assertEquals(List.of("rlimit", "jlg_cpu_node"), listed("--include-struct"));
    }

    private static List<String> listed(final String option) throws IOException
    {
        return listed(INCLUDES, option);
    }

    private static List<String> listed(final Path includes, final String option) throws IOException
    {
        final List<String> names = new ArrayList<>();
        for (final String line : Files.readAllLines(includes, StandardCharsets.UTF_8))
        {
            final String[] words = line.strip().split("\\s+");
            if (words.length == 2 && option.equals(words[0]))
            {
                names.add(words[1]);
            }
        }
        return names;
    }
}
