package org.jloadgen.sut.network.client;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.samples.SampleSource;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.sut.network.kserve.Shapes;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;

/**
 * The network client's sample library: the samples in one slab ({@link SampleStoreLibrary}) and, computed while
 * they load (untimed), each loaded sample's encoded request fields, so that sending a sample only frames the
 * slab's bytes behind a ready header. Samples of one shape share one header.
 */
final class NetworkQsl implements QuerySampleLibrary, AutoCloseable
{
    /** All of memory, to read mapped samples by address (they are not in one slab). */
    private static final MemorySegment ALL_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final SampleStoreLibrary library;
    private final AutoCloseable resources;
    private final ModelInferRequest template;
    private final String inputName;
    private final String datatype;
    private final boolean batchAxis;
    private byte[][] headers = new byte[0][];

    /**
     * @param library   the samples.
     * @param resources what to close with the library (the dataset that owns it).
     * @param template  the request's model, version and requested outputs.
     * @param inputName the input tensor's name.
     * @param datatype  its KServe datatype.
     * @param batchAxis whether the model's input has a batch axis (a request shape {@code [1, sample...]}).
     */
    NetworkQsl(final SampleStoreLibrary library, final AutoCloseable resources, final ModelInferRequest template,
        final String inputName, final String datatype, final boolean batchAxis)
    {
        this.library = library;
        this.resources = resources;
        this.template = template;
        this.inputName = inputName;
        this.datatype = datatype;
        this.batchAxis = batchAxis;
    }

    /**
     * @param sampleShape one sample's shape.
     * @return the request without {@code raw_input_contents}, serialized.
     */
    byte[] encodeHeader(final long[] sampleShape)
    {
        final long[] shape = batchAxis ? Shapes.batched(1, sampleShape) : sampleShape;
        final ModelInferRequest.InferInputTensor.Builder input = ModelInferRequest.InferInputTensor.newBuilder()
            .setName(inputName).setDatatype(datatype);
        for (final long d : shape)
        {
            input.addShape(d);
        }
        return template.toBuilder().addInputs(input).build().toByteArray();
    }

    @Override
    public String name()
    {
        return library.name();
    }

    @Override
    public long totalSampleCount()
    {
        return library.totalSampleCount();
    }

    @Override
    public long performanceSampleCount()
    {
        return library.performanceSampleCount();
    }

    @Override
    public void loadSamplesToRam(final long[] indices)
    {
        library.loadSamplesToRam(indices);
        final SampleSource source = library.store().source();
        final Map<List<Long>, byte[]> byShape = new HashMap<>();
        final byte[][] loaded = new byte[indices.length][];
        for (int p = 0; p < indices.length; p++)
        {
            final long[] shape = source.sampleShape(indices[p]);
            loaded[p] = byShape.computeIfAbsent(Arrays.stream(shape).boxed().toList(), k -> encodeHeader(shape));
        }
        headers = loaded;
    }

    @Override
    public void unloadSamplesFromRam(final long[] indices)
    {
        headers = new byte[0][];
        library.unloadSamplesFromRam(indices);
    }

    /**
     * @param position a loaded position.
     * @return its encoded request fields.
     */
    byte[] header(final int position)
    {
        return headers[position];
    }

    /**
     * @return the memory the loaded samples are read from: the slab, or all of memory for mapped samples.
     */
    MemorySegment memory()
    {
        return library.store().placement() == SampleStore.Placement.COPY ? library.store().slab() : ALL_MEMORY;
    }

    /**
     * @param position a loaded position.
     * @return the sample's offset in {@link #memory()}.
     */
    long offset(final int position)
    {
        final SampleStore store = library.store();
        return store.placement() == SampleStore.Placement.COPY ? store.offset(position) : store.address(position);
    }

    /**
     * @param position a loaded position.
     * @return the sample's size.
     */
    long sampleBytes(final int position)
    {
        return library.store().sampleBytes(position);
    }

    @Override
    public void close()
    {
        try
        {
            resources.close();
        }
        catch (final RuntimeException ex)
        {
            throw ex;
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("closing the samples failed: " + ex.getMessage(), ex);
        }
    }
}
