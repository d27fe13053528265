package org.jloadgen.spi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.ServerWaitStrategy;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.NullWorkerSut;
import org.jloadgen.sut.synthetic.SimulatedSut;
import org.jloadgen.sut.synthetic.SyntheticSut;

/**
 * The SUTs that ship with the harness: {@code null} (completes inline, no data: the overhead budget's SUT),
 * {@code null-worker} (the same, completed by one worker thread) and {@code synthetic} (known service times,
 * batching, workers, deliberate bugs).
 */
public final class BuiltinSutProviders
{
    private BuiltinSutProviders()
    {
    }

    /**
     * {@code --sut null}.
     */
    public static final class Null implements SutProvider
    {
        @Override
        public String name()
        {
            return "null";
        }

        @Override
        public String description()
        {
            return "completes every sample inline inside issueQuery, with no data (overhead measurements)";
        }

        @Override
        public SutInstance create(final SutContext context)
        {
            // No option is known: any given is rejected with the list (none).
            SutOptions.parse("null", context.options(), Set.of(), Set.of());
            return SutInstance.of(new NullSut(),
                new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), null);
        }
    }

    /**
     * {@code --sut null-worker}: {@link NullWorkerSut}.
     */
    public static final class NullWorker implements SutProvider
    {
        private static final SutOption WAIT = new SutOption("wait", "auto|spin|park|yield|backoff|sleep", "auto",
            "How the worker waits for the next query: auto spins where a CPU is free for it, else parks.");

        @Override
        public String name()
        {
            return NullWorkerSut.NAME;
        }

        @Override
        public String description()
        {
            return "the null SUT completed by one worker thread (options: wait=auto|spin|park|yield|backoff|sleep, "
                + "default auto); overhead runs";
        }

        @Override
        public List<SutOption> options()
        {
            return List.of(WAIT);
        }

        @Override
        public SutInstance create(final SutContext context)
        {
            final SutOptions options = SutOptions.parse(NullWorkerSut.NAME, context.options(),
                SutOption.keys(options()), Set.of());
            final BatchingSut sut = NullWorkerSut.create(options.idle("wait", CompletionWaitStrategy.AUTO));
            return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut,
                sut.statistics());
        }
    }

    /**
     * {@code --sut synthetic}.
     */
    public static final class Synthetic implements SutProvider
    {
        @Override
        public String name()
        {
            return "synthetic";
        }

        @Override
        public String description()
        {
            return "simulated service times (fixed/uniform/exponential), batching, workers, inline or threaded, "
                + "deliberate bugs; time=simulated: the same as a queueing model on a simulated clock";
        }

        @Override
        public List<SutOption> options()
        {
            final List<SutOption> options = new ArrayList<>(SyntheticSut.OPTIONS);
            options.add(new SutOption("time", "real|simulated", "real", "simulated: the same service model as a "
                + "queue on a simulated clock, deterministic and much faster than real time; it takes service, "
                + "per-sample, batch, workers, seed, tick and name."));
            options.add(new SutOption("tick", "time > 0", "1us", "time=simulated: how far the simulated clock moves "
                + "at each reading."));
            return options;
        }

        @Override
        public SutInstance create(final SutContext context)
        {
            final Map<String, String> options = new HashMap<>(context.options());
            final String time = options.remove("time");
            if ("simulated".equals(time))
            {
                return simulated(new SimulatedSut(options), context);
            }
            if (time != null && !time.equals("real"))
            {
                throw new IllegalArgumentException("synthetic SUT option time=" + time
                    + ": expected real or simulated");
            }
            final SyntheticSut sut = new SyntheticSut(options, null);
            return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut,
                sut.statistics().orElse(null));
        }
    }

    /**
     * A simulated SUT's instance: tests run on its clock, and the engine's waits spin on it (a reading is what
     * moves simulated time; a real sleep would only stall), without the JIT warm-up (simulated latencies do not
     * depend on compilation).
     */
    private static SutInstance simulated(final SimulatedSut sut, final SutContext context)
    {
        final SutInstance plain = SutInstance.of(sut,
            new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut);
        return new SutInstance()
        {
            @Override
            public SystemUnderTest sut()
            {
                return sut;
            }

            @Override
            public QuerySampleLibrary qsl()
            {
                return plain.qsl();
            }

            @Override
            public EngineOptions engineOptions(final EngineOptions options)
            {
                return options.copy().clock(sut.clock()).wallClock(sut.clock())
                    .serverWait(ServerWaitStrategy.SPIN).completionWait(CompletionWaitStrategy.SPIN).jitWarmupMs(0);
            }

            @Override
            public void close()
            {
                plain.close();
            }
        };
    }
}
