package org.jloadgen.cli.api;

/**
 * Prose for standard output, word-wrapped to {@link #COLUMNS} so that it reads in an 80-column terminal. Standard
 * output is often a file or a pipe, so the width is fixed rather than the terminal's: the same run prints the same
 * lines wherever they go. A word longer than the width (a long path) stays whole on a line of its own. Written here
 * rather than with picocli's {@code Help.TextTable}: that indents every line of a column alike and breaks paths at
 * their slashes, where these lines keep their own first-line layout and hang the rest.
 */
public final class ConsoleText
{
    /** The classic terminal width. */
    public static final int COLUMNS = 80;

    private ConsoleText()
    {
    }

    /**
     * @param text   one paragraph (line breaks in it start new lines, each wrapped).
     * @param indent what continuation lines start with.
     * @return the text wrapped to {@link #COLUMNS}, without a final line break.
     */
    public static String wrap(final String text, final String indent)
    {
        return wrap(text, indent, COLUMNS);
    }

    /**
     * @param text   one paragraph (line breaks in it start new lines, each wrapped).
     * @param indent what continuation lines start with.
     * @param width  the widest line.
     * @return the text wrapped to {@code width}, without a final line break.
     */
    public static String wrap(final String text, final String indent, final int width)
    {
        final StringBuilder out = new StringBuilder(text.length() + 16);
        final String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            if (i > 0)
            {
                out.append('\n');
            }
            wrapLine(lines[i], indent, width, out);
        }
        return out.toString();
    }

    private static void wrapLine(final String line, final String indent, final int width, final StringBuilder out)
    {
        // A word carries the spaces before it, so that runs of spaces (aligned labels such as "model    x") stay
        // as they are where no break falls; a break drops them.
        final String text = line.stripTrailing();
        int start = 0;
        while (start < text.length() && text.charAt(start) == ' ')
        {
            start++;
        }
        int column = 0;
        boolean lineHasWord = false;
        int wordStart = start;
        int separatorStart = 0;
        while (wordStart < text.length())
        {
            int wordEnd = text.indexOf(' ', wordStart);
            wordEnd = wordEnd < 0 ? text.length() : wordEnd;
            final int wordLength = wordEnd - wordStart;
            if (lineHasWord && column + (wordStart - separatorStart) + wordLength > width)
            {
                out.append('\n').append(indent).append(text, wordStart, wordEnd);
                column = indent.length() + wordLength;
            }
            else
            {
                out.append(text, separatorStart, wordEnd);
                column += wordEnd - separatorStart;
            }
            lineHasWord = true;
            separatorStart = wordEnd;
            wordStart = wordEnd;
            while (wordStart < text.length() && text.charAt(wordStart) == ' ')
            {
                wordStart++;
            }
        }
    }
}
