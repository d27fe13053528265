package org.jloadgen.bindings.internal;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every struct described in this package has the size, alignment and field offsets and sizes the C compiler
 * gives it: compared with the output of {@code jlg_layout_probe}, built from the same header by the native
 * module's CMake build.
 */
class StructLayoutTest
{
    @Test
    void shouldMatchTheCompilerForEveryStruct() throws Exception
    {
        final Map<String, List<String>> probe = runProbe();
        final Map<String, GroupLayout> java = structsOfThisPackage();

        assertFalse(java.isEmpty(), "no struct classes found");
        assertEquals(probe.keySet(), java.keySet(), "structs described in Java and printed by the probe");
        for (final Map.Entry<String, GroupLayout> entry : java.entrySet())
        {
            final String name = entry.getKey();
            final GroupLayout layout = entry.getValue();
            final List<String> lines = probe.get(name);
            final String[] struct = lines.getFirst().split(" ");
            assertEquals(Long.parseLong(struct[2]), layout.byteSize(), name + " sizeof");
            assertEquals(Long.parseLong(struct[3]), layout.byteAlignment(), name + " alignof");

            final List<String> javaFields = new ArrayList<>();
            for (final MemoryLayout member : layout.memberLayouts())
            {
                member.name().ifPresent(javaFields::add);
            }
            final List<String> cFields = new ArrayList<>();
            for (final String line : lines.subList(1, lines.size()))
            {
                final String[] field = line.split(" ");
                final String fieldName = field[2];
                cFields.add(fieldName);
                final MemoryLayout.PathElement path = MemoryLayout.PathElement.groupElement(fieldName);
                assertEquals(Long.parseLong(field[3]), layout.byteOffset(path), name + "." + fieldName + " offsetof");
                assertEquals(Long.parseLong(field[4]), layout.select(path).byteSize(),
                    name + "." + fieldName + " sizeof");
                assertEquals(Long.parseLong(field[3]), offsetConstant(name, fieldName),
                    name + "." + fieldName + "$offset()");
            }
            assertEquals(cFields, javaFields, name + " fields in order");
        }
    }

    static Path nativeBuildDir()
    {
        final String configured = System.getProperty("jloadgen.native.build.dir");
        return configured != null ? Path.of(configured) : Path.of("..", "native", "target", "native");
    }

    private static Map<String, List<String>> runProbe() throws IOException, InterruptedException
    {
        final Path probe = nativeBuildDir().resolve("bin").resolve("jlg_layout_probe");
        assertTrue(Files.isExecutable(probe), "layout probe not built: " + probe);
        final Process process = new ProcessBuilder(probe.toString()).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "probe did not finish");
        assertEquals(0, process.exitValue(), output);

        final Map<String, List<String>> byStruct = new TreeMap<>();
        for (final String line : output.strip().split("\n"))
        {
            final String[] words = line.split(" ");
            final String struct = words[1];
            if ("struct".equals(words[0]))
            {
                assertEquals(4, words.length, line);
                assertTrue(byStruct.put(struct, new ArrayList<>(List.of(line))) == null, "struct twice: " + line);
            }
            else
            {
                assertEquals("field", words[0], line);
                assertEquals(5, words.length, line);
                assertTrue(byStruct.containsKey(struct), "field before its struct: " + line);
                byStruct.get(struct).add(line);
            }
        }
        return byStruct;
    }

    /** Finds the struct classes by scanning this package for classes with a static {@code GroupLayout layout()}. */
    private static Map<String, GroupLayout> structsOfThisPackage() throws Exception
    {
        final Path dir = packageDirectory();
        final Map<String, GroupLayout> structs = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : files.toList())
            {
                final String fileName = file.getFileName().toString();
                if (!fileName.endsWith(".class") || fileName.contains("$"))
                {
                    continue;
                }
                final Class<?> type = Class.forName(
                    JlgNative.class.getPackageName() + "." + fileName.substring(0, fileName.length() - 6));
                for (final Method method : type.getDeclaredMethods())
                {
                    if ("layout".equals(method.getName()) && method.getParameterCount() == 0 &&
                        Modifier.isStatic(method.getModifiers()) && method.getReturnType() == GroupLayout.class)
                    {
                        final GroupLayout layout = (GroupLayout)method.invoke(null);
                        structs.put(layout.name().orElseThrow(), layout);
                    }
                }
            }
        }
        return structs;
    }

    private static Path packageDirectory() throws URISyntaxException
    {
        return Path.of(JlgNative.class.getResource("JlgNative.class").toURI()).getParent();
    }

    private static long offsetConstant(final String struct, final String field) throws Exception
    {
        final Class<?> type = Class.forName(JlgNative.class.getPackageName() + "." + struct);
        return (long)type.getMethod(field + "$offset").invoke(null);
    }
}
