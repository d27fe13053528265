package org.jloadgen.sut.tensorrt.device;

import java.io.Serial;

/**
 * A CUDA or TensorRT call failed; the message names the call and the error.
 */
public final class DeviceException extends RuntimeException
{
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and why.
     */
    public DeviceException(final String message)
    {
        super(message);
    }

    /**
     * @param message what failed and why.
     * @param cause   the underlying failure.
     */
    public DeviceException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
