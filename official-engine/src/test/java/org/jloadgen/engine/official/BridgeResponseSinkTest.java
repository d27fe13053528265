package org.jloadgen.engine.official;

import java.lang.reflect.Method;

import org.jloadgen.api.ResponseSink;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

/**
 * The bridge's sink overrides every {@link ResponseSink} method: each call is one downcall into LoadGen, which
 * takes the call's one timestamp, so none may fall back to a default (which would drop first tokens or the
 * accuracy-log callback, or split a batch into one downcall per entry).
 */
class BridgeResponseSinkTest
{
    @Test
    void shouldOverrideEveryMethodOfTheSink()
    {
        for (final Method method : ResponseSink.class.getMethods())
        {
            assertDoesNotThrow(
                () -> BridgeResponseSink.class.getDeclaredMethod(method.getName(), method.getParameterTypes()),
                "BridgeResponseSink inherits " + method);
        }
    }
}
