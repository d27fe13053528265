package org.jloadgen.engine.official;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.bindings.LoadGenBridge;

/**
 * The {@link ResponseSink} a SUT gets under the official LoadGen: each call is one downcall into the bridge, which
 * drops what is not outstanding and hands the rest to LoadGen's {@code QuerySamplesComplete} or
 * {@code FirstTokenComplete} (one timestamp per call, as LoadGen takes it). A response array is handed over in
 * place: {@link QuerySampleResponses} has LoadGen's {@code QuerySampleResponse} layout. Nothing here allocates
 * once a thread has completed its first heap payload.
 */
final class BridgeResponseSink implements ResponseSink
{
    private static final int SCRATCH_MIN_BYTES = 4096;

    private final FailureLog failures;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /**
     * @param failures where a SUT's failure is recorded and the test failed.
     */
    BridgeResponseSink(final FailureLog failures)
    {
        this.failures = failures;
    }

    @Override
    public void complete(final long responseId)
    {
        LoadGenBridge.completeOne(responseId, 0L, 0L, 0L);
    }

    @Override
    public void complete(final long responseId, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        LoadGenBridge.completeOne(responseId, dataAddress, dataBytes, tokenCount);
    }

    @Override
    public void complete(final long responseId, final byte[] data, final int offset, final int length,
        final long tokenCount)
    {
        // LoadGen reads a payload inside the call (to copy it into the accuracy log), so a per-thread native copy
        // is enough.
        final MemorySegment buffer = scratch.get().bytes(length);
        MemorySegment.copy(data, offset, buffer, ValueLayout.JAVA_BYTE, 0, length);
        LoadGenBridge.completeOne(responseId, buffer.address(), length, tokenCount);
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count)
    {
        LoadGenBridge.complete(responses.segment(), checkCount(responses, count));
    }

    @Override
    public void complete(final QuerySampleResponses responses, final int count, final ResponseCallback callback)
    {
        final Scratch s = scratch.get();
        s.responses = responses;
        s.callback = callback;
        try
        {
            LoadGenBridge.complete(responses.segment(), checkCount(responses, count), s);
        }
        catch (final RuntimeException ex)
        {
            // LoadGen has completed the batch; a callback that throws is the SUT failing.
            failures.fail("the SUT's response callback threw", ex);
        }
        finally
        {
            s.responses = null;
            s.callback = null;
        }
    }

    @Override
    public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
    {
        LoadGenBridge.firstTokenOne(responseId, dataAddress, dataBytes);
    }

    @Override
    public void firstToken(final QuerySampleResponses responses, final int count)
    {
        LoadGenBridge.firstToken(responses.segment(), checkCount(responses, count));
    }

    /**
     * LoadGen has no failed-sample path: a failed sample ends the run, as LoadGen's policy does.
     */
    @Override
    public void failSample(final long responseId)
    {
        failures.fail("the SUT reported a failed sample (response id " + responseId + "); the official LoadGen "
            + "has no failed-sample path, so the run ends", null);
    }

    @Override
    public void fail(final Throwable cause)
    {
        failures.fail("the SUT reported a failure", cause);
    }

    private static int checkCount(final QuerySampleResponses responses, final int count)
    {
        if (count < 0 || count > responses.capacity())
        {
            throw new IndexOutOfBoundsException("count " + count + " outside [0, " + responses.capacity() + "]");
        }
        return count;
    }

    /** One thread's scratch: a native copy of heap payloads and the callback of the batch being completed. */
    private static final class Scratch implements LoadGenBridge.ResponseCallback
    {
        private MemorySegment bytes = MemorySegment.NULL;
        private QuerySampleResponses responses;
        private ResponseCallback callback;

        MemorySegment bytes(final int length)
        {
            if (bytes.byteSize() < length)
            {
                // Grows only; freed with the thread's scratch.
                bytes = Arena.ofAuto().allocate(Math.max(SCRATCH_MIN_BYTES, Integer.highestOneBit(length) * 2L));
            }
            return bytes;
        }

        @Override
        public void beforeCopy(final int index)
        {
            callback.beforeCopy(responses, index);
        }
    }
}
