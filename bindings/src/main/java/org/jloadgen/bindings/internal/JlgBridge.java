package org.jloadgen.bindings.internal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;

/**
 * Downcalls to {@code libjlg_loadgen_bridge.so} ({@code native/src/main/c/include/jlg_bridge.h}), the shim linked
 * with the official LoadGen, written by hand in the shape {@code jextract --header-class-name JlgBridge} produces
 * (as {@link JlgNative}): C type layouts, one holder class per function with {@code static final} descriptor,
 * address and handle, resolved on first use, and a static wrapper per function. {@code bindings/jextract.sh}
 * regenerates it where jextract exists, from the allow-list {@code bindings/src/main/jextract/bridge-includes.txt}.
 * <p>
 * The library is built per LoadGen source at run time, so its path is not known here: symbols resolve through
 * {@link BridgeLibraryLoader}, which must have opened it before the first call. No handle is critical: the
 * completion functions may wait on the shim's lock and LoadGen's, and StartTest calls back.
 * <p>
 * Not API: use {@code org.jloadgen.bindings.LoadGenBridge}.
 */
public final class JlgBridge
{
    /** C {@code int} and {@code int32_t}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    /** C {@code uint64_t}, {@code int64_t} on LP64. */
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    /** C {@code double}. */
    public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE;
    /** C {@code void *} (and {@code const char *}). */
    public static final AddressLayout C_POINTER =
        ValueLayout.ADDRESS.withTargetLayout(MemoryLayout.sequenceLayout(Long.MAX_VALUE, ValueLayout.JAVA_BYTE));
    /** Names of the functions bound here, in the order of the allow-list. */
    public static final List<String> FUNCTIONS = List.of(
        "jlg_bridge_loadgen_version", "jlg_bridge_builtin_mlperf_conf", "jlg_bridge_loadgen_file_sha1",
        "jlg_settings_create", "jlg_settings_destroy", "jlg_settings_from_config", "jlg_settings_set_mode",
        "jlg_settings_get_mode", "jlg_settings_set_double", "jlg_settings_set_uint64", "jlg_settings_set_int",
        "jlg_settings_set_bool", "jlg_settings_get_double", "jlg_settings_get_uint64",
        "jlg_settings_log_output", "jlg_bridge_start_test", "jlg_bridge_complete", "jlg_bridge_complete_one",
        "jlg_bridge_complete_with_callback", "jlg_bridge_first_token", "jlg_bridge_first_token_one",
        "jlg_bridge_fail", "jlg_bridge_register_issue_thread", "jlg_bridge_progress_read");

    /**
     * @return {@code JLG_BRIDGE_COMPLETED} (0): the test ran to its end.
     */
    public static int JLG_BRIDGE_COMPLETED()
    {
        return JLG_BRIDGE_COMPLETED_VALUE;
    }

    private static final int JLG_BRIDGE_COMPLETED_VALUE = 0;

    /**
     * @return {@code JLG_BRIDGE_ABORTED} (1): the test ended through AbortTest after {@code jlg_bridge_fail}.
     */
    public static int JLG_BRIDGE_ABORTED()
    {
        return JLG_BRIDGE_ABORTED_VALUE;
    }

    private static final int JLG_BRIDGE_ABORTED_VALUE = 1;

    /**
     * @return {@code JLG_BRIDGE_ALREADY_RAN} (-1): a test already ran in this process.
     */
    public static int JLG_BRIDGE_ALREADY_RAN()
    {
        return JLG_BRIDGE_ALREADY_RAN_VALUE;
    }

    private static final int JLG_BRIDGE_ALREADY_RAN_VALUE = -1;

    /**
     * @return {@code JLG_BRIDGE_INTERNAL_ERROR} (-2): StartTest threw.
     */
    public static int JLG_BRIDGE_INTERNAL_ERROR()
    {
        return JLG_BRIDGE_INTERNAL_ERROR_VALUE;
    }

    private static final int JLG_BRIDGE_INTERNAL_ERROR_VALUE = -2;

