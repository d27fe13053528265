package org.jloadgen.cli.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import org.jloadgen.api.TestScenario;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.sut.SutOptions;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options that configure a SUT, shared by every command that builds one ({@code run}; {@code serve} of the
 * network module): {@code --sut-opt} pairs, the named flags that become options ({@code --model-file},
 * {@code --dataset}, {@code --labels}, {@code --descriptor}) and the synthetic sample library's size. A picocli
 * mixin; which SUT ({@code --sut}) stays with each command, whose default differs.
 */
public final class SutCommandOptions
{
    @Option(names = "--sut-opt", paramLabel = "KEY=VALUE",
        description = "A SUT option, e.g. --sut-opt service=exponential:200us --sut-opt workers=2. Repeatable.")
    List<String> sutOptions = new ArrayList<>();

    @Option(names = "--model-file", paramLabel = "FILE", description = "Model for the cpu and tensorrt SUTs (ONNX).")
    Path modelFile;

    @Option(names = "--dataset", paramLabel = "PATH",
        description = "Dataset for the cpu, tensorrt and network SUTs: a .npy, raw file or directory of per-sample "
            + "files (for openai: a prompts file).")
    Path dataset;

    @Option(names = "--labels", paramLabel = "FILE", description = "Labels of the dataset, for accuracy.")
    Path labels;

    @Option(names = "--descriptor", paramLabel = "FILE",
        description = "A descriptor naming model, dataset, labels, shapes and dtypes (cpu and tensorrt SUTs).")
    Path descriptor;

    @Mixin
    QslOptions qsl;

    /**
     * @return the {@code --sut-opt} pairs and the named flags, as the provider's options.
     * @throws IllegalArgumentException for a {@code --sut-opt} without {@code =}.
     */
    public Map<String, String> options()
    {
        final Map<String, String> options = SutOptions.pairs(sutOptions);
        putIfGiven(options, "model-file", modelFile);
        putIfGiven(options, "dataset", dataset);
        putIfGiven(options, "labels", labels);
        putIfGiven(options, "descriptor", descriptor);
        return options;
    }

    private static void putIfGiven(final Map<String, String> options, final String key, final Path value)
    {
        if (value != null)
        {
            options.put(key, value.toString());
        }
    }

    /**
     * @param scenario          the scenario the SUT is built for.
     * @param minimumTotalCount a lower bound for the synthetic library's total count (a replayed trace's highest
     *                          index + 1), or 0.
     * @return what the SUT provider gets.
     * @throws IllegalArgumentException naming {@code --qsl-total} or {@code --qsl-performance} when out of range.
     */
    public SutContext context(final TestScenario scenario, final long minimumTotalCount)
    {
        return new SutContext(scenario, options(), Math.max(qsl.total(), minimumTotalCount), qsl.performance());
    }

    /**
     * @return the installed SUT providers by name, in discovery order.
     */
    public static Map<String, SutProvider> providers()
    {
        final Map<String, SutProvider> providers = new LinkedHashMap<>();
        for (final SutProvider p : ServiceLoader.load(SutProvider.class))
        {
            providers.put(p.name(), p);
        }
        return providers;
    }

    /**
     * @param name a SUT name ({@code --sut}).
     * @return its provider.
     * @throws IllegalArgumentException naming the installed SUTs when none has that name.
     */
    public static SutProvider provider(final String name)
    {
        final Map<String, SutProvider> providers = providers();
        final SutProvider provider = providers.get(name);
        if (provider == null)
        {
            throw new IllegalArgumentException("unknown SUT '" + name + "'; installed: " + providers.keySet());
        }
        return provider;
    }
}
