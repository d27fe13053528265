package org.jloadgen.clib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CNumbersTest
{
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // text | glibc strtoul(base 0) end index
        "0|1", "17|2", "+17|3", "-17|3", "0x1A|4", "0X1a|4", "017|3", "08|1", "019|2", "0x|1", "0xg|1",
        "12abc|2", "abc|0", "+|0", "-|0", "''|0", "2.5|1", "1e3|1", "' 42'|3", "'\t\n7'|3",
        "99999999999999999999999|23", "0x10p3|4"})
    void shouldEndStrtoulWhereGlibcDoes(final String text, final int end)
    {
        assertEquals(end, CNumbers.strtoulEnd(text, 0), text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|0", "42|42", "0x1A|26", "017|15", "08|0", "2.5|2", "1e3|1", "-1|18446744073709551615",
        "-0x10|18446744073709551600", "18446744073709551615|18446744073709551615",
        "18446744073709551616|18446744073709551615", "-99999999999999999999|18446744073709551615",
        "16159082839903944936|16159082839903944936", "abc|0", "inf|0", ".5|0", "' +7'|7", "0x|0"})
    void shouldConvertLikeStrtoull(final String text, final String unsigned)
    {
        assertEquals(Long.parseUnsignedLong(unsigned), CNumbers.strtoull(text), text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1|1", "1.5|3", "1.|2", ".5|2", "-.5|3", "+1e5|4", "1e|1", "1e+|1", "1E-3|4", "1.5e10x|6", "0x1p3|5",
        "0x1P-3|6", "0x1.8|5", "0x.8|4", "0x1.|4", "0x|1", "0x.|1", "0xp1|1", "0x1p|3", "inf|3", "INF|3",
        "infinity|8", "Infinity|8", "infinit|3", "-inf|4", "nan|3", "NaN|3", "nan()|5", "nan(0x1_a)|10",
        "nan(|3", "nan(a b)|3", ".|0", "'.e5'|0", "e5|0", "+|0", "''|0", "x|0", "' 2.5'|4", "'\t-3'|3",
        "017|3", "08|2", "1e99999|7"})
    void shouldEndStrtodWhereGlibcDoes(final String text, final int end)
    {
        assertEquals(end, CNumbers.strtodEnd(text, 0), text);
    }

    @Test
    void shouldConvertLikeStrtod()
    {
        assertEquals(2.5, CNumbers.strtod("2.5"));
        assertEquals(8.0, CNumbers.strtod("0x1p3"));
        assertEquals(1.5, CNumbers.strtod("0x1.8"));
        assertEquals(26.0, CNumbers.strtod("0x1A"));
        assertEquals(17.0, CNumbers.strtod("017"), "strtod has no octal");
        assertEquals(8.0, CNumbers.strtod("08"));
        assertEquals(1e-3, CNumbers.strtod("1E-3"));
        assertEquals(-0.5, CNumbers.strtod("-.5"));
        assertEquals(1.0, CNumbers.strtod("1e"));
        assertEquals(Double.POSITIVE_INFINITY, CNumbers.strtod("infinity"));
        assertEquals(Double.NEGATIVE_INFINITY, CNumbers.strtod("-inf"));
        assertEquals(Double.POSITIVE_INFINITY, CNumbers.strtod("1e99999"));
        assertEquals(0.0, CNumbers.strtod("1e-99999"));
        assertTrue(Double.isNaN(CNumbers.strtod("nan(123)")));
        assertEquals(0.0, CNumbers.strtod("abc"));
        assertEquals(0.0, CNumbers.strtod("0x"));
        assertEquals(99.9, CNumbers.strtod("99.9"));
        // Correct rounding of a hex mantissa longer than 53 bits (ties to even).
        assertEquals(1.0, CNumbers.strtod("0x1.00000000000008"));
        assertEquals(Math.nextUp(Math.nextUp(1.0)), CNumbers.strtod("0x1.00000000000018"));
        assertEquals(Math.nextUp(1.0), CNumbers.strtod("0x1.00000000000011"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "0", "10833", "0x1A", "017", "08", "09.5", "2.5", "-3", "+3", "1e6", "1E-3", ".5", "5.", "0x1p3",
        "0x1.8", "inf", "-Infinity", "nan", "nan(abc)", "16159082839903944936", "99999999999999999999999"})
    void shouldAcceptConfigNumbers(final String token)
    {
        assertTrue(CNumbers.isConfigNumber(token), token);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "#", "#c", "abc", "5#", "1e", "1e+", "0x", "0x.", "0xg", ".", "+", "-", "1.2.3", "1,5", "5ms",
        "true", "infinit", "nan(", "1d", "1f", "0b101", "=5"})
    void shouldRejectNonNumbers(final String token)
    {
        assertFalse(CNumbers.isConfigNumber(token), token);
    }

    @Test
    void shouldConvertDoubleToUint64LikeGccOnX8664()
    {
        assertEquals(3_300_000L, CNumbers.doubleToUint64(3_300_000.7));
        assertEquals(0L, CNumbers.doubleToUint64(0.9));
        assertEquals(Long.parseUnsignedLong("9223372036854775808"), CNumbers.doubleToUint64(9.223372036854775808E18));
        assertEquals(Long.parseUnsignedLong("18446744073709549568"), CNumbers.doubleToUint64(1.8446744073709549568E19));
        assertEquals(0L, CNumbers.doubleToUint64(Double.POSITIVE_INFINITY));
        assertEquals(0L, CNumbers.doubleToUint64(1.8446744073709551616E19));
        assertEquals(Long.MIN_VALUE, CNumbers.doubleToUint64(Double.NaN));
        assertEquals(-1L, CNumbers.doubleToUint64(-1.5));
    }
}
