package org.jloadgen.samples;

import java.io.IOException;
import java.nio.file.Path;

import org.jloadgen.clib.ControlChars;

/**
 * A sample file is corrupt, truncated or in a form the loaders do not take. The message starts with the file and
 * the byte offset where the problem was found: {@code <file>: at byte offset <n>: <problem>}; bytes of the file it
 * quotes are escaped ({@link ControlChars}).
 */
public final class SampleFormatException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    /**
     * @param file    the file.
     * @param offset  byte offset in the file where the problem is.
     * @param problem what is wrong, and where useful what would fix it.
     */
    public SampleFormatException(final Path file, final long offset, final String problem)
    {
        super(file + ": at byte offset " + offset + ": " + ControlChars.escape(problem));
        this.file = file;
        this.offset = offset;
    }

    /**
     * @return the file.
     */
    public Path file()
    {
        return file;
    }

    /**
     * @return the byte offset of the problem.
     */
    public long offset()
    {
        return offset;
    }
}
