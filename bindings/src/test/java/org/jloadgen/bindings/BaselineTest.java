package org.jloadgen.bindings;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BaselineTest
{
    @Test
    void shouldCallTheSameCFunctionThroughFfmAndJni()
    {
        assertEquals(42, FfmBaseline.increment(41));
        assertEquals(42, JniBaseline.increment(41));
        assertEquals(Long.MIN_VALUE, FfmBaseline.increment(Long.MAX_VALUE), "C int64_t wraps like a Java long");
        assertEquals(Long.MIN_VALUE, JniBaseline.increment(Long.MAX_VALUE));
    }
}
