package org.jloadgen.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.jloadgen.api.LogSettings;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.StartFailureLog;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.SutOptions;

import picocli.CommandLine.Option;

/**
 * The options that choose and configure the system under test, shared by the commands that run tests
 * ({@code run}, and {@code peak} from the analysis module): {@code --sut}, {@code --sut-opt}, the named SUT flags
 * and the synthetic sample library's size.
 */
public final class SutSelection
{
    @Option(names = "--sut", paramLabel = "NAME", defaultValue = "synthetic",
        description = "System under test: see --list-suts (default: ${DEFAULT-VALUE}).")
    String sutName;

    @Option(names = "--list-suts", description = "List the installed SUTs and exit.")
    boolean listSuts;

    @Option(names = "--sut-opt", paramLabel = "KEY=VALUE",
        description = "A SUT option, e.g. --sut-opt service=exponential:200us --sut-opt workers=2. Repeatable.")
    List<String> sutOptions = new ArrayList<>();

    @Option(names = "--model-file", paramLabel = "FILE", description = "Model for the cpu and tensorrt SUTs (ONNX).")
    Path modelFile;

    @Option(names = "--dataset", paramLabel = "PATH",
        description = "Dataset for the cpu and tensorrt SUTs: a .npy, raw file or directory of per-sample files.")
    Path dataset;

    @Option(names = "--labels", paramLabel = "FILE", description = "Labels of the dataset, for accuracy.")
    Path labels;

    @Option(names = "--descriptor", paramLabel = "FILE",
        description = "A descriptor naming model, dataset, labels, shapes and dtypes (cpu and tensorrt SUTs).")
    Path descriptor;

    @Option(names = "--qsl-total", paramLabel = "N", defaultValue = "1024",
        description = "Total sample count of the synthetic sample library (default: ${DEFAULT-VALUE}).")
    long qslTotal;

    @Option(names = "--qsl-performance", paramLabel = "P",
        description = "Performance sample count of the synthetic sample library (default: the total).")
    Long qslPerformance;

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
        providers().values().forEach(p -> out.println(p.name() + ": " + p.description()));
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
        final Map<String, SutProvider> providers = providers();
        final SutProvider provider = providers.get(sutName);
        if (provider == null)
        {
            throw new IllegalArgumentException("unknown SUT '" + sutName + "'; installed: " + providers.keySet());
        }
        return provider;
    }

    /**
     * @return the {@code --sut-opt} pairs plus the named SUT flags that were given.
     * @throws IllegalArgumentException for a {@code --sut-opt} without {@code =}.
     */
    public Map<String, String> options()
    {
        final Map<String, String> options = SutOptions.pairs(sutOptions);
        if (modelFile != null)
        {
            options.put("model-file", modelFile.toString());
        }
        if (dataset != null)
        {
            options.put("dataset", dataset.toString());
        }
        if (labels != null)
        {
            options.put("labels", labels.toString());
        }
        if (descriptor != null)
        {
            options.put("descriptor", descriptor.toString());
        }
        return options;
    }

    /**
     * Builds the SUT for the settings' scenario. When it cannot be built no test can run, but the log folder still
     * gets logs that say why, as a failed run's would.
     *
     * @param settings      the requested settings (their scenario picks the SUT's defaults).
     * @param minQslTotal   the synthetic library holds at least this many samples (a replayed trace's largest
     *                      index + 1), or 0.
     * @param failureLogs   where the logs of a start failure go.
     * @param console       where a summary copy of those logs goes.
     * @return the SUT and its sample library.
     * @throws IllegalArgumentException naming the SUT, the reason and the log folder when it cannot be built.
     */
    public SutInstance create(final TestSettings settings, final long minQslTotal, final LogSettings failureLogs,
        final PrintStream console)
    {
        final SutProvider provider = provider();
        final long total = Math.max(qslTotal, minQslTotal);
        try
        {
            return provider.create(new SutContext(settings.scenario(), options(), total,
                qslPerformance == null ? qslTotal : qslPerformance));
        }
        catch (final Exception ex)
        {
            final String reason = "SUT '" + sutName + "' could not be started: " + ex.getMessage();
            final Path summary = StartFailureLog.write(failureLogs, settings, reason, console);
            throw new IllegalArgumentException(reason + " (logs: " + summary.toAbsolutePath().getParent() + ")", ex);
        }
    }

    private static Map<String, SutProvider> providers()
    {
        final Map<String, SutProvider> providers = new LinkedHashMap<>();
        for (final SutProvider p : ServiceLoader.load(SutProvider.class))
        {
            providers.put(p.name(), p);
        }
        return providers;
    }
}
