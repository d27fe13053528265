package org.jloadgen.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import jdk.jfr.Recording;

/**
 * A Java Flight Recorder recording of one test ({@code jloadgen run --jfr}), written beside the logs when the test
 * ends. It holds only what explains a latency spike, so it costs little while the clock runs: GC pauses and
 * phases, safepoints and the VM operations run in them, parks and sleeps of at least
 * {@value #PARK_THRESHOLD_US} µs (the report keeps the issue thread's), and one {@link SeriesEvent} per series.
 */
final class FlightRecording implements AutoCloseable
{
    /** Shortest park or sleep recorded: below that a park is the wait strategy working, not a stall. */
    static final long PARK_THRESHOLD_US = 100;

    private final Path target;
    private final Recording recording;

    /**
     * Starts recording.
     *
     * @param target the {@code .jfr} file, written when closed.
     */
    FlightRecording(final Path target)
    {
        this.target = target;
        this.recording = new Recording();
        recording.setName("jloadgen");
        recording.setToDisk(true);
        recording.enable("jdk.GarbageCollection");
        recording.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
        recording.enable("jdk.SafepointBegin").withThreshold(Duration.ZERO);
        recording.enable("jdk.SafepointEnd").withThreshold(Duration.ZERO);
        recording.enable("jdk.ExecuteVMOperation").withThreshold(Duration.ZERO);
        recording.enable("jdk.ThreadPark").withThreshold(Duration.ofNanos(PARK_THRESHOLD_US * 1_000))
            .withoutStackTrace();
        recording.enable("jdk.ThreadSleep").withThreshold(Duration.ofNanos(PARK_THRESHOLD_US * 1_000))
            .withoutStackTrace();
        recording.enable(SeriesEvent.class).withThreshold(Duration.ZERO);
        recording.start();
    }

    /**
     * @return the file the recording is written to.
     */
    Path path()
    {
        return target;
    }

    /**
     * Stops recording and writes the file (under a temporary name, then renamed).
     */
    @Override
    public void close()
    {
        final Path temporary = target.resolveSibling(target.getFileName() + ".partial");
        try
        {
            recording.stop();
            recording.dump(temporary);
            Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the flight recording " + target, ex);
        }
        finally
        {
            recording.close();
        }
    }
}
