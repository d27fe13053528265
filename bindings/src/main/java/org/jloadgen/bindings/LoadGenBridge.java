package org.jloadgen.bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

import org.jloadgen.bindings.internal.BridgeLibraryLoader;
import org.jloadgen.bindings.internal.JlgBridge;
import org.jloadgen.bindings.internal.jlg_bridge_progress;
import org.jloadgen.bindings.internal.jlg_flush_queries_callback;
import org.jloadgen.bindings.internal.jlg_issue_query_callback;
import org.jloadgen.bindings.internal.jlg_response_callback;
import org.jloadgen.bindings.internal.jlg_samples_callback;

/**
 * The official LoadGen through {@code libjlg_loadgen_bridge.so} ({@code native/src/main/c/include/jlg_bridge.h}):
 * settings through LoadGen's own {@code FromConfig} and by TestSettings field name, {@code StartTest} with a client
 * whose methods LoadGen's SUT and QSL calls reach, and the completion entry points. The completion methods are the
 * hot path: one downcall each, over memory the caller owns, allocating nothing.
 * <p>
 * One test per process: LoadGen keeps process-wide state, and so does the bridge.
 */
public final class LoadGenBridge
{
    /** {@link #startTest} result: the test ran to its end. */
    public static final int COMPLETED = JlgBridge.JLG_BRIDGE_COMPLETED();
    /** {@link #startTest} result: the test ended through LoadGen's AbortTest after {@link #fail}. */
    public static final int ABORTED = JlgBridge.JLG_BRIDGE_ABORTED();
    /** {@link #startTest} result: a test already ran in this process. */
    public static final int ALREADY_RAN = JlgBridge.JLG_BRIDGE_ALREADY_RAN();
    /** {@link #startTest} result: LoadGen's StartTest threw. */
    public static final int INTERNAL_ERROR = JlgBridge.JLG_BRIDGE_INTERNAL_ERROR();
    /** {@link #startTest} result: LoadGen could not open its log files and ran nothing. */
    public static final int NO_LOGS = JlgBridge.JLG_BRIDGE_NO_LOGS();

    private static final ThreadLocal<CallbackSlot> CALLBACK = ThreadLocal.withInitial(CallbackSlot::new);
    private static final class ResponseStub
    {
        static final MemorySegment STUB = jlg_response_callback.allocate(LoadGenBridge::onResponse, Arena.global());
    }

    private LoadGenBridge()
    {
    }

    /**
     * Opens the bridge library (once per process).
     *
     * @param library {@code libjlg_loadgen_bridge.so}.
     * @throws IllegalArgumentException naming the file when it cannot be opened.
     */
    public static void open(final Path library)
    {
        BridgeLibraryLoader.open(library);
    }

    /**
     * @return whether a bridge library is open.
     */
    public static boolean isOpen()
    {
        return BridgeLibraryLoader.isOpen();
    }

    /**
     * @return LoadGen's version, e.g. {@code 6.0.17}.
     */
    public static String loadgenVersion()
    {
        return cString(JlgBridge.jlg_bridge_loadgen_version());
    }

    /**
     * @return the mlperf.conf compiled into LoadGen.
     */
    public static String builtinMlperfConf()
    {
        return cString(JlgBridge.jlg_bridge_builtin_mlperf_conf());
    }

    /**
     * @return SHA-1 of each LoadGen source file by name ({@code /loadgen.cc}...), as its detail log records them.
     */
    public static Map<String, String> loadgenFileSha1()
    {
        final Map<String, String> sha1 = new TreeMap<>();
        for (final String line : cString(JlgBridge.jlg_bridge_loadgen_file_sha1()).split("\n"))
        {
            final int space = line.indexOf(' ');
            if (space > 0)
            {
                sha1.put(line.substring(space + 1), line.substring(0, space));
            }
        }
        return Collections.unmodifiableMap(sha1);
    }

    /**
     * What LoadGen's SUT and QSL calls reach, on LoadGen's test thread or a registered issue thread. Each method
     * returns 0, or nonzero after it called {@link #fail}; none may throw (an exception reaching native code ends
     * the JVM).
     */
    public interface Client
    {
        /**
         * @param samplesAddress address of {@code count} {@code {uint64 id; uint64 index}} records, valid during
         *                       the call.
         * @param count          number of samples.
         * @return 0 or nonzero.
         */
        int issueQuery(long samplesAddress, long count);

        /**
         * @return 0 or nonzero.
         */
        int flushQueries();

        /**
         * @param indicesAddress address of {@code count} QSL indices ({@code uint64}), valid during the call.
         * @param count          number of indices.
         * @return 0 or nonzero.
         */
        int loadSamples(long indicesAddress, long count);

