package org.jloadgen.analysis.submission;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen submission} to the command line (ServiceLoader).
 */
public final class SubmissionCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new SubmissionCommand();
    }
}
