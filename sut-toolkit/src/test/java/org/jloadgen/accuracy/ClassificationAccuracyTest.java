package org.jloadgen.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

class ClassificationAccuracyTest
{
    private static byte[] ints(final int... values)
    {
        final ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (final int v : values)
        {
            b.putInt(v);
        }
        return b.array();
    }

    @Test
    void shouldTakeTheFirstOfRankedClassIds()
    {
        final Path log = Path.of("log.json");
        assertEquals(7, ClassificationAccuracy.predict(ints(7, 3, 9, 1, 0),
            ClassificationAccuracy.DataType.INT32_RANKED,
            log, 1));
        assertEquals(4, ClassificationAccuracy.predict(ints(4), ClassificationAccuracy.DataType.INT32_RANKED, log, 1));
        assertEquals(ClassificationAccuracy.DataType.INT32_RANKED,
            ClassificationAccuracy.DataType.parse("int32_ranked"));
        final IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
            () -> ClassificationAccuracy.predict(new byte[6], ClassificationAccuracy.DataType.INT32_RANKED, log, 5));
        assertTrue(odd.getMessage().contains("seq_id 5: ranked int32 class ids need a positive multiple of 4 bytes"),
            odd.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> ClassificationAccuracy.predict(ints(7, 3), ClassificationAccuracy.DataType.INT32, log, 1),
            "plain int32 stays one value");
    }
}
