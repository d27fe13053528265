#!/usr/bin/env bash
# Regenerates every golden trace in engine/src/test/resources/golden-traces/ (and its README) with the C++
# reference generator. Run on x86-64 Linux with g++ 12.2 / libstdc++ / glibc 2.36 (Debian 12): those
# define the sequences. Each file keeps the first $KEEP trace lines verbatim plus a digest of the whole trace.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/engine/src/test/resources/golden-traces"
KEEP=200

"$here/build.sh" >/dev/null
gen="$here/target/trace_reference"

# Seeds: the official v6.1 ones from mlperf.conf, zero, and two odd sets above INT64_MAX (mt19937 takes the
# low 32 bits, so these also check the unsigned parsing and the reduction).
OFFICIAL="qsl_rng_seed=2085463073848966840 sample_index_rng_seed=2747215439041700203 schedule_rng_seed=16159082839903944936"
ZERO="qsl_rng_seed=0 sample_index_rng_seed=0 schedule_rng_seed=0"
ODD="qsl_rng_seed=18446744073709551557 sample_index_rng_seed=9223372036854775809 schedule_rng_seed=12345678901234567891"
ODD2="qsl_rng_seed=18446744073709551615 sample_index_rng_seed=10000000000000000001 schedule_rng_seed=13835058055282163729"

