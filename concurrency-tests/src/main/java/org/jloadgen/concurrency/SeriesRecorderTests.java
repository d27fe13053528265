package org.jloadgen.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.config.EffectiveSettings;
import org.jloadgen.memory.OffHeapAllocator;
import org.jloadgen.record.CompletionErrors;
import org.jloadgen.record.SeriesRecorder;
import org.jloadgen.schedule.LoadableSets;
import org.jloadgen.schedule.QueryGenerator;
import org.jloadgen.schedule.SequenceGen;
import org.jloadgen.schedule.Trace;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * {@link SeriesRecorder}'s slot-and-counter publish: a completing thread writes a sample's off-heap slot (a plain
 * store), then counts it (a volatile add); the issue thread reads the count (acquire) and then the slots. A count
 * that covers a sample must never come with that sample's slot still pending.
 */
public final class SeriesRecorderTests
{
    /** One Offline trace for every state: the recorders, not the trace, are under test. */
    private static final Trace TRACE = offlineTrace();
    private static final long ORIGIN_NS = 1_000;
    private static final long COMPLETED_NS = 1_500;

    private SeriesRecorderTests()
    {
    }

    private static Trace offlineTrace()
    {
        final EffectiveSettings settings = new EffectiveSettings(new TestSettings().scenario(TestScenario.OFFLINE)
            .minDurationMs(0).minQueryCount(4), 64, 64);
        return QueryGenerator.generate(settings, LoadableSets.generate(64, 64, 64, TestScenario.OFFLINE,
            settings.samplesPerQuery, 0).get(0), TestMode.PERFORMANCE_ONLY, new SequenceGen(),
            QueryGenerator.AccuracyLogSelection.NONE, OffHeapAllocator.arena());
    }

    /**
     * One sample completes while the issue thread polls.
     */
    @JCStressTest
    @Outcome(id = {"0, -1", "0, 500", "1, 500"}, expect = ACCEPTABLE,
        desc = "Not counted yet, or counted with its completion time.")
    @Outcome(id = "1, -1", expect = FORBIDDEN, desc = "Counted while its slot still reads pending.")
    @State
    public static class CountPublishesTheSlot
    {
        private final SeriesRecorder recorder = new SeriesRecorder(TRACE, false, new CompletionErrors(), null, null,
            false, OffHeapAllocator.arena());

        /**
         * Sets the origin before either actor runs, as the issue loop does before the first query.
         */
        public CountPublishesTheSlot()
        {
            recorder.origin(ORIGIN_NS);
        }

        /**
         * The SUT's thread completes sample 0.
         */
        @Actor
        public void completer()
        {
            recorder.completeOne(TRACE.firstSampleId() + 1, COMPLETED_NS, 0L, 0L, 0L);
        }

        /**
         * @param r r1: the completion count; r2: sample 0's completion time read after it (-1: pending).
         */
        @Actor
        public void issueThread(final JJ_Result r)
        {
            r.r1 = recorder.completedSamples();
            r.r2 = recorder.completionRelativeNs(0);
        }

        /**
         * Frees the slots.
         */
        @Arbiter
        public void close()
        {
            recorder.close();
        }
    }
}
