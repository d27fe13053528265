package org.jloadgen.sut.network.openai;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.jloadgen.api.QuerySampleLibrary;

/**
 * The prompts of an OpenAI-compatible run: one per line of a text file, as text or as token ids. Loading a set
 * (untimed) builds each loaded prompt's complete HTTP request for each server, body included, so that issuing a
 * sample only hands a ready, immutable request to the HTTP client.
 */
final class PromptLibrary implements QuerySampleLibrary
{
    private static final JsonFactory JSON = new JsonFactory();

    private final OpenAiOptions options;
    private final List<String> prompts;
    private final List<long[]> tokenPrompts;
    private final String extraFields;
    /** Each prompt's max tokens ({@code max-tokens-file}), or {@code null} for {@code max-tokens} for all. */
    private final int[] maxTokens;
    private HttpRequest[][] requests = new HttpRequest[0][];

    /**
     * @param options the SUT's options.
     * @throws IllegalArgumentException naming the file and line of a bad prompt, or a bad {@code extra-body}.
     */
    PromptLibrary(final OpenAiOptions options)
    {
        this.options = options;
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(options.prompts(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read prompts " + options.prompts() + ": " + ex.getMessage(), ex);
        }
        this.prompts = new ArrayList<>();
        this.tokenPrompts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i);
            if (line.isBlank())
            {
                continue;
            }
            if (options.tokenPrompts())
            {
                tokenPrompts.add(tokens(options.prompts(), i + 1, line));
            }
            else
            {
                prompts.add(line);
            }
        }
        if (prompts.isEmpty() && tokenPrompts.isEmpty())
        {
            throw new IllegalArgumentException("prompts file " + options.prompts() + " has no prompts");
        }
        this.extraFields = extraFields(options.extraBody());
        this.maxTokens = options.maxTokensFile() == null ? null : maxTokens(options.maxTokensFile(),
            Math.max(prompts.size(), tokenPrompts.size()));
    }

    /**
     * @param file  one positive integer per line, a line per prompt.
     * @param count the prompts.
     * @return the integers.
     * @throws IllegalArgumentException naming the file and line of a bad value or a count that differs.
     */
    private static int[] maxTokens(final Path file, final int count)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read max-tokens-file " + file + ": " + ex.getMessage(), ex);
        }
        if (lines.size() != count)
        {
            throw new IllegalArgumentException("max-tokens-file " + file + " has " + lines.size() + " lines for "
                + count + " prompts: give one per prompt");
        }
        final int[] values = new int[count];
        for (int i = 0; i < count; i++)
        {
            try
            {
                values[i] = Integer.parseInt(lines.get(i).strip());
            }
            catch (final NumberFormatException ex)
            {
                values[i] = 0;
            }
            if (values[i] < 1)
            {
                throw new IllegalArgumentException("max-tokens-file " + file + ", value " + (i + 1) + ": '"
                    + lines.get(i).strip() + "' is not a positive integer");
            }
        }
        return values;
    }

    private static long[] tokens(final Path file, final int lineNumber, final String line)
    {
        final String[] parts = line.strip().replaceAll("^\\[|\\]$", "").split("[\\s,]+");
        final long[] ids = new long[parts.length];
        for (int i = 0; i < parts.length; i++)
        {
            try
            {
                ids[i] = Long.parseLong(parts[i]);
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException(file + ":" + lineNumber + ": '" + parts[i] + "' is not a token id "
                    + "(prompt-format=tokens takes integers separated by spaces or commas)", ex);
            }
        }
        return ids;
    }

    /**
     * @param extraBody a JSON object, or {@code null}.
     * @return its fields as JSON text without the braces, checked to parse, or an empty string.
     */
    private static String extraFields(final String extraBody)
    {
        if (extraBody == null || extraBody.isBlank())
        {
            return "";
        }
        try (JsonParser p = JSON.createParser(extraBody))
        {
            if (p.nextToken() != JsonToken.START_OBJECT)
            {
                throw new IllegalArgumentException("extra-body must be a JSON object such as {\"ignore_eos\":true}");
            }
            p.skipChildren();
            if (p.nextToken() != null)
            {
                throw new IllegalArgumentException("extra-body has text after its JSON object");
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("extra-body is not valid JSON: " + ex.getMessage(), ex);
        }
        final String inner = extraBody.strip();
        return inner.substring(1, inner.length() - 1).strip();
    }

    /**
     * @param index a prompt.
     * @return the request body for it.
     */
    byte[] body(final int index)
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(text))
        {
            g.writeStartObject();
            g.writeStringField("model", options.model());
            if (options.chat())
            {
                g.writeArrayFieldStart("messages");
                g.writeStartObject();
                g.writeStringField("role", "user");
                g.writeStringField("content", prompts.get(index));
                g.writeEndObject();
                g.writeEndArray();
            }
            else if (options.tokenPrompts())
            {
                g.writeArrayFieldStart("prompt");
                for (final long id : tokenPrompts.get(index))
                {
                    g.writeNumber(id);
                }
                g.writeEndArray();
            }
            else
            {
                g.writeStringField("prompt", prompts.get(index));
            }
            g.writeNumberField("max_tokens", maxTokens != null ? maxTokens[index] : options.maxTokens());
            g.writeBooleanField("stream", true);
            if (options.usage())
            {
                g.writeObjectFieldStart("stream_options");
                g.writeBooleanField("include_usage", true);
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final String json = text.toString();
        final String withExtra = extraFields.isEmpty() ? json
            : json.substring(0, json.length() - 1) + "," + extraFields + "}";
        return withExtra.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param base a server's base URL.
     * @return the streaming endpoint.
     */
    URI endpoint(final URI base)
    {
        return URI.create(base + (options.chat() ? "/v1/chat/completions" : "/v1/completions"));
    }

    @Override
    public String name()
    {
        return "PromptQSL(" + options.prompts().getFileName() + ")";
    }

    @Override
    public long totalSampleCount()
    {
        return options.tokenPrompts() ? tokenPrompts.size() : prompts.size();
    }

    @Override
    public long performanceSampleCount()
    {
        return totalSampleCount();
    }

    @Override
    public void loadSamplesToRam(final long[] indices)
    {
        final List<URI> urls = options.urls();
        final HttpRequest[][] built = new HttpRequest[urls.size()][indices.length];
        for (int s = 0; s < urls.size(); s++)
        {
            final URI uri = endpoint(urls.get(s));
            for (int p = 0; p < indices.length; p++)
            {
                final HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                    .header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .timeout(Duration.ofMillis(options.requestTimeoutMs()))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body((int)indices[p])));
                if (options.apiKey() != null)
                {
                    b.header("Authorization", "Bearer " + options.apiKey());
                }
                built[s][p] = b.build();
            }
        }
        requests = built;
    }

    @Override
    public void unloadSamplesFromRam(final long[] indices)
    {
        requests = new HttpRequest[0][];
    }

    /**
     * @param server   a server's number.
     * @param position a loaded position.
     * @return the prompt's request to that server.
     */
    HttpRequest request(final int server, final int position)
    {
        return requests[server][position];
    }
}