    /**
     * @return {@code JLG_BRIDGE_NO_LOGS} (-3): LoadGen could not open its log files and ran nothing.
     */
    public static int JLG_BRIDGE_NO_LOGS()
    {
        return JLG_BRIDGE_NO_LOGS_VALUE;
    }

    private static final int JLG_BRIDGE_NO_LOGS_VALUE = -3;

    /**
     * @return {@code JLG_SETTINGS_OK} (0): the field was set.
     */
    public static int JLG_SETTINGS_OK()
    {
        return JLG_SETTINGS_OK_VALUE;
    }

    private static final int JLG_SETTINGS_OK_VALUE = 0;

    /**
     * @return {@code JLG_SETTINGS_UNKNOWN_FIELD} (-1): no TestSettings field has that name.
     */
    public static int JLG_SETTINGS_UNKNOWN_FIELD()
    {
        return JLG_SETTINGS_UNKNOWN_FIELD_VALUE;
    }

    private static final int JLG_SETTINGS_UNKNOWN_FIELD_VALUE = -1;

    /**
     * @return {@code JLG_SETTINGS_WRONG_TYPE} (-2): the field has another type.
     */
    public static int JLG_SETTINGS_WRONG_TYPE()
    {
        return JLG_SETTINGS_WRONG_TYPE_VALUE;
    }

    private static final int JLG_SETTINGS_WRONG_TYPE_VALUE = -2;

    /**
     * @return {@code JLG_SETTINGS_BAD_VALUE} (-3): the value is out of range.
     */
    public static int JLG_SETTINGS_BAD_VALUE()
    {
        return JLG_SETTINGS_BAD_VALUE_VALUE;
    }

    private static final int JLG_SETTINGS_BAD_VALUE_VALUE = -3;

    static final SymbolLookup SYMBOL_LOOKUP = BridgeLibraryLoader::find;

    private JlgBridge()
    {
    }

    static MemorySegment findOrThrow(final String symbol)
    {
        return SYMBOL_LOOKUP.find(symbol).orElseThrow(() -> new UnsatisfiedLinkError("unresolved symbol: " + symbol +
            " (" + BridgeLibraryLoader.describe() + ")"));
    }

