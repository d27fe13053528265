package org.jloadgen.clib;

/**
 * The C library number parsers that LoadGen's config reader relies on, with glibc's exact acceptance rules:
 * {@code strtoul}/{@code strtoull} with base 0 and {@code strtod} in the "C" locale (spec §2.3;
 * loadgen/test_settings_internal.cc, TestSettings::FromConfig).
 * <p>
 * Hand-written because no Java or library parser accepts the same language: {@link Long#parseLong} knows
 * neither {@code 0x} nor octal, {@link Double#parseDouble} accepts {@code 1d}/{@code 1f} suffixes and rejects
 * {@code inf}, {@code nan(...)} and hex floats without a {@code p} exponent, and none of them report how far
 * a prefix parses, which decides whether LoadGen accepts a value.
 * <p>
 * Every {@code *End} method takes a start index and returns the index just past what the C function would
 * consume; a return value equal to the start index means "no number" ({@code endptr == nptr}).
 */
public final class CNumbers
{
    private static final double TWO_POW_63 = 9.223372036854775808E18;

    private CNumbers()
    {
    }

    /**
     * @param c a character.
     * @return whether C's {@code isspace} is true for it in the "C" locale.
     */
    public static boolean isCSpace(final char c)
    {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /**
     * @param s     text.
     * @param start where {@code nptr} points.
     * @return index just past what {@code strtoul(s + start, &end, 0)} consumes; {@code start} if nothing.
     */
    public static int strtoulEnd(final CharSequence s, final int start)
    {
        final int n = s.length();
        int i = skipSpaceAndSign(s, start);
        int base = 10;
        if (i < n && s.charAt(i) == '0')
        {
            if (i + 1 < n && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X'))
            {
                if (i + 2 < n && isHexDigit(s.charAt(i + 2)))
                {
                    base = 16;
                    i += 2;
                }
                else
                {
                    // "0x" without a hex digit: glibc parses the "0" and leaves endptr on the 'x'.
                    return i + 1;
                }
            }
            else
            {
                base = 8;
            }
        }
        final int digitsStart = i;
        while (i < n && digitValue(s.charAt(i)) < base)
        {
            i++;
        }
        return i == digitsStart ? start : i;
    }

    /**
     * {@code strtoull(s, NULL, 0)} as glibc computes it: a leading {@code -} negates modulo 2^64, overflow
     * gives {@code ULLONG_MAX} (whatever the sign), text that is not a number gives 0.
     *
     * @param s text.
     * @return the unsigned 64-bit value in a {@code long}.
     */
    public static long strtoull(final CharSequence s)
    {
        final int end = strtoulEnd(s, 0);
        if (end == 0)
        {
            return 0;
        }
        int i = 0;
        while (isCSpace(s.charAt(i)))
        {
            i++;
        }
        boolean negative = false;
        if (s.charAt(i) == '+' || s.charAt(i) == '-')
        {
            negative = s.charAt(i) == '-';
            i++;
        }
        int base = 10;
        if (s.charAt(i) == '0')
        {
            if (i + 1 < end && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X'))
            {
                base = 16;
                i += 2;
            }
            else
            {
                base = 8;
            }
        }
        long value = 0;
        boolean overflow = false;
        for (; i < end; i++)
        {
            final int digit = digitValue(s.charAt(i));
            // value * base + digit > 2^64 - 1 ?
            final long limit = Long.divideUnsigned(-1L - digit, base);
            if (Long.compareUnsigned(value, limit) > 0)
            {
                overflow = true;
            }
            value = value * base + digit;
        }
        if (overflow)
        {
            return -1L;
        }
        return negative ? -value : value;
    }

    /**
     * @param s     text.
     * @param start where {@code nptr} points.
     * @return index just past what glibc's {@code strtod(s + start, &end)} consumes in the "C" locale;
     *         {@code start} if nothing. Accepts leading white space, a sign, decimal numbers with optional
     *         point and {@code e} exponent, hex floats ({@code 0x}, optional point, optional {@code p}
     *         exponent), {@code inf}, {@code infinity} and {@code nan}, {@code nan(chars)}, case-insensitively.
     */
    public static int strtodEnd(final CharSequence s, final int start)
    {
        final int n = s.length();
        int i = skipSpaceAndSign(s, start);
        if (i >= n)
        {
            return start;
        }
        final char c = s.charAt(i);
        if (!isDecimalDigit(c))
        {
            if (c == '.')
            {
                if (i + 1 < n && isDecimalDigit(s.charAt(i + 1)))
                {
                    return decimalEnd(s, i);
                }
                return start;
            }
            if (regionMatchesIgnoreCase(s, i, "inf"))
            {
                return regionMatchesIgnoreCase(s, i + 3, "inity") ? i + 8 : i + 3;
            }
            if (regionMatchesIgnoreCase(s, i, "nan"))
            {
                int j = i + 3;
                if (j < n && s.charAt(j) == '(')
                {
                    int k = j + 1;
                    while (k < n && (isAsciiAlnum(s.charAt(k)) || s.charAt(k) == '_'))
                    {
                        k++;
                    }
                    if (k < n && s.charAt(k) == ')')
                    {
                        j = k + 1;
                    }
                }
                return j;
            }
            return start;
        }
        if (c == '0' && i + 1 < n && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X'))
        {
            return hexEnd(s, i);
        }
        return decimalEnd(s, i);
    }

    /**
     * {@code strtod(s, NULL)}: the value of the longest prefix glibc accepts, 0.0 if there is none.
     * Decimal and hex values are rounded correctly (to nearest, ties to even), as glibc does.
     *
     * @param s text.
     * @return the double.
     */
    public static double strtod(final CharSequence s)
    {
        final int end = strtodEnd(s, 0);
        if (end == 0)
        {
            return 0.0;
        }
        int i = 0;
        while (isCSpace(s.charAt(i)))
        {
            i++;
        }
        boolean negative = false;
        if (s.charAt(i) == '+' || s.charAt(i) == '-')
        {
            negative = s.charAt(i) == '-';
            i++;
        }
        final String body = s.subSequence(i, end).toString();
        final double magnitude;
        final char first = Character.toLowerCase(body.charAt(0));
        if (first == 'i')
        {
            magnitude = Double.POSITIVE_INFINITY;
        }
        else if (first == 'n')
        {
            magnitude = Double.NaN;
        }
        else if (body.length() > 1 && (body.charAt(1) == 'x' || body.charAt(1) == 'X'))
        {
            // Java's hex grammar needs the binary exponent that C makes optional.
            final boolean hasExponent = body.indexOf('p') >= 0 || body.indexOf('P') >= 0;
            magnitude = Double.parseDouble(hasExponent ? body : body + "p0");
        }
        else
        {
            magnitude = Double.parseDouble(body);
        }
        return negative ? -magnitude : magnitude;
    }

    /**
     * @param token a whole token.
     * @return whether LoadGen accepts it as a config value: {@code strtoul(base 0)} or {@code strtod} consumes
     *         all of it.
     */
    public static boolean isConfigNumber(final String token)
    {
        final int n = token.length();
        return n > 0 && (strtoulEnd(token, 0) == n || strtodEnd(token, 0) == n);
    }

    /**
     * A C++ {@code double} to {@code uint64_t} conversion as GCC compiles it for x86-64: values below 2^63 are
     * truncated by {@code cvttsd2si}, larger ones have 2^63 subtracted first. Out-of-range values (undefined
     * behaviour in C++) give what that code gives: infinity and values at or above 2^64 give 0, NaN and
     * values below -2^63 give 2^63, other negative values wrap.
     *
     * @param value a double.
     * @return the unsigned 64-bit result in a {@code long}.
     */
    public static long doubleToUint64(final double value)
    {
        // NaN compares unordered, which the comparison GCC emits treats as "below 2^63".
        if (Double.isNaN(value) || value < TWO_POW_63)
        {
            return cvttsd2si(value);
        }
        return cvttsd2si(value - TWO_POW_63) ^ Long.MIN_VALUE;
    }

    private static long cvttsd2si(final double value)
    {
        // The x86 "integer indefinite" value for NaN and anything that does not fit in an int64.
        if (Double.isNaN(value) || value >= TWO_POW_63 || value < -TWO_POW_63)
        {
            return Long.MIN_VALUE;
        }
        return (long)value;
    }

    private static int decimalEnd(final CharSequence s, final int from)
    {
        final int n = s.length();
        int i = from;
        while (i < n && isDecimalDigit(s.charAt(i)))
        {
            i++;
        }
        if (i < n && s.charAt(i) == '.')
        {
            i++;
            while (i < n && isDecimalDigit(s.charAt(i)))
            {
                i++;
            }
        }
        return exponentEnd(s, i, 'e');
    }

    private static int hexEnd(final CharSequence s, final int zeroIndex)
    {
        final int n = s.length();
        int i = zeroIndex + 2;
        final int digitsStart = i;
        while (i < n && isHexDigit(s.charAt(i)))
        {
            i++;
        }
        boolean anyDigit = i > digitsStart;
        if (i < n && s.charAt(i) == '.')
        {
            int j = i + 1;
            while (j < n && isHexDigit(s.charAt(j)))
            {
                j++;
            }
            anyDigit |= j > i + 1;
            if (anyDigit)
            {
                i = j;
            }
        }
        if (!anyDigit)
        {
            // "0x", "0x.", "0xp1": only the leading "0" is a number.
            return zeroIndex + 1;
        }
        return exponentEnd(s, i, 'p');
    }

    private static int exponentEnd(final CharSequence s, final int mantissaEnd, final char marker)
    {
        final int n = s.length();
        if (mantissaEnd < n && Character.toLowerCase(s.charAt(mantissaEnd)) == marker)
        {
            int j = mantissaEnd + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-'))
            {
                j++;
            }
            if (j < n && isDecimalDigit(s.charAt(j)))
            {
                while (j < n && isDecimalDigit(s.charAt(j)))
                {
                    j++;
                }
                return j;
            }
        }
        return mantissaEnd;
    }

    private static int skipSpaceAndSign(final CharSequence s, final int start)
    {
        final int n = s.length();
        int i = start;
        while (i < n && isCSpace(s.charAt(i)))
        {
            i++;
        }
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-'))
        {
            i++;
        }
        return i;
    }

    private static int digitValue(final char c)
    {
        if (c >= '0' && c <= '9')
        {
            return c - '0';
        }
        if (c >= 'a' && c <= 'z')
        {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'Z')
        {
            return c - 'A' + 10;
        }
        return Integer.MAX_VALUE;
    }

    private static boolean isDecimalDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(final char c)
    {
        return digitValue(c) < 16;
    }

    private static boolean isAsciiAlnum(final char c)
    {
        return digitValue(c) < 36;
    }

    private static boolean regionMatchesIgnoreCase(final CharSequence s, final int from, final String lower)
    {
        if (from + lower.length() > s.length())
        {
            return false;
        }
        for (int k = 0; k < lower.length(); k++)
        {
            final char c = s.charAt(from + k);
            if (c >= 128 || Character.toLowerCase(c) != lower.charAt(k))
            {
                return false;
            }
        }
        return true;
    }
}
