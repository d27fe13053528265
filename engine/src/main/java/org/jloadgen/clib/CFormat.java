package org.jloadgen.clib;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C {@code printf} number formats as LoadGen's logs use them: {@code %g} (what {@code ostream <<} prints for a
 * double) and {@code %.Nf} (LoadGen's {@code DoubleToString}). glibc formats the exact binary value of the
 * double and breaks ties to even; {@link BigDecimal#BigDecimal(double)} is that exact value, so rounding it
 * with {@link RoundingMode#HALF_EVEN} gives byte-identical text. Hand-written because {@link String#format}
 * differs from C for {@code %g} (it never strips zeros and picks exponents differently).
 */
public final class CFormat
{
    private CFormat()
    {
    }

    /**
     * @param value a double.
     * @return {@code printf("%g", value)}: 6 significant digits, trailing zeros removed.
     */
    public static String g(final double value)
    {
        return g(value, 6);
    }

    /**
     * @param value     a double.
     * @param precision significant digits (C's precision for {@code %g}; 0 is taken as 1).
     * @return {@code printf("%.{precision}g", value)}.
     */
    public static String g(final double value, final int precision)
    {
        if (Double.isNaN(value))
        {
            return (Double.doubleToRawLongBits(value) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(value))
        {
            return value < 0 ? "-inf" : "inf";
        }
        final int p = precision == 0 ? 1 : precision;
        if (value == 0.0)
        {
            return (Double.doubleToRawLongBits(value) < 0) ? "-0" : "0";
        }

        final BigDecimal rounded = new BigDecimal(value).round(new MathContext(p, RoundingMode.HALF_EVEN));
        // Decimal exponent of the rounded value: unscaledValue has p digits (or fewer), value = u * 10^-scale.
        final int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= p)
        {
            return stripZeros(rounded.unscaledValue().abs().toString(), p, exponent, value < 0);
        }
        final String fixed = rounded.setScale(Math.max(0, p - 1 - exponent), RoundingMode.HALF_EVEN).toPlainString();
        return stripFraction(fixed);
    }

    /**
     * @param value a double.
     * @return C++ {@code std::to_string(double)}: {@code %f}.
     */
    public static String stdToString(final double value)
    {
        return fixed(value, 6);
    }

    /**
     * @param value     a double.
     * @param decimals  digits after the point.
     * @return {@code printf("%.{decimals}f", value)}.
     */
    public static String fixed(final double value, final int decimals)
    {
        if (Double.isNaN(value))
        {
            return (Double.doubleToRawLongBits(value) < 0) ? "-nan" : "nan";
        }
        if (Double.isInfinite(value))
        {
            return value < 0 ? "-inf" : "inf";
        }
        final String s = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        if (value < 0 || (value == 0.0 && Double.doubleToRawLongBits(value) < 0))
        {
            return s.startsWith("-") ? s : "-" + s;
        }
        return s;
    }

    private static String stripZeros(final String digits, final int p, final int exponent, final boolean negative)
    {
        final StringBuilder sb = new StringBuilder(16);
        if (negative)
        {
            sb.append('-');
        }
        final StringBuilder mantissa = new StringBuilder(digits);
        while (mantissa.length() < p)
        {
            mantissa.append('0');
        }
        int end = mantissa.length();
        while (end > 1 && mantissa.charAt(end - 1) == '0')
        {
            end--;
        }
        sb.append(mantissa.charAt(0));
        if (end > 1)
        {
            sb.append('.').append(mantissa, 1, end);
        }
        sb.append('e').append(exponent < 0 ? '-' : '+');
        final int absExponent = Math.abs(exponent);
        if (absExponent < 10)
        {
            sb.append('0');
        }
        sb.append(absExponent);
        return sb.toString();
    }

    private static String stripFraction(final String fixed)
    {
        if (fixed.indexOf('.') < 0)
        {
            return fixed;
        }
        int end = fixed.length();
        while (fixed.charAt(end - 1) == '0')
        {
            end--;
        }
        if (fixed.charAt(end - 1) == '.')
        {
            end--;
        }
        return fixed.substring(0, end);
    }
}
