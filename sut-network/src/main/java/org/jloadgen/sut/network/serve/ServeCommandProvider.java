package org.jloadgen.sut.network.serve;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen serve} to the command line.
 */
public final class ServeCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new ServeCommand();
    }
}
