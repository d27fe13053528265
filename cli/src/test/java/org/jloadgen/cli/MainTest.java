package org.jloadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * A process that runs a built-in command builds only the built-in commands, which it recognises by the names their
 * own annotations give them; every other invocation builds them all.
 */
class MainTest
{
    @Test
    void shouldKnowTheBuiltInCommandsByTheirNames()
    {
        final Set<String> builtIn = new TreeSet<>(Main.commandLine(true).getSubcommands().keySet());
        builtIn.remove("help");
        assertEquals(new TreeSet<>(Main.BUILT_IN), builtIn);
        final Set<String> all = Main.commandLine().getSubcommands().keySet();
        assertTrue(all.containsAll(Main.BUILT_IN), all.toString());
    }
}
