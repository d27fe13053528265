package org.jloadgen.record;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts SUT completion mistakes on the completion path without allocating or logging; the engine turns
 * the counts into LoadGen's error records after the timed part. Each kind keeps its count and the first
 * offending response id.
 */
public final class CompletionErrors
{
    /** The kinds of mistake, with the message LoadGen (or JLoadGen, where LoadGen has none) logs. */
    public enum Kind
    {
        /** An id completed a second time. */
        DUPLICATE("Attempted to complete a sample twice."),
        /** An id from an earlier series. */
        OLD_SAMPLE("Received completion for an old sample."),
        /** An id the engine never handed out. */
        UNKNOWN_ID("Received completion for an unknown response id."),
        /** A sample completed before it was issued. */
        NOT_ISSUED("Received completion for a sample that was not issued yet."),
        /** n_tokens of 0. */
        ZERO_TOKENS("n_tokens argument missing or attempted to record 0 as number of tokens"),
        /** Negative n_tokens. */
        NEGATIVE_TOKENS("Attempted to record a negative number of tokens"),
        /** n_tokens of exactly 1. */
        ONE_TOKEN("Number of tokens need to be greater than 1"),
        /** Completion without a first token (non-Offline token runs). */
        NO_FIRST_TOKEN("Attempted to record a sample latency before it's first token latency"),
        /** First token after the sample completed. */
        FIRST_TOKEN_AFTER_COMPLETION("Attempted to record token latency after sample was completed"),
        /** First token reported twice. */
        DUPLICATE_FIRST_TOKEN("Attempted to record a first token twice."),
        /** Payload copy failed. */
        BAD_PAYLOAD("Could not copy a response payload into the accuracy log."),
        /**
         * A sample of a series the engine cut short completed after the engine stopped waiting for it. Not a
         * mistake of the SUT's: the sample is counted once, as never completed.
         */
        LATE("Received completion for a sample after the engine stopped waiting for it; it counts as never "
            + "completed.", false);

        private final String message;
        private final boolean error;

        Kind(final String message)
        {
            this(message, true);
        }

        Kind(final String message, final boolean error)
        {
            this.message = message;
            this.error = error;
        }

        /**
         * @return whether it is a mistake of the SUT's, logged as an error.
         */
        public boolean isError()
        {
            return error;
        }

        /**
         * @return LoadGen's message for this mistake.
         */
        public String message()
        {
            return message;
        }
    }

    private final AtomicLong[] counts = new AtomicLong[Kind.values().length];
    private final AtomicLong[] firstIds = new AtomicLong[Kind.values().length];

    /**
     * Empty counters.
     */
    public CompletionErrors()
    {
        for (int i = 0; i < counts.length; i++)
        {
            counts[i] = new AtomicLong();
            firstIds[i] = new AtomicLong(Long.MIN_VALUE);
        }
    }

    /**
     * Counts one mistake. Allocation-free.
     *
     * @param kind       the mistake.
     * @param responseId the offending id.
     */
    public void record(final Kind kind, final long responseId)
    {
        counts[kind.ordinal()].incrementAndGet();
        firstIds[kind.ordinal()].compareAndSet(Long.MIN_VALUE, responseId);
    }

    /**
     * @param kind a mistake.
     * @return how often it happened.
     */
    public long count(final Kind kind)
    {
        return counts[kind.ordinal()].get();
    }

    /**
     * @return total number of mistakes (the kinds that are errors).
     */
    public long total()
    {
        long total = 0;
        for (final Kind k : Kind.values())
        {
            total += k.isError() ? counts[k.ordinal()].get() : 0;
        }
        return total;
    }

    /**
     * @return one line per kind of mistake that happened: the LoadGen message, the count and the first id.
     */
    public List<String> describe()
    {
        final List<String> lines = new ArrayList<>();
        for (final Kind k : Kind.values())
        {
            final long c = counts[k.ordinal()].get();
            if (c > 0 && k.isError())
            {
                lines.add(k.message() + " (" + c + (c == 1 ? " time" : " times") + ", first response id "
                    + Long.toUnsignedString(firstIds[k.ordinal()].get()) + ")");
            }
        }
        return lines;
    }
}
