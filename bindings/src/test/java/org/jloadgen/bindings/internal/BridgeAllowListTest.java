package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import org.jloadgen.bindings.OfficialBridgeBuild;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bridge's allow-list ({@code src/main/jextract/bridge-includes.txt}) agrees with {@code jlg_bridge.h}, with
 * {@link JlgBridge} and its struct and callback classes, and with what {@code libjlg_loadgen_bridge.so} exports:
 * exactly those functions (LoadGen's and libstdc++'s symbols stay hidden).
 */
class BridgeAllowListTest
{
    private static final Path INCLUDES = Path.of("src", "main", "jextract", "bridge-includes.txt");
    private static final Path HEADER = Path.of("..", "native", "src", "main", "c", "include", "jlg_bridge.h");

    @Test
    void shouldBindExactlyTheAllowListedFunctions() throws IOException
    {
        final List<String> allowed = listed("--include-function");
        assertEquals(allowed, JlgBridge.FUNCTIONS);
        assertEquals(new TreeSet<>(allowed), AllowLists.wrappers(JlgBridge.class));
    }

    @Test
    void shouldDeclareEveryAllowListedFunctionInTheHeader() throws IOException
    {
        assertEquals(AllowLists.declaredFunctions(HEADER), new TreeSet<>(listed("--include-function")),
            "functions declared in " + HEADER);
    }

    @Test
    void shouldHaveAClassForEveryAllowListedStructAndCallback() throws Exception
    {
        for (final String struct : listed("--include-struct"))
        {
            final Class<?> type = Class.forName(JlgBridge.class.getPackageName() + "." + struct);
            assertEquals(struct, ((java.lang.foreign.GroupLayout)type.getMethod("layout").invoke(null)).name()
                .orElseThrow());
        }
        for (final String typedef : listed("--include-typedef"))
        {
            final Class<?> type = Class.forName(JlgBridge.class.getPackageName() + "." + typedef);
            assertTrue(type.getMethod("descriptor") != null && Class.forName(type.getName() + "$Function")
                .isInterface(), typedef);
        }
    }

    @Test
    void shouldExportExactlyTheAllowListedFunctions() throws Exception
    {
        final Path library = OfficialBridgeBuild.openLibrary();
        final Process nm = new ProcessBuilder("nm", "-D", "--defined-only", library.toString())
            .redirectErrorStream(true).start();
        final String output = new String(nm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(nm.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, nm.exitValue(), output);
        final Set<String> exported = new TreeSet<>();
        for (final String line : output.strip().split("\n"))
        {
            final String[] words = line.strip().split("\\s+");
            exported.add(words[words.length - 1]);
        }
        assertEquals(new TreeSet<>(listed("--include-function")), exported, "nm -D --defined-only " + library);
        for (final String function : JlgBridge.FUNCTIONS)
        {
            assertTrue(BridgeLibraryLoader.find(function).isPresent(), function);
        }
    }

    private static List<String> listed(final String option) throws IOException
    {
        return AllowLists.listed(INCLUDES, option);
    }
}
