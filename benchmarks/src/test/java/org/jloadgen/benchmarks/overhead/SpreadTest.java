package org.jloadgen.benchmarks.overhead;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class SpreadTest
{
    @Test
    void shouldTakeTheMiddleOfAnOddCount()
    {
        assertEquals(new Spread(1, 5, 9, 3), Spread.of(List.of(9.0, 1.0, 5.0)));
    }

    @Test
    void shouldAverageTheTwoMiddleValuesOfAnEvenCount()
    {
        assertEquals(new Spread(1, 3.5, 9, 4), Spread.of(List.of(9.0, 3.0, 1.0, 4.0)));
        assertEquals(new Spread(7, 7, 7, 1), Spread.of(List.of(7.0)));
    }

    @Test
    void shouldRejectNoValuesAndNaN()
    {
        assertThrows(IllegalArgumentException.class, () -> Spread.of(List.of()));
        assertThrows(IllegalArgumentException.class, () -> Spread.of(List.of(1.0, Double.NaN)));
    }
}
