/*
 * jlg_bridge: the C ABI of libjlg_loadgen_bridge.so, a small C++ shim linked with the official MLPerf LoadGen
 * (a position-independent static build of it), so a Java SUT runs under the official LoadGen through FFM.
 *
 * LoadGen's own c_api.h is not enough: its StartTest takes default log settings and its flush callback has no
 * client data. The shim owns the LoadGen SUT and QSL objects whose callbacks reach the client, and also:
 *   - keeps the set of outstanding samples, so a completion of an id that is not outstanding (completed twice,
 *     never issued, late) is dropped with an error in LoadGen's detail log instead of corrupting or crashing it;
 *   - ends a test whose client failed (jlg_bridge_fail): the failure is logged as an error through LoadGen's
 *     logger, the outstanding samples are completed on the client's behalf so LoadGen's waits end, and at the
 *     test thread's next callback LoadGen's AbortTest() runs and the test returns JLG_BRIDGE_ABORTED.
 *
 * Callbacks receive addresses as uint64_t, not pointers, so a Java upcall allocates nothing. A callback returns
 * 0, or nonzero after the client called jlg_bridge_fail with the reason. One test per process: LoadGen keeps
 * process-wide state.
 *
 * This header is the input of bindings/jextract.sh (allow-list bindings/src/main/jextract/bridge-includes.txt).
 */
#ifndef JLG_BRIDGE_H
#define JLG_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** mlperf::QuerySample: the response id (an address inside LoadGen) and the QSL index. */
typedef struct jlg_query_sample
{
    uint64_t id;
    uint64_t index;
} jlg_query_sample;

/** mlperf::QuerySampleResponse: id, payload address and size in bytes, output token count. */
typedef struct jlg_query_sample_response
{
    uint64_t id;
    uint64_t data;
    uint64_t size;
    int64_t n_tokens;
} jlg_query_sample_response;

/** Counters of the running (or last) test, read by jlg_bridge_progress. */
typedef struct jlg_bridge_progress
{
    /** Samples LoadGen issued. */
    uint64_t issued;
    /** Samples completed and handed to LoadGen (the client's and the drained ones). */
    uint64_t completed;
    /** Samples issued and not yet completed. */
    uint64_t outstanding;
    /** Completions dropped because their sample was already complete. */
    uint64_t duplicates;
    /** Completions or first tokens dropped because their id was never issued or its series has ended. */
    uint64_t unknown;
    /** Completions dropped because the test had failed (or was not running). */
    uint64_t dropped;
    /** Samples the bridge completed on the client's behalf after a failure. */
    uint64_t drained;
    /** 1 once jlg_bridge_fail was called. */
    int32_t failed;
    /** 1 while a test runs. */
    int32_t running;
} jlg_bridge_progress;

/** IssueQuery: count samples at samples_address (jlg_query_sample[count]), valid during the call only. */
typedef int32_t (*jlg_issue_query_callback)(uint64_t client, uint64_t samples_address, uint64_t count);

/** FlushQueries. */
typedef int32_t (*jlg_flush_queries_callback)(uint64_t client);

/** LoadSamplesToRam / UnloadSamplesFromRam: count QSL indices (uint64_t) at indices_address. */
typedef int32_t (*jlg_samples_callback)(uint64_t client, uint64_t indices_address, uint64_t count);

/**
 * LoadGen's ResponseCallback: runs before LoadGen copies the payload of entry `index` of the array given to
 * jlg_bridge_complete_with_callback; the client may rewrite that entry's data and size.
 */
typedef void (*jlg_response_callback)(uint64_t client, uint64_t index);

/** Test settings (mlperf::TestSettings) and log settings (mlperf::LogSettings); opaque. */
typedef struct jlg_settings jlg_settings;

/** Results of jlg_bridge_start_test. */
enum
{
    JLG_BRIDGE_COMPLETED = 0,
    JLG_BRIDGE_ABORTED = 1,
    JLG_BRIDGE_ALREADY_RAN = -1,
    JLG_BRIDGE_INTERNAL_ERROR = -2,
    JLG_BRIDGE_NO_LOGS = -3
};

/** Results of the jlg_settings_set_* functions. */
enum
{
    JLG_SETTINGS_OK = 0,
    JLG_SETTINGS_UNKNOWN_FIELD = -1,
    JLG_SETTINGS_WRONG_TYPE = -2,
    JLG_SETTINGS_BAD_VALUE = -3
};

/** @return LoadGen's version (VERSION.txt), e.g. "6.0.17". */
const char *jlg_bridge_loadgen_version(void);

/** @return the mlperf.conf compiled into LoadGen, which FromConfig reads for conf_type 0 and before a user.conf. */
const char *jlg_bridge_builtin_mlperf_conf(void);

/** @return "name sha1" lines of LoadGen's source files, as its detail log's loadgen_file_sha1 record holds. */
const char *jlg_bridge_loadgen_file_sha1(void);

