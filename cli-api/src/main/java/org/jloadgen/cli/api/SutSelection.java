package org.jloadgen.cli.api;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.StartFailureLog;
import org.jloadgen.spi.DefaultJob;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * Which system under test a command runs tests against, shared by the commands that run tests ({@code run}, and
 * {@code peak} from the analysis module): {@code --sut} and {@code --list-suts}, plus the SUT's own options
 * ({@link SutCommandOptions}, which {@code serve} of the network module uses with a {@code --sut} of its own).
 */
public final class SutSelection
{
    /** The SUT when no module provides a default job. */
    public static final String FALLBACK_SUT = "synthetic";

    @Option(names = "--sut", paramLabel = "NAME",
        description = "System under test, see --list-suts; --sut NAME --help lists its --sut-opt options. Default: "
            + "the SUT of the default job (what a bare "
            + "'jloadgen run' runs): cpu, the embedded model, when the sut-cpu module is installed, else synthetic; "
            + "here: ${DEFAULT-VALUE}.")
    String sutName;

    @Option(names = "--list-suts", description = "List the installed SUTs and exit.")
    boolean listSuts;

    @Mixin
    public SutCommandOptions options;

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
        // One SUT a paragraph, wrapped to 80 columns; the name starts its first line.
        SutCommandOptions.providers().values().forEach(p -> out.println(ConsoleText.wrap(p.name() + ": "
            + p.description(), "    ")));
    }

    /**
     * @return the SUT name given to {@code --sut}.
     */
    public String sutName()
    {
        return sutName != null ? sutName : defaultSutName();
    }

    /**
     * @return the installed default job with the highest priority, if any.
     */
    public static Optional<DefaultJob> installedDefaultJob()
    {
        return ServiceLoader.load(DefaultJob.class).stream()
            .map(ServiceLoader.Provider::get)
            .max(Comparator.comparingInt(DefaultJob::priority));
    }

    /**
     * @return the one default-SUT rule: the SUT of the default job, {@value #FALLBACK_SUT} when no module provides
     *         one (the SUT of the built-in fallback job).
     */
    static String defaultSutName()
    {
        return installedDefaultJob().map(DefaultJob::sutName).orElse(FALLBACK_SUT);
    }

    /**
     * Shows the default-SUT rule's answer as {@code --sut}'s default in {@code --help}; a command that takes this
     * mixin names it as its {@code defaultValueProvider}.
     */
    public static final class DefaultSut implements IDefaultValueProvider
    {
        @Override
        public String defaultValue(final ArgSpec argSpec)
        {
            if (argSpec instanceof OptionSpec option && option.longestName().equals("--sut"))
            {
                return defaultSutName();
            }
            return null;
        }
    }

    /**
     * @return the chosen provider.
     * @throws IllegalArgumentException naming the installed SUTs when the name is unknown.
     */
    public SutProvider provider()
    {
        return SutCommandOptions.provider(sutName());
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
        // Bad sizes are usage errors of this command, refused before a SUT or its start-failure logs exist.
        final SutContext context = options.context(settings.scenario(), minQslTotal);
        try
        {
            return provider.create(context);
        }
        catch (final Exception ex)
        {
            final String reason = "SUT '" + sutName() + "' could not be started: " + ex.getMessage();
            final Path summary = StartFailureLog.write(failureLogs, settings, reason, console);
            throw new IllegalArgumentException(reason + " (logs: " + summary.toAbsolutePath().getParent() + ")", ex);
        }
    }
}
