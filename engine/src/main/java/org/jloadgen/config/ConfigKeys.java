package org.jloadgen.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.jloadgen.api.TestMode;
import org.jloadgen.api.TestScenario;
import org.jloadgen.api.TestSettings;
import org.jloadgen.clib.CNumbers;

/**
 * The config keys LoadGen reads, in the order it reads them, with their scenario component, the file kinds
 * that may set them and their conversion (spec §2.2; loadgen/test_settings_internal.cc, TestSettings::FromConfig). The
 * order matters: {@code ttft_latency} is looked up only if {@code use_token_latencies} is true at that point,
 * {@code token_latency_scaling_factor} only if {@code infer_token_latencies} is.
 */
final class ConfigKeys
{
    /** Message LoadGen logs for a {@code mode} value outside 0..3. */
    static final String INVALID_MODE = "Invalid value passed to Mode key in config.";

    /** Keys official files carry that LoadGen never reads (compliance scripts or nobody read them). */
    private static final Set<String> IGNORED_ANY_SCENARIO = Set.of("target_duration");
    /** {@code scenario.key} pairs official files carry that LoadGen never reads. */
    private static final Set<String> IGNORED_FOR_SCENARIO = Set.of("Offline.target_latency_percentile");

    private static final double MS_TO_NS = 1000 * 1000;
    private static final double PERCENT = 0.01;

    /**
     * Sets one field from the raw config value.
     */
    @FunctionalInterface
    interface Setter
    {
        /**
         * @param settings settings to change.
         * @param raw      the value text as stored by the parser.
         * @return an error message for {@code error_invalid_config}, or {@code null}.
         */
        String set(TestSettings settings, String raw);
    }

    /**
     * One lookup LoadGen performs.
     *
     * @param name          the key part of {@code model.scenario.key}.
     * @param fixedScenario the scenario always used in the lookup, or {@code null} for the current one.
     * @param mlperfOnly    only mlperf.conf may set it.
     * @param when          the lookup happens only if this holds for the settings at that moment.
     * @param setter        conversion and assignment.
     */
    record Rule(String name, TestScenario fixedScenario, boolean mlperfOnly, Predicate<TestSettings> when,
        Setter setter)
    {
    }

    /** Every lookup, in LoadGen's order. */
    static final List<Rule> RULES = rules();

    /** For each key name, the scenarios whose lines are read ({@code null} element: the current scenario). */
    private static final Map<String, Set<TestScenario>> FIXED_SCENARIOS = fixedScenarios();

    private ConfigKeys()
    {
    }

