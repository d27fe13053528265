package org.jloadgen.log;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jloadgen.api.TestScenario;
import org.jloadgen.clib.IoErrors;

/**
 * {@code mlperf_log_accuracy.json} byte for byte as LoadGen writes it (spec §8.4; loadgen/logging.cc,
 * AsyncLog::LogAccuracy): a header {@code [}, then per logged sample {@code \n{ "seq_id" : N, "qsl_idx" : N, "data" :
 * "HEX" }} (entries after the first are preceded by a comma), and the footer {@code \n]\n} on close. Payloads are
 * uppercase hex, two characters per byte. With token latencies, Offline entries add {@code "token_count"}, other
 * scenarios add {@code "token_data"} (the first-token payload) and {@code "token_count"}.
 * <p>
 * Entries are streamed as they come (in completion order, like LoadGen), encoded straight into a byte buffer:
 * hand-written rather than {@link java.util.HexFormat}, which would build a String per payload (payloads can be
 * megabytes and there can be tens of thousands of them).
 * The file is written under a temporary name and renamed into place by {@link #close()}. Not thread-safe: one
 * writer thread (the engine's logging thread) owns it.
 */
public final class AccuracyLogWriter implements AutoCloseable
{
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FIRST = ascii("\n{ \"seq_id\" : ");
    private static final byte[] NEXT = ascii(",\n{ \"seq_id\" : ");
    private static final byte[] QSL_IDX = ascii(", \"qsl_idx\" : ");
    private static final byte[] DATA = ascii(", \"data\" : \"");
    private static final byte[] TOKEN_DATA = ascii("\", \"token_data\" : \"");
    private static final byte[] TOKEN_COUNT_AFTER_STRING = ascii("\", \"token_count\" : ");
    private static final byte[] END_AFTER_STRING = ascii("\" }");
    private static final byte[] END_AFTER_NUMBER = ascii(" }");

    /** Which token fields the entries carry. */
    public enum TokenFields
    {
        /** No token latencies: seq_id, qsl_idx, data. */
        NONE,
        /** Offline with token latencies: adds token_count. */
        COUNT,
        /** Other scenarios with token latencies: adds token_data and token_count. */
        DATA_AND_COUNT;

        /**
         * @param scenario          scenario of the run.
         * @param useTokenLatencies whether token latencies are measured.
         * @return the fields LoadGen writes for that run.
         */
        public static TokenFields of(final TestScenario scenario, final boolean useTokenLatencies)
        {
            if (!useTokenLatencies)
            {
                return NONE;
            }
            return scenario == TestScenario.OFFLINE ? COUNT : DATA_AND_COUNT;
        }
    }

    private final Path target;
    private final Path temporary;
    private final OutputStream out;
    private final TokenFields tokenFields;
    private final byte[] scratch = new byte[8192];
    private final byte[] bytes = new byte[4096];
    private long entries;
    private boolean closed;

    /**
     * Creates the file and writes the header.
     *
     * @param target      final path.
     * @param tokenFields token fields of every entry.
     */
    public AccuracyLogWriter(final Path target, final TokenFields tokenFields)
    {
        this.target = target;
        this.temporary = target.resolveSibling(target.getFileName() + ".partial");
        this.tokenFields = tokenFields;
        try
        {
            this.out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16);
            out.write('[');
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create accuracy log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
    }

    /**
     * @return entries written so far.
     */
    public long entries()
    {
        return entries;
    }

    /**
     * Writes an entry with a payload on the heap.
     *
     * @param seqId      sample sequence id.
     * @param qslIndex   QSL index of the sample.
     * @param data       payload.
     * @param offset     first byte.
     * @param length     number of bytes.
     * @param tokenData  first-token payload (DATA_AND_COUNT only), or {@code null} for none.
     * @param tokenCount token count (COUNT and DATA_AND_COUNT only).
     */
    public void write(final long seqId, final long qslIndex, final byte[] data, final int offset, final int length,
        final byte[] tokenData, final long tokenCount)
    {
        try
        {
            begin(seqId, qslIndex);
            hex(data, offset, length);
            end(tokenData == null ? null : MemorySegment.ofArray(tokenData), tokenCount);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write accuracy log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
    }

    /**
     * Writes an entry with a payload in native (or any) memory.
     *
     * @param seqId      sample sequence id.
     * @param qslIndex   QSL index of the sample.
     * @param data       payload; its whole size is written.
     * @param tokenData  first-token payload (DATA_AND_COUNT only), or {@code null} for none.
     * @param tokenCount token count (COUNT and DATA_AND_COUNT only).
     */
    public void write(final long seqId, final long qslIndex, final MemorySegment data, final MemorySegment tokenData,
        final long tokenCount)
    {
        try
        {
            begin(seqId, qslIndex);
            hex(data);
            end(tokenData, tokenCount);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write accuracy log " + temporary + ": " + IoErrors.reason(ex), ex);
        }
    }

    private void begin(final long seqId, final long qslIndex) throws IOException
    {
        out.write(entries == 0 ? FIRST : NEXT);
        decimal(seqId);
        out.write(QSL_IDX);
        decimal(qslIndex);
        out.write(DATA);
        entries++;
    }

    private void end(final MemorySegment tokenData, final long tokenCount) throws IOException
    {
        switch (tokenFields)
        {
            case NONE -> out.write(END_AFTER_STRING);
            case COUNT ->
            {
                out.write(TOKEN_COUNT_AFTER_STRING);
                decimalSigned(tokenCount);
                out.write(END_AFTER_NUMBER);
            }
            case DATA_AND_COUNT ->
            {
                out.write(TOKEN_DATA);
                if (tokenData != null)
                {
                    hex(tokenData);
                }
                out.write(TOKEN_COUNT_AFTER_STRING);
                decimalSigned(tokenCount);
                out.write(END_AFTER_NUMBER);
            }
            default -> throw new IllegalStateException("unknown token fields " + tokenFields);
        }
    }

    private void hex(final byte[] data, final int offset, final int length) throws IOException
    {
        final byte[] buffer = scratch;
        int at = 0;
        for (int i = offset, end = offset + length; i < end; i++)
        {
            if (at == buffer.length)
            {
                out.write(buffer, 0, at);
                at = 0;
            }
            final int b = data[i] & 0xFF;
            buffer[at++] = HEX[b >>> 4];
            buffer[at++] = HEX[b & 0x0F];
        }
        out.write(buffer, 0, at);
    }

    private void hex(final MemorySegment data) throws IOException
    {
        // Copy in chunks onto the heap, then encode: one bulk copy instead of a bounds-checked read per byte.
        final byte[] chunk = bytes;
        for (long at = 0, size = data.byteSize(); at < size; at += chunk.length)
        {
            final int length = (int)Math.min(chunk.length, size - at);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, at, chunk, 0, length);
            hex(chunk, 0, length);
        }
    }

    /** Unsigned decimal (seq_id and qsl_idx are uint64 / size_t). */
    private void decimal(final long value) throws IOException
    {
        if (value >= 0 && value < 10)
        {
            out.write('0' + (int)value);
            return;
        }
        out.write(ascii(Long.toUnsignedString(value)));
    }

    /** Signed decimal (n_tokens is int64). */
    private void decimalSigned(final long value) throws IOException
    {
        out.write(ascii(Long.toString(value)));
    }

    private static byte[] ascii(final String s)
    {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /**
     * Writes the footer, closes the file and renames it into place. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            out.write(ascii("\n]\n"));
            out.close();
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot finish accuracy log " + target + ": " + IoErrors.reason(ex), ex);
        }
    }
}
