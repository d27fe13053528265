package org.jloadgen.sut.network.openai;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>
 * A request ends once ({@link #settle}): answered, failed, or timed out by the watchdog, whichever comes first. A
 * failure is resolved when the exchange is over ({@link #accept}): sent again while the failure policy allows a
 * retry and the engine has had no first token of it, else counted and reported (the run fails, or under
 * {@code on-error=count} the sample fails alone).
 */
final class StreamCall implements HttpResponse.BodyHandler<Void>, HttpResponse.BodySubscriber<Void>,
    BiConsumer<HttpResponse<Void>, Throwable>, SlotPool.Slot
{
    /** Bytes of an error answer kept for the message. */
    static final int ERROR_BODY_MAX = 2048;
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle START_NS;

    static
    {
        try
        {
            START_NS = MethodHandles.lookup().findVarHandle(StreamCall.class, "startNs", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

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
    /** The prompt's request, kept for a retry. */
    private HttpRequest request;
    /** Retries of this sample so far. */
    private int retries;
    /** Whether the engine has had this sample's first token (a retry would give it a second). */
    private boolean firstTokenSent;
    /** A failure to resolve when the exchange is over, or {@code null}. */
    private String failedReason;
    /** The current attempt's start, as {@link #startNs} held it when it began. */
    private long attemptStartNs;
    /**
     * What holds the slot: the exchange (until {@link #accept}) and, once the response came, its body (until
     * {@code onComplete} or {@code onError}). The last to let go frees the slot, so that a stream the watchdog
     * cancelled cannot write into the slot's next request.
     */
    private final java.util.concurrent.atomic.AtomicInteger holds = new java.util.concurrent.atomic.AtomicInteger();
    /** The current exchange, for the watchdog to cancel. */
    private volatile CompletableFuture<HttpResponse<Void>> exchange;
    /**
     * When the stream started, for the watchdog; 0 once the request is settled or the slot is free. Whoever sets it
     * from the attempt's start to 0 ({@link #settle}) decides how the request ends.
     */
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
    void start(final long id, final long index, final HttpRequest prompt)
    {
        responseId = id;
        sample = index;
        request = prompt;
        retries = 0;
        firstTokenSent = false;
        final LlmMetrics metrics = sut.metrics();
        sendNs = metrics.nowNs();
        metrics.sent(sendNs);
        send();
    }

    /**
     * Sends the request (again, for a retry: the client's times still run from the first send).
     */
    private void send()
    {
        promptTokens = -1;
        firstNs = 0;
        itlMinNs = -1;
        itlMaxNs = -1;
        lastEventNs = sendNs;
        status = 0;
        firstToken = false;
        contentEvents = 0;
        usageTokens = -1;
        finished = false;
        failedReason = null;
        lineLength = 0;
        textLength = 0;
        attemptStartNs = System.nanoTime() | 1;
        holds.set(1);
        startNs = attemptStartNs;
        final CompletableFuture<HttpResponse<Void>> sent = sut.client().sendAsync(request, this);
        exchange = sent;
        sent.whenComplete(this);
    }

    /**
     * @return whether this thread settled the current attempt (nobody else did: neither the watchdog nor an earlier
     *         outcome).
     */
    private boolean settle()
    {
        return START_NS.compareAndSet(this, attemptStartNs, 0L);
    }

    @Override
    public boolean timeOut(final long seenStartNs, final String reason)
    {
        if (START_NS.compareAndSet(this, seenStartNs, 0L))
        {
            // Counted failed now; the exchange is cancelled and frees the slot when it ends (accept).
            reportFailure(FleetMonitor.TIMEOUT_CAUSE, reason);
            final CompletableFuture<HttpResponse<Void>> e = exchange;
            if (e != null)
            {
                e.cancel(true);
            }
        }
        return true;
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
        holds.incrementAndGet();
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
                if (startNs == attemptStartNs)
                {
                    firstTokenSent = true;
                    sut.monitor().sink().firstToken(responseId, 0L, 0L);
                }
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
        if (!settle())
        {
            // The watchdog failed it already.
            return;
        }
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

    /**
     * Marks the attempt failed; the failure is resolved (retried or reported) when the exchange is over.
     */
    private void fail(final String reason)
    {
        if (finished)
        {
            return;
        }
        finished = true;
        failedReason = reason;
    }

    /**
     * Counts a failed request in the client's metrics and export, and reports it (the monitor applies the policy).
     */
    private void reportFailure(final String cause, final String reason)
    {
        sut.metrics().failed(cause);
        final RequestExport export = sut.export();
        if (export != null)
        {
            export.record(responseId, sample, endpoint.number(), false, sendNs, firstNs == 0 ? -1 : firstNs - sendNs,
                -1, -1, itlMinNs, itlMaxNs, contentEvents, contentEvents, promptTokens);
        }
        sut.monitor().requestFailed(endpoint, cause, reason, responseId);
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
        if (reason.startsWith(FleetMonitor.TIMEOUT_REASON_PREFIX))
        {
            return FleetMonitor.TIMEOUT_CAUSE;
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
        final CompletableFuture<Void> ended = body;
        letGo();
        ended.completeExceptionally(throwable);
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
        final CompletableFuture<Void> ended = body;
        letGo();
        ended.complete(null);
    }

    @Override
    public CompletionStage<Void> getBody()
    {
        return body;
    }

    /**
     * The exchange is over (answered, failed, or never connected); the slot is freed once the body lets go of it
     * too ({@link #letGo}).
     */
    @Override
    public void accept(final HttpResponse<Void> response, final Throwable failure)
    {
        if (failure != null)
        {
            fail("did not answer: " + FleetMonitor.describe(failure));
        }
        letGo();
    }

    /**
     * The exchange or the body lets go of the slot. The last one resolves a failure (sends the request again while
     * the policy allows a retry, else reports it) and frees the slot: normally the exchange, after its body; the
     * body, when the watchdog cancelled the exchange while it streamed.
     */
    private void letGo()
    {
        if (holds.decrementAndGet() != 0)
        {
            return;
        }
        final String reason = failedReason;
        if (reason != null)
        {
            failedReason = null;
            if (settle())
            {
                final String cause = cause(reason);
                if (!firstTokenSent && sut.monitor().retry(retries, cause))
                {
                    retries++;
                    send();
                    return;
                }
                reportFailure(cause, reason);
            }
        }
        startNs = 0;
        endpoint.pool().release(this);
    }
}
