package org.jloadgen.sut.network.openai;

import org.jloadgen.cli.api.CommandProvider;

/**
 * Adds {@code jloadgen llm-trace} to the command line.
 */
public final class LlmTraceCommandProvider implements CommandProvider
{
    @Override
    public Object newCommand()
    {
        return new LlmTraceCommand();
    }
}
