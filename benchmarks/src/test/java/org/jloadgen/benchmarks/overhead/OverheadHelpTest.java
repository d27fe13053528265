package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * {@code jloadgen overhead --help} points only at documents the repository has.
 */
class OverheadHelpTest
{
    @Test
    void shouldPointToTheBudgetInTheRepositorysOwnReadme() throws IOException
    {
        final String help = new CommandLine(new OverheadCommand()).getUsageMessage().replaceAll("\\s+", " ");
        assertFalse(help.contains("DESIGN.md"), help);
        assertTrue(help.contains("(benchmarks/README.md, \"The budget\")"), help);
        final Path home = Path.of(System.getProperty("jloadgen.home", "..")).toAbsolutePath().normalize();
        assertTrue(Files.readString(home.resolve("benchmarks/README.md")).contains("### The budget"),
            "benchmarks/README.md has the budget section the help names");
    }
}
