package org.jloadgen.sut.network.openai;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jloadgen.sut.network.SutOptions;

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
 */
public record OpenAiOptions(List<URI> urls, String model, boolean chat, Path prompts, boolean tokenPrompts,
    int maxTokens, String extraBody, boolean usage, int inFlight, boolean http2, String apiKey,
    long connectTimeoutMs, long requestTimeoutMs)
{
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

    /**
     * @param o the SUT's options.
     * @return the options.
     * @throws IllegalArgumentException naming the bad key or value.
     */
    public static OpenAiOptions parse(final SutOptions o)
    {
        final List<URI> urls = new ArrayList<>();
        for (final String u : o.list("url"))
        {
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
                throw new IllegalArgumentException("openai SUT option url: '" + u + "' is " + ex.getReason(), ex);
            }
        }
        if (urls.isEmpty())
        {
            throw new IllegalArgumentException("the openai SUT needs --sut-opt url=http://host:port[,...]");
        }
        final String model = o.required("model");
        final boolean chat = o.choice("api", "completions", "chat").equals("chat");
        Path prompts = o.path("prompts");
        final Path dataset = o.path("dataset");
        if (prompts != null && dataset != null)
        {
            throw new IllegalArgumentException("give the prompts once: --dataset or --sut-opt prompts=");
        }
        prompts = prompts != null ? prompts : dataset;
        if (prompts == null)
        {
            throw new IllegalArgumentException("the openai SUT needs prompts: --dataset FILE (one prompt per line)");
        }
        if (!Files.isRegularFile(prompts))
        {
            throw new IllegalArgumentException("prompts file not found: " + prompts);
        }
        final boolean tokens = o.choice("prompt-format", "text", "tokens").equals("tokens");
        if (tokens && chat)
        {
            throw new IllegalArgumentException("prompt-format=tokens needs api=completions: chat messages are text");
        }
        return new OpenAiOptions(urls, model, chat, prompts, tokens,
            (int)Math.min(Integer.MAX_VALUE, o.integer("max-tokens", MAX_TOKENS_DEFAULT, 1)),
            o.string("extra-body", null), o.bool("usage", true),
            (int)Math.min(1 << 16, o.integer("inflight", IN_FLIGHT_DEFAULT, 1)),
            o.choice("http", "1.1", "2").equals("2"), o.string("api-key", null),
            o.integer("connect-timeout-ms", 10_000, 0), o.integer("timeout-ms", REQUEST_TIMEOUT_MS_DEFAULT, 1));
    }
}
