package org.jloadgen.samples;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The whole data set of a QSL on disk, sample by sample, as {@link SampleStore} loads it: sample {@code i} is QSL
 * index {@code i}. Opening a source checks every file (headers, sizes), so a bad file fails before a run, and
 * sizes are known up front.
 * <p>
 * Implementations: {@link ArraySource} (one .npy or raw file, first axis = samples) and {@link FileSetSource}
 * (one .npy or raw file per sample). A source is read by one thread at a time (the one loading the store).
 */
public interface SampleSource extends AutoCloseable
{
    /**
     * @return what the data is, for messages and logs (file or directory, format).
     */
    String description();

    /**
     * @return the number of samples: the QSL's total sample count.
     */
    long sampleCount();

    /**
     * @return the element type of every sample.
     */
    DType dtype();

    /**
     * @param index a sample in {@code [0, sampleCount())}.
     * @return its size in bytes.
     */
    long sampleBytes(long index);

    /**
     * @param index a sample in {@code [0, sampleCount())}.
     * @return its shape (the array's axes after the first for {@link ArraySource}).
     */
    long[] sampleShape(long index);

    /**
     * Copies a sample's bytes into {@code destination}, which is exactly {@link #sampleBytes(long)} long.
     *
     * @param index       a sample.
     * @param destination where to write.
     * @throws SampleFormatException when the file changed since it was opened and is now short.
     * @throws IOException           when it cannot be read.
     */
    void copyTo(long index, MemorySegment destination) throws IOException;

    /**
     * Maps a sample without copying: a read-only view of the file's pages, valid while {@code arena} is open.
     *
     * @param index a sample.
     * @param arena owns any mapping made for the view (a source over one mapped file may ignore it).
     * @return the view.
     * @throws IOException when it cannot be mapped.
     */
    MemorySegment map(long index, Arena arena) throws IOException;

    /**
     * Releases files and mappings; views from {@link #map} of a source over one mapped file become unusable.
     */
    @Override
    void close();
}
