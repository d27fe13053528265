package org.jloadgen.engine.official;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.bindings.LoadGenBridge;

/**
 * Where LoadGen's calls of its SUT and QSL arrive (upcalls, on LoadGen's test thread or a registered issue thread):
 * they reach the Java {@link SystemUnderTest} and {@link QuerySampleLibrary} exactly as JLoadGen's engine calls
 * them, so a SUT cannot tell which engine drives it. Nothing thrown gets back to native code: a throw is the SUT
 * failing, recorded and handed to the bridge, which ends the test through LoadGen's abort path.
 */
final class BridgeClient implements LoadGenBridge.Client
{
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final SystemUnderTest sut;
    private final QuerySampleLibrary qsl;
    private final BridgeResponseSink sink;
    private final FailureLog failures;
    private final LoadedSet loaded = new LoadedSet();
    private final ThreadLocal<BridgeSamples> samples;

    /**
     * @param sut         the SUT.
     * @param qsl         its sample library.
     * @param multiStream whether a query's samples are adjacent in the loaded set.
     * @param failures    where failures go.
     */
    BridgeClient(final SystemUnderTest sut, final QuerySampleLibrary qsl, final boolean multiStream,
        final FailureLog failures)
    {
        this.sut = sut;
        this.qsl = qsl;
        this.failures = failures;
        this.sink = new BridgeResponseSink(failures);
        this.samples = ThreadLocal.withInitial(() -> new BridgeSamples(loaded, multiStream));
    }

    /**
     * @return the sink handed to the SUT.
     */
    BridgeResponseSink sink()
    {
        return sink;
    }

    @Override
    public int issueQuery(final long samplesAddress, final long count)
    {
        try
        {
            if (count > Integer.MAX_VALUE)
            {
                throw new IllegalStateException("a query of " + count + " samples: more than a Java SUT can index");
            }
            sut.issueQuery(samples.get().wrap(samplesAddress, (int)count), sink);
            return 0;
        }
        catch (final Throwable ex)
        {
            return failed("the SUT threw from issueQuery", ex);
        }
    }

    @Override
    public int flushQueries()
    {
        try
        {
            sut.flushQueries();
            return 0;
        }
        catch (final Throwable ex)
        {
            return failed("the SUT threw from flushQueries", ex);
        }
    }

    @Override
    public int loadSamples(final long indicesAddress, final long count)
    {
        try
        {
            final long[] indices = copy(indicesAddress, count);
            loaded.load(indices);
            qsl.loadSamplesToRam(indices);
            return 0;
        }
        catch (final Throwable ex)
        {
            return failed("the QSL threw from loadSamplesToRam", ex);
        }
    }

    @Override
    public int unloadSamples(final long indicesAddress, final long count)
    {
        try
        {
            qsl.unloadSamplesFromRam(copy(indicesAddress, count));
            return 0;
        }
        catch (final Throwable ex)
        {
            return failed("the QSL threw from unloadSamplesFromRam", ex);
        }
    }

    private int failed(final String what, final Throwable ex)
    {
        try
        {
            failures.fail(what, ex);
        }
        catch (final Throwable again)
        {
            // Even recording the failure failed (out of memory, say): returning nonzero still fails the test (the
            // bridge then gives a reason of its own), and nothing may reach native code.
        }
        return 1;
    }

    /** Untimed (LoadGen loads and unloads between series): the QSL API takes a {@code long[]}. */
    private static long[] copy(final long address, final long count)
    {
        final long[] indices = new long[Math.toIntExact(count)];
        MemorySegment.copy(MEMORY, ValueLayout.JAVA_LONG, address, indices, 0, indices.length);
        return indices;
    }
}
