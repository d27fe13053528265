package org.jloadgen.sut.network.openai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SutLogNotes;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.concurrent.CpuBudget;
import org.jloadgen.sut.network.FailurePolicy;
import org.jloadgen.sut.network.FleetMonitor;
import org.jloadgen.sut.network.TransportCpus;

/**
 * A Network SUT of OpenAI-compatible LLM servers (vLLM, TGI, SGLang...): each sample is one streaming
 * {@code /v1/completions} or {@code /v1/chat/completions} request on the JDK's {@link HttpClient} (HTTP/1.1
 * keep-alive connections or HTTP/2 streams), its server-sent events turned into LoadGen's token events: the first
 * generated text is the first token (TTFT), the end of the stream completes the sample with its token count, so
 * TTFT and TPOT come out as LoadGen computes them.
 * <p>
 * As a QDL it sends the prompt as it is and returns the generated text as it is. A server that refuses, answers
 * an HTTP error or an error event, breaks off a stream or leaves one unfinished for {@code timeout-ms} fails the
 * run naming the server and the samples lost on it; under {@code on-error=count} that request's sample fails alone
 * and the run goes on ({@link org.jloadgen.sut.network.FailurePolicy}).
 */
public final class OpenAiSut implements SystemUnderTest, SutLogNotes, AutoCloseable
{
    private static final JsonFactory JSON = new JsonFactory();
    /** Longest park of the issuing thread while every stream slot is busy. */
    static final long WAIT_MAX_PARK_NS = 50_000;

    private final OpenAiOptions options;
    private LlmMetrics metrics;
    private final RequestExport export;
    private Runnable afterTextEvent = () -> { };
    private final PromptLibrary prompts;
    private final HttpClient client;
    private final Endpoint[] endpoints;
    private final IdleStrategy waitIdle = new BackoffIdleStrategy(100, 20, 1_000, WAIT_MAX_PARK_NS);
    private final FleetMonitor monitor;
    private final TransportCpus transportCpus;
    /** Issuing thread only. */
    private int nextEndpoint;
    /** Samples issued after a failure and not sent. Issuing thread; read after the run. */
    private long notSent;

    /**
     * @param options the options.
     * @param prompts the prompts.
     * @param client  the HTTP client.
     */
    OpenAiSut(final OpenAiOptions options, final PromptLibrary prompts, final HttpClient client)
    {
        this.options = options;
        this.prompts = prompts;
        this.client = client;
        this.metrics = new LlmMetrics(System::nanoTime, options.slos());
        this.export = options.requestsFile() == null ? null : new RequestExport(options.requestsFile());
        final List<URI> urls = options.urls();
        this.endpoints = new Endpoint[urls.size()];
        for (int i = 0; i < endpoints.length; i++)
        {
            endpoints[i] = new Endpoint(i, urls.get(i), options.inFlight(), this);
        }
        this.monitor = new FleetMonitor(List.of(endpoints), options.requestTimeoutMs(), "jloadgen-openai-watchdog",
            options.failurePolicy());
        // The JDK client reads every connection on its selector thread and runs the body handlers (the event
        // parsing that completes samples) on its executor's threads: two busy threads at least.
        this.transportCpus = TransportCpus.register(CpuBudget.process(), HTTP_CLIENT_THREADS, "OpenAI client: JDK "
            + "HttpClient selector and response threads", urls.stream().map(u -> "server " + u).toList(),
            urls.stream().map(URI::getHost).toList());
    }

    /** The JDK HttpClient's threads counted against the CPU budget: its selector and a response thread. */
    static final int HTTP_CLIENT_THREADS = 2;

    /**
     * @param options the options.
     * @return an HTTP client for them.
     */
    static HttpClient newClient(final OpenAiOptions options)
    {
        return HttpClient.newBuilder()
            .version(options.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofMillis(Math.max(1, options.connectTimeoutMs())))
            .build();
    }

