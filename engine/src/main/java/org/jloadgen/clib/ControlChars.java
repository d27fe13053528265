package org.jloadgen.clib;

/**
 * Control characters made visible, for messages that quote bytes of a file (a corrupt header, a binary given as a
 * config file): each C0 control, DEL and C1 control becomes {@code \xNN}, so that a message cannot put NUL bytes or
 * terminal escape sequences on the console.
 */
public final class ControlChars
{
    private ControlChars()
    {
    }

    /**
     * @param text any text.
     * @return the text with its control characters written as {@code \xNN}; the same instance when it has none.
     */
    public static String escape(final String text)
    {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (Character.isISOControl(c))
            {
                if (out == null)
                {
                    out = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                out.append(String.format("\\x%02x", (int)c));
            }
            else if (out != null)
            {
                out.append(c);
            }
        }
        return out == null ? text : out.toString();
    }
}
