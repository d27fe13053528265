package org.jloadgen.sut.network.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request bodies built from a prompts file, and the errors that name the file, line or option.
 */
class PromptLibraryTest
{
    @TempDir
    Path dir;

    private PromptLibrary library(final String prompts, final String... options) throws Exception
    {
        final Path file = dir.resolve("prompts.txt");
        Files.writeString(file, prompts);
        final Map<String, String> o = new HashMap<>(Map.of("url", "http://127.0.0.1:8000", "model", "m",
            "dataset", file.toString(), "max-tokens", "16"));
        for (int i = 0; i < options.length; i += 2)
        {
            o.put(options[i], options[i + 1]);
        }
        return new PromptLibrary(OpenAiOptions.parse(o));
    }

    private static String body(final PromptLibrary library, final int index)
    {
        return new String(library.body(index), StandardCharsets.UTF_8);
    }

    @Test
    void shouldBuildCompletionChatAndTokenBodies() throws Exception
    {
        final PromptLibrary text = library("say \"hi\"\n\nsecond\n");
        assertEquals(2, text.totalSampleCount());
        assertEquals("{\"model\":\"m\",\"prompt\":\"say \\\"hi\\\"\",\"max_tokens\":16,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true}}", body(text, 0));
        assertEquals("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"second\"}],\"max_tokens\":16,"
            + "\"stream\":true}", body(library("first\nsecond\n", "api", "chat", "usage", "false"), 1));
        assertEquals("{\"model\":\"m\",\"prompt\":[1,15043,3186],\"max_tokens\":16,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true,\"temperature\":0}",
            body(library("1 15043 3186\n[2, 3]\n", "prompt-format", "tokens", "extra-body",
                "{\"ignore_eos\":true,\"temperature\":0}"), 0));
    }

    @Test
    void shouldNameTheBadLineOrOption() throws Exception
    {
        final String bad = assertThrows(IllegalArgumentException.class,
            () -> library("1 2 3\n4 five 6\n", "prompt-format", "tokens")).getMessage();
        assertEquals(dir.resolve("prompts.txt") + ":2: 'five' is not a token id (prompt-format=tokens takes integers "
            + "separated by spaces or commas)", bad);
        assertEquals("extra-body must be a JSON object such as {\"ignore_eos\":true}", assertThrows(
            IllegalArgumentException.class, () -> library("x\n", "extra-body", "[1]")).getMessage());
        assertEquals("prompt-format=tokens needs api=completions: chat messages are text", assertThrows(
            IllegalArgumentException.class, () -> library("1\n", "api", "chat", "prompt-format", "tokens"))
            .getMessage());
        assertEquals("prompts file " + dir.resolve("prompts.txt") + " has no prompts",
            assertThrows(IllegalArgumentException.class, () -> library("\n\n")).getMessage());
    }
}