    private static List<Rule> rules()
    {
        final List<Rule> r = new ArrayList<>();
        final Predicate<TestSettings> always = s -> true;
        r.add(new Rule("mode", null, false, always, ConfigKeys::setMode));

        // Seeds and the sampling probability are fixed by the round: mlperf.conf only.
        r.add(new Rule("qsl_rng_seed", null, true, always, (s, v) -> ok(s.qslRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("sample_index_rng_seed", null, true, always,
            (s, v) -> ok(s.sampleIndexRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("schedule_rng_seed", null, true, always,
            (s, v) -> ok(s.scheduleRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("accuracy_log_probability", null, true, always,
            (s, v) -> ok(s.accuracyLogProbability(CNumbers.strtod(v) * PERCENT))));
        r.add(new Rule("test05", null, true, always, (s, v) -> ok(s.test05(isOne(v)))));
        r.add(new Rule("test05_qsl_rng_seed", null, true, always,
            (s, v) -> ok(s.test05QslRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("test05_sample_index_rng_seed", null, true, always,
            (s, v) -> ok(s.test05SampleIndexRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("test05_schedule_rng_seed", null, true, always,
            (s, v) -> ok(s.test05ScheduleRngSeed(CNumbers.strtoull(v)))));

        r.add(new Rule("use_token_latencies", null, false, always, (s, v) -> ok(s.useTokenLatencies(isOne(v)))));
        r.add(new Rule("ttft_latency", TestScenario.SERVER, false, TestSettings::useTokenLatencies,
            (s, v) -> ok(s.serverTtftLatencyNs(integer(v, MS_TO_NS)))));
        r.add(new Rule("tpot_latency", TestScenario.SERVER, false, TestSettings::useTokenLatencies,
            (s, v) -> ok(s.serverTpotLatencyNs(integer(v, MS_TO_NS)))));
        r.add(new Rule("infer_token_latencies", null, false, always,
            (s, v) -> ok(s.inferTokenLatencies(isOne(v)))));
        r.add(new Rule("token_latency_scaling_factor", null, false, TestSettings::inferTokenLatencies,
            (s, v) -> ok(s.tokenLatencyScalingFactor(CNumbers.strtoull(v)))));

        r.add(new Rule("target_latency_percentile", TestScenario.SINGLE_STREAM, false, always,
            (s, v) -> ok(s.singleStreamTargetLatencyPercentile(CNumbers.strtod(v) * PERCENT))));
        r.add(new Rule("target_latency_percentile", TestScenario.MULTI_STREAM, false, always,
            (s, v) -> ok(s.multiStreamTargetLatencyPercentile(CNumbers.strtod(v) * PERCENT))));
        r.add(new Rule("samples_per_query", TestScenario.MULTI_STREAM, false, always,
            (s, v) -> ok(s.multiStreamSamplesPerQuery(CNumbers.strtoull(v)))));
        r.add(new Rule("target_latency_percentile", TestScenario.SERVER, false, always,
            (s, v) -> ok(s.serverTargetLatencyPercentile(CNumbers.strtod(v) * PERCENT))));
        // Integer parse: "2.5" ms is 2 ms here, unlike the SingleStream/MultiStream target_latency.
        r.add(new Rule("target_latency", TestScenario.SERVER, false, always,
            (s, v) -> ok(s.serverTargetLatencyNs(integer(v, MS_TO_NS)))));

        r.add(new Rule("performance_issue_unique", null, false, always,
            (s, v) -> ok(s.performanceIssueUnique(CNumbers.strtoull(v) != 0))));
        r.add(new Rule("performance_issue_same", null, false, always,
            (s, v) -> ok(s.performanceIssueSame(CNumbers.strtoull(v) != 0))));
        r.add(new Rule("performance_issue_same_index", null, false, always,
            (s, v) -> ok(s.performanceIssueSameIndex(CNumbers.strtoull(v)))));
        r.add(new Rule("sample_concatenate_permutation", null, false, always,
            (s, v) -> ok(s.sampleConcatenatePermutation(isOne(v)))));
        r.add(new Rule("coalesce_queries", TestScenario.SERVER, false, always,
            (s, v) -> ok(s.serverCoalesceQueries(CNumbers.strtoull(v) != 0))));
        // LoadGen stores int(value): the upper 32 bits are dropped and bit 31 sign-extends [LG quirk].
        r.add(new Rule("max_async_queries", TestScenario.SERVER, false, always,
            (s, v) -> ok(s.serverMaxAsyncQueries((int)CNumbers.strtoull(v)))));

        r.add(new Rule("min_duration", null, false, always, (s, v) -> ok(s.minDurationMs(CNumbers.strtoull(v)))));
        r.add(new Rule("max_duration", null, false, always, (s, v) -> ok(s.maxDurationMs(CNumbers.strtoull(v)))));
        r.add(new Rule("min_query_count", null, false, always,
            (s, v) -> ok(s.minQueryCount(CNumbers.strtoull(v)))));
        r.add(new Rule("max_query_count", null, false, always,
            (s, v) -> ok(s.maxQueryCount(CNumbers.strtoull(v)))));
        r.add(new Rule("performance_sample_count_override", null, false, always,
            (s, v) -> ok(s.performanceSampleCountOverride(CNumbers.strtoull(v)))));
        r.add(new Rule("accuracy_sample_count_override", null, false, always,
            (s, v) -> ok(s.accuracySampleCountOverride(CNumbers.strtoull(v)))));
        // Double parse: "2.5" ms is 2.5 ms here.
        r.add(new Rule("target_latency", TestScenario.SINGLE_STREAM, false, always,
            (s, v) -> ok(s.singleStreamExpectedLatencyNs(CNumbers.strtod(v) * MS_TO_NS))));
        r.add(new Rule("target_latency", TestScenario.MULTI_STREAM, false, always,
            (s, v) -> ok(s.multiStreamExpectedLatencyNs(CNumbers.strtod(v) * MS_TO_NS))));
        r.add(new Rule("target_qps", TestScenario.SERVER, false, always,
            (s, v) -> ok(s.serverTargetQps(CNumbers.strtod(v)))));
        r.add(new Rule("target_qps", TestScenario.OFFLINE, false, always,
            (s, v) -> ok(s.offlineExpectedQps(CNumbers.strtod(v)))));

        r.add(new Rule("print_timestamps", null, false, always,
            (s, v) -> ok(s.printTimestamps(CNumbers.strtoull(v) != 0))));
        r.add(new Rule("accuracy_log_rng_seed", null, false, always,
            (s, v) -> ok(s.accuracyLogRngSeed(CNumbers.strtoull(v)))));
        r.add(new Rule("accuracy_log_sampling_target", null, false, always,
            (s, v) -> ok(s.accuracyLogSamplingTarget(CNumbers.strtoull(v)))));
        return Collections.unmodifiableList(r);
    }

    private static Map<String, Set<TestScenario>> fixedScenarios()
    {
        final Map<String, Set<TestScenario>> m = new LinkedHashMap<>();
        for (final Rule rule : RULES)
        {
            if (rule.fixedScenario() == null)
            {
                m.put(rule.name(), EnumSet.allOf(TestScenario.class));
            }
            else
            {
                m.computeIfAbsent(rule.name(), k -> EnumSet.noneOf(TestScenario.class)).add(rule.fixedScenario());
            }
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * @return every key name LoadGen reads.
     */
    static Set<String> names()
    {
        return FIXED_SCENARIOS.keySet();
    }

    /**
     * @param name a key name.
     * @return the scenarios whose lines LoadGen reads for it, or {@code null} if no setting reads it.
     */
    static Set<TestScenario> scenariosRead(final String name)
    {
        return FIXED_SCENARIOS.get(name);
    }

    /**
     * @param name a key name.
     * @return whether only mlperf.conf may set it.
     */
    static boolean isMlperfOnly(final String name)
    {
        for (final Rule rule : RULES)
        {
            if (rule.name().equals(name))
            {
                return rule.mlperfOnly();
            }
        }
        return false;
    }

    /**
     * @param scenario scenario component of the line ({@code *} or a scenario name).
     * @param name     key name.
     * @return whether official files legitimately carry this key although LoadGen never reads it.
     */
    static boolean isKnownUnread(final String scenario, final String name)
    {
        if (IGNORED_ANY_SCENARIO.contains(name) || IGNORED_FOR_SCENARIO.contains(scenario + "." + name))
        {
            return true;
        }
        // Compliance keys such as test07_accuracy_threshold or test09_min_output_tokens are read by the
        // audit verification scripts; test05_* keys are LoadGen's own and checked like any other key.
        return name.length() > 7 && name.startsWith("test") && Character.isDigit(name.charAt(4))
            && Character.isDigit(name.charAt(5)) && name.charAt(6) == '_' && !name.startsWith("test05");
    }

    private static String setMode(final TestSettings settings, final String raw)
    {
        final TestMode mode = TestMode.fromCode(CNumbers.strtoull(raw));
        if (mode == null)
        {
            return INVALID_MODE;
        }
        settings.mode(mode);
        return null;
    }

    /** {@code strtoull(value) * (uint64_t)multiplier}, wrapping modulo 2^64 as C does. */
    private static long integer(final String raw, final double multiplier)
    {
        return CNumbers.strtoull(raw) * (long)multiplier;
    }

    /** The "== 1" booleans: only an integer value of exactly 1 is true. */
    private static boolean isOne(final String raw)
    {
        return CNumbers.strtoull(raw) == 1;
    }

    private static String ok(final TestSettings ignored)
    {
        return null;
    }
}
