package org.jloadgen.sut.network.openai;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An in-process OpenAI-compatible server (the JDK's HTTP server) that streams scripted answers: prompt
 * {@code "prompt K"} gets {@link #tokens(int)} tokens {@code " tK.0", " tK.1", ...}, as completions or chat
 * events, then a usage event when asked for and {@code data: [DONE]}.
 * <p>
 * Timing is either real (sleeps) or stepped: the server moves a {@link SteppedClock} by the time to first token
 * before the first event and by the time per output token before each later one, and waits after the first event
 * and after the last until the client has recorded it, so the engine's timestamps are exactly the scripted ones.
 */
final class FakeLlmServer implements AutoCloseable
{
    /** The model the server serves. */
    static final String MODEL = "tiny-llm";
    private static final Pattern PROMPT = Pattern.compile("prompt (\\d+)");

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(16);
    private final long ttftNs;
    private final long tpotNs;
    private final SteppedClock clock;
    private final Semaphore firstTokenSeen = new Semaphore(0);
    private final Semaphore completed = new Semaphore(0);
    private final AtomicInteger requests = new AtomicInteger();
    private volatile int failPrompt = -1;
    private volatile int rateLimitEvery;
    private volatile boolean usageAlways;
    private final Semaphore textTimed = new Semaphore(0);
    private volatile boolean stepEachToken;
    private volatile boolean failWithEvent;
    private volatile int stallPrompt = -1;
    private volatile long stallMs;

    /**
     * @param ttftNs time to first token.
     * @param tpotNs time per output token after the first.
     * @param clock  a stepped clock to move instead of sleeping, or {@code null} for real time.
     * @throws IOException when the port cannot be bound.
     */
    FakeLlmServer(final long ttftNs, final long tpotNs, final SteppedClock clock) throws IOException
    {
        this.ttftNs = ttftNs;
        this.tpotNs = tpotNs;
        this.clock = clock;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(executor);
        server.createContext("/v1/models", this::models);
        server.createContext("/v1/completions", ex -> stream(ex, false));
        server.createContext("/v1/chat/completions", ex -> stream(ex, true));
        server.start();
    }

    /**
     * @param prompt a prompt's number.
     * @return the tokens the server generates for it.
     */
    static int tokens(final int prompt)
    {
        return 3 + prompt % 5;
    }

    /**
     * @param prompt a prompt's number.
     * @return the text the server generates for it.
     */
    static String text(final int prompt)
    {
        final StringBuilder b = new StringBuilder();
        for (int t = 0; t < tokens(prompt); t++)
        {
            b.append(" t").append(prompt).append('.').append(t);
        }
        return b.toString();
    }

    /**
     * @return {@code http://127.0.0.1:PORT}.
     */
    String url()
    {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * @return streaming requests received.
     */
    int requests()
    {
        return requests.get();
    }

    /**
     * Makes the server fail the stream of one prompt: an HTTP 500, or an error event after the first token.
     *
     * @param prompt  the prompt's number.
     * @param asEvent whether to fail with an error event instead of a status.
     */
    void failOn(final int prompt, final boolean asEvent)
    {
        failPrompt = prompt;
        failWithEvent = asEvent;
    }

    /**
     * Makes the server stall the stream of one prompt after its first token, for real time.
     *
     * @param prompt the prompt's number.
     * @param ms     how long.
     */
    void stallOn(final int prompt, final long ms)
    {
        stallMs = ms;
        stallPrompt = prompt;
    }

    /**
     * The client recorded a first token (stepped timing).
     */
    void firstTokenRecorded()
    {
        firstTokenSeen.release();
    }

    /**
     * @param every answer HTTP 429 (rate limited) to every {@code every}-th streaming request (0: never).
     */
    void rateLimitEvery(final int every)
    {
        rateLimitEvery = every;
    }

    /**
     * Sends a usage chunk whether asked or not, with a token count unlike the text events' (as a server that counts
     * its tokens otherwise would).
     */
    void usageAlways()
    {
        usageAlways = true;
    }

    /**
     * Stepped timing: waits, after each text event, until the client has timed it ({@link #textTimed()}).
     */
    void stepEachToken()
    {
        stepEachToken = true;
    }

    /**
     * The client timed a text event (stepped timing).
     */
    void textTimed()
    {
        textTimed.release();
    }

    /**
     * The client completed a sample (stepped timing).
     */
    void completionRecorded()
    {
        completed.release();
    }

    private void models(final HttpExchange ex) throws IOException
    {
        final byte[] body = ("{\"object\":\"list\",\"data\":[{\"id\":\"" + MODEL + "\",\"object\":\"model\","
            + "\"owned_by\":\"test\"}]}").getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody())
        {
            out.write(body);
        }
    }

    private void stream(final HttpExchange ex, final boolean chat) throws IOException
    {
        final int number = requests.incrementAndGet();
        final String request = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        final Matcher m = PROMPT.matcher(request);
        if (!request.contains("\"stream\":true") || !request.contains("\"model\":\"" + MODEL + "\"") || !m.find())
        {
            reply(ex, 400, "{\"object\":\"error\",\"message\":\"bad request: " + request.replace("\"", "'") + "\"}");
            return;
        }
        final int prompt = Integer.parseInt(m.group(1));
        final int every = rateLimitEvery;
        if (every > 0 && number % every == 0)
        {
            reply(ex, 429, "{\"object\":\"error\",\"message\":\"rate limit reached, retry later\"}");
            return;
        }
        if (prompt == failPrompt && !failWithEvent)
        {
            reply(ex, 500, "{\"object\":\"error\",\"message\":\"the engine is out of KV cache\"}");
            return;
        }
        final boolean usage = usageAlways || request.contains("\"include_usage\":true");
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody())
        {
            if (chat)
            {
                // Chat streams open with a role-only event: not a token.
                event(out, "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"},\"finish_reason\":null}]}");
            }
            final int n = tokens(prompt);
            for (int t = 0; t < n; t++)
            {
                pass(t == 0 ? ttftNs : tpotNs);
                final String piece = " t" + prompt + "." + t;
                event(out, chat
                    ? "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + piece + "\"},\"finish_reason\":null}]}"
                    : "{\"id\":\"cmpl-" + prompt + "\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,"
                        + "\"text\":\"" + piece + "\",\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}");
                if (stepEachToken)
                {
                    // Stepped timing of every token: the clock moves on only once the client has timed this one.
                    await(textTimed);
                }
                if (t == 0 && prompt == stallPrompt)
                {
                    out.flush();
                    pass(stallMs * 1_000_000);
                }
                if (t == 0)
                {
                    await(firstTokenSeen);
                    if (prompt == failPrompt)
                    {
                        event(out, "{\"error\":{\"message\":\"request cancelled by the scheduler\",\"code\":503}}");
                        return;
                    }
                }
            }
            if (usage)
            {
                event(out, "{\"choices\":[],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":"
                    + (usageAlways ? n + 100 : n) + ",\"total_tokens\":" + (n + 2) + "}}");
            }
            event(out, "[DONE]");
        }
        await(completed);
    }

    private static void event(final OutputStream out, final String data) throws IOException
    {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void reply(final HttpExchange ex, final int status, final String body) throws IOException
    {
        final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody())
        {
            out.write(bytes);
        }
    }

    private void pass(final long ns)
    {
        if (clock != null)
        {
            clock.advance(ns);
            return;
        }
        try
        {
            TimeUnit.NANOSECONDS.sleep(ns);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void await(final Semaphore signal)
    {
        if (clock == null)
        {
            return;
        }
        try
        {
            if (!signal.tryAcquire(30, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the client did not record the event within 30 s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        server.stop(0);
        executor.shutdownNow();
    }
}
