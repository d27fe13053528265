package org.jloadgen.cli.api;

/**
 * The exit codes of every {@code jloadgen} command, so scripts and sweeps can tell a VALID run from an INVALID one
 * and from a usage error without reading the logs.
 */
public final class ExitCodes
{
    /** A run finished VALID (or a command did what it was asked). */
    public static final int VALID = 0;
    /** Unexpected failure. */
    public static final int FAILURE = 1;
    /** Bad usage, settings or input files. */
    public static final int USAGE = 2;
    /** A run finished INVALID or its logs contain errors. */
    public static final int INVALID = 3;

    private ExitCodes()
    {
    }
}
