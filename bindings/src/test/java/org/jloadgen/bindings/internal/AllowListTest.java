package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

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
        assertEquals(new TreeSet<>(allowed), AllowLists.wrappers(JlgNative.class));
    }

    @Test
    void shouldFindEveryAllowListedFunctionInTheHeaderAndTheLibrary() throws IOException
    {
        assertEquals(AllowLists.declaredFunctions(HEADER), new TreeSet<>(listed("--include-function")),
            "functions declared in " + HEADER);

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
        assertEquals(new TreeSet<>(allowed), AllowLists.wrappers(JlgCuda.class));
        assertEquals(AllowLists.declaredFunctions(CUDA_HEADER), new TreeSet<>(allowed),
            "functions declared in " + CUDA_HEADER);
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
        return AllowLists.listed(includes, option);
    }
}
