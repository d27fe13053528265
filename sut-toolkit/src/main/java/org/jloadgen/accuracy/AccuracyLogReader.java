package org.jloadgen.accuracy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import org.jloadgen.clib.IoErrors;

/**
 * Reads {@code mlperf_log_accuracy.json} (spec §8.4; written by {@code loadgen/logging.cc},
 * {@code AsyncLog::LogAccuracy}) as written by LoadGen or JLoadGen: a JSON array of
 * objects with {@code seq_id}, {@code qsl_idx}, {@code data} (hex) and optionally {@code token_data} and
 * {@code token_count}. A small strict parser for exactly that shape, so scoring needs no JSON library; errors
 * name the file and the byte offset.
 */
public final class AccuracyLogReader
{
    /**
     * One logged response.
     *
     * @param seqId      global sample sequence id.
     * @param qslIndex   QSL index.
     * @param data       response bytes.
     * @param tokenCount token count, or -1 if not logged.
     */
    public record Entry(long seqId, long qslIndex, byte[] data, long tokenCount)
    {
    }

    /**
     * Receives entries in file order.
     */
    @FunctionalInterface
    public interface EntryConsumer
    {
        /**
         * @param entry one logged response.
         */
        void accept(Entry entry);
    }

    private final Path file;
    private final String text;
    private int pos;

    private AccuracyLogReader(final Path file, final String text)
    {
        this.file = file;
        this.text = text;
    }

    /**
     * @param file     the accuracy log.
     * @param consumer gets every entry.
     * @return number of entries.
     * @throws IllegalArgumentException on malformed content, naming the file and offset.
     */
    public static long read(final Path file, final EntryConsumer consumer)
    {
        final String text;
        try
        {
            text = Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read accuracy log " + file + ": " + IoErrors.reason(ex), ex);
        }
        return new AccuracyLogReader(file, text).parse(consumer);
    }

    private long parse(final EntryConsumer consumer)
    {
        skipSpace();
        expect('[');
        skipSpace();
        long count = 0;
        if (peek() == ']')
        {
            pos++;
            trailing();
            return 0;
        }
        while (true)
        {
            consumer.accept(entry());
            count++;
            skipSpace();
            final char c = next();
            if (c == ']')
            {
                trailing();
                return count;
            }
            if (c != ',')
            {
                throw error("expected ',' or ']' after an entry");
            }
            skipSpace();
        }
    }

    private Entry entry()
    {
        expect('{');
        long seq = -1;
        long qsl = -1;
        byte[] data = null;
        long tokens = -1;
        skipSpace();
        while (true)
        {
            final String name = string();
            skipSpace();
            expect(':');
            skipSpace();
            switch (name)
            {
                case "seq_id" -> seq = number();
                case "qsl_idx" -> qsl = number();
                case "data" -> data = hex(string());
                case "token_data" -> string();
                case "token_count" -> tokens = number();
                default -> throw error("unknown member \"" + name + "\"");
            }
            skipSpace();
            final char c = next();
            if (c == '}')
            {
                break;
            }
            if (c != ',')
            {
                throw error("expected ',' or '}' in an entry");
            }
            skipSpace();
        }
        if (seq < 0 || qsl < 0 || data == null)
        {
            throw error("entry lacks seq_id, qsl_idx or data");
        }
        return new Entry(seq, qsl, data, tokens);
    }

    private byte[] hex(final String s)
    {
        try
        {
            return HexFormat.of().parseHex(s);
        }
        catch (final IllegalArgumentException ex)
        {
            throw error("data is not hexadecimal: " + ex.getMessage());
        }
    }

    private String string()
    {
        expect('"');
        final int start = pos;
        while (pos < text.length() && text.charAt(pos) != '"')
        {
            if (text.charAt(pos) == '\\')
            {
                throw error("escapes are not expected in an accuracy log");
            }
            pos++;
        }
        if (pos >= text.length())
        {
            throw error("unterminated string");
        }
        return text.substring(start, pos++);
    }

    private long number()
    {
        final int start = pos;
        if (peek() == '-')
        {
            pos++;
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos)))
        {
            pos++;
        }
        try
        {
            return Long.parseLong(text, start, pos, 10);
        }
        catch (final NumberFormatException ex)
        {
            pos = start;
            throw error("expected an integer");
        }
    }

    private void trailing()
    {
        skipSpace();
        if (pos != text.length())
        {
            throw error("unexpected content after the closing ']'");
        }
    }

    private void skipSpace()
    {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos)))
        {
            pos++;
        }
    }

    private char peek()
    {
        if (pos >= text.length())
        {
            throw error("unexpected end of file (truncated log?)");
        }
        return text.charAt(pos);
    }

    private char next()
    {
        final char c = peek();
        pos++;
        return c;
    }

    private void expect(final char c)
    {
        if (next() != c)
        {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(final String message)
    {
        return new IllegalArgumentException(file + ": offset " + pos + ": " + message);
    }
}
