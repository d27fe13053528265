package org.jloadgen.analysis.peak;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen peak} to the command line (ServiceLoader).
 */
public final class PeakCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new PeakCommand();
    }
}
