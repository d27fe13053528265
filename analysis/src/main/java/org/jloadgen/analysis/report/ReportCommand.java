package org.jloadgen.analysis.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jloadgen report RUN_DIR [RUN_DIR ...] [--out DIR]}: reads run folders (JLoadGen's, or only the official
 * LoadGen's files) and writes a self-contained {@code report.html} with a PNG and an SVG of each chart.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
        "Write report.html (self-contained, opens offline) and a PNG + SVG of each chart from one or more run folders: "
            + "validity and figures, latency percentiles over time with the latency bound, throughput, the percentile "
            + "spectrum, Server issue lateness, JVM pauses (run --jfr) and the SUT's batch sizes and stage times.",
        "Several folders are overlaid and compared side by side (e.g. two --server-wait strategies)."})
public final class ReportCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN_DIR", arity = "1..*",
        description = "Folders a run wrote its logs to (jloadgen run --out, or the official LoadGen's output).")
    List<Path> runDirs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
        description = "Where to write the report (default: RUN_DIR/report for one run, ./report for several).")
    Path out;

    @Override
    public Integer call() throws Exception
    {
        final List<RunData> runs = new ArrayList<>();
        for (final Path dir : runDirs)
        {
            final RunData run = RunData.read(dir);
            if (run.incomplete())
            {
                spec.commandLine().getOut().println("jloadgen report: " + dir + ": incomplete run (it was killed or "
                    + "crashed before writing its summary); the report shows its detail log up to then");
            }
            runs.add(run);
        }
        final Path target = out != null ? out : runDirs.size() == 1 ? runDirs.get(0).resolve("report")
            : Path.of("report");
        final Path page = ReportPage.write(runs, target);
        spec.commandLine().getOut().println("Report: " + page.toAbsolutePath());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
