package org.jloadgen.sut.network.openai;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * One server-sent event of an OpenAI-compatible stream, read with Jackson's streaming parser: the generated text
 * it carries ({@code choices[].text} for completions, {@code choices[].delta.content} for chat), the completion
 * token count of the final usage chunk, or an error. Reused for every event of a stream.
 */
final class StreamChunk
{
    private static final JsonFactory JSON = new JsonFactory();

    private final StringBuilder content = new StringBuilder();
    private long completionTokens;
    private long promptTokens;
    private String error;

    /**
     * @param data   the event's data (a JSON object).
     * @param offset its first byte.
     * @param length its size.
     * @throws IOException when it is not JSON.
     */
    void parse(final byte[] data, final int offset, final int length) throws IOException
    {
        content.setLength(0);
        completionTokens = -1;
        promptTokens = -1;
        error = null;
        String objectType = null;
        String topMessage = null;
        try (JsonParser p = JSON.createParser(data, offset, length))
        {
            if (p.nextToken() != JsonToken.START_OBJECT)
            {
                throw new IOException("an event's data is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME)
            {
                final String field = p.currentName();
                final JsonToken value = p.nextToken();
                switch (field)
                {
                    case "choices" -> choices(p, value);
                    case "usage" -> usage(p, value);
                    case "error" -> error = value == JsonToken.START_OBJECT ? message(p) : p.getValueAsString("error");
                    case "object" -> objectType = p.getValueAsString();
                    case "message" -> topMessage = value == JsonToken.VALUE_STRING ? p.getText() : skip(p);
                    default -> p.skipChildren();
                }
            }
        }
        if (error == null && "error".equals(objectType))
        {
            // vLLM's error responses are {"object": "error", "message": ...}.
            error = topMessage != null ? topMessage : "the server sent an error object";
        }
    }

    private static String skip(final JsonParser p) throws IOException
    {
        p.skipChildren();
        return null;
    }

    private void choices(final JsonParser p, final JsonToken value) throws IOException
    {
        if (value != JsonToken.START_ARRAY)
        {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.START_OBJECT)
        {
            while (p.nextToken() == JsonToken.FIELD_NAME)
            {
                final String field = p.currentName();
                final JsonToken v = p.nextToken();
                if ("text".equals(field) && v == JsonToken.VALUE_STRING)
                {
                    content.append(p.getText());
                }
                else if ("delta".equals(field) && v == JsonToken.START_OBJECT)
                {
                    while (p.nextToken() == JsonToken.FIELD_NAME)
                    {
                        final String d = p.currentName();
                        final JsonToken dv = p.nextToken();
                        if ("content".equals(d) && dv == JsonToken.VALUE_STRING)
                        {
                            content.append(p.getText());
                        }
                        else
                        {
                            p.skipChildren();
                        }
                    }
                }
                else
                {
                    p.skipChildren();
                }
            }
        }
    }

    private void usage(final JsonParser p, final JsonToken value) throws IOException
    {
        if (value != JsonToken.START_OBJECT)
        {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME)
        {
            final String field = p.currentName();
            p.nextToken();
            if ("completion_tokens".equals(field))
            {
                completionTokens = p.getValueAsLong(-1);
            }
            else if ("prompt_tokens".equals(field))
            {
                promptTokens = p.getValueAsLong(-1);
            }
            else
            {
                p.skipChildren();
            }
        }
    }

    private static String message(final JsonParser p) throws IOException
    {
        String message = "the server sent an error";
        while (p.nextToken() == JsonToken.FIELD_NAME)
        {
            final String field = p.currentName();
            p.nextToken();
            if ("message".equals(field))
            {
                message = p.getValueAsString(message);
            }
            else
            {
                p.skipChildren();
            }
        }
        return message;
    }

    /**
     * @return the generated text in this event (empty for role-only, usage-only and final events).
     */
    CharSequence content()
    {
        return content;
    }

    /**
     * @return {@code usage.completion_tokens}, or -1 when the event has none.
     */
    long completionTokens()
    {
        return completionTokens;
    }

    /**
     * @return {@code usage.prompt_tokens}, or -1 when the event has none.
     */
    long promptTokens()
    {
        return promptTokens;
    }

    /**
     * @return the server's error message, or {@code null}.
     */
    String error()
    {
        return error;
    }
}
