package org.jloadgen.engine.official;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import org.jloadgen.api.LogSettings;

/**
 * LoadGen's log files of one test: {@code outdir/prefix[datetime_]{summary,detail,accuracy,trace}suffix.{txt,json}}
 * (spec §1.7; {@code loadgen/loadgen.cc}, {@code LogOutputs}). With the date and time in the names, the newest
 * matching files are the test's.
 *
 * @param summary  the summary.
 * @param detail   the detail log.
 * @param accuracy the accuracy log.
 * @param trace    the Chrome trace, or {@code null} when tracing was off.
 */
record LogFiles(Path summary, Path detail, Path accuracy, Path trace)
{
    /**
     * @param logs the log settings of the test, after it ran.
     * @return its files ({@code null} for one that does not exist).
     */
    static LogFiles find(final LogSettings logs)
    {
        return new LogFiles(file(logs, "summary", ".txt"), file(logs, "detail", ".txt"),
            file(logs, "accuracy", ".json"), logs.enableTrace() ? file(logs, "trace", ".json") : null);
    }

    private static Path file(final LogSettings logs, final String kind, final String extension)
    {
        final Path dir = logs.outputDirectory();
        if (!logs.prefixWithDatetime())
        {
            final Path file = dir.resolve(logs.prefix() + kind + logs.suffix() + extension);
            return Files.isRegularFile(file) ? file : null;
        }
        final String end = kind + logs.suffix() + extension;
        try (Stream<Path> files = Files.list(dir))
        {
            final Optional<Path> newest = files.filter(f ->
            {
                final String name = f.getFileName().toString();
                return name.startsWith(logs.prefix()) && name.endsWith("_" + end);
            }).max(Comparator.comparing(LogFiles::modified));
            return newest.orElse(null);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + dir + ": " + ex.getMessage(), ex);
        }
    }

    private static java.nio.file.attribute.FileTime modified(final Path file)
    {
        try
        {
            return Files.getLastModifiedTime(file);
        }
        catch (final IOException ex)
        {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }
}
