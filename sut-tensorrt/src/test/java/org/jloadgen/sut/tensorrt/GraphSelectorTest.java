package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GraphSelectorTest
{
    @Test
    void shouldPickTheSmallestCapturedSizeThatHoldsTheBatch()
    {
        final GraphSelector graphs = new GraphSelector(new int[] {1, 2, 4, 8, 13});
        final int[] expected = {-1, 1, 2, 4, 4, 8, 8, 8, 8, 13, 13, 13, 13, 13, -1, -1};
        for (int n = 1; n < expected.length; n++)
        {
            final int pick = graphs.pick(n);
            assertEquals(expected[n], pick < 0 ? -1 : graphs.size(pick), "batch of " + n);
        }
        assertEquals(-1, new GraphSelector(new int[0]).pick(1), "no graphs: always a plain enqueue");
        assertThrows(IllegalArgumentException.class, () -> new GraphSelector(new int[] {4, 2}));
        assertThrows(IllegalArgumentException.class, () -> new GraphSelector(new int[] {0, 2}));
    }

    @Test
    void shouldCaptureGraphSizesFromTheOption()
    {
        assertArrayEquals(new int[] {1, 2, 4, 8, 16, 32, 64, 100}, PipelineSettings.graphSizes(100, "auto"));
        assertArrayEquals(new int[] {1}, PipelineSettings.graphSizes(1, "auto"));
        assertArrayEquals(new int[0], PipelineSettings.graphSizes(64, "none"));
        assertArrayEquals(new int[] {1, 8, 64}, PipelineSettings.graphSizes(64, "64, 8,1,8"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PipelineSettings.graphSizes(32, "1,64"))
            .getMessage().contains("batch size 64 is outside 1..32"));
        assertThrows(IllegalArgumentException.class, () -> PipelineSettings.graphSizes(32, "small"));
    }
}
