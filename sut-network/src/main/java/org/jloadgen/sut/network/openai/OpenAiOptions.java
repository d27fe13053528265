package org.jloadgen.sut.network.openai;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;
import org.jloadgen.sut.network.FailurePolicy;

/**
 * The options of {@code --sut openai}; each field is the {@code --sut-opt} key of the same name.
 *
 * @param urls         {@code url=http://host:port[,...]}: one OpenAI-compatible server (vLLM, TGI...) each.
 * @param model        {@code model=NAME}: the model every server serves.
 * @param chat         {@code api=completions|chat}: {@code /v1/completions} or {@code /v1/chat/completions}.
 * @param prompts      {@code prompts=FILE}: one prompt per line (also {@code --dataset}).
 * @param tokenPrompts {@code prompt-format=text|tokens}: lines of text, or of token ids sent as a token array.
 * @param maxTokens    {@code max-tokens=N}: tokens to generate per prompt.
 * @param extraBody    {@code extra-body=JSON}: fields added to every request body, e.g. {@code "ignore_eos":true}.
 * @param usage        {@code usage=true}: ask for the token count in the last chunk ({@code stream_options}); else
 *                     the content chunks are counted.
 * @param inFlight     {@code inflight=N}: streams open at once per server.
 * @param http2        {@code http=1.1|2}: HTTP/1.1 keep-alive connections, or HTTP/2 streams on one connection.
 * @param apiKey       {@code api-key=KEY}: sent as a bearer token, or {@code null}.
 * @param connectTimeoutMs {@code connect-timeout-ms}: how long to wait for the servers to answer before the run.
 * @param requestTimeoutMs {@code timeout-ms}: a stream unfinished this long fails the run.
 * @param sloTtftNs    {@code slo-ttft-ms}: goodput's longest TTFT, or 0 for none.
 * @param sloTpotNs    {@code slo-tpot-ms}: goodput's longest TPOT, or 0 for none.
 * @param sloE2eNs     {@code slo-e2e-ms}: goodput's longest end-to-end latency, or 0 for none.
 * @param requestsFile {@code requests-file=FILE}: the per-request export (JSON Lines), or {@code null}.
 * @param maxTokensFile {@code max-tokens-file=FILE}: each prompt's max tokens, a line each, or {@code null}.
 * @param failurePolicy {@code on-error=fail|count}, {@code retries=N}: what a failed request does.
 */
