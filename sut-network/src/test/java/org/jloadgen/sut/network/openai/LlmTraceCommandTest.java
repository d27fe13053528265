package org.jloadgen.sut.network.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.schedule.ReplayQueries;
import org.jloadgen.testing.CommandLineRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jloadgen llm-trace}: gamma arrivals with the rate and burstiness asked for, BurstGPT and Mooncake traces
 * turned into a replay trace the engine reads, prompts of each input length and max tokens of each output length,
 * and bad input named by file and line.
 */
class LlmTraceCommandTest
{
    @TempDir
    Path dir;

    private static double[] gapStats(final List<LlmTraceCommand.Request> requests)
    {
        final int n = requests.size() - 1;
        double sum = 0;
        double sumSq = 0;
        for (int i = 1; i <= n; i++)
        {
            final double gap = (requests.get(i).offsetNs() - requests.get(i - 1).offsetNs()) / 1e9;
            sum += gap;
            sumSq += gap * gap;
        }
        final double mean = sum / n;
        return new double[] {mean, Math.sqrt(sumSq / n - mean * mean) / mean};
    }

    @Test
    void shouldDrawGammaGapsWithTheRateAndBurstinessAsked()
    {
        // vLLM's model: gaps ~ Gamma(shape = burstiness, scale = 1 / (rate x burstiness)): mean 1/rate, coefficient of
        // variation 1/sqrt(burstiness).
        for (final double burstiness : new double[] {1.0, 0.25, 4.0})
        {
            final double[] stats = gapStats(LlmTraceCommand.poisson(50, burstiness, 40_000, 7));
            assertEquals(0.02, stats[0], 0.02 * 0.03, "mean gap, burstiness " + burstiness);
            assertEquals(1 / Math.sqrt(burstiness), stats[1], 0.05 / Math.sqrt(burstiness),
                "coefficient of variation, burstiness " + burstiness);
        }
        assertEquals(LlmTraceCommand.poisson(50, 1, 100, 3), LlmTraceCommand.poisson(50, 1, 100, 3), "seeded");
        assertThrows(IllegalArgumentException.class, () -> LlmTraceCommand.poisson(0, 1, 10, 0));
    }

    @Test
    void shouldWriteATraceTheEngineReplaysWithPromptsAndMaxTokensFromBurstGpt() throws Exception
    {
        final Path burst = dir.resolve("burstgpt.csv");
        Files.writeString(burst, """
            Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type
            5,ChatGPT,3,2,5,Conversation log
            5.25,GPT-4,1,4,5,API log
            7,ChatGPT,2,1,3,Conversation log
            """);
        final CommandLineRun run = CommandLineRun.jloadgen("llm-trace", "--from", burst.toString(), "--out",
            dir.resolve("out").toString());
        assertEquals(ExitCodes.VALID, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("3 requests over 2.000 s"), run.out());
        final ReplayQueries replay = ReplayQueries.read(dir.resolve("out/trace.csv"));
        assertEquals(3, replay.queryCount());
        assertEquals(List.of("timestamp_ns,sample_index", "0,0", "250000000,1", "2000000000,2"),
            Files.readAllLines(dir.resolve("out/trace.csv")));
        assertEquals(List.of("1000 1000 1000", "1000", "1000 1000"),
            Files.readAllLines(dir.resolve("out/prompts.txt")));
        assertEquals(List.of("2", "4", "1"), Files.readAllLines(dir.resolve("out/max-tokens.txt")));
    }

    @Test
    void shouldReadMooncakeAndNameTheLineOfABadRecord() throws Exception
    {
        final Path mooncake = dir.resolve("mooncake.jsonl");
        Files.writeString(mooncake, """
            {"timestamp": 0, "input_length": 6955, "output_length": 52, "hash_ids": [46, 47]}
            {"timestamp": 27482, "input_length": 2, "output_length": 5, "hash_ids": [1]}
            """);
        final List<LlmTraceCommand.Request> requests = LlmTraceCommand.read(mooncake, Integer.MAX_VALUE);
        assertEquals(List.of(new LlmTraceCommand.Request(0, 6955, 52),
            new LlmTraceCommand.Request(27_482_000_000L, 2, 5)), requests);
        Files.writeString(mooncake, "{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1}\n"
            + "{\"timestamp\": 5}\n");
        final IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> LlmTraceCommand.read(mooncake, Integer.MAX_VALUE));
        assertTrue(bad.getMessage().startsWith(mooncake + " line 2: a Mooncake record needs timestamp (ms), "
            + "input_length and output_length"), bad.getMessage());
    }
}
