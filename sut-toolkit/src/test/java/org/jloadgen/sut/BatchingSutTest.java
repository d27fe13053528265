package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.concurrent.CpuBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BatchingSutTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);

    /** A query of ids {@code firstId..}, QSL index and position = id. */
    private static QuerySamples query(final long firstId, final int count)
    {
        return new ReusableQuery(1).of(firstId, count);
    }

    @Test
    void shouldCompleteEverySampleExactlyOnceWithOneCallPerBatch()
    {
        final RecordingSink sink = new RecordingSink();
        final AtomicLong batches = new AtomicLong();
        final int total = 50_000;
        try (BatchingSut sut = new BatchingSut("test", new BatcherSettings(16, 20, 3, 1 << 12,
            CompletionWaitStrategy.YIELD, new int[0]), worker -> (batch, responses, s) ->
            {
                batches.incrementAndGet();
                for (int i = 0; i < batch.size(); i++)
                {
                    if (responses.responseId(i) != batch.responseId(i))
                    {
                        throw new IllegalStateException("response " + i + " not prefilled");
                    }
                }
                s.complete(responses, batch.size());
            }, null))
        {
            assertTimeoutPreemptively(LIMIT, () ->
            {
                long id = 1;
                while (id <= total)
                {
                    final int n = (int)Math.min(1 + id % 40, total - id + 1);
                    sut.issueQuery(query(id, n), sink);
                    id += n;
                }
                sut.flushQueries();
                while (sink.completed.get() < total)
                {
                    Thread.yield();
                }
            });
        }
        assertEquals(total, sink.completed.get());
        assertEquals(total, sink.ids.size());
        assertEquals(0, sink.duplicates.get());
        assertEquals(batches.get(), sink.calls.get(), "one completion call per batch");
        assertTrue(sink.maxBatch.get() <= 16);
    }

    @ParameterizedTest
    @EnumSource(value = CompletionWaitStrategy.class, names = {"PARK", "AUTO"})
    void shouldHandEverySampleToParkingWorkersExactlyOnce(final CompletionWaitStrategy wait)
    {
        // Workers that park after a 20 us spin (PARK) or at once (AUTO on 2 CPUs under JLoadGen's engine), leaders that
        // park while their batch fills, and pauses long enough for every worker to park: each hand-off then needs a
        // wake-up, and none may be lost.
        final RecordingSink sink = new RecordingSink();
        final int total = 20_000;
        final CpuBudget budget = new CpuBudget(2);
        try (BatchingSut sut = new BatchingSut("parking", new BatcherSettings(16, 50, 3, 1 << 12,
            wait, new int[0]), new SutStatistics("parking", 16,
                List.of(SutStatistics.HANDOFF_STAGE)), worker -> (batch, responses, s) ->
                s.complete(responses, batch.size()), null, budget))
        {
            assertEquals(3, budget.sutThreads());
            assertTrue(sut.workerWait().startsWith(wait == CompletionWaitStrategy.AUTO ? "PARK at once" : "PARK"),
                sut.workerWait());
            assertTimeoutPreemptively(LIMIT, () ->
            {
                long id = 1;
                int query = 0;
                while (id <= total)
                {
                    final int n = (int)Math.min(1 + id % 20, total - id + 1);
                    sut.issueQuery(query(id, n), sink);
                    id += n;
                    if (++query % 50 == 0)
                    {
                        java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    }
                }
                sut.flushQueries();
                while (sink.completed.get() < total)
                {
                    Thread.yield();
                }
            });
            final SutStatistics.Snapshot stats = sut.statistics().snapshot();
            assertEquals(stats.batches(), stats.stage(SutStatistics.HANDOFF_STAGE).histogram().getTotalCount(),
                "one hand-off time per batch");
        }
        assertEquals(0, budget.sutThreads(), "closing the SUT gives its CPUs back");
        assertEquals(total, sink.completed.get());
        assertEquals(total, sink.ids.size());
        assertEquals(0, sink.duplicates.get());
    }

    @Test
    void shouldLetWorkersSpinOnlyWhereEachHasACpu()
    {
        final BatchProcessor complete = (batch, responses, s) -> s.complete(responses, batch.size());
        final CpuBudget three = new CpuBudget(3);
        try (BatchingSut one = new BatchingSut("one", BatcherSettings.of(1, 0, 1),
            new SutStatistics("one", 1, List.of()), worker -> complete, null, three))
        {
            assertEquals("SPIN, parking after 100 ms without work (auto: 3 CPUs, 0 SUT threads before this SUT's 1 "
                + "worker: a CPU is free for each spinning worker after one for the issue thread and one for "
                + "everything else)", one.workerWait());
            assertEquals(List.of("one: 1 worker, idle wait " + one.workerWait()), three.sutThreadDescriptions());
        }
        final CpuBudget budget = new CpuBudget(2);
        try (BatchingSut one = new BatchingSut("one", BatcherSettings.of(1, 0, 1),
            new SutStatistics("one", 1, List.of()), worker -> complete, null, budget))
        {
            assertEquals("PARK at once (auto: 2 CPUs, 0 SUT threads before this SUT's 1 worker: no CPU is "
                + "free for each spinning worker after one for the issue thread and one for everything else)",
                one.workerWait());
        }
        try (CpuBudget.Registration loadGen = budget.reserve(1, "LoadGen's issue thread");
            BatchingSut one = new BatchingSut("one", BatcherSettings.of(1, 0, 1),
                new SutStatistics("one", 1, List.of()), worker -> complete, null, budget))
        {
            // Under the official LoadGen, whose issue thread sleeps with the default timer slack, the spin stays.
            assertTrue(one.workerWait().startsWith("PARK after a 20 us spin (auto: 2 CPUs"), one.workerWait());
        }
        try (CpuBudget.Registration loadGen = three.reserve(1, "LoadGen's issue thread");
            BatchingSut one = new BatchingSut("one", BatcherSettings.of(1, 0, 1),
                new SutStatistics("one", 1, List.of()), worker -> complete, null, three))
        {
            assertTrue(one.workerWait().startsWith("SPIN"), "3 CPUs, the official engine's issue thread reserved: "
                + one.workerWait());
        }
        try (BatchingSut two = new BatchingSut("two", BatcherSettings.of(1, 0, 2),
            new SutStatistics("two", 1, List.of()), worker -> complete, null, budget))
        {
            assertEquals("PARK at once (auto: 2 CPUs, 0 SUT threads before this SUT's 2 workers: no CPU is "
                + "free for each spinning worker after one for the issue thread and one for everything else)",
                two.workerWait());
        }
        try (BatchingSut yielding = new BatchingSut("yielding", new BatcherSettings(1, 0, 1, 16,
            CompletionWaitStrategy.YIELD, new int[0]), new SutStatistics("yielding", 1, List.of()), worker -> complete,
            null, budget))
        {
            assertEquals("YIELD (set explicitly)", yielding.workerWait());
            assertEquals(1, budget.sutThreads());
        }
        assertEquals(0, budget.sutThreads());
    }

    @Test
    void shouldCountEveryBatchByItsSize()
    {
        final RecordingSink sink = new RecordingSink();
        final ConcurrentHashMap<Integer, AtomicLong> sizes = new ConcurrentHashMap<>();
        try (BatchingSut sut = new BatchingSut("counted", new BatcherSettings(8, 0, 2, 1 << 10,
            CompletionWaitStrategy.YIELD, new int[0]), worker -> (batch, responses, s) ->
            {
                sizes.computeIfAbsent(batch.size(), k -> new AtomicLong()).incrementAndGet();
                s.complete(responses, batch.size());
            }, null))
        {
            assertTimeoutPreemptively(LIMIT, () ->
            {
                long id = 1;
                for (int q = 0; q < 2_000; q++)
                {
                    final int n = 1 + q % 13;
                    sut.issueQuery(query(id, n), sink);
                    id += n;
                }
                sut.flushQueries();
                while (sink.completed.get() < id - 1)
                {
                    Thread.yield();
                }
            });
            final SutStatistics.Snapshot snapshot = sut.statistics().snapshot();
            assertEquals(sink.completed.get(), snapshot.samples());
            assertEquals(sink.calls.get(), snapshot.batches());
            final long[] counts = snapshot.batchCounts();
            assertEquals(9, counts.length);
            for (int size = 1; size <= 8; size++)
            {
                final AtomicLong seen = sizes.get(size);
                assertEquals(seen == null ? 0 : seen.get(), counts[size], "batches of " + size);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompletionWaitStrategy.class, names = {"YIELD", "PARK"})
    void shouldAllocateNothingOnTheWorkersOrTheIssuingThreadWhileHandingOffAndRecording(
        final CompletionWaitStrategy wait)
    {
        // PARK: every 500 queries the producer pauses long enough for the workers to park, so the rounds also
        // exercise parking, waking and the hand-off times.
        final SutStatistics stats = new SutStatistics("alloc", 16, List.of(SutStatistics.HANDOFF_STAGE, "inference"));
        final int stage = stats.stage("inference");
        final CountingSink sink = new CountingSink();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        try (BatchingSut sut = new BatchingSut("alloc", new BatcherSettings(16, 0, 2, 1 << 12, wait, new int[0]),
            stats, worker ->
            {
                final SutStatistics.Recorder recorder = stats.newRecorder();
                return (batch, responses, s) ->
                {
                    final long startNs = System.nanoTime();
                    s.complete(responses, batch.size());
                    recorder.recordStageNs(stage, System.nanoTime() - startNs);
                };
            }, null))
        {
            final long[] workerIds = sut.workerThreadIds();
            final ReusableQuery query = new ReusableQuery(1);
            // The first rounds link call sites and initialise classes; then whole rounds of 40k samples must leave
            // the workers' and the issuing thread's allocation counters where they were.
            int clean = 0;
            long id = 1;
            for (int round = 0; round < 20 && clean < 3; round++)
            {
                final long before = allocated(threads, workerIds);
                final long first = id;
                final long target = id + 40_000;
                final long issuingBytes = assertTimeoutPreemptively(LIMIT, () ->
                {
                    final long issuingBefore = threads.getCurrentThreadAllocatedBytes();
                    long next = first;
                    while (next < target)
                    {
                        sut.issueQuery(query.of(next, 10), sink);
                        next += 10;
                        if (wait == CompletionWaitStrategy.PARK && (next / 10) % 500 == 0)
                        {
                            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                        }
                    }
                    sut.flushQueries();
                    final long issuing = threads.getCurrentThreadAllocatedBytes() - issuingBefore;
                    while (sink.completed.get() < target - 1)
                    {
                        Thread.yield();
                    }
                    return issuing;
                });
                id = target;
                clean = allocated(threads, workerIds) == before && issuingBytes == 0 ? clean + 1 : 0;
            }
            assertEquals(3, clean, "the workers or the issuing thread kept allocating while handing off, batching "
                + "and recording (" + wait + ")");
            final SutStatistics.Snapshot snapshot = stats.snapshot();
            assertEquals(id - 1, snapshot.samples());
            assertEquals(snapshot.batches(), snapshot.stage(SutStatistics.HANDOFF_STAGE).histogram().getTotalCount());
        }
    }

    @Test
    void shouldSeeAWorkerThatAllocates()
    {
        // The measurement above must be able to fail.
        final RecordingSink sink = new RecordingSink();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        final List<Object> kept = new CopyOnWriteArrayList<>();
        try (BatchingSut sut = new BatchingSut("allocating", BatcherSettings.of(4, 0, 1), worker ->
            (batch, responses, s) ->
            {
                kept.add(new long[batch.size()]);
                s.complete(responses, batch.size());
            }, null))
        {
            final long before = allocated(threads, sut.workerThreadIds());
            assertTimeoutPreemptively(LIMIT, () ->
            {
                for (long id = 1; id < 4_000; id += 4)
                {
                    sut.issueQuery(query(id, 4), sink);
                }
                sut.flushQueries();
                while (sink.completed.get() < 3_999)
                {
                    Thread.yield();
                }
            });
            assertTrue(allocated(threads, sut.workerThreadIds()) - before >= 16L * kept.size());
        }
    }

    private static long allocated(final com.sun.management.ThreadMXBean threads, final long[] ids)
    {
        long total = 0;
        for (final long bytes : threads.getThreadAllocatedBytes(ids))
        {
            total += bytes;
        }
        return total;
    }

    @Test
    void shouldFormTheBatchOnlyWhenTheProcessorIsReady()
    {
        final RecordingSink sink = new RecordingSink();
        final java.util.concurrent.atomic.AtomicBoolean ready = new java.util.concurrent.atomic.AtomicBoolean();
        try (BatchingSut sut = new BatchingSut("gated", new BatcherSettings(64, 0, 1, 1 << 10,
            CompletionWaitStrategy.YIELD, new int[0]), worker -> new BatchProcessor()
            {
                @Override
                public void process(final SampleBatch batch, final QuerySampleResponses responses,
                    final ResponseSink s)
                {
                    s.complete(responses, batch.size());
                }

                @Override
                public boolean readyForBatch()
                {
                    return ready.get();
                }
            }, null))
        {
            assertTimeoutPreemptively(LIMIT, () ->
            {
                for (int q = 0; q < 10; q++)
                {
                    sut.issueQuery(query(1 + 3L * q, 3), sink);
                    Thread.sleep(2);
                }
                assertEquals(0, sink.completed.get(), "no batch while the processor is full");
                ready.set(true);
                while (sink.completed.get() < 30)
                {
                    Thread.yield();
                }
            });
            assertEquals(1, sink.calls.get(), "what arrived while it was full is one batch");
            assertEquals(30, sink.maxBatch.get());
        }
    }

    @Test
    void shouldReportAProcessorFailureAndRefuseFurtherQueries()
    {
        final RecordingSink sink = new RecordingSink();
        try (BatchingSut sut = new BatchingSut("failing", BatcherSettings.of(4, 0, 2), worker -> (batch, responses,
            s) ->
        {
            throw new IllegalArgumentException("inference broke");
        }, null))
        {
            sut.issueQuery(query(1, 3), sink);
            assertTimeoutPreemptively(LIMIT, () ->
            {
                while (sink.failure.get() == null)
                {
                    Thread.yield();
                }
            });
            final Throwable failure = sink.failure.get();
            assertTrue(failure.getMessage().contains("SUT failing worker"), failure.getMessage());
            assertTrue(failure.getMessage().contains("inference broke"), failure.getMessage());
            assertTrue(failure.getCause() instanceof IllegalArgumentException);
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> sut.issueQuery(query(10, 1), sink));
            assertTrue(refused.getMessage().contains("stopped after a failure"), refused.getMessage());
        }
        assertEquals(0, sink.completed.get());
    }

    @Test
    void shouldPinEachWorkerRoundRobinAndCloseEveryProcessor()
    {
        final List<Integer> pinned = new CopyOnWriteArrayList<>();
        final AtomicInteger closed = new AtomicInteger();
        final BatchingSut sut = new BatchingSut("pinned", new BatcherSettings(1, 0, 3, 16,
            CompletionWaitStrategy.SLEEP, new int[] {5, 7}), worker -> new BatchProcessor()
            {
                @Override
                public void process(final SampleBatch batch, final QuerySampleResponses responses,
                    final ResponseSink sink)
                {
                    sink.complete(responses, batch.size());
                }

                @Override
                public void close()
                {
                    closed.incrementAndGet();
                }
            }, pinned::add);
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (pinned.size() < 3)
            {
                Thread.yield();
            }
        });
        sut.close();
        assertEquals(List.of(5, 5, 7), pinned.stream().sorted().toList());
        assertEquals(3, closed.get());
    }

    /** Counts completed samples only, so that completing allocates nothing on the workers. */
    private static final class CountingSink implements ResponseSink
    {
        private final AtomicLong completed = new AtomicLong();

        @Override
        public void complete(final long responseId)
        {
            completed.incrementAndGet();
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes,
            final long tokenCount)
        {
            completed.incrementAndGet();
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            completed.incrementAndGet();
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            completed.addAndGet(count);
        }

        @Override
        public void fail(final Throwable cause)
        {
            throw new AssertionError("the SUT failed", cause);
        }
    }

    /** Counts completions per id and completion calls. */
    private static final class RecordingSink implements ResponseSink
    {
        private final ConcurrentHashMap<Long, Boolean> ids = new ConcurrentHashMap<>();
        private final AtomicLong completed = new AtomicLong();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong calls = new AtomicLong();
        private final AtomicInteger maxBatch = new AtomicInteger();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private void one(final long id)
        {
            if (ids.putIfAbsent(id, Boolean.TRUE) != null)
            {
                duplicates.incrementAndGet();
            }
            completed.incrementAndGet();
        }

        @Override
        public void complete(final long responseId)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final long responseId, final long dataAddress, final long dataBytes,
            final long tokenCount)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final long responseId, final byte[] data, final int offset, final int length,
            final long tokenCount)
        {
            calls.incrementAndGet();
            one(responseId);
        }

        @Override
        public void complete(final QuerySampleResponses responses, final int count)
        {
            calls.incrementAndGet();
            maxBatch.accumulateAndGet(count, Math::max);
            for (int i = 0; i < count; i++)
            {
                one(responses.responseId(i));
            }
        }

        @Override
        public void fail(final Throwable cause)
        {
            assertNotNull(cause);
            failure.compareAndSet(null, cause);
        }
    }
}
