package org.jloadgen.samples;

import java.nio.ByteOrder;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DTypeTest
{
    @Test
    void shouldParseArrayInterfaceDescrs()
    {
        assertEquals(DType.FLOAT32, DType.parse("<f4"));
        assertEquals(DType.UINT8, DType.parse("|u1"));
        assertEquals(DType.UINT8, DType.parse("<u1"), "byte order does not apply to one-byte items");
        assertEquals(new DType('i', 8, ByteOrder.BIG_ENDIAN, ""), DType.parse(">i8"));
        assertEquals(new DType('f', 2, ByteOrder.nativeOrder(), ""), DType.parse("=f2"));
        assertEquals(new DType('U', 40, ByteOrder.LITTLE_ENDIAN, ""), DType.parse("<U10"));
        assertEquals(new DType('S', 7, null, ""), DType.parse("|S7"));
        assertEquals(new DType('V', 16, null, ""), DType.parse("|V16"));
        assertEquals(new DType('M', 8, ByteOrder.LITTLE_ENDIAN, "ns"), DType.parse("<M8[ns]"));
        assertEquals(new DType('c', 8, ByteOrder.LITTLE_ENDIAN, ""), DType.parse("<c8"));
    }

    @Test
    void shouldParseNumpyNamesAsLittleEndian()
    {
        assertEquals(DType.FLOAT32, DType.parse("float32"));
        assertEquals(DType.INT64, DType.parse("INT64"));
        assertEquals(DType.FLOAT16, DType.parse("float16"));
        assertEquals(new DType('b', 1, null, ""), DType.parse("bool"));
    }

    @Test
    void shouldWriteTheDescrBack()
    {
        for (final String descr : new String[] {"<f4", "|u1", ">i8", "<U10", "|S7", "<M8[ns]", "|b1", "<c16"})
        {
            assertEquals(descr, DType.parse(descr).descr());
        }
        assertTrue(DType.FLOAT32.isNativeOrder() == (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN));
        assertTrue(DType.UINT8.isNativeOrder());
        assertNull(DType.UINT8.order());
        assertFalse(DType.parse(">f4").isNativeOrder() && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void shouldRejectWhatNumpyWouldNotWrite()
    {
        assertEquals("object dtype '|O' holds Python pointers, not sample data",
            assertThrows(IllegalArgumentException.class, () -> DType.parse("|O")).getMessage());
        assertEquals("NumPy has no dtype of kind 'f' with 3 bytes",
            assertThrows(IllegalArgumentException.class, () -> DType.parse("<f3")).getMessage());
        assertEquals("dtype '<f' has no item size",
            assertThrows(IllegalArgumentException.class, () -> DType.parse("<f")).getMessage());
        assertEquals("unknown dtype kind 'x' (NumPy kinds are b i u f c S U V M m)",
            assertThrows(IllegalArgumentException.class, () -> DType.parse("<x4")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> DType.parse("<f4[ns]"));
        assertThrows(IllegalArgumentException.class, () -> DType.parse(""));
        assertThrows(IllegalArgumentException.class, () -> DType.parse("<i99999999999"));
    }
}
