package org.jloadgen.sut;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.QuerySamples;
import org.junit.jupiter.api.Test;

class DynamicBatcherTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final long HOUR_US = 3_600_000_000L;

    /** A query of {@code count} samples with ids {@code firstId..}, QSL index = id * 10, position = id. */
    private static QuerySamples query(final long firstId, final int count)
    {
        return new ReusableQuery(10).of(firstId, count);
    }

    /** {@code query}, running {@code action} when sample {@code at}'s response id is read (copied). */
    private static QuerySamples whenCopied(final QuerySamples query, final int at, final Runnable action)
    {
        return new QuerySamples()
        {
            @Override
            public int size()
            {
                return query.size();
            }

            @Override
            public long responseId(final int i)
            {
                if (i == at)
                {
                    action.run();
                }
                return query.responseId(i);
            }

            @Override
            public long sampleIndex(final int i)
            {
                return query.sampleIndex(i);
            }

            @Override
            public int loadedPosition(final int i)
            {
                return query.loadedPosition(i);
            }
        };
    }

    private static DynamicBatcher batcher(final int maxBatch, final long timeoutUs, final int capacity)
    {
        return new DynamicBatcher(new BatcherSettings(maxBatch, timeoutUs, 1, capacity, CompletionWaitStrategy.SPIN,
            new int[0]));
    }

    private static long[] ids(final SampleBatch batch)
    {
        final long[] ids = new long[batch.size()];
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] = batch.responseId(i);
        }
        return ids;
    }

    @Test
    void shouldCutAtTheMaximumBatchSizeInArrivalOrder()
    {
        final DynamicBatcher b = batcher(4, 0, 64);
        final SampleBatch batch = new SampleBatch(4);
        b.offer(query(1, 10), new NoOpIdleStrategy());

        assertEquals(4, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertArrayEquals(new long[] {1, 2, 3, 4}, ids(batch));
        assertEquals(40, batch.sampleIndex(3));
        assertEquals(4, batch.position(3));
        assertTrue(batch.contiguous());
        assertEquals(4, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertArrayEquals(new long[] {5, 6, 7, 8}, ids(batch));
        assertEquals(2, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertArrayEquals(new long[] {9, 10}, ids(batch));
        assertEquals(0, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertEquals(0, batch.size());
    }

    @Test
    void shouldCutWhatIsQueuedAtOnceWithATimeoutOfZero()
    {
        final DynamicBatcher b = batcher(8, 0, 64);
        final SampleBatch batch = new SampleBatch(8);
        final CountingIdle idle = new CountingIdle(null);
        b.offer(query(1, 3), new NoOpIdleStrategy());

        assertEquals(3, b.nextBatch(batch, idle));
        assertEquals(0, idle.calls, "a zero timeout never waits for more samples");
    }

    @Test
    void shouldWaitForTheBatchToFillUntilTheTimeout()
    {
        final long timeoutUs = 20_000;
        final DynamicBatcher b = batcher(8, timeoutUs, 64);
        final SampleBatch batch = new SampleBatch(8);
        final CountingIdle idle = new CountingIdle(null);
        final long startNs = System.nanoTime();
        b.offer(query(1, 3), new NoOpIdleStrategy());

        assertEquals(3, b.nextBatch(batch, idle));
        assertTrue(System.nanoTime() - startNs >= timeoutUs * 1_000, "cut before the timeout expired");
        assertTrue(idle.calls > 0);
        assertArrayEquals(new long[] {1, 2, 3}, ids(batch));
    }

    @Test
    void shouldCutAtTheSizeWhenSamplesArriveDuringTheWait()
    {
        final DynamicBatcher b = batcher(8, HOUR_US, 64);
        final SampleBatch batch = new SampleBatch(8);
        // The first wait delivers six more samples: the batch fills to 8 long before the hour is up.
        final CountingIdle idle = new CountingIdle(() -> b.offer(query(4, 6), new NoOpIdleStrategy()));
        b.offer(query(1, 3), new NoOpIdleStrategy());

        assertTimeoutPreemptively(LIMIT, () -> assertEquals(8, b.nextBatch(batch, idle)));
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6, 7, 8}, ids(batch));
        assertEquals(1, b.queued());
    }

    @Test
    void shouldCutAtOnceAfterAFlush()
    {
        final DynamicBatcher b = batcher(8, HOUR_US, 64);
        final SampleBatch batch = new SampleBatch(8);
        b.offer(query(1, 3), new NoOpIdleStrategy());
        b.flush();

        assertTimeoutPreemptively(LIMIT, () -> assertEquals(3, b.nextBatch(batch, new BusySpinIdleStrategy())));
        assertArrayEquals(new long[] {1, 2, 3}, ids(batch));
    }

    @Test
    void shouldWakeAParkedLeaderWithThePublishThatFillsItsBatch() throws Exception
    {
        final DynamicBatcher b = batcher(4, HOUR_US, 64);
        final SampleBatch batch = new SampleBatch(4);
        b.offer(query(1, 1), new NoOpIdleStrategy());
        final java.util.concurrent.atomic.AtomicInteger cut = new java.util.concurrent.atomic.AtomicInteger(-1);
        final Thread leader = Thread.ofPlatform().start(() -> cut.set(b.nextBatch(batch, null)));
        assertTimeoutPreemptively(LIMIT, () ->
        {
            for (long id = 2; id <= 4; id++)
            {
                waitUntilParked(leader);
                assertEquals(-1, cut.get(), "cut before the batch was full");
                b.offer(query(id, 1), new NoOpIdleStrategy());
            }
            leader.join();
        });
        assertEquals(4, cut.get());
        assertArrayEquals(new long[] {1, 2, 3, 4}, ids(batch));
    }

    @Test
    void shouldWakeAParkedLeaderOnAFlushAndEndItsParkAtTheTimeout() throws Exception
    {
        final DynamicBatcher b = batcher(8, HOUR_US, 64);
        final SampleBatch batch = new SampleBatch(8);
        b.offer(query(1, 3), new NoOpIdleStrategy());
        final java.util.concurrent.atomic.AtomicInteger cut = new java.util.concurrent.atomic.AtomicInteger(-1);
        final Thread leader = Thread.ofPlatform().start(() -> cut.set(b.nextBatch(batch, null)));
        assertTimeoutPreemptively(LIMIT, () ->
        {
            waitUntilParked(leader);
            b.flush();
            leader.join();
        });
        assertEquals(3, cut.get());

        final long timeoutUs = 20_000;
        final DynamicBatcher timed = batcher(8, timeoutUs, 64);
        final long startNs = System.nanoTime();
        timed.offer(query(1, 2), new NoOpIdleStrategy());
        assertTimeoutPreemptively(LIMIT, () -> assertEquals(2, timed.nextBatch(batch, null)));
        assertTrue(System.nanoTime() - startNs >= timeoutUs * 1_000, "cut before the timeout expired");
    }

    private static void waitUntilParked(final Thread thread)
    {
        while (thread.getState() != Thread.State.TIMED_WAITING)
        {
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldKeepOrderAcrossTheEndOfTheRing()
    {
        final DynamicBatcher b = batcher(4, 0, 8);
        final SampleBatch batch = new SampleBatch(4);
        b.offer(query(1, 6), new NoOpIdleStrategy());
        assertEquals(4, b.nextBatch(batch, new NoOpIdleStrategy()));
        b.offer(query(7, 6), new NoOpIdleStrategy());

        final List<Long> seen = new ArrayList<>();
        int n;
        while ((n = b.nextBatch(batch, new NoOpIdleStrategy())) > 0)
        {
            for (int i = 0; i < n; i++)
            {
                seen.add(batch.responseId(i));
            }
        }
        assertEquals(List.of(5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L), seen);
    }

    @Test
    void shouldDropWhatIsQueuedAndServeWhatComesAfter()
    {
        final DynamicBatcher b = batcher(4, 0, 64);
        final SampleBatch batch = new SampleBatch(4);
        b.offer(query(1, 10), new NoOpIdleStrategy());
        assertEquals(4, b.nextBatch(batch, new NoOpIdleStrategy()));

        b.dropQueued();
        assertEquals(0, b.nextBatch(batch, new NoOpIdleStrategy()), "the six queued samples are gone");
        assertEquals(6, b.droppedSamples());
        assertEquals(0, b.queued());

        assertTrue(b.offer(query(11, 2), new NoOpIdleStrategy()));
        assertEquals(2, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertArrayEquals(new long[] {11, 12}, ids(batch), "a query after the drop is served");
    }

    @Test
    void shouldReturnFromAnOfferWaitingForRoomWhenTheQueueIsDropped() throws InterruptedException
    {
        // A query four times the ring with no worker: the producer waits for room until the drop releases it.
        final DynamicBatcher b = batcher(4, 0, 1024);
        final AtomicBoolean offered = new AtomicBoolean(true);
        final Thread producer = Thread.ofPlatform().start(() -> offered.set(b.offer(query(1, 4096),
            new YieldingIdleStrategy())));
        while (b.queued() < 1024)
        {
            Thread.onSpinWait();
        }
        Thread.sleep(50);
        assertTrue(producer.isAlive(), "the producer waits for room");
        b.dropQueued();
        producer.join(LIMIT.toMillis());
        assertFalse(producer.isAlive(), "the drop released the producer");
        assertFalse(offered.get(), "the rest of the query was dropped");
        final SampleBatch batch = new SampleBatch(4);
        assertEquals(0, b.nextBatch(batch, new NoOpIdleStrategy()));
        assertEquals(1024, b.droppedSamples());
    }

    @Test
    void shouldStopCopyingALargeQueryAtTheNextChunkAfterADrop()
    {
        final DynamicBatcher b = batcher(256, 0, 1 << 14);
        final int size = 4 * DynamicBatcher.PUBLISH_CHUNK;
        final QuerySamples dropping = whenCopied(query(1, size), DynamicBatcher.PUBLISH_CHUNK + 10, b::dropQueued);
        assertFalse(b.offer(dropping, new NoOpIdleStrategy()));
        assertEquals(0, b.nextBatch(new SampleBatch(256), new NoOpIdleStrategy()));
        assertEquals(2L * DynamicBatcher.PUBLISH_CHUNK, b.droppedSamples(),
            "copied up to the end of the chunk the drop came in, no further");
    }

    @Test
    void shouldReportABatchAsContiguousOnlyWhenPositionsFollowEachOther()
    {
        final SampleBatch batch = new SampleBatch(4);
        batch.add(1, 0, 7, 0);
        batch.add(2, 0, 8, 0);
        assertTrue(batch.contiguous());
        batch.add(3, 0, 0, 0);
        assertFalse(batch.contiguous());
    }

    @Test
    void shouldPublishALargeQueryInChunksWhileCopyingIt()
    {
        final DynamicBatcher b = batcher(256, 0, 1 << 14);
        final int size = 3 * DynamicBatcher.PUBLISH_CHUNK;
        final long[] queuedWhenCopying = new long[1];
        final QuerySamples watched = whenCopied(query(1, size), 2 * DynamicBatcher.PUBLISH_CHUNK + 5,
            () -> queuedWhenCopying[0] = b.queued());
        b.offer(watched, new NoOpIdleStrategy());

        assertEquals(2L * DynamicBatcher.PUBLISH_CHUNK, queuedWhenCopying[0]);
        assertEquals(size, b.queued());
    }

    @Test
    void shouldNotSplitASmallQueryWhenItStraddlesAChunkBoundary()
    {
        final DynamicBatcher b = batcher(16, 0, 1 << 12);
        final SampleBatch batch = new SampleBatch(16);
        b.offer(query(1, DynamicBatcher.PUBLISH_CHUNK - 4), new NoOpIdleStrategy());
        while (b.nextBatch(batch, new NoOpIdleStrategy()) > 0)
        {
            assertTrue(batch.size() > 0);
        }
        b.offer(query(DynamicBatcher.PUBLISH_CHUNK - 3, 8), new NoOpIdleStrategy());

        assertEquals(8, b.nextBatch(batch, new NoOpIdleStrategy()));
    }

    @Test
    void shouldHandEverySampleToExactlyOneWorkerInOrder() throws Exception
    {
        final int total = 200_000;
        final DynamicBatcher b = batcher(32, 50, 1 << 10);
        final BitSet seen = new BitSet(total + 1);
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        final AtomicLong taken = new AtomicLong();
        final List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++)
        {
            workers.add(Thread.ofPlatform().start(() ->
            {
                final SampleBatch batch = new SampleBatch(32);
                final IdleStrategy idle = new YieldingIdleStrategy();
                while (taken.get() < total)
                {
                    final int n = b.nextBatch(batch, idle);
                    for (int i = 0; i < n; i++)
                    {
                        final long id = batch.responseId(i);
                        if (i > 0 && id != batch.responseId(i - 1) + 1)
                        {
                            problems.add("batch out of order at " + id);
                        }
                        if (batch.sampleIndex(i) != id * 10 || batch.position(i) != (int)id)
                        {
                            problems.add("entry " + id + " lost its index or position");
                        }
                        synchronized (seen)
                        {
                            if (seen.get((int)id))
                            {
                                problems.add("sample " + id + " handed out twice");
                            }
                            seen.set((int)id);
                        }
                    }
                    taken.addAndGet(n);
                    if (n == 0)
                    {
                        Thread.yield();
                    }
                }
            }));
        }
        assertTimeoutPreemptively(LIMIT, () ->
        {
            long id = 1;
            int size = 1;
            while (id <= total)
            {
                final int n = (int)Math.min(size, total - id + 1);
                assertTrue(b.offer(query(id, n), new YieldingIdleStrategy()));
                id += n;
                size = size % 3000 + 7;
            }
            for (final Thread t : workers)
            {
                t.join();
            }
        });
        assertTrue(problems.isEmpty(), () -> problems.peek());
        assertEquals(total, seen.cardinality());
        assertFalse(seen.get(0));
    }

    @Test
    void shouldResumeAWaitingProducerOnlyWhenAQuarterOfTheRingIsFree() throws Exception
    {
        final DynamicBatcher b = batcher(1, 0, 16);
        final SampleBatch batch = new SampleBatch(1);
        final CountingIdle producerIdle = new CountingIdle(null);
        final Thread producer = Thread.ofPlatform().start(() -> b.offer(query(1, 40), producerIdle));
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (producerIdle.calls() == 0)
            {
                Thread.onSpinWait();
            }
            assertEquals(16, b.queued());
            for (int taken = 1; taken <= 3; taken++)
            {
                assertEquals(1, b.nextBatch(batch, new NoOpIdleStrategy()));
                final long calls = producerIdle.calls();
                while (producerIdle.calls() < calls + 100)
                {
                    Thread.onSpinWait();
                }
                // Still waiting: a resumed producer refills the ring before it waits again.
                assertEquals(16 - taken, b.queued());
            }
            assertEquals(1, b.nextBatch(batch, new NoOpIdleStrategy()));
            while (b.queued() < 16)
            {
                Thread.onSpinWait();
            }
            final List<Long> seen = new ArrayList<>(List.of(1L, 2L, 3L, 4L));
            while (seen.size() < 40)
            {
                if (b.nextBatch(batch, new NoOpIdleStrategy()) == 1)
                {
                    seen.add(batch.responseId(0));
                }
            }
            producer.join();
            for (int i = 0; i < 40; i++)
            {
                assertEquals(i + 1, seen.get(i));
            }
        });
    }

    @Test
    void shouldNeverOverwriteQueuedSamplesInATinyRing() throws Exception
    {
        final DynamicBatcher b = batcher(1, 0, 2);
        final SampleBatch batch = new SampleBatch(1);
        final Thread producer = Thread.ofPlatform().start(() -> b.offer(query(1, 50), new YieldingIdleStrategy()));
        final List<Long> seen = new ArrayList<>();
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (seen.size() < 50)
            {
                assertTrue(b.queued() <= 2);
                if (b.nextBatch(batch, new NoOpIdleStrategy()) == 1)
                {
                    seen.add(batch.responseId(0));
                }
            }
            producer.join();
        });
        for (int i = 0; i < 50; i++)
        {
            assertEquals(i + 1, seen.get(i));
        }
    }

    @Test
    void shouldReleaseAProducerWaitingForRoomWhenStopped() throws Exception
    {
        final DynamicBatcher b = batcher(4, 0, 8);
        final AtomicBoolean offered = new AtomicBoolean(true);
        final Thread producer = Thread.ofPlatform().start(() -> offered.set(b.offer(query(1, 20),
            new YieldingIdleStrategy())));
        assertTimeoutPreemptively(LIMIT, () ->
        {
            while (b.queued() < 8)
            {
                Thread.onSpinWait();
            }
            b.stop();
            producer.join();
        });
        assertFalse(offered.get());
        assertFalse(b.running());
    }

    /** Counts idle calls and runs an action on the first one. */
    private static final class CountingIdle implements IdleStrategy
    {
        private final Runnable first;
        private volatile int calls;

        CountingIdle(final Runnable first)
        {
            this.first = first;
        }

        @Override
        public void idle(final int workCount)
        {
            idle();
        }

        @Override
        public void idle()
        {
            final int before = calls;
            calls = before + 1;
            if (before == 0 && first != null)
            {
                first.run();
            }
        }

        @Override
        public void reset()
        {
        }

        int calls()
        {
            return calls;
        }
    }
}
