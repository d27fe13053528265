package org.jloadgen.benchmarks.sut;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.ServerWaitStrategy;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options every SUT benchmark (an Offline comparison against a bare loop, then a Server sweep) shares, as a
 * picocli mixin: {@code @Mixin SutBenchmarkOptions bench;}. Three defaults depend on the SUT (the Server targets,
 * the Server wait and the log folder): the benchmark names them with a {@link Defaults} subclass in
 * {@code @Command(defaultValueProvider = ...)}. The SUT's own {@code --sut-opt} stays with the benchmark, whose
 * help says which SUT the options are for.
 */
public final class SutBenchmarkOptions
{
    @Option(names = "--seconds", defaultValue = "10", description = "Length of each measurement (default: 10).")
    long seconds;

    @Option(names = "--rounds", defaultValue = "3",
        description = "Offline rounds of bare loop + JLoadGen (default: 3).")
    int rounds;

    @Option(names = "--server-qps", split = ",",
        description = "Server target QPS to run, comma-separated (default: ${DEFAULT-VALUE}).")
    List<Double> serverQps = new ArrayList<>();

    @Option(names = "--no-server", description = "Skip the Server runs.")
    boolean noServer;

    @Option(names = "--no-offline", description = "Skip the Offline comparison.")
    boolean noOffline;

    @Option(names = "--server-wait",
        description = "Server issue thread wait: SPIN, YIELD, SLEEP or HYBRID (default: ${DEFAULT-VALUE}).")
    ServerWaitStrategy serverWait;

    @Option(names = "--completion-wait", defaultValue = "SLEEP",
        description = "Issue thread completion wait (default: ${DEFAULT-VALUE}).")
    CompletionWaitStrategy completionWait;

    @Option(names = "--out", description = "Log folder (default: ${DEFAULT-VALUE}).")
    Path out;

    /**
     * @return {@code --seconds}: the length of each measurement.
     */
    public long seconds()
    {
        return seconds;
    }

    /**
     * @return {@code --rounds}: Offline rounds of bare loop and JLoadGen.
     */
    public int rounds()
    {
        return rounds;
    }

    /**
     * @return {@code --server-qps}: the Server targets, in the order given.
     */
    public List<Double> serverQps()
    {
        return List.copyOf(serverQps);
    }

    /**
     * @return whether to run the Server sweep (no {@code --no-server}).
     */
    public boolean server()
    {
        return !noServer;
    }

    /**
     * @return whether to run the Offline comparison (no {@code --no-offline}).
     */
    public boolean offline()
    {
        return !noOffline;
    }

    /**
     * @return {@code --server-wait}.
     */
    public ServerWaitStrategy serverWait()
    {
        return serverWait;
    }

    /**
     * @return {@code --completion-wait}.
     */
    public CompletionWaitStrategy completionWait()
    {
        return completionWait;
    }

    /**
     * @return {@code --out}: the log folder.
     */
    public Path out()
    {
        return out;
    }

    /**
     * A benchmark's defaults for the options whose default depends on the SUT. Subclass it with a no-argument
     * constructor and name the subclass in {@code @Command(defaultValueProvider = ...)}.
     */
    public abstract static class Defaults implements CommandLine.IDefaultValueProvider
    {
        private final String serverQps;
        private final String serverWait;
        private final String out;

        /**
         * @param serverQps  the Server targets, comma-separated, e.g. {@code 1000,10000}.
         * @param serverWait the Server wait, e.g. {@code SPIN}.
         * @param out        the log folder, e.g. {@code out/bench-cpu}.
         */
        protected Defaults(final String serverQps, final String serverWait, final String out)
        {
            this.serverQps = serverQps;
            this.serverWait = serverWait;
            this.out = out;
        }

        @Override
        public String defaultValue(final ArgSpec argSpec)
        {
            if (!(argSpec instanceof final OptionSpec option))
            {
                return null;
            }
            return switch (option.longestName())
            {
                case "--server-qps" -> serverQps;
                case "--server-wait" -> serverWait;
                case "--out" -> out;
                default -> null;
            };
        }
    }
}
