package org.jloadgen.analysis.submission;

import java.util.Map;

/**
 * Writes the flat JSON objects of a submission (system description, measurements.json, model_mapping.json): string
 * and integer values, keys in the given order, four-space indentation as the checker's samples have it.
 */
final class Json
{
    private Json()
    {
    }

    /**
     * @param fields keys to values ({@link Long} or {@link Integer} values are written as numbers, the rest as
     *               strings).
     * @return the JSON text, ending in a newline.
     */
    static String object(final Map<String, ?> fields)
    {
        final StringBuilder b = new StringBuilder("{\n");
        int i = 0;
        for (final Map.Entry<String, ?> field : fields.entrySet())
        {
            b.append("    ").append(string(field.getKey())).append(": ");
            final Object value = field.getValue();
            b.append(value instanceof Long || value instanceof Integer ? value.toString()
                : string(String.valueOf(value)));
            b.append(++i < fields.size() ? ",\n" : "\n");
        }
        return b.append("}\n").toString();
    }

    /**
     * @param text any text.
     * @return it as a JSON string literal.
     */
    static String string(final String text)
    {
        final StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++)
        {
            final char ch = text.charAt(i);
            switch (ch)
            {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default ->
                {
                    if (ch < 0x20)
                    {
                        b.append(String.format("\\u%04x", (int) ch));
                    }
                    else
                    {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
