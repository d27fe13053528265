package org.jloadgen.sut.tensorrt;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.sut.tensorrt.simulated.HashClassifier;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.jloadgen.testing.ParkingRun;

/**
 * Data, options and runs for the tests over the simulated device: a raw uint8 dataset of 1x28x28 samples whose
 * labels are what the simulated device's {@link HashClassifier} predicts, so a run whose every response reached
 * the right sample scores exactly 100%.
 */
final class Sims
{
    /** Bytes of one sample. */
    static final int SAMPLE_BYTES = 28 * 28;
    /** Classes of the hash classifier. */
    static final int CLASSES = 10;

    private Sims()
    {
    }

    /**
     * A dataset with its labels and a model file.
     *
     * @param data   the raw samples.
     * @param labels one label per line.
     * @param model  a file standing for the model (hashed for the engine cache).
     * @param cache  the engine cache folder.
     * @param count  samples.
     */
    record Files3(Path data, Path labels, Path model, Path cache, int count)
    {
        /**
         * @param extra more options, key then value.
         * @return options for these files on the simulated backend.
         */
        Map<String, String> options(final String... extra)
        {
            final Map<String, String> o = new LinkedHashMap<>();
            o.put("model-file", model.toString());
            o.put("dataset", data.toString());
            o.put("labels", labels.toString());
            o.put("backend", "simulated");
            o.put("engine-cache", cache.toString());
            o.put("warmup", "1");
            for (int i = 0; i < extra.length; i += 2)
            {
                o.put(extra[i], extra[i + 1]);
            }
            return o;
        }
    }

    /**
     * @param dir   where to write.
     * @param count samples.
     * @return the files.
     * @throws IOException if they cannot be written.
     */
    static Files3 dataset(final Path dir, final int count) throws IOException
    {
        final byte[] bytes = new byte[count * SAMPLE_BYTES];
        new Random(count).nextBytes(bytes);
        final Path data = Files.write(dir.resolve("samples.bin"), bytes);
        final StringBuilder labels = new StringBuilder();
        final MemorySegment all = MemorySegment.ofArray(bytes);
        for (int i = 0; i < count; i++)
        {
            labels.append(expectedClass(all.asSlice((long)i * SAMPLE_BYTES, SAMPLE_BYTES))).append('\n');
        }
        final Path labelFile = Files.writeString(dir.resolve("labels.txt"), labels, StandardCharsets.UTF_8);
        final Path model = Files.writeString(dir.resolve("model.onnx"), "a model of " + count + " samples");
        return new Files3(data, labelFile, model, dir.resolve("engines"), count);
    }

    /**
     * @param sample one sample's bytes.
     * @return the class the hash classifier predicts (argmax, first maximum).
     */
    static int expectedClass(final MemorySegment sample)
    {
        int best = 0;
        for (int c = 1; c < CLASSES; c++)
        {
            if (HashClassifier.expected(sample, c) > HashClassifier.expected(sample, best))
            {
                best = c;
            }
        }
        return best;
    }

    /**
     * Opens the SUT on a new simulated backend.
     *
     * @param options  the options.
     * @param scenario the scenario.
     * @return the SUT and its backend.
     */
    static Opened open(final Map<String, String> options, final TestScenario scenario)
    {
        final TensorRtOptions parsed = TensorRtOptions.parse(options, scenario);
        final SimulatedBackend backend = new SimulatedBackend(parsed.simulation());
        return new Opened(TensorRtSut.open(parsed, backend, null), backend);
    }

    /**
     * An open SUT and the backend whose counters tests read.
     *
     * @param sut     the SUT.
     * @param backend its backend.
     */
    record Opened(TensorRtSut sut, SimulatedBackend backend) implements AutoCloseable
    {
        @Override
        public void close()
        {
            sut.close();
        }
    }

    /**
     * Runs a test through the engine with parking waits, so the simulated streams keep the cores.
     *
     * @param sut      the SUT.
     * @param settings the test.
     * @param dir      the logs.
     * @return the result.
     */
    static TestResult run(final TensorRtSut sut, final TestSettings settings, final Path dir)
    {
        return ParkingRun.run(sut, sut.library(), settings, dir);
    }

    /**
     * @param scenario a scenario.
     * @return an AccuracyOnly test of it.
     */
    static TestSettings accuracy(final TestScenario scenario)
    {
        return new TestSettings().scenario(scenario).mode(org.jloadgen.api.TestMode.ACCURACY_ONLY)
            .serverTargetQps(20_000);
    }
}
