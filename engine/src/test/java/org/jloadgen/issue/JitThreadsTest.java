package org.jloadgen.issue;

import java.util.List;

import org.jloadgen.api.JitThreadPolicy;
import org.jloadgen.api.TestScenario;
import org.jloadgen.concurrent.JitCompilerThreads;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitThreadsTest
{
    @Test
    void shouldLowerThemForTheLatencyBoundScenariosOnlyWhereTheyCanBePutBack()
    {
        final boolean restorable = JitCompilerThreads.canRaiseBack();
        for (final TestScenario scenario : List.of(TestScenario.SERVER, TestScenario.SINGLE_STREAM,
            TestScenario.MULTI_STREAM))
        {
            final JitThreads auto = JitThreads.resolve(JitThreadPolicy.AUTO, scenario);
            assertEquals(restorable, auto.lowers(), auto.reason());
            assertTrue(auto.reason().startsWith(restorable ? "IDLE while each measured series runs (auto: "
                + scenario + " is latency-bound" : "NORMAL (auto: "), auto.reason());
        }
        final JitThreads offline = JitThreads.resolve(JitThreadPolicy.AUTO, TestScenario.OFFLINE);
        assertFalse(offline.lowers());
        assertTrue(offline.reason().startsWith("NORMAL (auto: Offline measures throughput"), offline.reason());
        assertTrue(JitThreads.resolve(JitThreadPolicy.IDLE, TestScenario.OFFLINE).lowers());
        final JitThreads normal = JitThreads.resolve(JitThreadPolicy.NORMAL, TestScenario.SERVER);
        assertFalse(normal.lowers());
        assertEquals("NORMAL (set explicitly)", normal.reason());
    }

    @Test
    void shouldLowerThemUnderTheOfficialLoadGenForServerOnly()
    {
        final JitThreads server = JitThreads.resolveUnderOfficialLoadGen(JitThreadPolicy.AUTO, TestScenario.SERVER);
        assertEquals(JitCompilerThreads.canRaiseBack(), server.lowers(), server.reason());
        if (server.lowers())
        {
            assertTrue(server.reason().startsWith("IDLE while LoadGen's test runs (auto: Server is latency-bound; "),
                server.reason());
        }
        final JitThreads singleStream = JitThreads.resolveUnderOfficialLoadGen(JitThreadPolicy.AUTO,
            TestScenario.SINGLE_STREAM);
        assertFalse(singleStream.lowers());
        assertTrue(singleStream.reason().startsWith("NORMAL (auto: under the official LoadGen, SingleStream's "),
            singleStream.reason());
        final JitThreads idle = JitThreads.resolveUnderOfficialLoadGen(JitThreadPolicy.IDLE,
            TestScenario.SINGLE_STREAM);
        assertTrue(idle.lowers());
        assertTrue(idle.reason().startsWith("IDLE while LoadGen's test runs (set explicitly; "), idle.reason());
        assertEquals("NORMAL (set explicitly)",
            JitThreads.resolveUnderOfficialLoadGen(JitThreadPolicy.NORMAL, TestScenario.SERVER).reason());
    }
}
