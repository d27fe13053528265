package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jloadgen.results.PerformanceSummary;
import org.jloadgen.testing.GoldenRuns;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte-for-byte comparison with the official LoadGen 6.0.17 example logs: for inputs reconstructed from each log
 * (see {@link GoldenRuns}), the summary file equals the official one and the results records of the detail log
 * equal the official records (key, value text, error and warning flags; time, source location and ids differ
 * by nature).
 */
class GoldenLogsTest
{
    @TempDir
    Path dir;

    static Stream<GoldenRuns.Run> runs()
    {
        return Stream.of(GoldenRuns.offline(), GoldenRuns.server(), GoldenRuns.singleStream(),
            GoldenRuns.multiStream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void shouldWriteTheOfficialSummaryByteForByte(final GoldenRuns.Run run) throws IOException
    {
        final PerformanceSummary summary = new PerformanceSummary("NullInlineSUT", run.settings(), run.result());
        final Path file = dir.resolve("mlperf_log_summary.txt");
        new SummaryWriter(file, null).append(summary).close(run.warningCount(), run.errorCount());

        final String official = Files.readString(
            SharedData.data("example-logs/" + run.name() + "/mlperf_log_summary.txt"), StandardCharsets.UTF_8);
        assertEquals(official, Files.readString(file, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void shouldLogTheOfficialResultRecords(final GoldenRuns.Run run)
    {
        final PerformanceSummary summary = new PerformanceSummary("NullInlineSUT", run.settings(), run.result());
        final Path file = dir.resolve("mlperf_log_detail.txt");
        try (DetailLog log = new DetailLog(file, null, System::nanoTime))
        {
            ResultsLog.logResults(log, summary);
        }
        final List<MlLogParser.Record> ours = MlLogParser.parse(file).records();
        final List<MlLogParser.Record> official = resultRecords(MlLogParser.parse(
            SharedData.data("example-logs/" + run.name() + "/mlperf_log_detail.txt")).records());

        assertEquals(describe(official), describe(ours));
    }

    private static List<MlLogParser.Record> resultRecords(final List<MlLogParser.Record> all)
    {
        final List<MlLogParser.Record> out = new ArrayList<>();
        boolean inResults = false;
        for (final MlLogParser.Record r : all)
        {
            inResults |= r.key().equals("result_validity");
            if (inResults)
            {
                out.add(r);
            }
        }
        return out;
    }

    private static List<String> describe(final List<MlLogParser.Record> records)
    {
        final List<String> out = new ArrayList<>();
        for (final MlLogParser.Record r : records)
        {
            out.add(r.key() + " = " + r.valueText() + " error=" + r.isError() + " warning=" + r.isWarning());
        }
        return out;
    }
}
