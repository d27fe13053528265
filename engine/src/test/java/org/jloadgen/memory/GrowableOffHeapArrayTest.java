package org.jloadgen.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class GrowableOffHeapArrayTest
{
    @Test
    void shouldKeepShortsAcrossGrowth()
    {
        try (GrowableOffHeapArray a = new GrowableOffHeapArray(OffHeapAllocator.arena(), 2, 16))
        {
            for (int i = 0; i < 1000; i++)
            {
                a.addShort((short)(i * 61));
            }
            assertEquals(1000, a.size());
            assertEquals(2, a.elementBytes());
            for (int i = 0; i < 1000; i++)
            {
                assertEquals((short)(i * 61), a.segment().get(ValueLayout.JAVA_SHORT, (long)i << 1));
            }
        }
    }

    @Test
    void shouldRejectOtherElementSizes()
    {
        assertThrows(IllegalArgumentException.class, () -> new GrowableOffHeapArray(OffHeapAllocator.arena(), 3, 16));
        assertThrows(IllegalArgumentException.class, () -> new GrowableOffHeapArray(OffHeapAllocator.arena(), 1, 16));
    }
}
