package org.jloadgen.clib;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The operating system's reason for a failed file operation, as {@code strerror} words it ("Permission denied",
 * "No such file or directory"), for messages of the form "cannot create X: REASON". Java's exceptions carry it in
 * different places: {@link FileSystemException#getReason()}, the class of the exception when the reason is
 * missing, or the parentheses of a {@link FileNotFoundException}'s message.
 */
public final class IoErrors
{
    private IoErrors()
    {
    }

    /**
     * @param ex a failed file operation.
     * @return why it failed, without the file name.
     */
    public static String reason(final IOException ex)
    {
        if (ex instanceof FileSystemException fs)
        {
            if (fs.getReason() != null && !fs.getReason().isBlank())
            {
                return fs.getReason();
            }
            return switch (fs)
            {
                case NoSuchFileException e -> "No such file or directory";
                case FileAlreadyExistsException e -> "File exists";
                case AccessDeniedException e -> "Permission denied";
                case NotDirectoryException e -> "Not a directory";
                case DirectoryNotEmptyException e -> "Directory not empty";
                default -> fs.getClass().getSimpleName();
            };
        }
        final String message = ex.getMessage();
        if (message == null || message.isBlank())
        {
            return ex.getClass().getSimpleName();
        }
        if (ex instanceof FileNotFoundException)
        {
            // "NAME (REASON)": the reason is the last parenthesised part.
            final int open = message.lastIndexOf(" (");
            if (open >= 0 && message.endsWith(")"))
            {
                return message.substring(open + 2, message.length() - 1);
            }
        }
        return message;
    }
}
