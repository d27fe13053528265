package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.samples.DType;
import org.jloadgen.samples.SampleStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SutDatasetTest
{
    @TempDir
    Path dir;

    /** A model input of uint8 [N,2,3] (or a dynamic last axis). */
    private static SutDataset.ModelInput input(final boolean dynamic)
    {
        final long[] shape = {-1, 2, dynamic ? -1 : 3};
        return new SutDataset.ModelInput()
        {
            @Override
            public DType dtype()
            {
                return DType.UINT8;
            }

            @Override
            public long[] fixedSampleShape()
            {
                return dynamic ? null : new long[] {2, 3};
            }

            @Override
            public String describeShape()
            {
                return dynamic ? "[N,2,?]" : "[N,2,3]";
            }

            @Override
            public void checkSamples(final DType dtype, final long[] sampleShape, final String dataset)
            {
                SutDataset.checkSampleFits(dtype, sampleShape, DType.UINT8, shape,
                    "model m input 'x' expects uint8 " + describeShape(), dataset);
            }
        };
    }

    private static DatasetDescriptor raw(final Path data, final Path labels, final long[] shape)
    {
        return new DatasetDescriptor(data, labels, null, shape, 4, -1, null, 0, null, 0, "none");
    }

    private Path rawFile(final int samples) throws IOException
    {
        final byte[] bytes = new byte[4 + samples * 6];
        for (int i = 4; i < bytes.length; i++)
        {
            bytes[i] = (byte)(i - 4);
        }
        return Files.write(dir.resolve("data.bin"), bytes);
    }

    @Test
    void shouldReadARawFileWithTheModelInputsTypeAndShapeAndScoreWithItsLabels() throws IOException
    {
        final Path labels = Files.writeString(dir.resolve("labels.txt"), "a 1\nb 2\nc 3\nd 4\n");
        try (SutDataset d = SutDataset.open(raw(rawFile(4), labels, null), input(false)))
        {
            assertEquals(4, d.library().totalSampleCount());
            assertEquals(4, d.library().performanceSampleCount(), "everything fits in 1 GiB");
            assertEquals(6, d.sampleBytes());
            assertArrayEquals(new long[] {2, 3}, d.sampleShape());
            assertTrue(d.hasLabels());
            d.library().loadSamplesToRam(new long[] {3, 1});
            final SampleStore store = d.store();
            assertEquals(18, store.sample(0).get(ValueLayout.JAVA_BYTE, 0), "sample 3 starts at byte 18");
            assertEquals(6, store.sample(1).get(ValueLayout.JAVA_BYTE, 0));
            d.library().unloadSamplesFromRam(new long[] {3, 1});
            assertEquals("dataset  " + store.source().description() + ", 4 samples, 4 per performance set, COPY\n"
                + "preproc  none\nlabels   " + labels, d.describe());
        }
    }

    @Test
    void shouldSayWhatIsWrongWithTheData() throws IOException
    {
        final Path data = rawFile(4);
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(raw(data, null, null), input(true))).getMessage()
            .contains("the model input [N,2,?] has dynamic dimensions, so give the sample shape"));
        final IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(raw(data, null, new long[] {3, 2}), input(false)));
        assertTrue(shape.getMessage().endsWith(": a sample is |u1 [3,2] but model m input 'x' expects uint8 "
            + "[N,2,3] (sample shapes differ)"), shape.getMessage());
        final IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(new DatasetDescriptor(data, null, DType.parse("int16"), new long[] {3}, 4, -1, null,
                0, null, 0, null), input(false)));
        assertTrue(type.getMessage().contains("(element types differ"), type.getMessage());
        final Path few = Files.writeString(dir.resolve("few.txt"), "1\n2\n");
        assertEquals("labels " + few + " has 2 labels but the dataset has 4 samples",
            assertThrows(IllegalArgumentException.class, () -> SutDataset.open(raw(data, few, null), input(false)))
                .getMessage());
        assertEquals("labels file not found: " + dir.resolve("none.txt"), assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(raw(data, dir.resolve("none.txt"), null), input(false))).getMessage());
        assertEquals("dataset not found: " + dir.resolve("nothing.npy"), assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(raw(dir.resolve("nothing.npy"), null, null), input(false))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SutDataset.open(
            raw(Files.write(dir.resolve("empty.bin"), new byte[4]), null, null), input(false))).getMessage()
            .endsWith("has no samples"));
    }

    @Test
    void shouldRequireOneShapeAcrossPerSampleFiles() throws IOException
    {
        final Path folder = Files.createDirectories(dir.resolve("files"));
        Files.write(folder.resolve("a.bin"), new byte[6]);
        Files.write(folder.resolve("b.bin"), new byte[12]);
        final DatasetDescriptor d = new DatasetDescriptor(folder, null, null, null, 0, -1, null, 0, null, 0, null);
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> SutDataset.open(d, input(false)));
        assertTrue(ex.getMessage().contains("a batch needs samples of one shape")
            || ex.getMessage().contains("b.bin"), ex.getMessage());
        Files.write(folder.resolve("b.bin"), new byte[6]);
        try (SutDataset ok = SutDataset.open(d, input(false)))
        {
            assertEquals(2, ok.library().totalSampleCount());
            assertFalse(ok.hasLabels());
            assertThrows(IllegalStateException.class, () -> ok.accuracy(dir.resolve("log.json"),
                org.jloadgen.accuracy.ClassificationAccuracy.DataType.AUTO));
        }
    }
}