        /**
         * @param indicesAddress address of {@code count} QSL indices ({@code uint64}), valid during the call.
         * @param count          number of indices.
         * @return 0 or nonzero.
         */
        int unloadSamples(long indicesAddress, long count);
    }

    /**
     * Runs LoadGen's {@code StartTest} on the calling thread; blocks for the whole test.
     *
     * @param settings          the test and log settings.
     * @param sutName           the SUT's name ({@code sut_name}).
     * @param qslName           the QSL's name ({@code qsl_name}).
     * @param totalCount        the QSL's total sample count.
     * @param performanceCount  the QSL's performance sample count.
     * @param auditConfig       the audit.config file name LoadGen looks for.
     * @param client            what LoadGen's calls reach.
     * @return {@link #COMPLETED}, {@link #ABORTED}, {@link #NO_LOGS}, {@link #ALREADY_RAN} or
     *         {@link #INTERNAL_ERROR}.
     */
    public static int startTest(final Settings settings, final String sutName, final String qslName,
        final long totalCount, final long performanceCount, final String auditConfig, final Client client)
    {
        try (Arena arena = Arena.ofShared())
        {
            final MemorySegment issue = jlg_issue_query_callback.allocate(
                (ignored, address, count) -> client.issueQuery(address, count), arena);
            final MemorySegment flush = jlg_flush_queries_callback.allocate(ignored -> client.flushQueries(), arena);
            final MemorySegment load = jlg_samples_callback.allocate(
                (ignored, address, count) -> client.loadSamples(address, count), arena);
            final MemorySegment unload = jlg_samples_callback.allocate(
                (ignored, address, count) -> client.unloadSamples(address, count), arena);
            return JlgBridge.jlg_bridge_start_test(settings.handle, arena.allocateFrom(sutName),
                arena.allocateFrom(qslName), totalCount, performanceCount, arena.allocateFrom(auditConfig), 0L,
                issue, flush, load, unload);
        }
    }

    /**
     * Completes {@code count} responses ({@code {id, data, size, n_tokens}}, 32 bytes each) in one call to
     * LoadGen's {@code QuerySamplesComplete}, after dropping those whose sample is not outstanding.
     *
     * @param responses the responses.
     * @param count     how many.
     * @return how many were dropped.
     */
    public static long complete(final MemorySegment responses, final long count)
    {
        return JlgBridge.jlg_bridge_complete(responses, count);
    }

    /**
     * Completes one sample.
     *
     * @param id          its response id.
     * @param dataAddress payload address, 0 if none.
     * @param dataBytes   payload size.
     * @param tokenCount  output tokens.
     * @return 1 if it was dropped, else 0.
     */
    public static long completeOne(final long id, final long dataAddress, final long dataBytes, final long tokenCount)
    {
        return JlgBridge.jlg_bridge_complete_one(id, dataAddress, dataBytes, tokenCount);
    }

    /**
     * LoadGen's {@code ResponseCallback}, for {@link #complete(MemorySegment, long, ResponseCallback)}.
     */
    @FunctionalInterface
    public interface ResponseCallback
    {
        /**
         * @param index the entry of the completed array about to be copied into the accuracy log; the callback
         *              may rewrite its data address and size.
         */
        void beforeCopy(int index);
    }

    /**
     * As {@link #complete(MemorySegment, long)}, with LoadGen calling {@code callback} (on this thread) before it
     * copies a payload into the accuracy log.
     *
     * @param responses the responses.
     * @param count     how many.
     * @param callback  the callback.
     * @return how many were dropped.
     * @throws RuntimeException what the callback threw (after LoadGen finished the call).
     */
    public static long complete(final MemorySegment responses, final long count, final ResponseCallback callback)
    {
        final CallbackSlot slot = CALLBACK.get();
        slot.callback = callback;
        slot.failure = null;
        final long dropped;
        try
        {
            dropped = JlgBridge.jlg_bridge_complete_with_callback(responses, count, ResponseStub.STUB, 0L);
        }
        finally
        {
            slot.callback = null;
        }
        final Throwable failure = slot.failure;
        if (failure != null)
        {
            slot.failure = null;
            throw failure instanceof RuntimeException runtime ? runtime
                : new IllegalStateException("the response callback failed: " + failure, failure);
        }
        return dropped;
    }

    /**
     * First tokens of {@code count} samples, in one call to LoadGen's {@code FirstTokenComplete}.
     *
     * @param responses the responses.
     * @param count     how many.
     * @return how many were dropped.
     */
    public static long firstToken(final MemorySegment responses, final long count)
    {
        return JlgBridge.jlg_bridge_first_token(responses, count);
    }

