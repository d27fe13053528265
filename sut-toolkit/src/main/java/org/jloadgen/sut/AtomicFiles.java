package org.jloadgen.sut;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files a SUT writes whole (statistics, cached engines, extracted models): written under a temporary name in the same
 * folder and renamed, so a reader never sees half a file, also when two processes write the same one.
 */
public final class AtomicFiles
{
    private AtomicFiles()
    {
    }

    /**
     * @param target the file.
     * @param bytes  its new content.
     * @throws IOException if it cannot be written.
     */
    public static void write(final Path target, final byte[] bytes) throws IOException
    {
        final Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), target.getFileName().toString(),
            ".tmp");
        try
        {
            Files.write(tmp, bytes);
            replace(tmp, target);
        }
        finally
        {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Moves a finished temporary file over the target: atomically where the file system can.
     *
     * @param tmp    the finished file, in the target's folder.
     * @param target the file it becomes.
     * @throws IOException if it cannot be moved.
     */
    public static void replace(final Path tmp, final Path target) throws IOException
    {
        try
        {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
