package org.jloadgen.concurrent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.bindings.ThreadScheduling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitCompilerThreadsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldKnowTheCompilerThreadsByTheNamesTheKernelKeeps()
    {
        assertTrue(JitCompilerThreads.isCompilerThread("C2 CompilerThre"));
        assertTrue(JitCompilerThreads.isCompilerThread("C1 CompilerThre"));
        assertTrue(JitCompilerThreads.isCompilerThread("JVMCI CompilerT"));
        assertTrue(JitCompilerThreads.isCompilerThread("JVMCI-native Co"));
        assertFalse(JitCompilerThreads.isCompilerThread("VM Thread"));
        assertFalse(JitCompilerThreads.isCompilerThread("C2 CodeCache Sw"));
        assertFalse(JitCompilerThreads.isCompilerThread("NullWorkerSUT-w"));
    }

    @Test
    void shouldFindThemInATaskFolder() throws IOException
    {
        task("101", "java");
        task("117", "C2 CompilerThre");
        task("118", "C1 CompilerThre");
        task("131", "jloadgen-latenc");
        Files.createDirectories(dir.resolve("140")); // a thread that ended while the folder was listed: no comm
        assertEquals(List.of(117L, 118L), JitCompilerThreads.find(dir));
    }

    @Test
    void shouldReadThePolicyFieldAfterANameWithSpacesAndParentheses()
    {
        final StringBuilder stat = new StringBuilder("4242 (C2 Comp (x) 1) S");
        for (int field = 4; field <= 52; field++)
        {
            stat.append(' ').append(field == 41 ? 5 : field);
        }
        assertEquals(5, JitCompilerThreads.policyField(stat.append('\n').toString()));
    }

    @Test
    void shouldLowerThisJvmsCompilerThreadsAndPutThemBack()
    {
        assertFalse(JitCompilerThreads.find().isEmpty(), "a HotSpot JVM runs at least one compiler thread");
        final JitCompilerThreads.Lowered lowered = JitCompilerThreads.lower();
        // The JVM may start or end a compiler thread between two listings: what was lowered is checked.
        final List<Long> found = lowered.ids();
        try
        {
            assertFalse(found.isEmpty());
            for (final long tid : found)
            {
                assertEquals(ThreadScheduling.SCHED_IDLE, ThreadScheduling.policyOf(tid), "thread " + tid);
            }
        }
        finally
        {
            lowered.close();
        }
        if (JitCompilerThreads.canRaiseBack())
        {
            for (final long tid : found)
            {
                assertEquals(ThreadScheduling.SCHED_OTHER, ThreadScheduling.policyOf(tid), "thread " + tid);
            }
        }
    }

    private void task(final String tid, final String comm) throws IOException
    {
        Files.createDirectories(dir.resolve(tid));
        Files.writeString(dir.resolve(tid).resolve("comm"), comm + "\n", StandardCharsets.UTF_8);
    }
}
