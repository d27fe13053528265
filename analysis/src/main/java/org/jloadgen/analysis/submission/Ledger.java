package org.jloadgen.analysis.submission;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What each step did, one file per step under {@code OUT/state}: the hash of its inputs, the SHA-256 of every file
 * it put in place, the values it measured, its wall time. A step is finished when its record exists, its inputs hash
 * is today's and every output still has its recorded hash; a rerun skips it then. Records, like every file a step
 * publishes, are written under a temporary name and renamed into place.
 */
final class Ledger
{
    /**
     * One finished step.
     *
     * @param inputs  the hash of its inputs.
     * @param outputs output path (relative to OUT) to SHA-256.
     * @param values  what it measured or decided.
     * @param wallMs  how long it took.
     */
    record Record(String inputs, Map<String, String> outputs, Map<String, String> values, long wallMs)
    {
    }

    private final Path out;
    private final Path folder;

    /**
     * @param out the submission's output folder.
     */
    Ledger(final Path out)
    {
        this.out = out;
        this.folder = out.resolve("state");
    }

    /**
     * @param step a step id.
     * @return its record, if it finished once.
     */
    Optional<Record> record(final String step)
    {
        final Path file = file(step);
        if (!Files.isRegularFile(file))
        {
            return Optional.empty();
        }
        final Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file))
        {
            p.load(in);
        }
        catch (final IOException ex)
        {
            return Optional.empty();
        }
        final Map<String, String> outputs = new TreeMap<>();
        final Map<String, String> values = new TreeMap<>();
        for (final String key : p.stringPropertyNames())
        {
            if (key.startsWith("output."))
            {
                outputs.put(key.substring("output.".length()), p.getProperty(key));
            }
            else if (key.startsWith("value."))
            {
                values.put(key.substring("value.".length()), p.getProperty(key));
            }
        }
        return Optional.of(new Record(p.getProperty("inputs", ""), outputs, values,
            Long.parseLong(p.getProperty("wall_ms", "0"))));
    }

    /**
     * @param step   a step id.
     * @param inputs the hash of its inputs now.
     * @return why the step must run, or empty when its record stands (same inputs, outputs unchanged).
     */
    Optional<String> staleBecause(final String step, final String inputs)
    {
        final Optional<Record> record = record(step);
        if (record.isEmpty())
        {
            return Optional.of("not done yet");
        }
        if (!record.get().inputs().equals(inputs))
        {
            return Optional.of("its inputs changed");
        }
        for (final Map.Entry<String, String> output : record.get().outputs().entrySet())
        {
            final Path file = out.resolve(output.getKey());
            if (!Files.isRegularFile(file))
            {
                return Optional.of(output.getKey() + " is gone");
            }
            if (!sha256(file).equals(output.getValue()))
            {
                return Optional.of(output.getKey() + " changed since the step wrote it");
            }
        }
        return Optional.empty();
    }

    /**
     * Records a finished step.
     *
     * @param step    its id.
     * @param inputs  the hash of its inputs.
     * @param outputs the files and folders it put in place (every file under a folder is hashed).
     * @param values  what it measured.
     * @param wallMs  how long it took.
     */
    void finish(final String step, final String inputs, final List<Path> outputs, final Map<String, String> values,
        final long wallMs)
    {
        final StringBuilder b = new StringBuilder();
        b.append("# jloadgen submission: the record of step ").append(step).append('\n');
        b.append("inputs=").append(inputs).append('\n');
        b.append("wall_ms=").append(wallMs).append('\n');
        for (final Path file : files(outputs))
        {
            b.append("output.").append(escape(out.relativize(file).toString())).append('=').append(sha256(file))
                .append('\n');
        }
        for (final Map.Entry<String, String> value : new TreeMap<>(values).entrySet())
        {
            b.append("value.").append(escape(value.getKey())).append('=').append(escape(value.getValue()))
                .append('\n');
        }
        writeAtomically(file(step), b.toString());
    }

    /**
     * Forgets a step, so the next run does it again.
     *
     * @param step its id.
     */
    void forget(final String step)
    {
        try
        {
            Files.deleteIfExists(file(step));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * @param step a step id.
     * @return the SHA-256 of its record's outputs and values (a dependent step's input), or "none".
     */
    String fingerprint(final String step)
    {
        return record(step).map(r -> sha256Text(r.outputs().toString() + r.values())).orElse("none");
    }

    private Path file(final String step)
    {
        return folder.resolve(step.replace('/', '~') + ".properties");
    }

    private static String escape(final String text)
    {
        return text.replace("\\", "\\\\").replace("\n", "\\n").replace("=", "\\=").replace(":", "\\:");
    }

    /**
     * @param paths files and folders.
     * @return every regular file among them or under them, sorted.
     */
    static List<Path> files(final List<Path> paths)
    {
        final List<Path> files = new ArrayList<>();
        for (final Path path : paths)
        {
            if (Files.isDirectory(path))
            {
                try (var walk = Files.walk(path))
                {
                    walk.filter(Files::isRegularFile).sorted().forEach(files::add);
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException(ex);
                }
            }
            else if (Files.isRegularFile(path))
            {
                files.add(path);
            }
        }
        return files;
    }

    /**
     * @param file a file.
     * @return its SHA-256, hex.
     */
    static String sha256(final Path file)
    {
        try (InputStream in = Files.newInputStream(file))
        {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            final byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) > 0)
            {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot read: " + ex.getMessage(), ex);
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * @param text any text.
     * @return its SHA-256, hex.
     */
    static String sha256Text(final String text)
    {
        try
        {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Writes a file under a temporary name beside it, then renames it into place.
     *
     * @param file the file.
     * @param text its content.
     */
    static void writeAtomically(final Path file, final String text)
    {
        try
        {
            Files.createDirectories(file.getParent());
            final Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
            try (OutputStream o = Files.newOutputStream(temp))
            {
                o.write(text.getBytes(StandardCharsets.UTF_8));
            }
            move(temp, file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": cannot write: " + ex.getMessage(), ex);
        }
    }

    /**
     * Puts a staged file or folder in place: a folder already there is renamed away first and deleted after, so
     * the place holds either the old content or the new, never a mix.
     *
     * @param staged the finished file or folder.
     * @param target where it goes.
     */
    static void publish(final Path staged, final Path target)
    {
        try
        {
            Files.createDirectories(target.getParent());
            if (Files.isDirectory(target))
            {
                final Path old = target.resolveSibling("." + target.getFileName() + ".old");
                deleteTree(old);
                move(target, old);
                move(staged, target);
                deleteTree(old);
            }
            else
            {
                move(staged, target);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot put " + target + " in place: " + ex.getMessage(), ex);
        }
    }

    private static void move(final Path from, final Path to) throws IOException
    {
        try
        {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException ex)
        {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * @param folder a folder to delete with everything in it (nothing when it does not exist).
     */
    static void deleteTree(final Path folder)
    {
        if (!Files.exists(folder))
        {
            return;
        }
        try
        {
            Files.walkFileTree(folder, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) throws IOException
                {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path dir, final IOException exc) throws IOException
                {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + folder + ": " + ex.getMessage(), ex);
        }
    }
}
