package org.jloadgen.engine;

import java.util.HashMap;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.jloadgen.log.AccuracyLogWriter;
import org.jloadgen.record.AccuracyLogConsumer;

/**
 * Feeds the accuracy-log collector's thread into the {@link AccuracyLogWriter}: copies each payload into a
 * reused scratch array, and keeps first-token payloads until their sample completes (token benchmarks).
 */
final class AccuracyLogAdapter implements AccuracyLogConsumer
{
    private final AccuracyLogWriter writer;
    private final boolean keepFirstTokens;
    private final Map<Long, byte[]> firstTokens = new HashMap<>();
    private byte[] scratch = new byte[4096];

    AccuracyLogAdapter(final AccuracyLogWriter writer, final boolean keepFirstTokens)
    {
        this.writer = writer;
        this.keepFirstTokens = keepFirstTokens;
    }

    @Override
    public void onResponse(final long sampleSequenceId, final long qslIndex, final DirectBuffer data,
        final int offset, final int length, final long tokenCount)
    {
        if (scratch.length < length)
        {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        data.getBytes(offset, scratch, 0, length);
        final byte[] tokenData = keepFirstTokens ? firstTokens.remove(sampleSequenceId) : null;
        writer.write(sampleSequenceId, qslIndex, scratch, 0, length,
            keepFirstTokens && tokenData == null ? new byte[0] : tokenData, tokenCount);
    }

    @Override
    public void onFirstToken(final long sampleSequenceId, final DirectBuffer data, final int offset,
        final int length)
    {
        if (keepFirstTokens)
        {
            final byte[] copy = new byte[length];
            data.getBytes(offset, copy, 0, length);
            firstTokens.put(sampleSequenceId, copy);
        }
    }
}
