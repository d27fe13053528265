package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class IssueProcessorTest
{
    private static final long FASHION_MNIST_BYTES = 28 * 28;
    private static final long RESNET50_FP32_BYTES = 3 * 224 * 224 * 4;

    @Test
    void shouldGatherAScatteredBatchOfSmallSamplesForOneCopy()
    {
        assertTrue(IssueProcessor.worthGathering(64, 64, FASHION_MNIST_BYTES), "Server: 64 copies of 784 B");
        assertTrue(IssueProcessor.worthGathering(16, 9, FASHION_MNIST_BYTES));
    }

    @Test
    void shouldCopyRunsAsTheyLieWhereAGatherWouldMoveMoreThanTheCopiesItSaves()
    {
        assertFalse(IssueProcessor.worthGathering(1, 1, FASHION_MNIST_BYTES), "one sample");
        assertFalse(IssueProcessor.worthGathering(256, 1, FASHION_MNIST_BYTES), "one run: one copy already");
        assertFalse(IssueProcessor.worthGathering(256, 2, FASHION_MNIST_BYTES),
            "an Offline batch that wraps round the loaded set: two copies beat a 200 KB host copy");
        assertFalse(IssueProcessor.worthGathering(64, 64, RESNET50_FP32_BYTES), "64 copies beat a 38 MB host copy");
    }
}
