package org.jloadgen.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.jloadgen.accuracy.ClassificationAccuracy;
import org.jloadgen.cli.api.ExitCodes;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jloadgen accuracy}: the MLPerf "accuracy script" step for classification: top-1 from an accuracy log.
 */
@Command(
    name = "accuracy",
    mixinStandardHelpOptions = true,
    description = "Compute top-1 accuracy from an mlperf_log_accuracy.json of a classification benchmark.")
final class AccuracyCommand implements Callable<Integer>
{
    @Option(names = "--log", required = true, paramLabel = "FILE", description = "The mlperf_log_accuracy.json.")
    Path log;

    @Option(names = "--labels", required = true, paramLabel = "FILE",
        description = "Labels by QSL index: IDX1 (optionally .gz), a 1-D integer .npy, or text with one label "
            + "per line.")
    Path labels;

    @Option(names = "--data-type", paramLabel = "TYPE", defaultValue = "auto",
        description = "How to read each response: float32 (logits, argmax), int32 or int64 (class index), "
            + "int32_ranked (class indices best first, e.g. a device top-k: the first counts), or auto "
            + "(4 or 8 bytes: an index; a multiple of 4: float32 logits). Default: ${DEFAULT-VALUE}.")
    String dataType;

    @Option(names = "--label-offset", paramLabel = "K", defaultValue = "0",
        description = "Added to every label before comparing (e.g. -1 for 1-based labels). Default: 0.")
    int labelOffset;

    @Override
    public Integer call() throws Exception
    {
        final ClassificationAccuracy.Report report = ClassificationAccuracy.score(log, labels,
            ClassificationAccuracy.DataType.parse(dataType), labelOffset);
        System.out.println(report.describe());
        return ExitCodes.VALID;
    }
}
