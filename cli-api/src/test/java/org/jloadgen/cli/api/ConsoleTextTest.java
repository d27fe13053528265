package org.jloadgen.cli.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsoleTextTest
{
    @Test
    void shouldLeaveAShortLineAsItIs()
    {
        assertEquals("model    model.onnx: pixels", ConsoleText.wrap("model    model.onnx: pixels", "  "));
    }

    @Test
    void shouldBreakAtTheLastSpaceThatFitsAndIndentTheRest()
    {
        assertEquals("aaa bbb\n  ccc ddd\n  eee", ConsoleText.wrap("aaa bbb ccc ddd eee", "  ", 9));
        assertEquals("aaa bbb\n  ccc", ConsoleText.wrap("aaa bbb ccc", "  ", 7));
    }

    @Test
    void shouldKeepAlignedLabelsWhereNoBreakFallsAndDropTheSpacesWhereOneDoes()
    {
        assertEquals("dataset  /a/b/c,\n         10 samples",
            ConsoleText.wrap("dataset  /a/b/c,   10 samples", "         ", 20));
        assertEquals("  x  y", ConsoleText.wrap("  x  y   ", "    ", 80));
    }

    @Test
    void shouldPutAWordLongerThanTheWidthOnALineOfItsOwn()
    {
        assertEquals("logs in\n  /a/very/long/path\n  done",
            ConsoleText.wrap("logs in /a/very/long/path done", "  ", 10));
        assertEquals("/a/very/long/path", ConsoleText.wrap("/a/very/long/path", "  ", 5));
    }

    @Test
    void shouldWrapEachLineOfSeveralAndFitEightyColumnsByDefault()
    {
        final String text = ("word ".repeat(30) + "\n" + "next ".repeat(3)).strip();
        final String wrapped = ConsoleText.wrap(text, "    ");
        for (final String line : wrapped.split("\n"))
        {
            assertTrue(line.length() <= ConsoleText.COLUMNS, line);
        }
        assertEquals(text.replace(" ", "").replace("\n", ""), wrapped.replace(" ", "").replace("\n", ""));
        assertEquals("next next next", wrapped.substring(wrapped.lastIndexOf('\n') + 1));
    }
}
