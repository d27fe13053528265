package org.jloadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * A process that runs a built-in command builds that command alone, which it recognises by the name its own
 * annotation gives it; every other invocation builds them all, with {@code help} and the other modules' commands.
 */
class MainTest
{
    @Test
    void shouldKnowTheBuiltInCommandsByTheirNames()
    {
        for (final Map.Entry<String, Supplier<Object>> command : Main.BUILT_IN.entrySet())
        {
            assertEquals(command.getKey(), new CommandLine(command.getValue().get()).getCommandName());
            assertEquals(Set.of(command.getKey()), Main.commandLine(command.getKey()).getSubcommands().keySet());
        }
        final List<String> all = List.copyOf(Main.commandLine().getSubcommands().keySet());
        assertEquals(List.of("run", "trace", "accuracy", "help"), all.subList(0, 4));
        assertEquals(all, List.copyOf(Main.commandLine("--version").getSubcommands().keySet()));
        assertEquals(all, List.copyOf(Main.commandLine("help").getSubcommands().keySet()));
    }
}
