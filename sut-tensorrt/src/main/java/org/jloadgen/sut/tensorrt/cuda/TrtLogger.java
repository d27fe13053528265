package org.jloadgen.sut.tensorrt.cuda;

import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;

import org.bytedeco.tensorrt.nvinfer.ILogger;

/**
 * TensorRT's logger: warnings and errors go to standard error; the last errors are kept for the message of the
 * exception that a failed call then throws. TensorRT may call it from its own threads.
 */
final class TrtLogger extends ILogger
{
    private static final int KEPT = 8;

    private final PrintStream err;
    private final Deque<String> errors = new ArrayDeque<>();

    TrtLogger(final PrintStream err)
    {
        this.err = err;
    }

    @Override
    public void log(final Severity severity, final String message)
    {
        if (severity.value > Severity.kWARNING.value)
        {
            return;
        }
        err.println("tensorrt: " + (severity.value <= Severity.kERROR.value ? "error: " : "warning: ") + message);
        if (severity.value <= Severity.kERROR.value)
        {
            synchronized (errors)
            {
                errors.addLast(message);
                while (errors.size() > KEPT)
                {
                    errors.removeFirst();
                }
            }
        }
    }

    /**
     * @return the errors logged since the last call, joined, or "no error was logged"; clears them.
     */
    String takeErrors()
    {
        synchronized (errors)
        {
            final String joined = errors.isEmpty() ? "TensorRT logged no error" : String.join("; ", errors);
            errors.clear();
            return joined;
        }
    }
}