/** Settings with LoadGen's defaults and the given scenario and mode (LoadGen's enum values); NULL if out of memory. */
jlg_settings *jlg_settings_create(int32_t scenario, int32_t mode);

/** Frees settings. */
void jlg_settings_destroy(jlg_settings *settings);

/** TestSettings::FromConfig(path, model, scenario, conf_type); returns its result (0, -ENOENT or -EINVAL). */
int32_t jlg_settings_from_config(jlg_settings *settings, const char *path, const char *model, const char *scenario,
    int32_t conf_type);

/** Sets TestSettings::mode (0 SubmissionRun, 1 AccuracyOnly, 2 PerformanceOnly, 3 FindPeakPerformance). */
int32_t jlg_settings_set_mode(jlg_settings *settings, int32_t mode);

/** @return TestSettings::mode after config files. */
int32_t jlg_settings_get_mode(const jlg_settings *settings);

/** Sets a double field of TestSettings by its C++ name. */
int32_t jlg_settings_set_double(jlg_settings *settings, const char *field, double value);

/** Sets a uint64_t field of TestSettings by its C++ name. */
int32_t jlg_settings_set_uint64(jlg_settings *settings, const char *field, uint64_t value);

/** Sets an int field of TestSettings by its C++ name. */
int32_t jlg_settings_set_int(jlg_settings *settings, const char *field, int32_t value);

/** Sets a bool field of TestSettings by its C++ name (value 0 or 1). */
int32_t jlg_settings_set_bool(jlg_settings *settings, const char *field, int32_t value);

/** Reads a double field; JLG_SETTINGS_OK and *value, or an error code. */
int32_t jlg_settings_get_double(const jlg_settings *settings, const char *field, double *value);

/** Reads a uint64_t field (int and bool fields too, widened); JLG_SETTINGS_OK and *value, or an error code. */
int32_t jlg_settings_get_uint64(const jlg_settings *settings, const char *field, uint64_t *value);

/** LogOutputSettings and enable_trace (flags 0 or 1). The strings are copied. */
void jlg_settings_log_output(jlg_settings *settings, const char *outdir, const char *prefix, const char *suffix,
    int32_t prefix_with_datetime, int32_t copy_detail_to_stdout, int32_t copy_summary_to_stdout,
    int32_t enable_trace);

/**
 * Runs mlperf::StartTest with the settings, an SUT and a QSL whose calls reach the callbacks (on the calling
 * thread, or on registered issue threads), and audit_config as LoadGen's audit.config file name. Blocks for the
 * whole test. Returns JLG_BRIDGE_COMPLETED, JLG_BRIDGE_ABORTED after jlg_bridge_fail, JLG_BRIDGE_NO_LOGS when
 * LoadGen could not open its log files (it then runs nothing), JLG_BRIDGE_ALREADY_RAN for a second test in the
 * process, or JLG_BRIDGE_INTERNAL_ERROR.
 */
int32_t jlg_bridge_start_test(const jlg_settings *settings, const char *sut_name, const char *qsl_name,
    uint64_t total_sample_count, uint64_t performance_sample_count, const char *audit_config, uint64_t client,
    jlg_issue_query_callback issue_query, jlg_flush_queries_callback flush_queries,
    jlg_samples_callback load_samples, jlg_samples_callback unload_samples);

/**
 * mlperf::QuerySamplesComplete over count responses, after dropping those whose sample is not outstanding.
 * @return the number of responses dropped.
 */
uint64_t jlg_bridge_complete(jlg_query_sample_response *responses, uint64_t count);

/** Completes one sample (a response built on the stack); returns 1 if it was dropped, else 0. */
uint64_t jlg_bridge_complete_one(uint64_t id, uint64_t data, uint64_t size, int64_t n_tokens);

/** As jlg_bridge_complete, with LoadGen's ResponseCallback reaching callback(client, index). */
uint64_t jlg_bridge_complete_with_callback(jlg_query_sample_response *responses, uint64_t count,
    jlg_response_callback callback, uint64_t client);

/** mlperf::FirstTokenComplete over count responses whose sample is outstanding; returns the number dropped. */
uint64_t jlg_bridge_first_token(jlg_query_sample_response *responses, uint64_t count);

/** First token of one sample; returns 1 if it was dropped, else 0. */
uint64_t jlg_bridge_first_token_one(uint64_t id, uint64_t data, uint64_t size);

/**
 * Ends the running test because the client failed; from any thread, the first reason wins (returns 1 for the
 * call that failed the test, else 0). The reason goes to LoadGen's detail log as an error.
 */
int32_t jlg_bridge_fail(const char *reason);

/** mlperf::RegisterIssueQueryThread: the calling thread issues Server queries until the test ends. */
void jlg_bridge_register_issue_thread(void);

/** Copies the counters of the running (or last) test. */
void jlg_bridge_progress_read(jlg_bridge_progress *out);

#ifdef __cplusplus
}
#endif

#endif