    /**
     * First token of one sample.
     *
     * @param id          its response id.
     * @param dataAddress payload address, 0 if none.
     * @param dataBytes   payload size.
     * @return 1 if it was dropped, else 0.
     */
    public static long firstTokenOne(final long id, final long dataAddress, final long dataBytes)
    {
        return JlgBridge.jlg_bridge_first_token_one(id, dataAddress, dataBytes);
    }

    /**
     * Ends the running test because the SUT failed (from any thread; the first reason wins): the reason goes to
     * LoadGen's detail log as an error, the outstanding samples are completed on the SUT's behalf, and the test
     * ends through LoadGen's AbortTest.
     *
     * @param reason why.
     * @return whether this call failed the test.
     */
    public static boolean fail(final String reason)
    {
        try (Arena arena = Arena.ofConfined())
        {
            return JlgBridge.jlg_bridge_fail(arena.allocateFrom(reason)) != 0;
        }
    }

    /**
     * LoadGen's {@code RegisterIssueQueryThread}: the calling thread issues Server queries until the test ends.
     */
    public static void registerIssueThread()
    {
        JlgBridge.jlg_bridge_register_issue_thread();
    }

    /**
     * The bridge's counters.
     *
     * @param issued      samples LoadGen issued.
     * @param completed   samples completed and handed to LoadGen.
     * @param outstanding samples issued and not complete.
     * @param duplicates  completions dropped because their sample was already complete.
     * @param unknown     completions or first tokens dropped because the id was not outstanding.
     * @param dropped     completions dropped because the test had failed or was not running.
     * @param drained     samples the bridge completed on the SUT's behalf after a failure.
     * @param failed      whether {@link #fail} was called.
     * @param running     whether a test runs.
     */
    public record Progress(long issued, long completed, long outstanding, long duplicates, long unknown,
        long dropped, long drained, boolean failed, boolean running)
    {
    }

