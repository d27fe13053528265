package org.jloadgen.samples;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes .npy and raw files for tests, including broken ones, and finds the golden files NumPy wrote
 * ({@code src/test/resources/org/jloadgen/samples/make_golden.py}).
 */
final class TestFiles
{
    private TestFiles()
    {
    }

    /**
     * @param name a file under the golden resources folder.
     * @return its path.
     */
    static Path golden(final String name)
    {
        try
        {
            return Path.of(TestFiles.class.getResource(name).toURI());
        }
        catch (final URISyntaxException | NullPointerException ex)
        {
            throw new IllegalStateException("golden file missing: " + name, ex);
        }
    }

    /**
     * Writes a .npy file as NumPy does: header padded with spaces to a multiple of 64 bytes, ending in a newline.
     *
     * @param file   where.
     * @param major  format version 1, 2 or 3.
     * @param dict   the header dict text, e.g. {@code {'descr': '|u1', 'fortran_order': False, 'shape': (2,), }}.
     * @param data   the data bytes.
     * @return {@code file}.
     */
    static Path npy(final Path file, final int major, final String dict, final byte[] data) throws IOException
    {
        final byte[] text = dict.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        final int preamble = major == 1 ? 10 : 12;
        final int padded = (preamble + text.length + 1 + 63) / 64 * 64;
        final int headerBytes = padded - preamble;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(NpyHeader.MAGIC);
        out.write(major);
        out.write(0);
        final ByteBuffer length = ByteBuffer.allocate(major == 1 ? 2 : 4).order(ByteOrder.LITTLE_ENDIAN);
        if (major == 1)
        {
            length.putShort((short)headerBytes);
        }
        else
        {
            length.putInt(headerBytes);
        }
        out.write(length.array());
        out.write(text);
        for (int i = text.length; i < headerBytes - 1; i++)
        {
            out.write(' ');
        }
        out.write('\n');
        out.write(data);
        return Files.write(file, out.toByteArray());
    }

    /**
     * @param descr a dtype descr.
     * @param shape the shape as Python writes it, e.g. {@code (3, 4)}.
     * @return a NumPy header dict.
     */
    static String dict(final String descr, final String shape)
    {
        return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    }

    /**
     * @param count  samples.
     * @param bytes  bytes per sample.
     * @param salt   varies the content between sources.
     * @return {@code count * bytes} bytes where byte {@code k} of sample {@code i} is {@link #expected}.
     */
    static byte[] samples(final int count, final int bytes, final int salt)
    {
        final byte[] data = new byte[count * bytes];
        for (int i = 0; i < count; i++)
        {
            for (int k = 0; k < bytes; k++)
            {
                data[i * bytes + k] = expected(i, k, salt);
            }
        }
        return data;
    }

    /**
     * @return the content of byte {@code k} of sample {@code i}.
     */
    static byte expected(final long i, final long k, final int salt)
    {
        return (byte)(i * 37 + k * 11 + salt);
    }
}
