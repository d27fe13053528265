package org.jloadgen.sut.network.serve;

import java.util.Optional;

import org.jloadgen.api.QuerySampleLibrary;
import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.jloadgen.samples.SampleStoreLibrary;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.spi.TensorSpec;
import org.jloadgen.sut.network.kserve.Datatypes;
import org.jloadgen.sut.network.kserve.Shapes;

/**
 * What {@code jloadgen serve} advertises for the SUT it exposes (KServe ModelMetadata) and checks requests
 * against: the model's name, its one input and one output, and whether the SUT reads sample data at all.
 * <p>
 * A SUT whose sample library is a {@link SampleStoreLibrary} reads its samples from the store's slab: a request's
 * tensor must then be exactly one stored sample per batch entry (datatype and bytes), and the input is the SUT's
 * own {@link SutInstance#inputTensor()} or, failing that, the store's dtype and sample shape. Other SUTs (null,
 * synthetic) read no data: they advertise {@code --input-datatype} and {@code --input-shape}, requests are checked
 * against those, and the tensor's bytes are received and dropped.
 *
 * @param name           the model name clients use.
 * @param platform       ModelMetadata's platform, {@code jloadgen_<sut>}.
 * @param inputName      input tensor name.
 * @param inputDatatype  input KServe datatype.
 * @param inputShape     input shape with the batch axis (-1) first.
 * @param sampleBytes    bytes of one sample, or -1 when the SUT reads no data.
 * @param outputName     output tensor name.
 * @param outputDatatype output KServe datatype ({@code UINT8} raw bytes when the SUT does not say).
 * @param outputShape    output shape with the batch axis first; -1 where only the answer tells.
 */
record ServedModel(String name, String platform, String inputName, String inputDatatype, long[] inputShape,
    long sampleBytes, String outputName, String outputDatatype, long[] outputShape)
{
    /** Input name of a SUT that names none. */
    static final String INPUT_DEFAULT = "input";
    /** Output name of a SUT that names none. */
    static final String OUTPUT_DEFAULT = "output";

    /**
     * @param name          the model name clients use.
     * @param sutProvider   the SUT's provider name ({@code cpu}...).
     * @param instance      the SUT.
     * @param inputDatatype datatype to advertise when the SUT reads no data.
     * @param inputSampleShape sample shape to advertise when the SUT reads no data (-1 for any size).
     * @return the description.
     */
    static ServedModel of(final String name, final String sutProvider, final SutInstance instance,
        final String inputDatatype, final long[] inputSampleShape)
    {
        final QuerySampleLibrary qsl = instance.qsl();
        final Optional<TensorSpec> input = instance.inputTensor();
        final Optional<TensorSpec> output = instance.outputTensor();
        final String inName;
        final String inDatatype;
        final long[] inShape;
        final long sampleBytes;
        if (qsl instanceof final SampleStoreLibrary library)
        {
            final SampleStore store = library.store();
            if (store.placement() != SampleStore.Placement.COPY)
            {
                throw new IllegalArgumentException("jloadgen serve writes received tensors into the SUT's sample slab, "
                    + "so the SUT must copy its samples: drop --sut-opt placement=mapped");
            }
            final DType dtype = input.map(TensorSpec::dtype).orElse(store.source().dtype());
            final long[] sampleShape = input.map(TensorSpec::sampleShape).orElse(store.source().sampleShape(0));
            inName = input.map(TensorSpec::name).orElse(INPUT_DEFAULT);
            inDatatype = Datatypes.of(dtype);
            inShape = Shapes.batched(-1, sampleShape);
            sampleBytes = store.source().sampleBytes(0);
            for (long i = 1; i < store.source().sampleCount(); i++)
            {
                if (store.source().sampleBytes(i) != sampleBytes)
                {
                    throw new IllegalArgumentException("jloadgen serve needs samples of one size; "
                        + store.source().description() + " has " + sampleBytes + " and "
                        + store.source().sampleBytes(i) + " bytes");
                }
            }
        }
        else
        {
            inName = input.map(TensorSpec::name).orElse(INPUT_DEFAULT);
            inDatatype = inputDatatype;
            inShape = Shapes.batched(-1, inputSampleShape);
            sampleBytes = -1;
        }
        final String outName = output.map(TensorSpec::name).orElse(OUTPUT_DEFAULT);
        final String outDatatype = output.map(t -> Datatypes.of(t.dtype())).orElse("UINT8");
        final long[] outShape = Shapes.batched(-1, output.map(TensorSpec::sampleShape).orElse(new long[] {-1}));
        return new ServedModel(name, "jloadgen_" + sutProvider, inName, inDatatype, inShape, sampleBytes, outName,
            outDatatype, outShape);
    }

    /**
     * @return whether the SUT reads the received samples.
     */
    boolean readsData()
    {
        return sampleBytes >= 0;
    }

    /**
     * @return one line for the console.
     */
    String describe()
    {
        return "model '" + name + "': " + inputName + " " + inputDatatype + " " + Shapes.format(inputShape)
            + (readsData() ? "" : " (data received and dropped: the SUT reads none)") + " -> " + outputName + " "
            + outputDatatype + " " + Shapes.format(outputShape);
    }
}
