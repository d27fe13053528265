package org.jloadgen.samples;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NpyHeaderTest
{
    @TempDir
    Path tempDir;

    @Test
    void shouldReadVersion1WrittenByNumpy() throws IOException
    {
        final NpyHeader header = read(TestFiles.golden("v1_u1_5x2x3.npy"));

        assertEquals(1, header.majorVersion());
        assertEquals(0, header.minorVersion());
        assertEquals(DType.UINT8, header.dtype());
        assertFalse(header.fortranOrder());
        assertArrayEquals(new long[] {5, 2, 3}, header.shape());
        assertEquals(128, header.dataOffset());
        assertEquals(30, header.dataBytes());
    }

    @Test
    void shouldReadVersion2And3WrittenByNumpy() throws IOException
    {
        final NpyHeader v2 = read(TestFiles.golden("v2_f4_4x3.npy"));
        assertEquals(2, v2.majorVersion());
        assertEquals(DType.FLOAT32, v2.dtype());
        assertArrayEquals(new long[] {4, 3}, v2.shape());
        assertEquals(128, v2.dataOffset());
        assertEquals(48, v2.dataBytes());

        final NpyHeader v3 = read(TestFiles.golden("v3_i8be_3x2.npy"));
        assertEquals(3, v3.majorVersion());
        assertEquals(new DType('i', 8, ByteOrder.BIG_ENDIAN, ""), v3.dtype());
        assertArrayEquals(new long[] {3, 2}, v3.shape());
        assertEquals(48, v3.dataBytes());
    }

    @Test
    void shouldReadFortranOrderAndTellWhetherItMatters() throws IOException
    {
        final NpyHeader header = read(TestFiles.golden("fortran_f4_2x3.npy"));
        assertTrue(header.fortranOrder());
        assertFalse(header.isRowMajor());

        final Path column = TestFiles.npy(tempDir.resolve("column.npy"), 1,
            "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 3), }", new byte[12]);
        assertTrue(read(column).isRowMajor(), "one long axis: Fortran and C order are the same bytes");
    }

    @Test
    void shouldReadScalarsOneAxisAndPython2Longs() throws IOException
    {
        assertArrayEquals(new long[0], read(TestFiles.npy(tempDir.resolve("s.npy"), 1, TestFiles.dict("<i4", "()"),
            new byte[4])).shape());
        assertArrayEquals(new long[] {5}, read(TestFiles.npy(tempDir.resolve("v.npy"), 1, TestFiles.dict("|u1", "(5,)"),
            new byte[5])).shape());
        assertArrayEquals(new long[] {3, 2}, read(TestFiles.npy(tempDir.resolve("l.npy"), 1,
            "{'descr': '<u2', 'fortran_order': False, 'shape': (3L, 2L), }", new byte[12])).shape());
        assertArrayEquals(new long[] {0, 7}, read(TestFiles.npy(tempDir.resolve("e.npy"), 2,
            "{\"shape\": (0, 7), \"fortran_order\": False, \"descr\": \"<f8\"}", new byte[0])).shape());
    }

    @Test
    void shouldNameFileAndOffsetForABadMagic() throws IOException
    {
        final Path file = Files.write(tempDir.resolve("bad.npy"), "PK\u0003\u0004 this is a zip".getBytes());
        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file));

        assertEquals(file, ex.file());
        assertEquals(0, ex.offset());
        assertEquals(file + ": at byte offset 0: not a .npy file: the magic string \\x93NUMPY is missing " +
            "(found 50 4b 03 04 20 74)", ex.getMessage());
    }

    @Test
    void shouldRejectUnknownVersions() throws IOException
    {
        final byte[] bytes = Files.readAllBytes(TestFiles.golden("v1_u1_5x2x3.npy"));
        bytes[6] = 4;
        final SampleFormatException ex = assertThrows(SampleFormatException.class,
            () -> read(Files.write(tempDir.resolve("v4.npy"), bytes)));

        assertEquals(6, ex.offset());
        assertTrue(ex.getMessage().endsWith("unsupported .npy format version 4.0 (1.0, 2.0 and 3.0 are read)"),
            ex.getMessage());
    }

    @Test
    void shouldNameTheOffsetWhereATruncatedFileEnds() throws IOException
    {
        final byte[] whole = Files.readAllBytes(TestFiles.golden("v2_f4_4x3.npy"));

        final SampleFormatException preamble = truncated(whole, 7);
        assertEquals(7, preamble.offset());
        assertTrue(preamble.getMessage().endsWith("truncated: the file has 7 bytes, a .npy preamble needs at least 10"),
            preamble.getMessage());

        final SampleFormatException header = truncated(whole, 60);
        assertEquals(60, header.offset());
        assertTrue(header.getMessage().endsWith("truncated: the header of 116 bytes starting at offset 12 runs past " +
            "the end of the file (60 bytes)"), header.getMessage());

        final SampleFormatException data = truncated(whole, 150);
        assertEquals(150, data.offset());
        assertTrue(data.getMessage().endsWith("truncated: shape (4, 3) of <f4 needs 48 data bytes from offset 128 " +
            "(a 176-byte file) but the file ends after 150 bytes"), data.getMessage());
    }

    @Test
    void shouldRejectBytesAfterTheData() throws IOException
    {
        final byte[] whole = Files.readAllBytes(TestFiles.golden("v1_u1_5x2x3.npy"));
        final Path file = Files.write(tempDir.resolve("long.npy"), Arrays.copyOf(whole, whole.length + 3));

        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file));
        assertEquals(158, ex.offset());
        assertTrue(ex.getMessage().endsWith("3 bytes follow the 30 data bytes that shape (5, 2, 3) of |u1 declares " +
            "(wrong shape in the header, or data appended)"), ex.getMessage());
    }

    @Test
    void shouldRejectStructuredAndObjectArrays()
    {
        final SampleFormatException structured =
            assertThrows(SampleFormatException.class, () -> read(TestFiles.golden("structured.npy")));
        assertEquals(10 + "{'descr': ".length(), structured.offset());
        assertTrue(structured.getMessage().contains("bad .npy header: structured dtypes (a list of fields) are not " +
            "supported"), structured.getMessage());

        final SampleFormatException object =
            assertThrows(SampleFormatException.class, () -> read(TestFiles.golden("object.npy")));
        assertEquals(10 + "{'descr': ".length(), object.offset());
        assertTrue(object.getMessage().contains("object dtype '|O' holds Python pointers"), object.getMessage());
    }

    @Test
    void shouldNameTheOffsetOfEachMalformedHeader() throws IOException
    {
        assertHeaderError("{'descr': '<f4', 'fortran_order': False}", "{", "the header has no 'shape'");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "'extra'",
            "unexpected key 'extra'");
        assertHeaderError("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", "'descr'",
            "key 'descr' appears twice");
        assertHeaderError("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "0",
            "'fortran_order' must be True or False");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1)}", "(2, -1)",
            "'shape' must hold non-negative integers: (2, -1)");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "[2]",
            "'shape' must be a tuple of integers");
        assertHeaderError("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,)}", "Maybe",
            "unexpected name 'Maybe'");
        assertHeaderError("{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", "'<f4, '",
            "bad dtype '<f4, '");
        assertHeaderError("{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", "'<f4'", "expected ':'");
        assertHeaderError("{'descr': '<f4' 'fortran_order': False}", "'fortran_order'",
            "expected ',' or '}' in the header dict");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x", "x",
            "unexpected text after the header dict");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (2,", "",
            "the header ends in the middle of the dict");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
            "99999999999999999999", "bad integer '99999999999999999999'");
        assertHeaderError("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4)}", "{",
            "shape (4611686018427387904, 4) of <f4 overflows a 64-bit byte count");
    }

    @Test
    void shouldEscapeControlBytesOfACorruptHeaderInTheMessage() throws IOException
    {
        final String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)\0\0\u001b[2J\0}";
        final Path file = TestFiles.npy(tempDir.resolve("nul.npy"), 1, dict, new byte[8]);

        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file));
        assertFalse(ex.getMessage().chars().anyMatch(Character::isISOControl), ex.getMessage());
        assertTrue(ex.getMessage().contains("'shape': (2,)\\x00\\x00\\x1b[2J\\x00}"), ex.getMessage());
    }

    @Test
    void shouldCountHeaderOffsetsInBytesForUtf8Headers() throws IOException
    {
        final String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'ünïcode': 1}";
        final Path file = TestFiles.npy(tempDir.resolve("v3.npy"), 3, dict, new byte[8]);

        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file));
        assertEquals(12 + dict.indexOf("'ü"), ex.offset());
        assertTrue(ex.getMessage().contains("unexpected key 'ünïcode'"), ex.getMessage());
    }

    /**
     * The error must point at the last occurrence of {@code marker} in the dict (the header text starts at byte 10
     * in version 1.0), or with an empty marker at the end of the padded header.
     */
    private void assertHeaderError(final String dict, final String marker, final String problem) throws IOException
    {
        final long offset = marker.isEmpty() ? (10 + dict.length() + 1 + 63) / 64 * 64 : 10 + dict.lastIndexOf(marker);
        final Path file = TestFiles.npy(tempDir.resolve("h.npy"), 1, dict, new byte[8]);
        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file), dict);
        assertEquals(file, ex.file());
        assertTrue(ex.getMessage().startsWith(file + ": at byte offset " + offset + ": "), ex.getMessage());
        assertTrue(ex.getMessage().contains(problem), ex.getMessage());
        assertEquals(offset, ex.offset(), ex.getMessage());
    }

    private SampleFormatException truncated(final byte[] whole, final int length) throws IOException
    {
        final Path file = Files.write(tempDir.resolve("cut" + length + ".npy"), Arrays.copyOf(whole, length));
        final SampleFormatException ex = assertThrows(SampleFormatException.class, () -> read(file));
        assertTrue(ex.getMessage().startsWith(file + ": at byte offset " + ex.offset() + ": "), ex.getMessage());
        return ex;
    }

    private static NpyHeader read(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            return NpyHeader.read(file, channel);
        }
    }
}