    /**
     * @return the counters of the running (or last) test.
     */
    public static Progress progress()
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment p = jlg_bridge_progress.allocate(arena);
            JlgBridge.jlg_bridge_progress_read(p);
            return new Progress(jlg_bridge_progress.issued(p), jlg_bridge_progress.completed(p),
                jlg_bridge_progress.outstanding(p), jlg_bridge_progress.duplicates(p), jlg_bridge_progress.unknown(p),
                jlg_bridge_progress.dropped(p), jlg_bridge_progress.drained(p), jlg_bridge_progress.failed(p) != 0,
                jlg_bridge_progress.running(p) != 0);
        }
    }

    /**
     * LoadGen's {@code TestSettings} and {@code LogSettings}, in native memory until closed.
     */
    public static final class Settings implements AutoCloseable
    {
        private final MemorySegment handle;
        private boolean closed;

        private Settings(final MemorySegment handle)
        {
            this.handle = handle;
        }

        /**
         * @param scenario LoadGen's {@code TestScenario} value (0 SingleStream .. 3 Offline).
         * @param mode     LoadGen's {@code TestMode} value (0 SubmissionRun .. 3 FindPeakPerformance).
         * @return settings with LoadGen's defaults.
         */
        public static Settings create(final int scenario, final int mode)
        {
            final MemorySegment handle = JlgBridge.jlg_settings_create(scenario, mode);
            if (handle.equals(MemorySegment.NULL))
            {
                throw new IllegalArgumentException("bad scenario " + scenario + " or mode " + mode);
            }
            return new Settings(handle);
        }

        /**
         * {@code TestSettings::FromConfig}: LoadGen parses the file (or, for {@code confType} 0, its built-in
         * mlperf.conf) and logs its own errors to the detail log of the next test.
         *
         * @param path     the file ({@code ""} for confType 0).
         * @param model    the benchmark name, or {@code "*"}.
         * @param scenario the scenario's name.
         * @param confType 0 built-in mlperf.conf, 1 user.conf (after the built-in mlperf.conf), 2 audit.config.
         * @return LoadGen's result: 0, -ENOENT (2) or -EINVAL (22) negated.
         */
        public int fromConfig(final String path, final String model, final String scenario, final int confType)
        {
            try (Arena arena = Arena.ofConfined())
            {
                return JlgBridge.jlg_settings_from_config(handle, arena.allocateFrom(path), arena.allocateFrom(model),
                    arena.allocateFrom(scenario), confType);
            }
        }

        /**
         * @param mode LoadGen's {@code TestMode} value.
         */
        public void mode(final int mode)
        {
            check("mode", JlgBridge.jlg_settings_set_mode(handle, mode));
        }

        /**
         * @return LoadGen's {@code TestMode} value now (config files may set it).
         */
        public int mode()
        {
            return JlgBridge.jlg_settings_get_mode(handle);
        }

        /**
         * @param field a double field's name.
         * @param value its value.
         */
        public void setDouble(final String field, final double value)
        {
            try (Arena arena = Arena.ofConfined())
            {
                check(field, JlgBridge.jlg_settings_set_double(handle, arena.allocateFrom(field), value));
            }
        }

        /**
         * @param field a {@code uint64_t} field's name.
         * @param value its value (unsigned).
         */
        public void setUnsigned(final String field, final long value)
        {
            try (Arena arena = Arena.ofConfined())
            {
                check(field, JlgBridge.jlg_settings_set_uint64(handle, arena.allocateFrom(field), value));
            }
        }

        /**
         * @param field an {@code int} field's name.
         * @param value its value.
         */
        public void setInt(final String field, final int value)
        {
            try (Arena arena = Arena.ofConfined())
            {
                check(field, JlgBridge.jlg_settings_set_int(handle, arena.allocateFrom(field), value));
            }
        }

        /**
         * @param field a {@code bool} field's name.
         * @param value its value.
         */
        public void setBoolean(final String field, final boolean value)
        {
            try (Arena arena = Arena.ofConfined())
            {
                check(field, JlgBridge.jlg_settings_set_bool(handle, arena.allocateFrom(field), value ? 1 : 0));
            }
        }

        /**
         * @param field a double field's name.
         * @return its value.
         */
        public double getDouble(final String field)
        {
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment out = arena.allocate(ValueLayout.JAVA_DOUBLE);
                check(field, JlgBridge.jlg_settings_get_double(handle, arena.allocateFrom(field), out));
                return out.get(ValueLayout.JAVA_DOUBLE, 0);
            }
        }

        /**
         * @param field an unsigned, int or bool field's name.
         * @return its value (bools 0 or 1).
         */
        public long getUnsigned(final String field)
        {
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
                check(field, JlgBridge.jlg_settings_get_uint64(handle, arena.allocateFrom(field), out));
                return out.get(ValueLayout.JAVA_LONG, 0);
            }
        }

        /**
         * LoadGen's {@code LogOutputSettings} and {@code enable_trace}.
         *
         * @param outdir                 the log folder.
         * @param prefix                 file name prefix.
         * @param suffix                 file name suffix.
         * @param prefixWithDatetime     whether the date and time follow the prefix.
         * @param copyDetailToStdout     whether the detail log is also printed.
         * @param copySummaryToStdout    whether the summary is also printed.
         * @param enableTrace            whether the Chrome trace is written.
         */
        public void logOutput(final String outdir, final String prefix, final String suffix,
            final boolean prefixWithDatetime, final boolean copyDetailToStdout, final boolean copySummaryToStdout,
            final boolean enableTrace)
        {
            try (Arena arena = Arena.ofConfined())
            {
                JlgBridge.jlg_settings_log_output(handle, arena.allocateFrom(outdir), arena.allocateFrom(prefix),
                    arena.allocateFrom(suffix), flag(prefixWithDatetime), flag(copyDetailToStdout),
                    flag(copySummaryToStdout), flag(enableTrace));
            }
        }

        @Override
        public void close()
        {
            if (!closed)
            {
                closed = true;
                JlgBridge.jlg_settings_destroy(handle);
            }
        }

        private static int flag(final boolean value)
        {
            return value ? 1 : 0;
        }

        private static void check(final String field, final int code)
        {
            if (code == JlgBridge.JLG_SETTINGS_UNKNOWN_FIELD())
            {
                throw new IllegalArgumentException("LoadGen's TestSettings has no field '" + field + "'");
            }
            if (code == JlgBridge.JLG_SETTINGS_WRONG_TYPE())
            {
                throw new IllegalArgumentException("LoadGen's TestSettings field '" + field + "' has another type");
            }
            if (code != JlgBridge.JLG_SETTINGS_OK())
            {
                throw new IllegalArgumentException("bad value for LoadGen's TestSettings field '" + field + "'");
            }
        }
    }

    private static String cString(final MemorySegment pointer)
    {
        return pointer.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
    }

    /** The upcall target of LoadGen's response callback: the callback set by this thread's completion. */
    private static void onResponse(final long client, final long index)
    {
        final CallbackSlot slot = CALLBACK.get();
        try
        {
            if (slot.failure == null && slot.callback != null)
            {
                slot.callback.beforeCopy((int)index);
            }
        }
        catch (final Throwable ex)
        {
            // Never into native code: the completion method rethrows it once LoadGen is done.
            slot.failure = ex;
        }
    }

    private static final class CallbackSlot
    {
        ResponseCallback callback;
        Throwable failure;
    }
}
