package org.jloadgen.sut;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * What a SUT measured about itself: how many batches of each size it ran, named per-stage time histograms
 * (the CPU SUT's {@code inference}; the TensorRT SUT's {@code h2d}, {@code infer}, {@code d2h}) and named counters.
 * <p>
 * <b>Recording.</b> Each thread that records gets its own {@link Recorder} ({@link #newRecorder()}, before the run):
 * batch sizes go into a counter array and stage times into HdrHistogram {@link SingleWriterRecorder}s with a fixed
 * range, so recording neither allocates, locks nor waits. {@link BatchingSut} records the size of every batch it
 * forms; a {@link BatchProcessor} records its own stages.
 * <p>
 * <b>Reading.</b> {@link #snapshot()} returns what was recorded since the previous snapshot (or {@link #reset()}, e.g.
 * after warm-up inferences), so each test of a SUT that runs several gets its own figures; {@link #write} writes a
 * snapshot as {@value #FILE_NAME} beside the test's logs and prints a few lines. The file format is
 * {@link Snapshot#format() described with the snapshot}.
 */
public final class SutStatistics
{
    /** File name of the statistics in a test's log folder. */
    public static final String FILE_NAME = "sut_stats.txt";
    /** Version written on the file's {@code format} line. */
    public static final int FORMAT_VERSION = 1;
    /** Largest stage time a histogram holds; longer times are recorded as this (1 hour). */
    public static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    /** Precision of the stage histograms. */
    public static final int SIGNIFICANT_DIGITS = 3;
    /**
     * The toolkit's own stage, recorded by {@link BatchingSut} when the statistics name it: per batch, the time from
     * the issue thread handing over the batch's first sample to a worker taking it up, before any wait for the batch
     * to fill: an idle worker's reaction (spinning) or wake-up (parked), or, when every worker was busy, the wait for
     * one to finish its batch.
     */
    public static final String HANDOFF_STAGE = "handoff";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private final String sutName;
    private final int maxBatchSize;
    private final List<String> stageNames;
    private final List<Recorder> recorders = new CopyOnWriteArrayList<>();
    private final Map<String, LongSupplier> counters = new LinkedHashMap<>();
    private final Map<Recorder, long[]> batchBaselines = new LinkedHashMap<>();
    private final Map<String, Long> counterBaselines = new LinkedHashMap<>();

    /**
     * @param sutName      the SUT's name, written on the {@code sut} line.
     * @param maxBatchSize the largest batch the SUT forms (larger sizes are counted as this).
     * @param stageNames   the stages processors record, each a name of letters, digits, {@code _ . -}.
     */
    public SutStatistics(final String sutName, final int maxBatchSize, final List<String> stageNames)
    {
        if (maxBatchSize <= 0)
        {
            throw new IllegalArgumentException("max batch size must be positive: " + maxBatchSize);
        }
        for (final String stage : stageNames)
        {
            requireName(stage, "stage");
        }
        if (stageNames.stream().distinct().count() != stageNames.size())
        {
            throw new IllegalArgumentException("stage names repeat: " + stageNames);
        }
        this.sutName = sutName.replace('\n', ' ').replace('\r', ' ');
        this.maxBatchSize = maxBatchSize;
        this.stageNames = List.copyOf(stageNames);
    }

    /**
     * @param name a stage given to the constructor.
     * @return its index for {@link Recorder#recordStageNs}.
     * @throws IllegalArgumentException for an unknown stage.
     */
    public int stage(final String name)
    {
        final int index = stageNames.indexOf(name);
        if (index < 0)
        {
            throw new IllegalArgumentException("unknown stage '" + name + "'; stages: " + stageNames);
        }
        return index;
    }

    /**
     * @return the stage names, in index order.
     */
    public List<String> stageNames()
    {
        return stageNames;
    }

    /**
     * @return the largest batch size counted.
     */
    public int maxBatchSize()
    {
        return maxBatchSize;
    }

    /**
     * Creates a recorder for one thread. Not for the timed path: call it while setting up.
     *
     * @return a recorder that only one thread may write to.
     */
    public Recorder newRecorder()
    {
        final Recorder recorder = new Recorder(maxBatchSize, stageNames.size());
        recorders.add(recorder);
        return recorder;
    }

    /**
     * Registers a counter read at each snapshot (its difference since the previous snapshot is reported).
     *
     * @param name  letters, digits, {@code _ . -}.
     * @param value reads the counter's running total; called on the reading thread.
     */
    public synchronized void counter(final String name, final LongSupplier value)
    {
        requireName(name, "counter");
        if (counters.putIfAbsent(name, value) != null)
        {
            throw new IllegalArgumentException("counter '" + name + "' is registered twice");
        }
    }

    /**
     * Discards what was recorded so far (warm-up inferences, calibration).
     */
    public void reset()
    {
        snapshot();
    }

    /**
     * @return what was recorded since the previous snapshot or reset; safe while recorders are written to.
     */
    public synchronized Snapshot snapshot()
    {
        final long[] batchCounts = new long[maxBatchSize + 1];
        for (final Recorder recorder : recorders)
        {
            final long[] baseline = batchBaselines.computeIfAbsent(recorder, r -> new long[maxBatchSize + 1]);
            for (int size = 1; size <= maxBatchSize; size++)
            {
                final long total = recorder.batchCounts.getAcquire(size);
                batchCounts[size] += total - baseline[size];
                baseline[size] = total;
            }
        }
        final List<StageTimes> stages = new ArrayList<>(stageNames.size());
        for (int s = 0; s < stageNames.size(); s++)
        {
            final Histogram merged = newHistogram();
            for (final Recorder recorder : recorders)
            {
                merged.add(recorder.stages[s].getIntervalHistogram());
            }
            stages.add(new StageTimes(stageNames.get(s), merged));
        }
        final Map<String, Long> counterValues = new LinkedHashMap<>();
        for (final Map.Entry<String, LongSupplier> counter : counters.entrySet())
        {
            final long total = counter.getValue().getAsLong();
            final long previous = counterBaselines.getOrDefault(counter.getKey(), 0L);
            counterValues.put(counter.getKey(), total - previous);
            counterBaselines.put(counter.getKey(), total);
        }
        return new Snapshot(sutName, batchCounts, stages, counterValues);
    }

    /**
     * Takes a snapshot, writes it to {@code logDirectory/}{@value #FILE_NAME} (under a temporary name, then renamed)
     * and prints a few lines about it.
     *
     * @param logDirectory the test's log folder.
     * @param console      where the summary lines go, or {@code null}.
     * @return the file written.
     * @throws IOException if the file cannot be written.
     */
    public Path write(final Path logDirectory, final PrintStream console) throws IOException
    {
        final Snapshot snapshot = snapshot();
        final Path file = logDirectory.resolve(FILE_NAME);
        Files.createDirectories(logDirectory);
        AtomicFiles.write(file, snapshot.format().getBytes(StandardCharsets.UTF_8));
        if (console != null)
        {
            console.print(snapshot.describe(file));
        }
        return file;
    }

    static Histogram newHistogram()
    {
        return new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    static void requireName(final String name, final String what)
    {
        if (name == null || !NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException(what + " name '" + name + "' must be letters, digits, '_', '.' or '-'");
        }
    }

    /**
     * One thread's recordings: batch sizes and stage times. Only the owning thread may call the record methods;
     * neither allocates.
     */
    public static final class Recorder
    {
        private final int maxBatchSize;
        private final AtomicLongArray batchCounts;
        private final SingleWriterRecorder[] stages;

        private Recorder(final int maxBatchSize, final int stageCount)
        {
            this.maxBatchSize = maxBatchSize;
            this.batchCounts = new AtomicLongArray(maxBatchSize + 1);
            this.stages = new SingleWriterRecorder[stageCount];
            for (int s = 0; s < stageCount; s++)
            {
                stages[s] = new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
            }
        }

        /**
         * Counts one batch.
         *
         * @param size samples in the batch (at least 1; above the maximum counts as the maximum).
         */
        public void recordBatch(final int size)
        {
            final int slot = Math.max(1, Math.min(size, maxBatchSize));
            // Single writer: a plain read and a release store publish the count without a locked instruction.
            batchCounts.setRelease(slot, batchCounts.getPlain(slot) + 1);
        }

        /**
         * Records one stage time.
         *
         * @param stage      index from {@link SutStatistics#stage(String)}.
         * @param durationNs the time; clamped to {@code [1, HIGHEST_TRACKABLE_NS]}.
         */
        public void recordStageNs(final int stage, final long durationNs)
        {
            stages[stage].recordValue(Math.max(1, Math.min(durationNs, HIGHEST_TRACKABLE_NS)));
        }
    }

    /**
     * The times of one stage.
     *
     * @param name      the stage.
     * @param histogram its times in nanoseconds.
     */
    public record StageTimes(String name, Histogram histogram)
    {
    }

    /**
     * What was recorded over one interval (normally one test).
     * <p>
     * <b>File format</b> ({@value #FILE_NAME}, UTF-8 text, version {@value #FORMAT_VERSION}): one record per line,
     * fields separated by one space; lines starting with {@code #} are comments; names are letters, digits,
     * {@code _ . -}; times are integer nanoseconds except {@code mean_ns}, a decimal with a point. Records, in this
     * order:
     * <pre>
     * format 1
     * sut NAME OF THE SUT (the rest of the line)
     * batches B                  batches run
     * samples S                  samples in them
     * batch_size SIZE COUNT      one line per size that occurred, ascending
     * stage NAME count N min_ns V mean_ns V p50_ns V p90_ns V p99_ns V p999_ns V max_ns V
     * stage_histogram NAME BASE64  the whole histogram: HdrHistogram's compressed encoding, base64 (as in .hlog files)
     * counter NAME VALUE         a SUT-specific count over the interval
     * </pre>
     * A stage with no recordings has {@code count 0} and zeros. Readers must ignore record types they do not know,
     * so later versions can add records.
     *
     * @param sutName     the SUT.
     * @param batchCounts {@code batchCounts[size]} = batches of that size (index 0 unused).
     * @param stages      stage times, in stage order.
     * @param counters    counter values, in registration order.
     */
    public record Snapshot(String sutName, long[] batchCounts, List<StageTimes> stages, Map<String, Long> counters)
    {
        /**
         * Copies the collections.
         */
        public Snapshot
        {
            batchCounts = batchCounts.clone();
            stages = List.copyOf(stages);
            counters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counters));
        }

        @Override
        public long[] batchCounts()
        {
            return batchCounts.clone();
        }

        /**
         * @return batches in the interval.
         */
        public long batches()
        {
            long total = 0;
            for (final long count : batchCounts)
            {
                total += count;
            }
            return total;
        }

        /**
         * @return samples in those batches.
         */
        public long samples()
        {
            long total = 0;
            for (int size = 1; size < batchCounts.length; size++)
            {
                total += size * batchCounts[size];
            }
            return total;
        }

        /**
         * @param name a stage.
         * @return its times.
         * @throws IllegalArgumentException for an unknown stage.
         */
        public StageTimes stage(final String name)
        {
            for (final StageTimes stage : stages)
            {
                if (stage.name().equals(name))
                {
                    return stage;
                }
            }
            throw new IllegalArgumentException("no stage '" + name + "' in " + stages.stream().map(StageTimes::name)
                .toList());
        }

        /**
         * @return the snapshot in the file format above.
         */
        public String format()
        {
            return SutStatisticsFormat.write(this);
        }

        /**
         * @param file where it was written, or {@code null}.
         * @return a few lines for the console.
         */
        public String describe(final Path file)
        {
            return SutStatisticsFormat.describe(this, file);
        }

        /**
         * Parses a statistics file.
         *
         * @param file a {@value #FILE_NAME}.
         * @return its contents.
         * @throws IOException              if it cannot be read.
         * @throws IllegalArgumentException naming the file and line of a malformed record.
         */
        public static Snapshot read(final Path file) throws IOException
        {
            return SutStatisticsFormat.read(file, Files.readAllLines(file, StandardCharsets.UTF_8));
        }
    }
}