# name | what it covers | arguments [| trace lines to keep, default $KEEP]
# The example-* files use the settings of the official LoadGen runs in shared/data/example-logs; the test
# checks them against those logs' loaded_qsl_set and generated_* records.
CONFIGS=(
"example-server-seed0|Server at 10000 QPS for 10 s, as shared/data/example-logs/Server|scenario=Server mode=PerformanceOnly qsl_total_sample_count=1024 qsl_performance_sample_count=1024 server_target_qps=10000 min_duration_ms=10000 $ZERO"
"example-singlestream-seed0|SingleStream at 2.5 us for 10 s, as example-logs/SingleStream (8000001 queries)|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=1024 qsl_performance_sample_count=1024 single_stream_expected_latency_ns=2500 min_duration_ms=10000 $ZERO"
"example-multistream-seed0|MultiStream at 3333 ns for 5 s, as example-logs/MultiStream (3000302 queries of 8)|scenario=MultiStream mode=PerformanceOnly qsl_total_sample_count=1024 qsl_performance_sample_count=1024 multi_stream_expected_latency_ns=3333 min_duration_ms=5000 $ZERO"
"example-offline-seed0|Offline at 300000 QPS for 10 s, as example-logs/Offline (one query of 3300000 samples; only the L line kept)|scenario=Offline mode=PerformanceOnly qsl_total_sample_count=1024 qsl_performance_sample_count=1024 offline_expected_qps=300000 min_duration_ms=10000 $ZERO|1"
"example-accuracy-singlestream-seed0|SingleStream accuracy over 16 samples, as example-logs/Accuracy-SingleStream|scenario=SingleStream mode=AccuracyOnly qsl_total_sample_count=16 qsl_performance_sample_count=16 $ZERO"
"singlestream-perf-official|SingleStream performance, 4001 queries at 1 ms|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 min_duration_ms=2000 $OFFICIAL"
"singlestream-perf-seed0|SingleStream performance at 2.5 us expected latency, 80001 queries|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=1024 qsl_performance_sample_count=1024 single_stream_expected_latency_ns=2500 min_duration_ms=100 $ZERO"
"singlestream-acc-official|SingleStream accuracy over 3 loadable sets (1024, 1024, 452)|scenario=SingleStream mode=AccuracyOnly qsl_total_sample_count=2500 qsl_performance_sample_count=1024 $OFFICIAL"
"singlestream-submission-odd|SingleStream submission run: accuracy pass (3 sets) then performance pass|scenario=SingleStream mode=SubmissionRun qsl_total_sample_count=600 qsl_performance_sample_count=256 min_duration_ms=500 $ODD"
"singlestream-equal-issue-official|SingleStream equal issue (sample_concatenate_permutation), min_query_count padded to 2048|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=5000 qsl_performance_sample_count=1024 min_duration_ms=1000 sample_concatenate_permutation=1 $OFFICIAL"
"singlestream-acc-equal-issue-seed0|SingleStream accuracy with equal issue: the equal-issue list supplies the indices|scenario=SingleStream mode=AccuracyOnly qsl_total_sample_count=300 qsl_performance_sample_count=128 sample_concatenate_permutation=1 $ZERO"
"singlestream-unique-odd|SingleStream performance_issue_unique|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=1000 qsl_performance_sample_count=500 performance_issue_unique=1 $ODD"
"singlestream-same-official|SingleStream performance_issue_same, index 17|scenario=SingleStream mode=PerformanceOnly qsl_total_sample_count=100 qsl_performance_sample_count=64 min_duration_ms=100 performance_issue_same=1 performance_issue_same_index=17 $OFFICIAL"
"singlestream-overrides-official|SubmissionRun with performance_sample_count_override and accuracy_sample_count_override|scenario=SingleStream mode=SubmissionRun qsl_total_sample_count=1000 qsl_performance_sample_count=100 performance_sample_count_override=250 accuracy_sample_count_override=600 min_duration_ms=200 $OFFICIAL"
"multistream-perf-official|MultiStream performance, 8 samples per query, padded set of 1024|scenario=MultiStream mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 $OFFICIAL"
"multistream-perf-small-seed0|MultiStream performance on a small padded set (13 + 7)|scenario=MultiStream mode=PerformanceOnly qsl_total_sample_count=40 qsl_performance_sample_count=13 min_duration_ms=1000 $ZERO"
"multistream-acc-small-official|MultiStream accuracy over sets of 13, 13, 13 and 1 (padding wraps around the last)|scenario=MultiStream mode=AccuracyOnly qsl_total_sample_count=40 qsl_performance_sample_count=13 $OFFICIAL"
"multistream-submission-odd|MultiStream submission run, 4 samples per query|scenario=MultiStream mode=SubmissionRun qsl_total_sample_count=100 qsl_performance_sample_count=32 multi_stream_samples_per_query=4 multi_stream_expected_latency_ns=1000000 min_duration_ms=200 $ODD"
"multistream-unique-official|MultiStream performance_issue_unique (strided unique starts)|scenario=MultiStream mode=PerformanceOnly qsl_total_sample_count=64 qsl_performance_sample_count=30 performance_issue_unique=1 $OFFICIAL"
"multistream-same-seed0|MultiStream performance_issue_same, start index 5|scenario=MultiStream mode=PerformanceOnly qsl_total_sample_count=64 qsl_performance_sample_count=30 min_duration_ms=100 performance_issue_same=1 performance_issue_same_index=5 $ZERO"
"server-qps100-official|Server at 100 QPS for 60 s (the spec's end-to-end vector)|scenario=Server mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 server_target_qps=100 min_duration_ms=60000 $OFFICIAL"
"server-qps0.5-official|Server at 0.5 QPS, 2000 queries (min_query_count bound)|scenario=Server mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 server_target_qps=0.5 min_query_count=2000 $OFFICIAL"
"server-qps0.001-odd2|Server at 0.001 QPS (intervals around 1e12 ns), 1000 queries|scenario=Server mode=PerformanceOnly qsl_total_sample_count=4096 qsl_performance_sample_count=4096 server_target_qps=0.001 min_query_count=1000 $ODD2"
"server-qps1e6-odd|Server at 1e6 QPS for 100 ms|scenario=Server mode=PerformanceOnly qsl_total_sample_count=100000 qsl_performance_sample_count=2048 server_target_qps=1000000 min_duration_ms=100 $ODD"
"server-qps1e6-official|Server at 1e6 QPS for 50 ms|scenario=Server mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 server_target_qps=1e6 min_duration_ms=50 $OFFICIAL"
"server-qps1234.5-odd2|Server at 1234.5 QPS for 20 s|scenario=Server mode=PerformanceOnly qsl_total_sample_count=5000 qsl_performance_sample_count=5000 server_target_qps=1234.5 min_duration_ms=20000 $ODD2"
"server-acc-official|Server accuracy over 3 sets (exponential schedule still drawn)|scenario=Server mode=AccuracyOnly qsl_total_sample_count=2500 qsl_performance_sample_count=1024 server_target_qps=100 $OFFICIAL"
"server-submission-seed0|Server submission run|scenario=Server mode=SubmissionRun qsl_total_sample_count=300 qsl_performance_sample_count=128 server_target_qps=50 min_duration_ms=2000 $ZERO"
"server-equal-issue-official|Server equal issue: min_query_count padded and extended by whole passes|scenario=Server mode=PerformanceOnly qsl_total_sample_count=1000 qsl_performance_sample_count=256 server_target_qps=1000 min_duration_ms=1000 sample_concatenate_permutation=1 $OFFICIAL"
"server-unique-odd|Server performance_issue_unique|scenario=Server mode=PerformanceOnly qsl_total_sample_count=1000 qsl_performance_sample_count=256 server_target_qps=200 performance_issue_unique=1 $ODD"
"offline-perf-official|Offline performance: 2200 samples = 2 copies of the set + 152|scenario=Offline mode=PerformanceOnly qsl_total_sample_count=50000 qsl_performance_sample_count=1024 offline_expected_qps=2000 min_duration_ms=1000 $OFFICIAL"
"offline-equal-issue-official|Offline equal issue: 1100 samples padded to 1152, 9 shuffled blocks|scenario=Offline mode=PerformanceOnly qsl_total_sample_count=1000 qsl_performance_sample_count=128 offline_expected_qps=1000 min_duration_ms=1000 sample_concatenate_permutation=1 $OFFICIAL"
"offline-same-seed0|Offline performance_issue_same, index 9|scenario=Offline mode=PerformanceOnly qsl_total_sample_count=200 qsl_performance_sample_count=100 offline_expected_qps=100 min_duration_ms=1000 performance_issue_same=1 performance_issue_same_index=9 $ZERO"
"offline-acc-official|Offline accuracy over 3 sets, one query per set|scenario=Offline mode=AccuracyOnly qsl_total_sample_count=2500 qsl_performance_sample_count=1024 $OFFICIAL"
"offline-submission-odd|Offline submission run with equal issue (block shuffles in both passes)|scenario=Offline mode=SubmissionRun qsl_total_sample_count=700 qsl_performance_sample_count=256 offline_expected_qps=500 min_duration_ms=1000 sample_concatenate_permutation=1 $ODD"
"offline-unique-seed0|Offline performance_issue_unique: the whole set once|scenario=Offline mode=PerformanceOnly qsl_total_sample_count=1000 qsl_performance_sample_count=300 performance_issue_unique=1 $ZERO"
)

