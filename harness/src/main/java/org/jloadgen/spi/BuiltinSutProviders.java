package org.jloadgen.spi;

import java.util.Set;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.sut.BatchingSut;
import org.jloadgen.sut.SutOptions;
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
            final SutOptions options = SutOptions.parse(NullWorkerSut.NAME, context.options(), Set.of("wait"),
                Set.of());
            final BatchingSut sut = NullWorkerSut.create(options.idle("wait", CompletionWaitStrategy.SPIN));
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
            final SyntheticSut sut = new SyntheticSut(context.options(), null);
            return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut,
                sut.statistics().orElse(null));
        }
    }
}
