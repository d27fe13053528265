package org.jloadgen.overhead;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.SutProvider;
import org.jloadgen.spi.SyntheticQsl;
import org.jloadgen.sut.BatcherSettings;
import org.jloadgen.sut.BatchingSut;

/**
 * {@code --sut null-worker}: the null SUT with one worker thread completing, for the overhead budget's
 * cross-thread figure. It is the SUT toolkit's {@link BatchingSut} (the issue thread queues each sample, the
 * worker takes batches of one and completes them at once, no service time and no data), so it measures the
 * hand-off every real threaded SUT pays. Options: {@code wait} (how the idle worker waits:
 * {@code spin}, {@code yield}, {@code backoff} or {@code sleep}; default {@code spin}).
 */
public final class NullWorkerSutProvider implements SutProvider
{
    /** The SUT's name for {@code --sut}. */
    public static final String NAME = "null-worker";
    /** Queue capacity: far above what is outstanding when completion keeps up. */
    private static final int QUEUE_CAPACITY = 1 << 16;

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public String description()
    {
        return "the null SUT completed by one worker thread (options: wait=spin|yield|backoff|sleep); overhead runs";
    }

    @Override
    public SutInstance create(final SutContext context)
    {
        final Map<String, String> options = new HashMap<>(context.options());
        final String wait = options.remove("wait");
        if (!options.isEmpty())
        {
            throw new IllegalArgumentException("the " + NAME + " SUT takes only the option 'wait', got "
                + options.keySet());
        }
        final CompletionWaitStrategy idle = parseWait(wait == null ? "spin" : wait);
        final BatchingSut sut = new BatchingSut("NullWorkerSUT",
            new BatcherSettings(1, 0, 1, QUEUE_CAPACITY, idle, new int[0]),
            worker -> (batch, responses, sink) -> sink.complete(responses, batch.size()), null);
        return SutInstance.of(sut, new SyntheticQsl(context.qslTotalCount(), context.qslPerformanceCount()), sut);
    }

    /**
     * @param text {@code spin}, {@code yield}, {@code backoff} or {@code sleep}.
     * @return the strategy.
     * @throws IllegalArgumentException naming the value and the choices.
     */
    static CompletionWaitStrategy parseWait(final String text)
    {
        try
        {
            return CompletionWaitStrategy.valueOf(text.trim().toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("wait must be spin, yield, backoff or sleep: '" + text + "'", ex);
        }
    }
}