    static MethodHandle upcallHandle(final Class<?> fi, final String name, final FunctionDescriptor fdesc)
    {
        try
        {
            return MethodHandles.lookup().findVirtual(fi, name, fdesc.toMethodType());
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private static final class jlg_bridge_loadgen_version
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_loadgen_version");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_loadgen_version}.
     */
    public static FunctionDescriptor jlg_bridge_loadgen_version$descriptor()
    {
        return jlg_bridge_loadgen_version.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_loadgen_version}.
     */
    public static MethodHandle jlg_bridge_loadgen_version$handle()
    {
        return jlg_bridge_loadgen_version.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_loadgen_version}.
     */
    public static MemorySegment jlg_bridge_loadgen_version$address()
    {
        return jlg_bridge_loadgen_version.ADDR;
    }

    /**
     * LoadGen's version (VERSION.txt), e.g. {@code 6.0.17}.
     *
     * @return a C string.
     */
    public static MemorySegment jlg_bridge_loadgen_version()
    {
        try
        {
            return (MemorySegment)jlg_bridge_loadgen_version.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_builtin_mlperf_conf
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_builtin_mlperf_conf");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_builtin_mlperf_conf}.
     */
    public static FunctionDescriptor jlg_bridge_builtin_mlperf_conf$descriptor()
    {
        return jlg_bridge_builtin_mlperf_conf.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_builtin_mlperf_conf}.
     */
    public static MethodHandle jlg_bridge_builtin_mlperf_conf$handle()
    {
        return jlg_bridge_builtin_mlperf_conf.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_builtin_mlperf_conf}.
     */
    public static MemorySegment jlg_bridge_builtin_mlperf_conf$address()
    {
        return jlg_bridge_builtin_mlperf_conf.ADDR;
    }

    /**
     * The mlperf.conf compiled into LoadGen.
     *
     * @return a C string.
     */
    public static MemorySegment jlg_bridge_builtin_mlperf_conf()
    {
        try
        {
            return (MemorySegment)jlg_bridge_builtin_mlperf_conf.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_loadgen_file_sha1
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_loadgen_file_sha1");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_loadgen_file_sha1}.
     */
    public static FunctionDescriptor jlg_bridge_loadgen_file_sha1$descriptor()
    {
        return jlg_bridge_loadgen_file_sha1.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_loadgen_file_sha1}.
     */
    public static MethodHandle jlg_bridge_loadgen_file_sha1$handle()
    {
        return jlg_bridge_loadgen_file_sha1.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_loadgen_file_sha1}.
     */
    public static MemorySegment jlg_bridge_loadgen_file_sha1$address()
    {
        return jlg_bridge_loadgen_file_sha1.ADDR;
    }

    /**
     * {@code name sha1} lines of LoadGen's source files (its {@code loadgen_file_sha1} record).
     *
     * @return a C string.
     */
    public static MemorySegment jlg_bridge_loadgen_file_sha1()
    {
        try
        {
            return (MemorySegment)jlg_bridge_loadgen_file_sha1.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_create
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_create");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_create}.
     */
    public static FunctionDescriptor jlg_settings_create$descriptor()
    {
        return jlg_settings_create.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_create}.
     */
    public static MethodHandle jlg_settings_create$handle()
    {
        return jlg_settings_create.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_create}.
     */
    public static MemorySegment jlg_settings_create$address()
    {
        return jlg_settings_create.ADDR;
    }

    /**
     * Settings with LoadGen's defaults and this scenario and mode.
     *
     * @param scenario scenario.
     * @param mode mode.
     * @return the settings, or NULL.
     */
    public static MemorySegment jlg_settings_create(final int scenario, final int mode)
    {
        try
        {
            return (MemorySegment)jlg_settings_create.HANDLE.invokeExact(scenario, mode);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_destroy
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_destroy");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_destroy}.
     */
    public static FunctionDescriptor jlg_settings_destroy$descriptor()
    {
        return jlg_settings_destroy.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_destroy}.
     */
    public static MethodHandle jlg_settings_destroy$handle()
    {
        return jlg_settings_destroy.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_destroy}.
     */
    public static MemorySegment jlg_settings_destroy$address()
    {
        return jlg_settings_destroy.ADDR;
    }

    /**
     * Frees settings.
     *
     * @param settings settings.
     */
    public static void jlg_settings_destroy(final MemorySegment settings)
    {
        try
        {
            jlg_settings_destroy.HANDLE.invokeExact(settings);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_from_config
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER,
            C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_from_config");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_from_config}.
     */
    public static FunctionDescriptor jlg_settings_from_config$descriptor()
    {
        return jlg_settings_from_config.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_from_config}.
     */
    public static MethodHandle jlg_settings_from_config$handle()
    {
        return jlg_settings_from_config.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_from_config}.
     */
    public static MemorySegment jlg_settings_from_config$address()
    {
        return jlg_settings_from_config.ADDR;
    }

    /**
     * {@code TestSettings::FromConfig(path, model, scenario, conf_type)}.
     *
     * @param settings settings.
     * @param path path.
     * @param model model.
     * @param scenario scenario.
     * @param confType conf type.
     * @return its result: 0, -ENOENT or -EINVAL.
     */
    public static int jlg_settings_from_config(final MemorySegment settings, final MemorySegment path,
        final MemorySegment model, final MemorySegment scenario, final int confType)
    {
        try
        {
            return (int)jlg_settings_from_config.HANDLE.invokeExact(settings, path, model, scenario, confType);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_set_mode
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_set_mode");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_set_mode}.
     */
    public static FunctionDescriptor jlg_settings_set_mode$descriptor()
    {
        return jlg_settings_set_mode.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_set_mode}.
     */
    public static MethodHandle jlg_settings_set_mode$handle()
    {
        return jlg_settings_set_mode.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_set_mode}.
     */
    public static MemorySegment jlg_settings_set_mode$address()
    {
        return jlg_settings_set_mode.ADDR;
    }

    /**
     * Sets {@code TestSettings::mode}.
     *
     * @param settings settings.
     * @param mode mode.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_set_mode(final MemorySegment settings, final int mode)
    {
        try
        {
            return (int)jlg_settings_set_mode.HANDLE.invokeExact(settings, mode);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_get_mode
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_get_mode");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_get_mode}.
     */
    public static FunctionDescriptor jlg_settings_get_mode$descriptor()
    {
        return jlg_settings_get_mode.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_get_mode}.
     */
    public static MethodHandle jlg_settings_get_mode$handle()
    {
        return jlg_settings_get_mode.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_get_mode}.
     */
    public static MemorySegment jlg_settings_get_mode$address()
    {
        return jlg_settings_get_mode.ADDR;
    }

    /**
     * {@code TestSettings::mode}.
     *
     * @param settings settings.
     * @return the mode.
     */
    public static int jlg_settings_get_mode(final MemorySegment settings)
    {
        try
        {
            return (int)jlg_settings_get_mode.HANDLE.invokeExact(settings);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_set_double
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_DOUBLE);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_set_double");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_set_double}.
     */
    public static FunctionDescriptor jlg_settings_set_double$descriptor()
    {
        return jlg_settings_set_double.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_set_double}.
     */
    public static MethodHandle jlg_settings_set_double$handle()
    {
        return jlg_settings_set_double.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_set_double}.
     */
    public static MemorySegment jlg_settings_set_double$address()
    {
        return jlg_settings_set_double.ADDR;
    }

    /**
     * Sets a double field by name.
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_set_double(final MemorySegment settings, final MemorySegment field,
        final double value)
    {
        try
        {
            return (int)jlg_settings_set_double.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_set_uint64
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_set_uint64");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_set_uint64}.
     */
    public static FunctionDescriptor jlg_settings_set_uint64$descriptor()
    {
        return jlg_settings_set_uint64.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_set_uint64}.
     */
    public static MethodHandle jlg_settings_set_uint64$handle()
    {
        return jlg_settings_set_uint64.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_set_uint64}.
     */
    public static MemorySegment jlg_settings_set_uint64$address()
    {
        return jlg_settings_set_uint64.ADDR;
    }

    /**
     * Sets a uint64_t field by name.
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_set_uint64(final MemorySegment settings, final MemorySegment field, final long value)
    {
        try
        {
            return (int)jlg_settings_set_uint64.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_set_int
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_set_int");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_set_int}.
     */
    public static FunctionDescriptor jlg_settings_set_int$descriptor()
    {
        return jlg_settings_set_int.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_set_int}.
     */
    public static MethodHandle jlg_settings_set_int$handle()
    {
        return jlg_settings_set_int.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_set_int}.
     */
    public static MemorySegment jlg_settings_set_int$address()
    {
        return jlg_settings_set_int.ADDR;
    }

    /**
     * Sets an int field by name.
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_set_int(final MemorySegment settings, final MemorySegment field, final int value)
    {
        try
        {
            return (int)jlg_settings_set_int.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_set_bool
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_set_bool");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_set_bool}.
     */
    public static FunctionDescriptor jlg_settings_set_bool$descriptor()
    {
        return jlg_settings_set_bool.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_set_bool}.
     */
    public static MethodHandle jlg_settings_set_bool$handle()
    {
        return jlg_settings_set_bool.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_set_bool}.
     */
    public static MemorySegment jlg_settings_set_bool$address()
    {
        return jlg_settings_set_bool.ADDR;
    }

    /**
     * Sets a bool field by name (0 or 1).
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_set_bool(final MemorySegment settings, final MemorySegment field, final int value)
    {
        try
        {
            return (int)jlg_settings_set_bool.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_get_double
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_get_double");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_get_double}.
     */
    public static FunctionDescriptor jlg_settings_get_double$descriptor()
    {
        return jlg_settings_get_double.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_get_double}.
     */
    public static MethodHandle jlg_settings_get_double$handle()
    {
        return jlg_settings_get_double.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_get_double}.
     */
    public static MemorySegment jlg_settings_get_double$address()
    {
        return jlg_settings_get_double.ADDR;
    }

    /**
     * Reads a double field.
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_get_double(final MemorySegment settings, final MemorySegment field,
        final MemorySegment value)
    {
        try
        {
            return (int)jlg_settings_get_double.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_get_uint64
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_get_uint64");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_get_uint64}.
     */
    public static FunctionDescriptor jlg_settings_get_uint64$descriptor()
    {
        return jlg_settings_get_uint64.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_get_uint64}.
     */
    public static MethodHandle jlg_settings_get_uint64$handle()
    {
        return jlg_settings_get_uint64.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_get_uint64}.
     */
    public static MemorySegment jlg_settings_get_uint64$address()
    {
        return jlg_settings_get_uint64.ADDR;
    }

    /**
     * Reads an unsigned, int or bool field.
     *
     * @param settings settings.
     * @param field field.
     * @param value value.
     * @return a JLG_SETTINGS_* code.
     */
    public static int jlg_settings_get_uint64(final MemorySegment settings, final MemorySegment field,
        final MemorySegment value)
    {
        try
        {
            return (int)jlg_settings_get_uint64.HANDLE.invokeExact(settings, field, value);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_settings_log_output
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, C_POINTER, C_POINTER,
            C_INT, C_INT, C_INT, C_INT);
        static final MemorySegment ADDR = findOrThrow("jlg_settings_log_output");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_settings_log_output}.
     */
    public static FunctionDescriptor jlg_settings_log_output$descriptor()
    {
        return jlg_settings_log_output.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_settings_log_output}.
     */
    public static MethodHandle jlg_settings_log_output$handle()
    {
        return jlg_settings_log_output.HANDLE;
    }

    /**
     * @return the address of {@code jlg_settings_log_output}.
     */
    public static MemorySegment jlg_settings_log_output$address()
    {
        return jlg_settings_log_output.ADDR;
    }

    /**
     * LogOutputSettings and enable_trace.
     *
     * @param settings settings.
     * @param outdir outdir.
     * @param prefix prefix.
     * @param suffix suffix.
     * @param prefixWithDatetime prefix with datetime.
     * @param copyDetailToStdout copy detail to stdout.
     * @param copySummaryToStdout copy summary to stdout.
     * @param enableTrace enable trace.
     */
    public static void jlg_settings_log_output(final MemorySegment settings, final MemorySegment outdir,
        final MemorySegment prefix, final MemorySegment suffix, final int prefixWithDatetime,
        final int copyDetailToStdout, final int copySummaryToStdout, final int enableTrace)
    {
        try
        {
            jlg_settings_log_output.HANDLE.invokeExact(settings, outdir, prefix, suffix, prefixWithDatetime,
                copyDetailToStdout, copySummaryToStdout, enableTrace);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_start_test
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER, C_LONG,
            C_LONG, C_POINTER, C_LONG, C_POINTER, C_POINTER, C_POINTER, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_start_test");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_start_test}.
     */
    public static FunctionDescriptor jlg_bridge_start_test$descriptor()
    {
        return jlg_bridge_start_test.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_start_test}.
     */
    public static MethodHandle jlg_bridge_start_test$handle()
    {
        return jlg_bridge_start_test.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_start_test}.
     */
    public static MemorySegment jlg_bridge_start_test$address()
    {
        return jlg_bridge_start_test.ADDR;
    }

    /**
     * Runs {@code mlperf::StartTest}; blocks for the whole test.
     *
     * @param settings settings.
     * @param sutName sut name.
     * @param qslName qsl name.
     * @param totalSampleCount total sample count.
     * @param performanceSampleCount performance sample count.
     * @param auditConfig audit config.
     * @param client client.
     * @param issueQuery issue query.
     * @param flushQueries flush queries.
     * @param loadSamples load samples.
     * @param unloadSamples unload samples.
     * @return a JLG_BRIDGE_* result.
     */
    public static int jlg_bridge_start_test(final MemorySegment settings, final MemorySegment sutName,
        final MemorySegment qslName, final long totalSampleCount, final long performanceSampleCount,
        final MemorySegment auditConfig, final long client, final MemorySegment issueQuery,
        final MemorySegment flushQueries, final MemorySegment loadSamples, final MemorySegment unloadSamples)
    {
        try
        {
            return (int)jlg_bridge_start_test.HANDLE.invokeExact(settings, sutName, qslName, totalSampleCount,
                performanceSampleCount, auditConfig, client, issueQuery, flushQueries, loadSamples, unloadSamples);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_complete
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_complete");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_complete}.
     */
    public static FunctionDescriptor jlg_bridge_complete$descriptor()
    {
        return jlg_bridge_complete.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_complete}.
     */
    public static MethodHandle jlg_bridge_complete$handle()
    {
        return jlg_bridge_complete.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_complete}.
     */
    public static MemorySegment jlg_bridge_complete$address()
    {
        return jlg_bridge_complete.ADDR;
    }

    /**
     * {@code QuerySamplesComplete} over the outstanding ones of count responses.
     *
     * @param responses responses.
     * @param count count.
     * @return the number dropped.
     */
    public static long jlg_bridge_complete(final MemorySegment responses, final long count)
    {
        try
        {
            return (long)jlg_bridge_complete.HANDLE.invokeExact(responses, count);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_complete_one
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_LONG, C_LONG, C_LONG, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_complete_one");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_complete_one}.
     */
    public static FunctionDescriptor jlg_bridge_complete_one$descriptor()
    {
        return jlg_bridge_complete_one.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_complete_one}.
     */
    public static MethodHandle jlg_bridge_complete_one$handle()
    {
        return jlg_bridge_complete_one.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_complete_one}.
     */
    public static MemorySegment jlg_bridge_complete_one$address()
    {
        return jlg_bridge_complete_one.ADDR;
    }

    /**
     * Completes one sample.
     *
     * @param id id.
     * @param data data.
     * @param size size.
     * @param nTokens n tokens.
     * @return 1 if dropped, else 0.
     */
    public static long jlg_bridge_complete_one(final long id, final long data, final long size, final long nTokens)
    {
        try
        {
            return (long)jlg_bridge_complete_one.HANDLE.invokeExact(id, data, size, nTokens);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_complete_with_callback
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_complete_with_callback");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_complete_with_callback}.
     */
    public static FunctionDescriptor jlg_bridge_complete_with_callback$descriptor()
    {
        return jlg_bridge_complete_with_callback.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_complete_with_callback}.
     */
    public static MethodHandle jlg_bridge_complete_with_callback$handle()
    {
        return jlg_bridge_complete_with_callback.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_complete_with_callback}.
     */
    public static MemorySegment jlg_bridge_complete_with_callback$address()
    {
        return jlg_bridge_complete_with_callback.ADDR;
    }

    /**
     * As jlg_bridge_complete, with LoadGen's ResponseCallback.
     *
     * @param responses responses.
     * @param count count.
     * @param callback callback.
     * @param client client.
     * @return the number dropped.
     */
    public static long jlg_bridge_complete_with_callback(final MemorySegment responses, final long count,
        final MemorySegment callback, final long client)
    {
        try
        {
            return (long)jlg_bridge_complete_with_callback.HANDLE.invokeExact(responses, count, callback, client);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_first_token
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_POINTER, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_first_token");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_first_token}.
     */
    public static FunctionDescriptor jlg_bridge_first_token$descriptor()
    {
        return jlg_bridge_first_token.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_first_token}.
     */
    public static MethodHandle jlg_bridge_first_token$handle()
    {
        return jlg_bridge_first_token.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_first_token}.
     */
    public static MemorySegment jlg_bridge_first_token$address()
    {
        return jlg_bridge_first_token.ADDR;
    }

    /**
     * {@code FirstTokenComplete} over the outstanding ones of count responses.
     *
     * @param responses responses.
     * @param count count.
     * @return the number dropped.
     */
    public static long jlg_bridge_first_token(final MemorySegment responses, final long count)
    {
        try
        {
            return (long)jlg_bridge_first_token.HANDLE.invokeExact(responses, count);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_first_token_one
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_LONG, C_LONG, C_LONG, C_LONG);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_first_token_one");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_first_token_one}.
     */
    public static FunctionDescriptor jlg_bridge_first_token_one$descriptor()
    {
        return jlg_bridge_first_token_one.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_first_token_one}.
     */
    public static MethodHandle jlg_bridge_first_token_one$handle()
    {
        return jlg_bridge_first_token_one.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_first_token_one}.
     */
    public static MemorySegment jlg_bridge_first_token_one$address()
    {
        return jlg_bridge_first_token_one.ADDR;
    }

    /**
     * First token of one sample.
     *
     * @param id id.
     * @param data data.
     * @param size size.
     * @return 1 if dropped, else 0.
     */
    public static long jlg_bridge_first_token_one(final long id, final long data, final long size)
    {
        try
        {
            return (long)jlg_bridge_first_token_one.HANDLE.invokeExact(id, data, size);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_fail
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_fail");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_fail}.
     */
    public static FunctionDescriptor jlg_bridge_fail$descriptor()
    {
        return jlg_bridge_fail.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_fail}.
     */
    public static MethodHandle jlg_bridge_fail$handle()
    {
        return jlg_bridge_fail.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_fail}.
     */
    public static MemorySegment jlg_bridge_fail$address()
    {
        return jlg_bridge_fail.ADDR;
    }

    /**
     * Ends the running test because the client failed; the first reason wins.
     *
     * @param reason reason.
     * @return 1 for the call that failed the test, else 0.
     */
    public static int jlg_bridge_fail(final MemorySegment reason)
    {
        try
        {
            return (int)jlg_bridge_fail.HANDLE.invokeExact(reason);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_register_issue_thread
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid();
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_register_issue_thread");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_register_issue_thread}.
     */
    public static FunctionDescriptor jlg_bridge_register_issue_thread$descriptor()
    {
        return jlg_bridge_register_issue_thread.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_register_issue_thread}.
     */
    public static MethodHandle jlg_bridge_register_issue_thread$handle()
    {
        return jlg_bridge_register_issue_thread.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_register_issue_thread}.
     */
    public static MemorySegment jlg_bridge_register_issue_thread$address()
    {
        return jlg_bridge_register_issue_thread.ADDR;
    }

    /**
     * {@code RegisterIssueQueryThread}: blocks until the test ends.
     */
    public static void jlg_bridge_register_issue_thread()
    {
        try
        {
            jlg_bridge_register_issue_thread.HANDLE.invokeExact();
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class jlg_bridge_progress_read
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(C_POINTER);
        static final MemorySegment ADDR = findOrThrow("jlg_bridge_progress_read");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * @return the descriptor of {@code jlg_bridge_progress_read}.
     */
    public static FunctionDescriptor jlg_bridge_progress_read$descriptor()
    {
        return jlg_bridge_progress_read.DESC;
    }

    /**
     * @return the downcall handle of {@code jlg_bridge_progress_read}.
     */
    public static MethodHandle jlg_bridge_progress_read$handle()
    {
        return jlg_bridge_progress_read.HANDLE;
    }

    /**
     * @return the address of {@code jlg_bridge_progress_read}.
     */
    public static MemorySegment jlg_bridge_progress_read$address()
    {
        return jlg_bridge_progress_read.ADDR;
    }

    /**
     * Copies the counters of the running (or last) test into a {@link jlg_bridge_progress}.
     *
     * @param out out.
     */
    public static void jlg_bridge_progress_read(final MemorySegment out)
    {
        try
        {
            jlg_bridge_progress_read.HANDLE.invokeExact(out);
        }
        catch (final Error | RuntimeException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