    /**
     * Checks that every server answers {@code GET /v1/models} and lists the model.
     *
     * @param options the options.
     * @param client  the HTTP client.
     * @throws IllegalArgumentException naming the server that does not answer or lacks the model.
     */
    static void check(final OpenAiOptions options, final HttpClient client)
    {
        for (final URI url : options.urls())
        {
            final List<String> models = models(url, client, options);
            if (models != null && !models.contains(options.model()))
            {
                throw new IllegalArgumentException("server " + url + " does not serve model '" + options.model()
                    + "'; it serves " + models);
            }
        }
    }

    /**
     * @return the models the server lists, or {@code null} when it has no {@code /v1/models}.
     */
    private static List<String> models(final URI url, final HttpClient client, final OpenAiOptions options)
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "/v1/models"))
            .timeout(Duration.ofMillis(Math.max(1, options.connectTimeoutMs()))).GET();
        if (options.apiKey() != null)
        {
            request.header("Authorization", "Bearer " + options.apiKey());
        }
        final HttpResponse<byte[]> response;
        try
        {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("server " + url + " is not reachable: " + FleetMonitor.describe(ex),
                ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + url + " for its models", ex);
        }
        if (response.statusCode() == 404)
        {
            return null;
        }
        if (response.statusCode() != 200)
        {
            throw new IllegalArgumentException("server " + url + " answered GET /v1/models with HTTP "
                + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8).strip());
        }
        final List<String> ids = new ArrayList<>();
        try (JsonParser p = JSON.createParser(response.body()))
        {
            // {"object": "list", "data": [{"id": "model", ...}, ...]}: every "id" inside "data".
            int depth = 0;
            boolean inData = false;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken())
            {
                if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY)
                {
                    depth++;
                }
                else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY)
                {
                    depth--;
                    inData &= depth > 1;
                }
                else if (t == JsonToken.FIELD_NAME && depth == 1 && "data".equals(p.currentName()))
                {
                    inData = true;
                }
                else if (t == JsonToken.FIELD_NAME && inData && depth == 3 && "id".equals(p.currentName()))
                {
                    p.nextToken();
                    ids.add(p.getValueAsString());
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("server " + url + " answered GET /v1/models with something other "
                + "than JSON: " + ex.getMessage(), ex);
        }
        return ids;
    }

    /**
     * Asks every server for its models (a network round trip each).
     *
     * @return {@code JLoadGen Network SUT (OpenAI-compatible streaming) model M on N servers: url, ...}.
     */
    @Override
    public String name()
    {
        final StringBuilder b = new StringBuilder("JLoadGen Network SUT (OpenAI-compatible streaming, ")
            .append(options.chat() ? "chat" : "completions").append(") model ").append(options.model()).append(" on ")
            .append(endpoints.length).append(endpoints.length == 1 ? " server: " : " servers: ");
        for (int i = 0; i < endpoints.length; i++)
        {
            try
            {
                models(endpoints[i].url(), client, options);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new UncheckedIOException(ex.getMessage(), new IOException(ex.getMessage(), ex));
            }
            b.append(i == 0 ? "" : ", ").append(endpoints[i].url());
        }
        return b.toString();
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        monitor.sink(sink);
        final int n = samples.size();
        for (int i = 0; i < n; i++)
        {
            final StreamCall call = takeSlot();
            if (call == null)
            {
                // The run failed (the engine knows); the rest of this query is not sent.
                notSent += n - i;
                return;
            }
            final int position = samples.loadedPosition(i);
            call.start(samples.responseId(i), samples.sampleIndex(i), prompts.request(call.endpoint().number(),
                position));
        }
    }

    private StreamCall takeSlot()
    {
        final IdleStrategy idle = waitIdle;
        while (true)
        {
            if (monitor.failure() != null)
            {
                return null;
            }
            final Endpoint[] all = endpoints;
            // The server with the most free slots; ties go to the next one in turn.
            Endpoint best = null;
            int bestFree = 0;
            for (int k = 0, at = nextEndpoint; k < all.length; k++, at = at + 1 == all.length ? 0 : at + 1)
            {
                final int free = all[at].pool().freeSlots();
                if (free > bestFree)
                {
                    best = all[at];
                    bestFree = free;
                }
            }
            if (best != null)
            {
                final StreamCall call = best.pool().take();
                if (call != null)
                {
                    nextEndpoint = best.number() + 1 == all.length ? 0 : best.number() + 1;
                    idle.reset();
                    return call;
                }
            }
            idle.idle();
        }
    }

    @Override
    public void flushQueries()
    {
        // Every prompt went out when it was issued.
    }

    /**
     * @return the client's LLM metrics.
     */
    LlmMetrics metrics()
    {
        return metrics;
    }

    /**
     * @return the per-request export, or {@code null}.
     */
    RequestExport export()
    {
        return export;
    }

    /**
     * Tests: the clock the metrics read (a stepped one), and what to do after each text event is timed.
     *
     * @param clock the clock.
     * @param after run on the HTTP client's thread after each text event's reading.
     */
    void metricsClock(final org.agrona.concurrent.NanoClock clock, final Runnable after)
    {
        metrics = new LlmMetrics(clock, options.slos());
        afterTextEvent = after;
    }

    /**
     * A text event was timed (for tests that step a clock).
     */
    void afterTextEvent()
    {
        afterTextEvent.run();
    }

    /**
     * @return the LLM metrics of the run as JLoadGen's own detail-log records.
     */
    @Override
    public List<Note> notesAfterRun()
    {
        metrics.collect();
        final List<Note> notes = new ArrayList<>(metrics.notes());
        notes.add(new Note(FailurePolicy.POLICY_KEY, options.failurePolicy().describe()));
        notes.add(new Note(FailurePolicy.CAUSES_KEY, monitor.causesValue()));
        notes.add(new Note(FailurePolicy.RETRIES_KEY, monitor.retries()));
        if (export != null)
        {
            export.flush();
            notes.add(new Note(LlmMetrics.KEY + "requests_file", options.requestsFile().toString()));
        }
        return notes;
    }

    /**
     * @return under {@code on-error=count}, JLoadGen's summary lines: the client's counts, one line per failure
     *         cause, and the goodput against the SLOs; nothing under LoadGen's policy, whose summary stays LoadGen's.
     */
    @Override
    public List<String> summaryAfterRun()
    {
        if (!options.failurePolicy().count())
        {
            return List.of();
        }
        metrics.collect();
        final List<String> lines = new ArrayList<>();
        lines.add("openai SUT (" + options.failurePolicy().describe() + "): " + describeTotals());
        for (final String cause : monitor.describeCauses())
        {
            lines.add("  " + cause);
        }
        lines.add(metrics.goodputLine());
        return lines;
    }

    /**
     * @return the LLM metrics for the console, and where the per-request export went.
     */
    public String describeMetrics()
    {
        metrics.collect();
        return metrics.describe() + (export == null ? "" : "\n  per request: " + export.describe());
    }

    /**
     * @return whether a sample's token count is the usage chunk's ({@code usage=true}) rather than its text events.
     */
    boolean countsUsage()
    {
        return options.usage();
    }

    /**
     * @return the HTTP client the streams use.
     */
    HttpClient client()
    {
        return client;
    }

    /**
     * @return what watches the servers and fails the run.
     */
    FleetMonitor monitor()
    {
        return monitor;
    }

    /**
     * @return the first failure, or {@code null}.
     */
    public String failure()
    {
        return monitor.failure();
    }

    /**
     * @return one line per server: sent, answered, failed.
     */
    public String describeServers()
    {
        return monitor.describeMembers();
    }

    /**
     * @return one line per failure cause with its counts (each after a newline, indented), or nothing.
     */
    public String describeFailures()
    {
        final StringBuilder b = new StringBuilder();
        for (final String line : monitor.describeCauses())
        {
            b.append("\n  ").append(line);
        }
        return b.toString();
    }

    /**
     * @return the totals over every server, with the samples not sent after a failure.
     */
    public String describeTotals()
    {
        return monitor.describeTotals(notSent);
    }

    /**
     * Stops the watchdog and the HTTP client (open streams are abandoned).
     */
    @Override
    public void close()
    {
        monitor.close();
        transportCpus.close();
        client.shutdownNow();
        if (export != null)
        {
            export.close();
        }
    }
}
