package org.jloadgen.analysis.peak;

import org.jloadgen.cli.api.SutSelection;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code jloadgen peak}'s defaults where they differ from {@code run}'s: {@code --scenario Server} (the only scenario
 * peak searches), and {@code --sut} as {@code run} chooses it.
 */
public final class PeakDefaults implements IDefaultValueProvider
{
    private final SutSelection.DefaultSut sut = new SutSelection.DefaultSut();

    @Override
    public String defaultValue(final ArgSpec argSpec) throws Exception
    {
        if (argSpec instanceof OptionSpec option && option.longestName().equals("--scenario"))
        {
            return "Server";
        }
        return sut.defaultValue(argSpec);
    }
}
