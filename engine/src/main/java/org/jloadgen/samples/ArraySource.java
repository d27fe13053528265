package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * All samples in one file, as one array whose first axis is the sample index: a NumPy {@code .npy} file
 * ({@link #npy(Path)}) or raw binary with a known dtype, header size and sample shape ({@link #raw}). The file is
 * memory-mapped read-only once; samples are slices of that mapping, so {@link #map} copies nothing and
 * {@link #copyTo} is one memory copy from the page cache.
 */
public final class ArraySource implements SampleSource
{
    private final Path file;
    private final String description;
    private final DType dtype;
    private final long[] sampleShape;
    private final long sampleCount;
    private final long sampleBytes;
    private final long dataOffset;
    private final Arena arena;
    private final MemorySegment mapping;

    private ArraySource(
        final Path file, final String description, final DType dtype, final long[] sampleShape,
        final long sampleCount, final long sampleBytes, final long dataOffset, final long fileBytes)
        throws IOException
    {
        this.file = file;
        this.description = description;
        this.dtype = dtype;
        this.sampleShape = sampleShape;
        this.sampleCount = sampleCount;
        this.sampleBytes = sampleBytes;
        this.dataOffset = dataOffset;
        this.arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            this.mapping = fileBytes == 0 ? MemorySegment.NULL :
                channel.map(FileChannel.MapMode.READ_ONLY, 0, fileBytes, arena).asReadOnly();
        }
        catch (final IOException | RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
    }

    /**
     * Opens a .npy file holding all samples: axis 0 is the sample index, the other axes are one sample.
     *
     * @param file the file.
     * @return the source.
     * @throws SampleFormatException when the header is bad, the file is truncated or padded, the array is a
     *                               scalar, or it is in Fortran order (samples would not be contiguous).
     * @throws IOException           when it cannot be read.
     */
    public static ArraySource npy(final Path file) throws IOException
    {
        final NpyHeader header;
        final long fileBytes;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            header = NpyHeader.read(file, channel);
            fileBytes = channel.size();
        }
        final long[] shape = header.shape();
        if (shape.length == 0)
        {
            throw new SampleFormatException(file, header.dataOffset(), "the array is a scalar; an array of samples " +
                "needs a first axis (one .npy file per sample goes through FileSetSource)");
        }
        if (!header.isRowMajor())
        {
            throw new SampleFormatException(file, header.dataOffset(), "the array " + NpyHeader.formatShape(shape) +
                " is in Fortran order, so a sample's elements are not contiguous; re-save it with " +
                "numpy.save(path, numpy.ascontiguousarray(array))");
        }
        final long[] sampleShape = Arrays.copyOfRange(shape, 1, shape.length);
        final long sampleBytes = NpyHeader.elementCount(sampleShape) * header.dtype().itemBytes();
        return new ArraySource(file, file + " (.npy " + header.majorVersion() + ".0, " + header.dtype() + " " +
            NpyHeader.formatShape(shape) + ")", header.dtype(), sampleShape, shape[0], sampleBytes,
            header.dataOffset(), fileBytes);
    }

    /**
     * Opens a raw binary file of samples laid out one after another after {@code format.headerBytes()}.
     *
     * @param file        the file.
     * @param format      dtype, header size and sample shape (required).
     * @param sampleCount the number of samples, or -1 to take as many as the file holds (it must then hold a whole
     *                    number of samples); with an explicit count, bytes after the last sample are ignored.
     * @return the source.
     * @throws SampleFormatException when the file is shorter than the header, or than the samples.
     * @throws IOException           when it cannot be read.
     */
    public static ArraySource raw(final Path file, final RawFormat format, final long sampleCount) throws IOException
    {
        if (format.sampleShape() == null)
        {
            throw new IllegalArgumentException("a raw array file needs the sample shape: " + format);
        }
        final long sampleBytes = format.sampleBytes();
        final long fileBytes;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            fileBytes = channel.size();
        }
        final long header = format.headerBytes();
        if (fileBytes < header)
        {
            throw new SampleFormatException(file, fileBytes, "truncated: the file has " + fileBytes +
                " bytes, fewer than the " + header + "-byte header");
        }
        final long count;
        if (sampleCount < 0)
        {
            if (sampleBytes == 0)
            {
                throw new IllegalArgumentException("cannot infer the count of zero-byte samples: " + format);
            }
            final long whole = (fileBytes - header) / sampleBytes;
            final long rest = (fileBytes - header) % sampleBytes;
            if (rest != 0)
            {
                final long lastStart = header + whole * sampleBytes;
                throw new SampleFormatException(file, lastStart, "truncated: sample " + whole + " starts here but " +
                    "only " + rest + " of its " + sampleBytes + " bytes follow (" + format + ")");
            }
            count = whole;
        }
        else
        {
            final long needed = header + Math.multiplyExact(sampleCount, sampleBytes);
            if (fileBytes < needed)
            {
                final long firstShort = (fileBytes - header) / Math.max(1, sampleBytes);
                throw new SampleFormatException(file, fileBytes, "truncated: " + sampleCount + " samples of " +
                    sampleBytes + " bytes after a " + header + "-byte header need " + needed + " bytes, the file " +
                    "has " + fileBytes + " (sample " + firstShort + " is cut)");
            }
            count = sampleCount;
        }
        return new ArraySource(file, file + " (raw, " + format.dtype() + " samples " +
            NpyHeader.formatShape(format.sampleShape()) + ")", format.dtype(), format.sampleShape(), count,
            sampleBytes, header, fileBytes);
    }

    /**
     * @return the file.
     */
    public Path file()
    {
        return file;
    }

    @Override
    public String description()
    {
        return description;
    }

    @Override
    public long sampleCount()
    {
        return sampleCount;
    }

    @Override
    public DType dtype()
    {
        return dtype;
    }

    @Override
    public long sampleBytes(final long index)
    {
        checkIndex(index);
        return sampleBytes;
    }

    @Override
    public long[] sampleShape(final long index)
    {
        checkIndex(index);
        return sampleShape.clone();
    }

    @Override
    public void copyTo(final long index, final MemorySegment destination)
    {
        MemorySegment.copy(view(index), 0, destination, 0, sampleBytes);
    }

    @Override
    public MemorySegment map(final long index, final Arena ignored)
    {
        return view(index);
    }

    @Override
    public void close()
    {
        if (arena.scope().isAlive())
        {
            arena.close();
        }
    }

    private MemorySegment view(final long index)
    {
        checkIndex(index);
        return mapping.asSlice(dataOffset + index * sampleBytes, sampleBytes);
    }

    private void checkIndex(final long index)
    {
        if (index < 0 || index >= sampleCount)
        {
            throw new IndexOutOfBoundsException("sample " + index + " is out of range: " + description + " has " +
                sampleCount + " samples");
        }
    }
}
