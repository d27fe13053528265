package org.jloadgen.sut.network.kserve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import com.google.protobuf.ByteString;
import org.jloadgen.sut.network.kserve.proto.InferParameter;
import org.jloadgen.sut.network.kserve.proto.ModelInferResponse;
import org.junit.jupiter.api.Test;

/**
 * The allocation-free response scanner against protobuf's own serialization of {@code ModelInferResponse}.
 */
class InferResponseScannerTest
{
    private static ModelInferResponse response(final String... outputs)
    {
        final ModelInferResponse.Builder b = ModelInferResponse.newBuilder().setModelName("m").setModelVersion("1")
            .setId("req").putParameters("p", InferParameter.newBuilder().setInt64Param(-7).build());
        for (int i = 0; i < outputs.length; i++)
        {
            b.addOutputs(ModelInferResponse.InferOutputTensor.newBuilder().setName(outputs[i]).setDatatype("FP32")
                .addShape(1).addShape(300).putParameters("x", InferParameter.newBuilder().setBoolParam(true).build()));
            final byte[] data = new byte[300 + i];
            Arrays.fill(data, (byte)(i + 1));
            b.addRawOutputContents(ByteString.copyFrom(data));
        }
        return b.build();
    }

    private static byte[] found(final InferResponseScanner scanner, final byte[] wire)
    {
        assertTrue(scanner.scan(wire, wire.length));
        return Arrays.copyOfRange(wire, scanner.dataOffset(), scanner.dataOffset() + scanner.dataLength());
    }

    @Test
    void shouldFindTheFirstOutputWhenNoneIsNamed()
    {
        final ModelInferResponse r = response("a", "b");
        assertArrayEquals(r.getRawOutputContents(0).toByteArray(), found(new InferResponseScanner(null),
            r.toByteArray()));
    }

    @Test
    void shouldFindANamedOutputByItsPositionInOutputs()
    {
        final ModelInferResponse r = response("probabilities", "logits", "argmax");
        assertArrayEquals(r.getRawOutputContents(1).toByteArray(), found(new InferResponseScanner("logits"),
            r.toByteArray()));
        assertArrayEquals(r.getRawOutputContents(2).toByteArray(), found(new InferResponseScanner("argmax"),
            r.toByteArray()));
    }

    @Test
    void shouldReportAMissingOutputOrRawContents()
    {
        final InferResponseScanner named = new InferResponseScanner("nope");
        final byte[] wire = response("a").toByteArray();
        assertFalse(named.scan(wire, wire.length));
        final byte[] typed = ModelInferResponse.newBuilder().addOutputs(ModelInferResponse.InferOutputTensor
            .newBuilder().setName("a")).build().toByteArray();
        final InferResponseScanner first = new InferResponseScanner(null);
        assertFalse(first.scan(typed, typed.length));
        assertEquals(1, first.outputCount());
        assertEquals(0, first.rawCount());
    }

    @Test
    void shouldRejectTruncatedMessages()
    {
        final byte[] wire = response("a").toByteArray();
        assertThrows(IllegalStateException.class, () -> new InferResponseScanner(null).scan(wire, wire.length - 10));
    }

    @Test
    void shouldEncodeVarintsAsProtobufDoes()
    {
        final byte[] out = new byte[10];
        for (final long v : new long[] {0, 1, 127, 128, 300, 16_383, 16_384, 1L << 35, Long.MAX_VALUE})
        {
            final int end = ProtoWire.writeVarint(v, out, 0);
            assertEquals(com.google.protobuf.CodedOutputStream.computeUInt64SizeNoTag(v), end);
            assertEquals(end, ProtoWire.varintBytes(v));
            assertEquals(v, new ProtoWire.Reader().reset(out, 0, end).varint());
        }
    }
}
