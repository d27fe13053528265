package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import com.google.protobuf.ByteString;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A request framed from the slab parses, with protobuf's own parser, as the message protobuf itself would build, for
 * samples smaller and larger than the bounce buffer, drained or read.
 */
class RequestStreamTest
{
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 127, 128, 784, RequestStream.BOUNCE_BYTES_MAX, 3 * RequestStream.BOUNCE_BYTES_MAX + 5})
    void shouldFrameTheSampleBehindTheHeaderExactlyAsProtobufWould(final int sampleBytes) throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment slab = arena.allocate(sampleBytes + 100L);
            for (long i = 0; i < slab.byteSize(); i++)
            {
                slab.set(ValueLayout.JAVA_BYTE, i, (byte)(i * 31));
            }
            final ModelInferRequest template = ModelInferRequest.newBuilder().setModelName("resnet50")
                .setModelVersion("1").addInputs(ModelInferRequest.InferInputTensor.newBuilder().setName("input")
                    .setDatatype("UINT8").addShape(1).addShape(sampleBytes)).build();
            final byte[] sample = slab.asSlice(37, sampleBytes).toArray(ValueLayout.JAVA_BYTE);
            final byte[] expected = template.toBuilder().addRawInputContents(ByteString.copyFrom(sample)).build()
                .toByteArray();
            // On a stream the slot's id follows the fixed fields; protobuf reads the fields in any order.
            final ModelInferRequest withId = template.toBuilder().setId("1234")
                .addRawInputContents(ByteString.copyFrom(sample)).build();

            final RequestStream stream = new RequestStream();
            stream.reset(template.toByteArray(), RequestStream.idField("1234"), slab, 37, sampleBytes);
            final ByteArrayOutputStream streamed = new ByteArrayOutputStream();
            stream.drainTo(streamed);
            assertEquals(withId, ModelInferRequest.parseFrom(streamed.toByteArray()));

            stream.reset(template.toByteArray(), new byte[0], slab, 37, sampleBytes);
            assertEquals(expected.length, stream.available());
            final ByteArrayOutputStream drained = new ByteArrayOutputStream();
            assertEquals(expected.length, stream.drainTo(drained));
            assertArrayEquals(expected, drained.toByteArray());
            assertEquals(0, stream.available());

            stream.reset(template.toByteArray(), new byte[0], slab, 37, sampleBytes);
            final ByteArrayOutputStream read = new ByteArrayOutputStream();
            final byte[] chunk = new byte[100];
            for (int n; (n = stream.read(chunk, 0, chunk.length)) > 0; )
            {
                read.write(chunk, 0, n);
            }
            assertArrayEquals(expected, read.toByteArray());
            assertEquals(ByteString.copyFrom(sample),
                ModelInferRequest.parseFrom(read.toByteArray()).getRawInputContents(0));
        }
    }
}
