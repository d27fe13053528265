package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One file per sample: NumPy {@code .npy} files ({@link #npy(List)}) or raw binary files ({@link #raw}), sample
 * {@code i} being the {@code i}-th file of the list. {@link #filesIn(Path, String)} lists a directory in name
 * order; {@link #filesListed(Path, Path, String)} follows a list file such as ImageNet's {@code val_map.txt}.
 * <p>
 * Opening reads every header and size, so a bad file fails here with its name and offset. Samples may differ in
 * size and shape (the store then uses an offset table) but not in dtype. {@link #copyTo} reads the file straight
 * into the destination; {@link #map} maps the sample's bytes of that file.
 */
public final class FileSetSource implements SampleSource
{
    private final String description;
    private final DType dtype;
    private final Path[] files;
    private final long[] dataOffsets;
    private final long[] dataBytes;
    private final long[][] shapes;

    private FileSetSource(
        final String description, final DType dtype, final Path[] files, final long[] dataOffsets,
        final long[] dataBytes, final long[][] shapes)
    {
        this.description = description;
        this.dtype = dtype;
        this.files = files;
        this.dataOffsets = dataOffsets;
        this.dataBytes = dataBytes;
        this.shapes = shapes;
    }

    /**
     * Opens one .npy file per sample; each holds one sample (any shape, scalar included) in C order, and all have
     * the same dtype.
     *
     * @param files the files, in QSL index order.
     * @return the source.
     * @throws SampleFormatException naming the first bad file and the offset.
     * @throws IOException           when a file cannot be read.
     */
    public static FileSetSource npy(final List<Path> files) throws IOException
    {
        final int count = files.size();
        final long[] offsets = new long[count];
        final long[] sizes = new long[count];
        final long[][] shapes = new long[count][];
        DType dtype = null;
        for (int i = 0; i < count; i++)
        {
            final Path file = files.get(i);
            final NpyHeader header;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
            {
                header = NpyHeader.read(file, channel);
            }
            if (!header.isRowMajor())
            {
                throw new SampleFormatException(file, header.dataOffset(), "the sample " +
                    NpyHeader.formatShape(header.shape()) + " is in Fortran order; re-save it with " +
                    "numpy.save(path, numpy.ascontiguousarray(sample))");
            }
            if (dtype == null)
            {
                dtype = header.dtype();
            }
            else if (!dtype.equals(header.dtype()))
            {
                throw new SampleFormatException(file, header.dataOffset(), "dtype " + header.dtype() +
                    " differs from " + dtype + " of the first file " + files.getFirst());
            }
            offsets[i] = header.dataOffset();
            sizes[i] = header.dataBytes();
            shapes[i] = header.shape();
        }
        return new FileSetSource(describe(files, ".npy " + (dtype == null ? "" : dtype.toString())),
            dtype == null ? DType.UINT8 : dtype, files.toArray(Path[]::new), offsets, sizes, shapes);
    }

    /**
     * Opens one raw binary file per sample.
     *
     * @param files  the files, in QSL index order.
     * @param format dtype and header size; with a sample shape every file must hold exactly one sample of it,
     *               without one a sample is a single axis of as many elements as the file holds.
     * @return the source.
     * @throws SampleFormatException naming the first bad file and the offset.
     * @throws IOException           when a file cannot be read.
     */
    public static FileSetSource raw(final List<Path> files, final RawFormat format) throws IOException
    {
        final int count = files.size();
        final long[] offsets = new long[count];
        final long[] sizes = new long[count];
        final long[][] shapes = new long[count][];
        final long header = format.headerBytes();
        final int itemBytes = format.dtype().itemBytes();
        for (int i = 0; i < count; i++)
        {
            final Path file = files.get(i);
            final long fileBytes = Files.size(file);
            if (fileBytes < header)
            {
                throw new SampleFormatException(file, fileBytes, "truncated: the file has " + fileBytes +
                    " bytes, fewer than the " + header + "-byte header");
            }
            final long payload = fileBytes - header;
            if (format.sampleShape() != null)
            {
                final long expected = format.sampleBytes();
                if (payload < expected)
                {
                    throw new SampleFormatException(file, fileBytes, "truncated: a sample of " + format + " needs " +
                        expected + " bytes from offset " + header + ", the file ends after " + fileBytes);
                }
                if (payload > expected)
                {
                    throw new SampleFormatException(file, header + expected, (payload - expected) + " bytes follow " +
                        "the " + expected + "-byte sample of " + format);
                }
                shapes[i] = format.sampleShape();
            }
            else
            {
                if (payload % itemBytes != 0)
                {
                    throw new SampleFormatException(file, fileBytes - payload % itemBytes, "truncated: the last " +
                        "element has " + payload % itemBytes + " of its " + itemBytes + " bytes (" + format + ")");
                }
                shapes[i] = new long[] {payload / itemBytes};
            }
            offsets[i] = header;
            sizes[i] = payload;
        }
        return new FileSetSource(describe(files, "raw " + format.dtype()), format.dtype(), files.toArray(Path[]::new),
            offsets, sizes, shapes);
    }

    /**
     * @param dir  a directory.
     * @param glob file name pattern, e.g. {@code *.npy} (see {@link java.nio.file.FileSystem#getPathMatcher}).
     * @return the regular files in it that match, sorted by name.
     * @throws IOException when the directory cannot be listed, or nothing matches.
     */
    public static List<Path> filesIn(final Path dir, final String glob) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, glob))
        {
            for (final Path entry : entries)
            {
                if (Files.isRegularFile(entry))
                {
                    files.add(entry);
                }
            }
        }
        if (files.isEmpty())
        {
            throw new IOException(dir + ": no file matches '" + glob + "'");
        }
        files.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        return files;
    }

    /**
     * Reads a list of sample files: the first whitespace-separated word of each non-blank line, plus
     * {@code suffix}, names a file in {@code dir} (so ImageNet's {@code val_map.txt} lines
     * {@code ILSVRC2012_val_00000001.JPEG 65} with suffix {@code .npy} name the preprocessed files).
     *
     * @param dir      where the files are.
     * @param listFile the list.
     * @param suffix   appended to each name ({@code ""} for none).
     * @return the files in list order.
     * @throws SampleFormatException naming the list line (as its byte offset) whose file does not exist.
     * @throws IOException           when the list cannot be read.
     */
    public static List<Path> filesListed(final Path dir, final Path listFile, final String suffix) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        long offset = 0;
        int lineNumber = 0;
        for (final String line : Files.readAllLines(listFile, StandardCharsets.UTF_8))
        {
            lineNumber++;
            final String stripped = line.strip();
            if (!stripped.isEmpty())
            {
                final Path file = dir.resolve(stripped.split("\\s+", 2)[0] + suffix);
                if (!Files.isRegularFile(file))
                {
                    throw new SampleFormatException(listFile, offset, "line " + lineNumber + " names " + file +
                        ", which does not exist");
                }
                files.add(file);
            }
            offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
        }
        return files;
    }

    /**
     * @param index a sample.
     * @return its file.
     */
    public Path file(final long index)
    {
        checkIndex(index);
        return files[(int)index];
    }

    @Override
    public String description()
    {
        return description;
    }

    @Override
    public long sampleCount()
    {
        return files.length;
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
        return dataBytes[(int)index];
    }

    @Override
    public long[] sampleShape(final long index)
    {
        checkIndex(index);
        return shapes[(int)index].clone();
    }

    @Override
    public void copyTo(final long index, final MemorySegment destination) throws IOException
    {
        checkIndex(index);
        final int i = (int)index;
        final Path file = files[i];
        final ByteBuffer buffer = destination.asSlice(0, dataBytes[i]).asByteBuffer();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (buffer.hasRemaining())
            {
                final long position = dataOffsets[i] + buffer.position();
                if (channel.read(buffer, position) < 0)
                {
                    throw new SampleFormatException(file, position, "truncated since it was opened: the sample " +
                        "needs " + dataBytes[i] + " bytes from offset " + dataOffsets[i] + ", the file ends here");
                }
            }
        }
    }

    @Override
    public MemorySegment map(final long index, final Arena arena) throws IOException
    {
        checkIndex(index);
        final int i = (int)index;
        final Path file = files[i];
        if (dataBytes[i] == 0)
        {
            return arena.allocate(0).asReadOnly();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            // Mapping past the end would fault (SIGBUS) on first access instead of failing here.
            final long fileBytes = channel.size();
            if (fileBytes < dataOffsets[i] + dataBytes[i])
            {
                throw new SampleFormatException(file, fileBytes, "truncated since it was opened: the sample needs " +
                    dataBytes[i] + " bytes from offset " + dataOffsets[i]);
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, dataOffsets[i], dataBytes[i], arena).asReadOnly();
        }
    }

    /**
     * Nothing to release: files are opened per call.
     */
    @Override
    public void close()
    {
    }

    private void checkIndex(final long index)
    {
        if (index < 0 || index >= files.length)
        {
            throw new IndexOutOfBoundsException("sample " + index + " is out of range: " + description + " has " +
                files.length + " samples");
        }
    }

    private static String describe(final List<Path> files, final String format)
    {
        if (files.isEmpty())
        {
            return "no files (" + format + ")";
        }
        final Path parent = files.getFirst().toAbsolutePath().getParent();
        return files.size() + " " + format + " files in " + parent + " (" + files.getFirst().getFileName() + ", ...)";
    }
}
