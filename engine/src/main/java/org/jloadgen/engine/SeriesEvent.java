package org.jloadgen.engine;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The flight-recorder event of one series (written with {@code jloadgen run --jfr}): it spans the issue loop, from
 * the start of issuing to the last completion, and its thread is the issue thread, so a reader can tell the
 * series' time window and which thread's parks delayed queries. Created and committed outside the timed part.
 */
@Name(SeriesEvent.NAME)
@Label("JLoadGen series")
@Category("JLoadGen")
@Description("One series of a test, on the issue thread: issuing to the last completion")
@StackTrace(false)
public final class SeriesEvent extends Event
{
    /** The event's type name in a recording. */
    public static final String NAME = "org.jloadgen.Series";

    /** The series label, as in the latency log ({@code series: Server PerformanceOnly target_qps 2000.000000}). */
    @Label("Series")
    public String series;

    /** Queries issued. */
    @Label("Queries issued")
    public long queriesIssued;

    /**
     * Loads and initialises the event class (JFR instruments it and sets its event machinery up, which queues a few
     * hundred compilations): called before the engine's warm-up where a recording runs, so that this happens before
     * any clock starts. A process without a recording never loads it (that took 0.10-0.14 s of its start).
     */
    static void load()
    {
        new SeriesEvent();
    }
}
