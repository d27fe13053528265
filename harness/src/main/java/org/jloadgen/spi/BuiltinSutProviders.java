package org.jloadgen.spi;

import java.util.HashMap;
import java.util.Map;

import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.synthetic.NullSut;
import org.jloadgen.sut.synthetic.NullWorkerSut;
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
            if (!context.options().isEmpty())
            {
                throw new IllegalArgumentException("the null SUT takes no options, got " + context.options().keySet());
            }
            return SutInstance.of(new NullSut(),
                new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), null);
        }
    }

    /**
     * {@code --sut null-worker}: {@link NullWorkerSut}.
     */
    public static final class NullWorker implements SutProvider
    {
        @Override
        public String name()
        {
            return NullWorkerSut.NAME;
        }

        @Override
        public String description()
        {
            return "the null SUT completed by one worker thread (options: wait=spin|yield|backoff|sleep); "
                + "overhead runs";
        }

        @Override
        public SutInstance create(final SutContext context)
        {
            final Map<String, String> options = new HashMap<>(context.options());
            final String wait = options.remove("wait");
            if (!options.isEmpty())
            {
                throw new IllegalArgumentException("the " + NullWorkerSut.NAME + " SUT takes only the option 'wait', "
                    + "got " + options.keySet());
            }
            final BatchingSut sut = NullWorkerSut.create(NullWorkerSut.parseWait(wait == null ? "spin" : wait));
            return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut);
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
                + "deliberate bugs";
        }

        @Override
        public SutInstance create(final SutContext context)
        {
            final Map<String, String> options = new HashMap<>(context.options());
            final SyntheticSut sut = new SyntheticSut(options, null);
            return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut,
                sut.statistics().orElse(null));
        }
    }
}
