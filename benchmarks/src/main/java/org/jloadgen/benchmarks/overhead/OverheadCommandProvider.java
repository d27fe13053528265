package org.jloadgen.benchmarks.overhead;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen overhead} ({@link OverheadCommand}) to the command line when the benchmarks module is on the
 * class path.
 */
public final class OverheadCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new OverheadCommand();
    }
}
