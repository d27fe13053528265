package org.jloadgen.sut.cpu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.StringJoiner;

/**
 * Small models and datasets for the tests, written on the fly: an ImageNet-shaped classifier (float32
 * [N,3,224,224] to [N,1000], the shape class of ResNet-50) whose prediction is known for every generated sample,
 * and models with dynamic inner dimensions for the runtime-failure and output-copy paths.
 */
final class TestModels
{
    /** Images of the ImageNet-shaped dataset. */
    static final int IMAGE_COUNT = 12;
    /** Floats per image. */
    static final int IMAGE_FLOATS = 3 * 224 * 224;

    private TestModels()
    {
    }

    /**
     * input float32 [N,3,224,224] -> ReduceMean over H, W -> [N,3] -> MatMul [3,1000] -> Add -> logits [N,1000];
     * logit {@code 10 c + 7} is the mean of channel {@code c}, every other logit 0.
     *
     * @param file where.
     * @return {@code file}.
     */
    static Path imagenetShaped(final Path file) throws IOException
    {
        final float[] weights = new float[3 * 1000];
        for (int c = 0; c < 3; c++)
        {
            weights[c * 1000 + 10 * c + 7] = 1f;
        }
        return new TinyOnnx()
            .node("ReduceMean", new String[] {"input"}, "pooled", "axes", new long[] {2, 3}, "keepdims", 0)
            .node("MatMul", new String[] {"pooled", "W"}, "mm", null, null, null, 0)
            .node("Add", new String[] {"mm", "B"}, "logits", null, null, null, 0)
            .initializer("W", new long[] {3, 1000}, weights)
            .initializer("B", new long[] {1000}, new float[1000])
            .input("input", TinyOnnx.FLOAT, "N", 3L, 224L, 224L)
            .output("logits", TinyOnnx.FLOAT, "N", 1000L)
            .write(file);
    }

    /**
     * @param i an image.
     * @return the class the ImageNet-shaped model predicts for it: {@code 10 (i % 3) + 7}.
     */
    static int imagenetLabel(final int i)
    {
        return 10 * (i % 3) + 7;
    }

    /**
     * @param i an image.
     * @return its pixels: channel {@code i % 3} bright, the others dim, with a little texture.
     */
    static float[] image(final int i)
    {
        final float[] pixels = new float[IMAGE_FLOATS];
        for (int k = 0; k < IMAGE_FLOATS; k++)
        {
            final int channel = k / (224 * 224);
            pixels[k] = (channel == i % 3 ? 1.0f : 0.25f) + 0.001f * ((k * 31 + i) % 17);
        }
        return pixels;
    }

    /**
     * Writes the ImageNet-shaped dataset as one .npy (N,3,224,224) float32.
     *
     * @param file where.
     * @return {@code file}.
     */
    static Path imagenetNpy(final Path file) throws IOException
    {
        final ByteBuffer data = ByteBuffer.allocate(IMAGE_COUNT * IMAGE_FLOATS * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < IMAGE_COUNT; i++)
        {
            for (final float v : image(i))
            {
                data.putFloat(v);
            }
        }
        return npy(file, "<f4", new long[] {IMAGE_COUNT, 3, 224, 224}, data.array());
    }

    /**
     * Writes the ImageNet-shaped dataset as one .npy per image, as MLPerf's preprocessing does.
     *
     * @param dir where.
     * @return {@code dir}.
     */
    static Path imagenetFiles(final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        for (int i = 0; i < IMAGE_COUNT; i++)
        {
            final ByteBuffer data = ByteBuffer.allocate(IMAGE_FLOATS * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (final float v : image(i))
            {
                data.putFloat(v);
            }
            npy(dir.resolve(String.format("ILSVRC2012_val_%08d.JPEG.npy", i + 1)), "<f4", new long[] {3, 224, 224},
                data.array());
        }
        return dir;
    }

    /**
     * Writes labels as text, one per line.
     *
     * @param file   where.
     * @param labels the labels.
     * @return {@code file}.
     */
    static Path labels(final Path file, final int[] labels) throws IOException
    {
        final StringBuilder text = new StringBuilder();
        for (final int label : labels)
        {
            text.append(label).append('\n');
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /**
     * @return the ImageNet-shaped dataset's labels.
     */
    static int[] imagenetLabels()
    {
        final int[] labels = new int[IMAGE_COUNT];
        for (int i = 0; i < IMAGE_COUNT; i++)
        {
            labels[i] = imagenetLabel(i);
        }
        return labels;
    }

    /**
     * x float32 [N,D] -> MatMul [16,4] -> y [N,4]: any D passes the checks before the run, only D = 16 runs.
     *
     * @param file where.
     * @return {@code file}.
     */
    static Path dynamicMatMul(final Path file) throws IOException
    {
        return new TinyOnnx()
            .node("MatMul", new String[] {"x", "W"}, "y", null, null, null, 0)
            .initializer("W", new long[] {16, 4}, new float[64])
            .input("x", TinyOnnx.FLOAT, "N", "D")
            .output("y", TinyOnnx.FLOAT, "N", 4L)
            .write(file);
    }

    /**
     * x float32 [N,D] -> Identity -> y [N,D]: an output row whose size only a run tells.
     *
     * @param file where.
     * @return {@code file}.
     */
    static Path dynamicIdentity(final Path file) throws IOException
    {
        return new TinyOnnx()
            .node("Identity", new String[] {"x"}, "y", null, null, null, 0)
            .input("x", TinyOnnx.FLOAT, "N", "D")
            .output("y", TinyOnnx.FLOAT, "N", "D")
            .write(file);
    }

    /**
     * Writes {@code count} float32 rows of {@code width} whose largest element is at {@code i % width}.
     *
     * @param file  where.
     * @param count rows.
     * @param width row length.
     * @return {@code file}.
     */
    static Path rowsNpy(final Path file, final int count, final int width) throws IOException
    {
        final ByteBuffer data = ByteBuffer.allocate(count * width * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            for (int k = 0; k < width; k++)
            {
                data.putFloat(k == i % width ? 10f + i : 0.5f * k);
            }
        }
        return npy(file, "<f4", new long[] {count, width}, data.array());
    }

    /**
     * Writes a version 1.0 .npy file.
     *
     * @param file  where.
     * @param descr dtype descr, e.g. {@code <f4}.
     * @param shape the array's shape.
     * @param data  the data.
     * @return {@code file}.
     */
    static Path npy(final Path file, final String descr, final long[] shape, final byte[] data) throws IOException
    {
        final StringJoiner dims = new StringJoiner(", ", "(", shape.length == 1 ? ",)" : ")");
        for (final long d : shape)
        {
            dims.add(Long.toString(d));
        }
        final String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
        final int padded = (10 + dict.length() + 1 + 63) / 64 * 64;
        final StringBuilder header = new StringBuilder(dict);
        while (10 + header.length() + 1 < padded)
        {
            header.append(' ');
        }
        header.append('\n');
        final byte[] text = header.toString().getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer out = ByteBuffer.allocate(10 + text.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte)0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte)1).put((byte)0);
        out.putShort((short)text.length).put(text).put(data);
        Files.write(file, out.array());
        return file;
    }
}
