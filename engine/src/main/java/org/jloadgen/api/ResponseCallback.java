package org.jloadgen.api;

/**
 * LoadGen's {@code ResponseCallback}: runs before the engine copies a response into the accuracy log, so the
 * SUT can make the payload readable (for example copy it from a device). It may rewrite the entry's data
 * address and size. It never runs for responses that are not logged.
 */
@FunctionalInterface
public interface ResponseCallback
{
    /**
     * @param responses the batch being completed.
     * @param index     the entry about to be copied.
     */
    void beforeCopy(QuerySampleResponses responses, int index);
}