mkdir -p "$out"
rm -f "$out"/*.trace
readme="$out/README.md"
{
    echo "# Golden traces"
    echo
    echo "Query traces written by the C++ reference generator \`tools/loadgen-reference/trace_reference\` (an"
    echo "independent re-implementation of LoadGen 6.0.17's GenerateLoadableSets / GenerateQueries built with"
    echo "g++ 12.2, libstdc++ and glibc 2.36, drawing with the real \`std::mt19937\`, \`std::shuffle\`,"
    echo "\`std::uniform_int_distribution\`, \`std::exponential_distribution\` and glibc \`log\`)."
    echo "\`org.jloadgen.schedule.GoldenTraceTest\` rebuilds each trace with JLoadGen's classes and compares."
    echo
    echo "The \`example-*\` files use the settings of the official LoadGen 6.0.17 runs in"
    echo "\`shared/data/example-logs\`; the test also checks their loaded set and generated query count, samples"
    echo "per query and duration against those logs (all five agree, e.g. Server 10000 QPS: 100204 queries,"
    echo "10000012254 ns)."
    echo
    echo "Regenerate all of them (and this file) with \`tools/loadgen-reference/regenerate.sh\`."
    echo
    echo "## File format"
    echo
    echo "- \`# ...\` comments; the second line names the compiler, libstdc++ and which glibc \`log\` ran"
    echo "  (\`fma\`: the FMA build glibc selects on CPUs with FMA and AVX2; \`sse2\`: the other)."
    echo "- \`@ key=value\` the requested settings (TestSettings field names) and the QSL's"
    echo "  \`qsl_total_sample_count\` / \`qsl_performance_sample_count\`; unlisted fields keep LoadGen's defaults."
    echo "  The effective settings are derived from them as spec §2.4 says."
    echo "- the first $KEEP trace lines (fewer where the table says so), verbatim: \`L <qsl indices>\` (LoadSamplesToRam, padding included),"
    echo "  \`Q <scheduled_ns> <qsl indices>\` (one generated query), \`U <qsl indices>\` (UnloadSamplesFromRam)."
    echo "- the digest of the whole trace: \`= lines\`, \`= queries\`, \`= samples\`, \`= durations_ns\` (each"
    echo "  series' generated_query_duration) and \`= fnv1a64\` (64-bit FNV-1a of the full text, UTF-8, every"
    echo "  line followed by \`\\n\`, in lower-case hex)."
    echo
    echo "## Configurations"
    echo
    echo "| file | covers | lines | queries |"
    echo "|---|---|---|---|"
} > "$readme"
commands=""
for entry in "${CONFIGS[@]}"; do
    IFS='|' read -r name what args keep <<< "$entry"
    keep="${keep:-$KEEP}"
    # shellcheck disable=SC2086
    "$gen" --golden=$keep $args > "$out/$name.trace"
    lines=$(sed -n 's/^= lines //p' "$out/$name.trace")
    queries=$(sed -n 's/^= queries //p' "$out/$name.trace")
    echo "| \`$name.trace\` | $what | $lines | $queries |" >> "$readme"
    commands+="tools/loadgen-reference/target/trace_reference --golden=$keep $args > $name.trace"$'\n'
done
{
    echo
    echo "## Commands"
    echo
    echo "As run by \`regenerate.sh\` (after \`build.sh\`), from the repository root, output into this folder:"
    echo
    echo '```'
    printf '%s' "$commands"
    echo '```'
} >> "$readme"
echo "wrote ${#CONFIGS[@]} golden traces to $out"
