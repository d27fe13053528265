package org.jloadgen.sut.network.serve;

import java.io.PrintStream;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.grpc.Status;

/**
 * grpc-java reports a request it refuses in its transport (one over {@code --max-message-mb}, a malformed HTTP/2
 * frame) by logging a warning with a stack trace through {@code java.util.logging}, 40 lines per request. The
 * client has its status already (RESOURCE_EXHAUSTED, with the sizes); the operator of {@code jloadgen serve} gets one
 * line instead, with the status and what to change, and never a stack trace.
 */
final class TransportLog extends Handler
{
    /** Held: {@code java.util.logging} keeps loggers only weakly, and a collected one would lose this handler. */
    private static Logger grpcLogger;

    private final PrintStream out;
    private final int maxMessageMb;

    private TransportLog(final PrintStream out, final int maxMessageMb)
    {
        this.out = out;
        this.maxMessageMb = maxMessageMb;
    }

    /**
     * Routes grpc-java's warnings to one line each on {@code out}.
     *
     * @param out          the console.
     * @param maxMessageMb the largest request, for the hint.
     */
    static synchronized void install(final PrintStream out, final int maxMessageMb)
    {
        final Logger logger = Logger.getLogger("io.grpc");
        logger.setUseParentHandlers(false);
        for (final Handler h : logger.getHandlers())
        {
            if (h instanceof TransportLog)
            {
                logger.removeHandler(h);
            }
        }
        logger.addHandler(new TransportLog(out, maxMessageMb));
        grpcLogger = logger;
    }

    /**
     * @param record a log record.
     * @return its line: the status the transport answered, or the message and its cause's message, no class names.
     */
    String line(final LogRecord record)
    {
        final Throwable thrown = record.getThrown();
        final Status status = thrown == null ? null : Status.fromThrowable(thrown);
        if (status != null && status.getCode() != Status.Code.UNKNOWN)
        {
            final String hint = status.getCode() == Status.Code.RESOURCE_EXHAUSTED
                ? " (the request is larger than --max-message-mb " + maxMessageMb + ")" : "";
            return "jloadgen serve: refused a request: " + status.getCode() + (status.getDescription() == null ? ""
                : ": " + status.getDescription()) + hint;
        }
        final String message = record.getMessage() == null ? "" : record.getMessage();
        return "jloadgen serve: gRPC transport: " + message + (thrown == null || thrown.getMessage() == null ? ""
            : ": " + thrown.getMessage());
    }

    @Override
    public void publish(final LogRecord record)
    {
        if (record.getLevel().intValue() < Level.WARNING.intValue())
        {
            return;
        }
        out.println(line(record));
        out.flush();
    }

    @Override
    public void flush()
    {
        out.flush();
    }

    @Override
    public void close()
    {
        // The console stays open.
    }
}
