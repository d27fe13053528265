package org.jloadgen.sut.network.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jloadgen.accuracy.AccuracyLogReader;
import org.jloadgen.api.CompletionWaitStrategy;
import org.jloadgen.api.EngineOptions;
import org.jloadgen.api.LogSettings;
import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseCallback;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;
import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.engine.TestResult;
import org.jloadgen.engine.TestRunner;
import org.jloadgen.spi.SutContext;
import org.jloadgen.sut.network.ServeProcess;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A node's counts ({@code sent, answered, failed}) are exact when the engine hears of a completion, so they are
 * exact when the run ends and the CLI prints them: every sample is counted answered before it is handed to the
 * engine, on calls of their own and on streams. The check is made inside each completion, so a count that lags its
 * completion fails the test on every run, not only when the run's end wins the race.
 */
class NodeCountsTest
{
    private static final Pattern COUNTS = Pattern.compile(": (\\d+) sent, (\\d+) answered, (\\d+) failed");

    @TempDir
    Path dir;

    /**
     * The network SUT with a sink between it and the engine that, at every completion, reads the node's counts
     * before passing the completion on.
     */
    private static final class CheckingSut implements SystemUnderTest
    {
        private final NetworkSut sut;
        private final AtomicLong completions = new AtomicLong();
        private final ConcurrentLinkedQueue<String> lagging = new ConcurrentLinkedQueue<>();
        private volatile ResponseSink engine;
        private final ResponseSink checking = new ResponseSink()
        {
            @Override
            public void complete(final long responseId)
            {
                check();
                engine.complete(responseId);
            }

            @Override
            public void complete(final long responseId, final long dataAddress, final long dataBytes,
                final long tokenCount)
            {
                check();
                engine.complete(responseId, dataAddress, dataBytes, tokenCount);
            }

            @Override
            public void complete(final long responseId, final byte[] data, final int offset, final int length,
                final long tokenCount)
            {
                check();
                engine.complete(responseId, data, offset, length, tokenCount);
            }

            @Override
            public void complete(final QuerySampleResponses responses, final int count)
            {
                for (int i = 0; i < count; i++)
                {
                    check();
                }
                engine.complete(responses, count);
            }

            @Override
            public void complete(final QuerySampleResponses responses, final int count,
                final ResponseCallback callback)
            {
                for (int i = 0; i < count; i++)
                {
                    check();
                }
                engine.complete(responses, count, callback);
            }

            @Override
            public void firstToken(final long responseId, final long dataAddress, final long dataBytes)
            {
                engine.firstToken(responseId, dataAddress, dataBytes);
            }

            @Override
            public void firstToken(final QuerySampleResponses responses, final int count)
            {
                engine.firstToken(responses, count);
            }

            @Override
            public void fail(final Throwable cause)
            {
                engine.fail(cause);
            }
        };

        CheckingSut(final NetworkSut sut)
        {
            this.sut = sut;
        }

        /**
         * This completion and every one before it (from any transport thread) must be counted already.
         */
        private void check()
        {
            final long completed = completions.incrementAndGet();
            final long answered = answered(sut.describeNodes());
            if (answered < completed)
            {
                lagging.add("completion " + completed + " saw " + sut.describeNodes());
            }
        }

        @Override
        public String name()
        {
            return sut.name();
        }

        @Override
        public void issueQuery(final QuerySamples samples, final ResponseSink sink)
        {
            engine = sink;
            sut.issueQuery(samples, checking);
        }

        @Override
        public void flushQueries()
        {
            sut.flushQueries();
        }
    }

    private static long answered(final String nodes)
    {
        final Matcher m = COUNTS.matcher(nodes);
        assertTrue(m.find(), nodes);
        return Long.parseLong(m.group(2));
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void shouldCountEverySampleAnsweredBeforeTheEngineHearsOfIt(final boolean stream) throws Exception
    {
        try (ServeProcess node = ServeProcess.start(dir, "node-a", "--sut", "null");
             NetworkSutProvider.Instance instance = (NetworkSutProvider.Instance)new NetworkSutProvider().create(
                 new SutContext(TestScenario.OFFLINE, Map.of("endpoints", node.endpoint(), "model", "null",
                     "inflight", "16", "stream", String.valueOf(stream)), 1024, 1024)))
        {
            final CheckingSut checking = new CheckingSut(instance.networkSut());
            // AccuracyOnly Offline: every one of the 1024 samples once, in one query.
            final TestResult result = new TestRunner(checking, instance.qsl(), new TestSettings()
                .scenario(TestScenario.OFFLINE).mode(TestMode.ACCURACY_ONLY), new LogSettings()
                .outputDirectory(dir.resolve("run-" + stream)).copySummaryToStdout(false), new EngineOptions()
                .completionWait(CompletionWaitStrategy.SLEEP).jitWarmupMs(0), null, List.of(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
            assertEquals(0, result.errorCount(), () -> result.messages().toString());
            final AtomicLong logged = new AtomicLong();
            AccuracyLogReader.read(result.accuracyFile(), e -> logged.incrementAndGet());
            assertEquals(1024, logged.get(), "samples in the accuracy log");
            assertEquals(1024, checking.completions.get());
            assertTrue(checking.lagging.isEmpty(), () -> checking.lagging.size() + " completions reached the engine "
                + "before their node counted them, e.g. " + checking.lagging.peek());
            // Read at once, as the CLI reads them: the run has ended, so every count is final.
            assertTrue(instance.networkSut().describeNodes().endsWith(": 1024 sent, 1024 answered, 0 failed"),
                instance.networkSut()::describeNodes);
        }
    }
}