public record OpenAiOptions(List<URI> urls, String model, boolean chat, Path prompts, boolean tokenPrompts,
    int maxTokens, String extraBody, boolean usage, int inFlight, boolean http2, String apiKey,
    long connectTimeoutMs, long requestTimeoutMs, long sloTtftNs, long sloTpotNs, long sloE2eNs, Path requestsFile,
    Path maxTokensFile, FailurePolicy failurePolicy)
{
    /**
     * @return the SLOs goodput counts against.
     */
    LlmMetrics.Slos slos()
    {
        return new LlmMetrics.Slos(sloTtftNs, sloTpotNs, sloE2eNs);
    }

    /** Default streams in flight per server. */
    public static final int IN_FLIGHT_DEFAULT = 64;
    /** Default tokens per answer. */
    public static final int MAX_TOKENS_DEFAULT = 128;
    /** Default time a stream may take. */
    public static final long REQUEST_TIMEOUT_MS_DEFAULT = 600_000;

    /**
     * Copies the list.
     */
    public OpenAiOptions
    {
        urls = List.copyOf(urls);
    }

    /** Every option, with its type, default and meaning ({@code run --sut openai --help}). */
    static final List<SutOption> OPTIONS = java.util.stream.Stream.concat(java.util.stream.Stream.of(
        new SutOption("url", "http://host:port[,...]", "", "The OpenAI-compatible servers (vLLM, TGI...); "
            + "required."),
        new SutOption("model", "text", "", "The model every server serves; required."),
        new SutOption("api", "completions|chat", "completions", "/v1/completions or /v1/chat/completions."),
        new SutOption("prompts", SutOption.PATH, "", "One prompt per line; required (or --dataset)."),
        new SutOption("dataset", SutOption.PATH, "", "The same as prompts (--dataset)."),
        new SutOption("prompt-format", "text|tokens", "text", "Lines of text, or of token ids sent as a token "
            + "array (api=completions)."),
        new SutOption("max-tokens", "integer >= 1", Integer.toString(MAX_TOKENS_DEFAULT), "Tokens to generate per "
            + "prompt."),
        new SutOption("extra-body", "JSON fields", "", "Fields added to every request body, e.g. "
            + "\"ignore_eos\":true."),
        new SutOption("usage", "true|false", "true", "Ask for the token count in the last chunk (stream_options); "
            + "false: count the content chunks."),
        new SutOption("inflight", "integer >= 1", Integer.toString(IN_FLIGHT_DEFAULT), "Streams open at once per "
            + "server."),
        new SutOption("http", "1.1|2", "1.1", "HTTP/1.1 keep-alive connections, or HTTP/2 streams on one "
            + "connection."),
        new SutOption("api-key", "text", "", "Sent as a bearer token."),
        new SutOption("connect-timeout-ms", "integer >= 0", "10000", "How long to wait for the servers to answer "
            + "before the run."),
        new SutOption("timeout-ms", "integer >= 1", Long.toString(REQUEST_TIMEOUT_MS_DEFAULT), "A stream "
            + "unfinished this long fails the run (on-error=count: fails that request alone)."),
        new SutOption("slo-ttft-ms", "number >= 0", "0 (none)", "Goodput: a request counts only if its time to "
            + "first token is at most this."),
        new SutOption("slo-tpot-ms", "number >= 0", "0 (none)", "Goodput: ... and its time per output token."),
        new SutOption("slo-e2e-ms", "number >= 0", "0 (none)", "Goodput: ... and its end-to-end latency."),
        new SutOption("requests-file", SutOption.PATH, "", "Writes one JSON line per request (TTFT, every "
            + "inter-token gap, TPOT, E2E, tokens, outcome)."),
        new SutOption("max-tokens-file", SutOption.PATH, "", "Each prompt's max tokens, one line each (from "
            + "jloadgen llm-trace).")), FailurePolicy.OPTIONS.stream()).toList();
    /** Every key. */
    static final Set<String> KEYS = SutOption.keys(OPTIONS);
    /** Keys whose descriptor values are paths. */
    static final Set<String> PATH_KEYS = SutOption.pathKeys(OPTIONS);

    /**
     * @param commandLine {@code --sut-opt} pairs and the named flags ({@code --dataset}, {@code --descriptor}).
     * @return the options.
     * @throws IllegalArgumentException naming the bad key or value.
     */
    public static OpenAiOptions parse(final Map<String, String> commandLine)
    {
        final SutOptions o = SutOptions.parse(OpenAiSutProvider.NAME, commandLine, KEYS, PATH_KEYS);
        final List<URI> urls = new ArrayList<>();
        for (final String item : o.string("url", "").split(","))
        {
            if (item.isBlank())
            {
                continue;
            }
            final String u = item.strip();
            try
            {
                final URI uri = new URI(u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
                if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null)
                {
                    throw new URISyntaxException(u, "not an http:// or https:// URL with a host");
                }
                urls.add(uri);
            }
            catch (final URISyntaxException ex)
            {
                throw o.invalid("url", "http://host:port[,...]", ex);
            }
        }
        if (urls.isEmpty())
        {
            throw new IllegalArgumentException("the openai SUT needs --sut-opt url=http://host:port[,...]");
        }
        final String model = o.string("model");
        if (model == null || model.isBlank())
        {
            throw new IllegalArgumentException("the openai SUT needs --sut-opt model=NAME (the model the servers "
                + "serve)");
        }
        final boolean chat = choice(o, "api", "completions", "chat").equals("chat");
        final Path given = o.path("prompts");
        final Path dataset = o.path("dataset");
        if (given != null && dataset != null)
        {
            throw new IllegalArgumentException("give the prompts once: --dataset or --sut-opt prompts=");
        }
        final Path prompts = given != null ? given : dataset;
        if (prompts == null)
        {
            throw new IllegalArgumentException("the openai SUT needs prompts: --dataset FILE (one prompt per line)");
        }
        if (!Files.isRegularFile(prompts))
        {
            throw new IllegalArgumentException("prompts file not found: " + prompts);
        }
        final boolean tokens = choice(o, "prompt-format", "text", "tokens").equals("tokens");
        if (tokens && chat)
        {
            throw new IllegalArgumentException("prompt-format=tokens needs api=completions: chat messages are text");
        }
        return new OpenAiOptions(urls, model.strip(), chat, prompts, tokens, positive(o, "max-tokens",
            MAX_TOKENS_DEFAULT), o.string("extra-body"), o.bool("usage", true), positive(o, "inflight",
            IN_FLIGHT_DEFAULT), choice(o, "http", "1.1", "2").equals("2"), o.string("api-key"),
            Math.max(0, o.longValue("connect-timeout-ms", 10_000)),
            Math.max(1, o.longValue("timeout-ms", REQUEST_TIMEOUT_MS_DEFAULT)), slo(o, "slo-ttft-ms"),
            slo(o, "slo-tpot-ms"), slo(o, "slo-e2e-ms"), o.path("requests-file"), o.path("max-tokens-file"),
            FailurePolicy.parse(o));
    }

    private static long slo(final SutOptions o, final String key)
    {
        final String text = o.string(key);
        if (text == null)
        {
            return 0;
        }
        final double ms;
        try
        {
            ms = Double.parseDouble(text.strip());
        }
        catch (final NumberFormatException ex)
        {
            throw o.invalid(key, "milliseconds, e.g. 200 or 12.5", ex);
        }
        if (!(ms > 0) || Double.isInfinite(ms))
        {
            throw o.invalid(key, "milliseconds greater than 0", null);
        }
        return Math.round(ms * 1e6);
    }

    private static String choice(final SutOptions o, final String key, final String... choices)
    {
        final String v = o.string(key, choices[0]).strip().toLowerCase(Locale.ROOT);
        if (!List.of(choices).contains(v))
        {
            throw o.invalid(key, String.join(" or ", choices), null);
        }
        return v;
    }

    private static int positive(final SutOptions o, final String key, final int fallback)
    {
        final int v = o.intValue(key, fallback);
        if (v < 1)
        {
            throw o.invalid(key, "a positive integer", null);
        }
        return v;
    }
}
