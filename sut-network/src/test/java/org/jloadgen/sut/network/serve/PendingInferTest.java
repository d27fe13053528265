package org.jloadgen.sut.network.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/**
 * The output shape a served answer is sent with.
 */
class PendingInferTest
{
    private static long[] shape(final String datatype, final long[] advertised, final int entries, final int rowBytes)
    {
        final ServedModel model = new ServedModel("m", "jloadgen_x", "in", "UINT8", new long[] {-1, -1}, -1, "out",
            datatype, advertised);
        return new PendingInfer(model, null, "", entries).outputShape(entries, rowBytes);
    }

    @Test
    void shouldFillTheAdvertisedShape()
    {
        assertArrayEquals(new long[] {3, 10}, shape("FP32", new long[] {-1, 10}, 3, 40));
        assertArrayEquals(new long[] {2, 4, 25}, shape("FP32", new long[] {-1, 4, -1}, 2, 400));
        assertArrayEquals(new long[] {1, 7}, shape("UINT8", new long[] {-1, -1}, 1, 7));
    }

    @Test
    void shouldFlattenAnAnswerTheAdvertisedShapeDoesNotFit()
    {
        assertArrayEquals(new long[] {1, 12}, shape("FP32", new long[] {-1, 10}, 1, 48));
        assertArrayEquals(new long[] {1, 6}, shape("FP32", new long[] {-1, -1, -1}, 1, 24));
    }
}
