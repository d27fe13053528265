package org.jloadgen.analysis.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import org.jloadgen.engine.SeriesEvent;

/**
 * What a run's flight recording ({@code jloadgen run --jfr}) says about pauses: GC pauses, safepoints and the issue
 * thread's parks and sleeps, each with its start and duration, and the series windows (the engine's
 * {@link SeriesEvent}, whose thread is the issue thread).
 *
 * @param series the series, in order.
 * @param pauses every pause, in recording order.
 */
record JvmPauses(List<SeriesWindow> series, List<Pause> pauses)
{
    /** What stopped. */
    enum Kind
    {
        /** A garbage-collection pause (every application thread stopped). */
        GC("GC pause"),
        /** A safepoint (every application thread stopped), GC or not. */
        SAFEPOINT("safepoint"),
        /** A park or sleep of the issue thread. */
        ISSUE_THREAD_PARK("issue thread park");

        private final String label;

        Kind(final String label)
        {
            this.label = label;
        }

        String label()
        {
            return label;
        }
    }

    /**
     * @param label    the series label.
     * @param start    start of issuing.
     * @param end      last completion.
     * @param threadId the issue thread's Java thread id.
     */
    record SeriesWindow(String label, Instant start, Instant end, long threadId)
    {
    }

    /**
     * @param kind     what stopped.
     * @param start    when.
     * @param duration for how long.
     * @param what     the GC phase, VM operation or park site, for tables.
     */
    record Pause(Kind kind, Instant start, Duration duration, String what)
    {
    }

    /**
     * @param file a {@code .jfr} file.
     * @return its pauses and series.
     * @throws UncheckedIOException naming the file if it cannot be read as a recording.
     */
    static JvmPauses read(final Path file)
    {
        final List<RecordedEvent> events;
        try
        {
            events = RecordingFile.readAllEvents(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(file + ": not a readable flight recording: " + ex.getMessage(), ex);
        }
        final List<SeriesWindow> series = new ArrayList<>();
        for (final RecordedEvent e : events)
        {
            if (e.getEventType().getName().equals(SeriesEvent.NAME) && e.getThread() != null)
            {
                series.add(new SeriesWindow(e.getString("series"), e.getStartTime(), e.getEndTime(),
                    e.getThread().getJavaThreadId()));
            }
        }
        final java.util.Set<Long> issueThreads = new java.util.HashSet<>();
        series.forEach(s -> issueThreads.add(s.threadId()));
        final List<Pause> pauses = new ArrayList<>();
        final Map<Long, Instant> safepointStarts = new HashMap<>();
        for (final RecordedEvent e : events)
        {
            switch (e.getEventType().getName())
            {
                case "jdk.GCPhasePause" ->
                    pauses.add(new Pause(Kind.GC, e.getStartTime(), e.getDuration(), e.getString("name")));
                case "jdk.SafepointBegin" -> safepointStarts.put(e.getLong("safepointId"), e.getStartTime());
                case "jdk.ThreadPark", "jdk.ThreadSleep" ->
                {
                    final RecordedThread t = e.getThread();
                    if (t != null && issueThreads.contains(t.getJavaThreadId()))
                    {
                        pauses.add(new Pause(Kind.ISSUE_THREAD_PARK, e.getStartTime(), e.getDuration(),
                            e.getEventType().getName().equals("jdk.ThreadSleep") ? "sleep" : "park"));
                    }
                }
                default ->
                {
                    // Other events are not pauses.
                }
            }
        }
        for (final RecordedEvent e : events)
        {
            if (e.getEventType().getName().equals("jdk.SafepointEnd"))
            {
                final Instant start = safepointStarts.get(e.getLong("safepointId"));
                if (start != null)
                {
                    pauses.add(new Pause(Kind.SAFEPOINT, start, Duration.between(start, e.getEndTime()),
                        "safepoint " + e.getLong("safepointId")));
                }
            }
        }
        pauses.sort(java.util.Comparator.comparing(Pause::start));
        return new JvmPauses(List.copyOf(series), List.copyOf(pauses));
    }
}
