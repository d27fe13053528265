package org.jloadgen.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.schedule.TraceText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jloadgen trace}: prints the loads, queries and unloads a test would issue, without running anything.
 */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = {
        "Print the trace a test would issue, in issue order, without running anything:",
        "  L <qsl indices>                 each LoadSamplesToRam call",
        "  Q <scheduled_ns> <qsl indices>  each query (Server: Poisson offsets; SingleStream/MultiStream: "
            + "k * expected latency; Offline: 0)",
        "  U <qsl indices>                 each UnloadSamplesFromRam call",
        "Identical to LoadGen 6.0.17's for the same settings and seeds (libstdc++ draws)."})
final class TraceCommand implements Callable<Integer>
{
    @Mixin
    SettingsOptions settings;

    @Mixin
    QslOptions qsl;

    @Override
    public Integer call() throws Exception
    {
        final PrintStream err = System.err;
        final SettingsOptions.Loaded loaded = settings.load(err);
        if (!loaded.errors().isEmpty())
        {
            loaded.errors().forEach(e -> err.println("jloadgen: config error: " + e));
        }
        final BufferedWriter out = new BufferedWriter(
            new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        TraceText.write(loaded.settings(), qsl.total(), qsl.performance(), out,
            OffHeapAllocator.arena());
        out.flush();
        return Main.EXIT_VALID;
    }
}
