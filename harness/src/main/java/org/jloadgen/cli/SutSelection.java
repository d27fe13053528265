package org.jloadgen.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.StartFailureLog;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Which system under test a command runs tests against, shared by the commands that run tests ({@code run}, and
 * {@code peak} from the analysis module): {@code --sut} and {@code --list-suts}, plus the SUT's own options
 * ({@link SutCommandOptions}, which {@code serve} of the network module uses with a {@code --sut} of its own).
 */
public final class SutSelection
{
    @Option(names = "--sut", paramLabel = "NAME", defaultValue = "synthetic",
        description = "System under test: see --list-suts (default: ${DEFAULT-VALUE}).")
    String sutName;

    @Option(names = "--list-suts", description = "List the installed SUTs and exit.")
    boolean listSuts;

    @Mixin
    SutCommandOptions options;

    /**
     * @return whether {@code --list-suts} was given.
     */
    public boolean listRequested()
    {
        return listSuts;
    }

    /**
     * @param out where the list goes.
     */
    public static void listSuts(final PrintStream out)
    {
        SutCommandOptions.providers().values().forEach(p -> out.println(p.name() + ": " + p.description()));
    }

    /**
     * @return the SUT name given to {@code --sut}.
     */
    public String sutName()
    {
        return sutName;
    }

    /**
     * @return the chosen provider.
     * @throws IllegalArgumentException naming the installed SUTs when the name is unknown.
     */
    public SutProvider provider()
    {
        return SutCommandOptions.provider(sutName);
    }

    /**
     * @return the {@code --sut-opt} pairs plus the named SUT flags that were given.
     * @throws IllegalArgumentException for a {@code --sut-opt} without {@code =}.
     */
    public Map<String, String> options()
    {
        return options.options();
    }

    /**
     * Builds the SUT for the settings' scenario. When it cannot be built no test can run, but the log folder still
     * gets logs that say why, as a failed run's would.
     *
     * @param settings    the requested settings (their scenario picks the SUT's defaults).
     * @param minQslTotal the synthetic library holds at least this many samples (a replayed trace's largest
     *                    index + 1), or 0.
     * @param failureLogs where the logs of a start failure go.
     * @param console     where a summary copy of those logs goes.
     * @return the SUT and its sample library.
     * @throws IllegalArgumentException naming the SUT, the reason and the log folder when it cannot be built.
     */
    public SutInstance create(final TestSettings settings, final long minQslTotal, final LogSettings failureLogs,
        final PrintStream console)
    {
        final SutProvider provider = provider();
        try
        {
            return provider.create(options.context(settings.scenario(), minQslTotal));
        }
        catch (final Exception ex)
        {
            final String reason = "SUT '" + sutName + "' could not be started: " + ex.getMessage();
            final Path summary = StartFailureLog.write(failureLogs, settings, reason, console);
            throw new IllegalArgumentException(reason + " (logs: " + summary.toAbsolutePath().getParent() + ")", ex);
        }
    }
}
