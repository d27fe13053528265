package org.jloadgen.sut.network.openai;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.BiConsumer;

import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.SlotPool;

/**
 * One stream slot of a server: at most one streaming request at a time, its server-sent events read as they
 * arrive, on the HTTP client's thread: the first event that carries generated text records the first token
 * ({@code ResponseSink.firstToken}), {@code data: [DONE]} (or the end of the stream) completes the sample with the
 * generated text as its response and the token count (the usage chunk's {@code completion_tokens}, else the
 * number of text events). Buffers and parser are reused from request to request.
 */
final class StreamCall implements HttpResponse.BodyHandler<Void>, HttpResponse.BodySubscriber<Void>,
    BiConsumer<HttpResponse<Void>, Throwable>, SlotPool.Slot
{
    /** Bytes of an error answer kept for the message. */
    static final int ERROR_BODY_MAX = 2048;
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    private final Endpoint endpoint;
    private final OpenAiSut sut;
    private final StreamChunk chunk = new StreamChunk();
    private byte[] line = new byte[1024];
    private int lineLength;
    private byte[] text = new byte[1024];
    private int textLength;
    private long responseId;
    private int status;
    private boolean firstToken;
    private long contentEvents;
    private long usageTokens;
    private long promptTokens;
    private long sample;
    private long sendNs;
    private long firstNs;
    private long lastEventNs;
    private long itlMinNs;
    private long itlMaxNs;
    private boolean finished;
    private CompletableFuture<Void> body;
    /** When the stream started, for the watchdog; 0 while the slot is free. */
    private volatile long startNs;

    StreamCall(final Endpoint endpoint, final OpenAiSut sut)
    {
        this.endpoint = endpoint;
        this.sut = sut;
    }

    /**
     * Sends a prompt. Issuing thread.
     *
     * @param id       the sample's response id.
     * @param index    the prompt's QSL index (its line among the prompts), for the export.
     * @param request  the prompt's request to this server.
     */
    void start(final long id, final long index, final HttpRequest request)
    {
        responseId = id;
        sample = index;
        promptTokens = -1;
        firstNs = 0;
        itlMinNs = -1;
        itlMaxNs = -1;
        final LlmMetrics metrics = sut.metrics();
        sendNs = metrics.nowNs();
        lastEventNs = sendNs;
        metrics.sent(sendNs);
        status = 0;
        firstToken = false;
        contentEvents = 0;
        usageTokens = -1;
        finished = false;
        lineLength = 0;
        textLength = 0;
        startNs = System.nanoTime() | 1;
        sut.client().sendAsync(request, this).whenComplete(this);
    }

    /**
     * @return the server of this slot.
     */
    Endpoint endpoint()
    {
        return endpoint;
    }

    @Override
    public long startNs()
    {
        return startNs;
    }

    @Override
    public HttpResponse.BodySubscriber<Void> apply(final HttpResponse.ResponseInfo info)
    {
        status = info.statusCode();
        body = new CompletableFuture<>();
        return this;
    }

    @Override
    public void onSubscribe(final Flow.Subscription subscription)
    {
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(final List<ByteBuffer> buffers)
    {
        for (final ByteBuffer buffer : buffers)
        {
            while (buffer.hasRemaining())
            {
                final byte b = buffer.get();
                if (status != 200)
                {
                    // An error answer: keep its start for the message.
                    append(b, ERROR_BODY_MAX);
                }
                else if (b == '\n')
                {
                    line(lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength);
                    lineLength = 0;
                }
                else
                {
                    append(b, Integer.MAX_VALUE);
                }
            }
        }
    }

    private void append(final byte b, final int limit)
    {
        if (lineLength == line.length)
        {
            if (lineLength >= limit)
            {
                return;
            }
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[lineLength++] = b;
    }

    private void line(final int length)
    {
        if (finished || length < DATA.length || !Arrays.equals(line, 0, DATA.length, DATA, 0, DATA.length))
        {
            // Blank lines end events; comments (":") and other fields carry nothing the client needs.
            return;
        }
        int from = DATA.length;
        if (from < length && line[from] == ' ')
        {
            from++;
        }
        if (Arrays.equals(line, from, length, DONE, 0, DONE.length))
        {
            finish();
            return;
        }
        try
        {
            chunk.parse(line, from, length - from);
        }
        catch (final java.io.IOException ex)
        {
            fail("sent an event that is not JSON: " + new String(line, from, Math.min(200, length - from),
                StandardCharsets.UTF_8));
            return;
        }
        if (chunk.error() != null)
        {
            fail("sent an error event: " + chunk.error());
            return;
        }
        // usage=false counts text events, as documented, even where a server sends a usage chunk unasked.
        if (chunk.completionTokens() >= 0 && sut.countsUsage())
        {
            usageTokens = chunk.completionTokens();
        }
        if (chunk.promptTokens() >= 0 && sut.countsUsage())
        {
            promptTokens = chunk.promptTokens();
        }
        final CharSequence content = chunk.content();
        if (content.length() > 0)
        {
            final long nowNs = sut.metrics().nowNs();
            if (firstToken)
            {
                final long gapNs = nowNs - lastEventNs;
                sut.metrics().interTokenGap(gapNs);
                itlMinNs = itlMinNs < 0 ? gapNs : Math.min(itlMinNs, gapNs);
                itlMaxNs = Math.max(itlMaxNs, gapNs);
            }
            else
            {
                firstNs = nowNs;
            }
            lastEventNs = nowNs;
            sut.afterTextEvent();
            if (!firstToken)
            {
                firstToken = true;
                sut.monitor().sink().firstToken(responseId, 0L, 0L);
            }
            contentEvents++;
            appendText(content);
        }
    }

    private void appendText(final CharSequence content)
    {
        final byte[] utf8 = content.toString().getBytes(StandardCharsets.UTF_8);
        if (textLength + utf8.length > text.length)
        {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textLength + utf8.length));
        }
        System.arraycopy(utf8, 0, text, textLength, utf8.length);
        textLength += utf8.length;
    }

    private void finish()
    {
        if (finished)
        {
            return;
        }
        finished = true;
        final long endNs = sut.metrics().nowNs();
        final long tokens = usageTokens >= 0 ? usageTokens : contentEvents;
        sut.metrics().answered(sendNs, firstNs, endNs, tokens, promptTokens);
        final RequestExport export = sut.export();
        if (export != null)
        {
            final long e2e = endNs - sendNs;
            final long ttft = firstNs == 0 ? -1 : firstNs - sendNs;
            export.record(responseId, sample, endpoint.number(), true, sendNs, ttft, e2e,
                tokens > 1 && ttft >= 0 ? (e2e - ttft) / (tokens - 1) : -1, itlMinNs, itlMaxNs, contentEvents, tokens,
                promptTokens);
        }
        endpoint.pool().answered();
        sut.monitor().sink().complete(responseId, text, 0, textLength, tokens);
    }

    private void fail(final String reason)
    {
        if (finished)
        {
            return;
        }
        finished = true;
        sut.metrics().failed(cause(reason));
        final RequestExport export = sut.export();
        if (export != null)
        {
            export.record(responseId, sample, endpoint.number(), false, sendNs, firstNs == 0 ? -1 : firstNs - sendNs,
                -1, -1, itlMinNs, itlMaxNs, contentEvents, contentEvents, promptTokens);
        }
        sut.monitor().requestFailed(endpoint, reason);
    }

    /**
     * @param reason a failure's message.
     * @return its cause, short, for counting: {@code HTTP 429}, {@code error event}, {@code broken stream}...
     */
    static String cause(final String reason)
    {
        if (reason.startsWith("answered HTTP "))
        {
            final int end = reason.indexOf(':');
            return reason.substring("answered ".length(), end < 0 ? reason.length() : end);
        }
        if (reason.startsWith("sent an error event"))
        {
            return "error event";
        }
        if (reason.startsWith("sent an event that is not JSON"))
        {
            return "malformed event";
        }
        if (reason.startsWith("broke off the stream"))
        {
            return "broken stream";
        }
        if (reason.startsWith("did not answer"))
        {
            return "no answer";
        }
        return "other";
    }

    @Override
    public void onError(final Throwable throwable)
    {
        fail("broke off the stream: " + FleetMonitor.describe(throwable));
        body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete()
    {
        if (status != 200)
        {
            fail("answered HTTP " + status + ": " + new String(line, 0, lineLength, StandardCharsets.UTF_8).strip());
        }
        else
        {
            if (lineLength > 0)
            {
                line(lineLength);
            }
            // A stream that ends without [DONE] still ends the sample.
            finish();
        }
        body.complete(null);
    }

    @Override
    public CompletionStage<Void> getBody()
    {
        return body;
    }

    /**
     * The exchange is over (answered, failed, or never connected): frees the slot.
     */
    @Override
    public void accept(final HttpResponse<Void> response, final Throwable failure)
    {
        if (failure != null)
        {
            fail("did not answer: " + FleetMonitor.describe(failure));
        }
        startNs = 0;
        endpoint.pool().release(this);
    }
}
