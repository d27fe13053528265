package org.jloadgen.analysis.report;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen report} to the command line.
 */
public final class ReportCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new ReportCommand();
    }
}
