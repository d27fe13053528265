package org.jloadgen.engine.official;

import java.util.concurrent.atomic.AtomicReference;

import org.jloadgen.bindings.LoadGenBridge;

/**
 * The first failure of a test under the official LoadGen (the SUT threw, reported a failure, stopped completing, or
 * the run was interrupted): kept for the console and handed to the bridge, which logs it as an error in LoadGen's
 * detail log and ends the test through LoadGen's abort path. Later failures are ignored.
 */
final class FailureLog
{
    private final AtomicReference<String> first = new AtomicReference<>();

    /**
     * @param what  what went wrong.
     * @param cause the exception, or {@code null}.
     */
    void fail(final String what, final Throwable cause)
    {
        first.compareAndSet(null, cause == null ? what : what + ": " + describe(cause));
        // Every caller hands the bridge the first reason: one that lost the race here may reach it first.
        LoadGenBridge.fail(first.get());
    }

    /**
     * @return the first failure, or {@code null}.
     */
    String reason()
    {
        return first.get();
    }

    private static String describe(final Throwable cause)
    {
        final StackTraceElement[] stack = cause.getStackTrace();
        return cause + (stack.length > 0 ? " (at " + stack[0] + ")" : "");
    }
}
