package org.jloadgen.analysis.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The checker's output, as checker v6.1 prints it, mapped to the step that wrote each offending file.
 */
class CheckerRunTest
{
    private static final String R = "/o/submission/open/JLoadGen/results/box/fashion-mnist-mlp/";

    private static FlowContext ctx()
    {
        return new FlowContext(SubmissionConfig.builtIn(Path.of("/jloadgen")), null, null, null, null, null, true);
    }

    private static String line(final String level, final String message)
    {
        return "[2026-11-27 10:54:37,839 x.py:269 " + level + "] " + message;
    }

    @Test
    void shouldMapEachErrorToTheStepThatWroteTheFile()
    {
        final String output = String.join("\n",
            line("INFO", "Starting performance checks for: " + R + "Server/performance/run_1/mlperf_log_detail.txt"),
            line("ERROR", "Early stopping condition was not met, msg= * Run unsuccessful."),
            line("ERROR", R + "Offline/performance/run_1/mlperf_log_detail.txt sample_index_rng_seed is wrong, "
                + "expected=1, found=2"),
            line("ERROR", R + "Server/measurements.json, field retraining is missing"),
            line("ERROR", "/o/submission/open/JLoadGen/results/box, field cooling is missing"),
            line("ERROR", "Missing TEST04 in compliance dir " + R + "Offline/"),
            line("ERROR", R + "Offline/TEST01/verify_performance.txt is missing in " + R + "Offline/TEST01"),
            line("ERROR", R + "Offline/accuracy/mlperf_log_accuracy.json is not truncated"),
            line("ERROR", R + "Server/accuracy/mlperf_log_detail.txt accurcy run does not cover all dataset"),
            line("INFO", "---"), line("INFO", "Results=0, NoResults=2, Power Results=0"),
            line("ERROR", "SUMMARY: submission has errors"));
        final CheckerRun.Verdict v = CheckerRun.parse("cmd", 1, output, ctx());
        assertFalse(v.ok());
        assertEquals(List.of("fashion-mnist-mlp/Server/performance", "fashion-mnist-mlp/Offline/performance",
            "fashion-mnist-mlp/Server/conf", "system", "fashion-mnist-mlp/Offline/conf",
            "fashion-mnist-mlp/Offline/TEST01", "truncate", "fashion-mnist-mlp/Server/accuracy", ""),
            v.errors().stream().map(CheckerRun.Error::step).toList());
        assertTrue(v.summary().contains("Results=0, NoResults=2, Power Results=0"), v.summary().toString());
    }

    @Test
    void shouldReadAnAcceptedTreeAndACrash()
    {
        final CheckerRun.Verdict ok = CheckerRun.parse("cmd", 0, line("INFO", "---") + "\n"
            + line("INFO", CheckerRun.OK), ctx());
        assertTrue(ok.ok());
        assertEquals(List.of(), ok.errors());
        final CheckerRun.Verdict crash = CheckerRun.parse("cmd", 1, "Traceback (most recent call last):\n"
            + "TypeError: 'NoneType' object is not iterable", ctx());
        assertFalse(crash.ok());
        assertEquals("the checker crashed: TypeError: 'NoneType' object is not iterable",
            crash.errors().get(crash.errors().size() - 1).line());
    }
}
