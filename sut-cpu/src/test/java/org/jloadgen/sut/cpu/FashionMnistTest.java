package org.jloadgen.sut.cpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;

import org.jloadgen.accuracy.Labels;
import org.jloadgen.samples.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest
{
    @TempDir
    Path cache;

    @Test
    void shouldExtractTheModelAndDecompressTheTestSetOnce() throws Exception
    {
        final ModelDescriptor d = FashionMnist.prepare(cache);

        assertEquals("pixels", d.inputName());
        assertEquals("logits", d.outputName());
        assertEquals(DType.UINT8, d.data().dtype());
        assertArrayEquals(new long[] {1, 28, 28}, d.data().sampleShape());
        assertEquals(16, d.data().headerBytes());
        assertEquals(10_000, d.data().sampleCount());
        assertEquals(16 + 10_000L * 784, Files.size(d.data().dataset()));
        assertEquals(8 + 10_000L, Files.size(d.data().labels()));
        assertEquals("857d098b5d967845c704cd9787fbac3e41da1192d6f23f1e3396a61a52ceeeaa",
            HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(d.modelFile()))));
        try (DataInputStream in = new DataInputStream(Files.newInputStream(d.data().dataset())))
        {
            assertEquals(0x803, in.readInt());
            assertEquals(10_000, in.readInt());
            assertEquals(28, in.readInt());
            assertEquals(28, in.readInt());
        }
        final int[] labels = Labels.read(d.data().labels());
        assertEquals(10_000, labels.length);
        // The first test labels of Fashion-MNIST: ankle boot, pullover, trouser, trouser, shirt.
        assertArrayEquals(new int[] {9, 2, 1, 1, 6}, java.util.Arrays.copyOf(labels, 5));
        assertTrue(d.modelFile().getParent().getFileName().toString().startsWith("fashion-mnist-857d098b5d96"));

        final FileTime extracted = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(d.data().dataset(), extracted);
        FashionMnist.prepare(cache);
        assertEquals(extracted, Files.getLastModifiedTime(d.data().dataset()), "a good extracted file is reused");
    }

    @Test
    void shouldReplaceADamagedExtractedFile() throws Exception
    {
        final ModelDescriptor d = FashionMnist.prepare(cache);
        Files.write(d.data().dataset(), new byte[] {0, 0, 8, 3});
        Files.write(d.data().labels(), new byte[20_000]);

        FashionMnist.prepare(cache);

        assertEquals(16 + 10_000L * 784, Files.size(d.data().dataset()));
        assertEquals(10_000, Labels.read(d.data().labels()).length);
    }

    @Test
    void shouldTakeTheCacheFolderFromThePropertyFirst()
    {
        final String old = System.getProperty(FashionMnist.CACHE_DIR_PROP_NAME);
        try
        {
            System.setProperty(FashionMnist.CACHE_DIR_PROP_NAME, cache.toString());
            assertEquals(cache, FashionMnist.defaultCacheDir());
        }
        finally
        {
            if (old == null)
            {
                System.clearProperty(FashionMnist.CACHE_DIR_PROP_NAME);
            }
            else
            {
                System.setProperty(FashionMnist.CACHE_DIR_PROP_NAME, old);
            }
        }
    }
}
