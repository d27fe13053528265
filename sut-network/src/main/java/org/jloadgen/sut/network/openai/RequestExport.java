package org.jloadgen.sut.network.openai;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The per-request export ({@code --sut-opt requests-file=FILE.jsonl}): one JSON line per request, written by a
 * thread of its own while the run goes on. The HTTP client's threads only copy a fixed record of longs into a
 * many-to-one ring buffer (no allocation, no formatting, no I/O); the writer formats and writes. A full ring (the
 * writer far behind) drops the record and counts it; the count is in the last line and on the console.
 * <p>
 * Each line: {@code {"request":N,"sample":N,"server":N,"ok":true,"send_ns":N,"ttft_ns":N,"e2e_ns":N,"tpot_ns":N,
 * "itl_min_ns":N,"itl_max_ns":N,"events":N,"output_tokens":N,"input_tokens":N}} (times from the send, as the client
 * measured them; {@code send_ns} from the first send of the run; {@code input_tokens} -1 without {@code usage=true};
 * a failed request has {@code "ok":false} and only what it got to).
 */
final class RequestExport implements AutoCloseable
{
    /** Ring capacity: 4 MiB of records, about 40,000 requests ahead of the writer. */
    static final int RING_BYTES = 4 << 20;
    private static final int MSG_TYPE = 1;
    private static final int FIELDS = 13;
    private static final int RECORD_BYTES = FIELDS * Long.BYTES;

    private final Path file;
    private final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
        ByteBuffer.allocateDirect(RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final BufferedWriter out;
    private final Thread writer;
    private final long[] fields = new long[FIELDS];
    private final org.agrona.concurrent.MessageHandler handler = (type, buffer, index, length) -> write(buffer, index);
    private volatile boolean closing;
    private volatile long originNs = Long.MIN_VALUE;
    private volatile IOException failure;

    /**
     * Opens the file and starts the writer.
     *
     * @param file where the lines go (created or truncated).
     * @throws IllegalArgumentException naming the file when it cannot be written.
     */
    RequestExport(final Path file)
    {
        this.file = file;
        try
        {
            final Path parent = file.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("requests-file " + file + " cannot be written: " + ex.getMessage(),
                ex);
        }
        this.writer = new Thread(this::drain, "jloadgen-openai-export");
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * @return the file.
     */
    Path file()
    {
        return file;
    }

    /**
     * Records one request. Any thread; no allocation.
     *
     * @param request      the sample's response id.
     * @param sample       the prompt's QSL index (its line among the prompts, blank lines skipped).
     * @param server       the server's number.
     * @param ok           whether it was answered.
     * @param sendNs       when it was sent.
     * @param ttftNs       send to first text, or -1.
     * @param e2eNs        send to the end of the stream, or -1.
     * @param tpotNs       (e2e - ttft) / (tokens - 1), or -1.
     * @param itlMinNs     shortest gap between text events, or -1.
     * @param itlMaxNs     longest, or -1.
     * @param events       text events.
     * @param outputTokens output tokens.
     * @param inputTokens  input tokens, or -1.
     */
    void record(final long request, final long sample, final long server, final boolean ok, final long sendNs,
        final long ttftNs, final long e2eNs, final long tpotNs, final long itlMinNs, final long itlMaxNs,
        final long events, final long outputTokens, final long inputTokens)
    {
        if (originNs == Long.MIN_VALUE)
        {
            originNs = sendNs;
        }
        final int index = ring.tryClaim(MSG_TYPE, RECORD_BYTES);
        if (index <= 0)
        {
            dropped.incrementAndGet();
            return;
        }
        final MutableDirectBuffer b = ring.buffer();
        int at = index;
        b.putLong(at, request);
        b.putLong(at += Long.BYTES, sample);
        b.putLong(at += Long.BYTES, server);
        b.putLong(at += Long.BYTES, ok ? 1 : 0);
        b.putLong(at += Long.BYTES, sendNs);
        b.putLong(at += Long.BYTES, ttftNs);
        b.putLong(at += Long.BYTES, e2eNs);
        b.putLong(at += Long.BYTES, tpotNs);
        b.putLong(at += Long.BYTES, itlMinNs);
        b.putLong(at += Long.BYTES, itlMaxNs);
        b.putLong(at += Long.BYTES, events);
        b.putLong(at += Long.BYTES, outputTokens);
        b.putLong(at + Long.BYTES, inputTokens);
        ring.commit(index);
    }

    private void drain()
    {
        while (true)
        {
            final boolean last = closing;
            final int n = ring.read(handler);
            if (n == 0)
            {
                if (last)
                {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    private void write(final org.agrona.DirectBuffer buffer, final int index)
    {
        for (int i = 0; i < FIELDS; i++)
        {
            fields[i] = buffer.getLong(index + i * Long.BYTES);
        }
        final long origin = originNs;
        final String line = "{\"request\":" + fields[0] + ",\"sample\":" + fields[1] + ",\"server\":" + fields[2]
            + ",\"ok\":" + (fields[3] == 1) + ",\"send_ns\":" + (fields[4] - origin) + ",\"ttft_ns\":" + fields[5]
            + ",\"e2e_ns\":" + fields[6] + ",\"tpot_ns\":" + fields[7] + ",\"itl_min_ns\":" + fields[8]
            + ",\"itl_max_ns\":" + fields[9] + ",\"events\":" + fields[10] + ",\"output_tokens\":" + fields[11]
            + ",\"input_tokens\":" + fields[12] + "}\n";
        try
        {
            out.write(line);
            written.incrementAndGet();
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
    }

    /**
     * @return e.g. {@code 1200 requests written to out/requests.jsonl}.
     */
    String describe()
    {
        final long lost = dropped.get();
        return written.get() + " requests written to " + file + (lost > 0 ? " (" + lost + " dropped: the writer "
            + "fell behind)" : "");
    }

    /**
     * Waits until the writer has written every record so far, and flushes the file (after the run).
     */
    void flush()
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ring.producerPosition() != ring.consumerPosition() && System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        try
        {
            out.flush();
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
    }

    /**
     * Writes what is left and closes the file.
     */
    @Override
    public void close()
    {
        closing = true;
        try
        {
            writer.join(TimeUnit.SECONDS.toMillis(30));
            out.flush();
            out.close();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("requests-file " + file + ": " + ex.getMessage(), ex);
        }
        if (failure != null)
        {
            throw new UncheckedIOException("requests-file " + file + ": " + failure.getMessage(), failure);
        }
    }
}
