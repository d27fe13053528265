package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FormatTest
{
    @Test
    void shouldPrintRatesWithThreeSignificantDigits()
    {
        assertEquals("573k/s", Format.RATE.format(573067));
        assertEquals("5.89M/s", Format.RATE.format(5_893_003.01));
        assertEquals("10.0k/s", Format.RATE.format(10020.3));
        assertEquals("66.6M/s", Format.RATE.format(6.66384e7));
        assertEquals("1.50M", Format.COUNT.format(1.5e6));
        assertEquals("512", Format.COUNT.format(512));
    }

    @Test
    void shouldPrintLatenciesInTheirUnit()
    {
        assertEquals("56 ns", Format.NANOS.format(56));
        assertEquals("9.66 µs", Format.NANOS.format(9655));
        assertEquals("1.99 ms", Format.NANOS.format(1988278));
        assertEquals("67.3 ms", Format.NANOS.format(67_322_270));
        assertEquals("1.25 s", Format.NANOS.format(1_249_233_846));
    }

    @Test
    void shouldPrintBytesAndRatios()
    {
        assertEquals("26.2 B", Format.BYTES.format(26.17));
        assertEquals("330 B", Format.BYTES.format(330.4));
        assertEquals("0.420", Format.BYTES.format(0.42).replace(" B", ""));
        assertEquals("1.07", Format.RATIO.format(1.0666));
    }
}
