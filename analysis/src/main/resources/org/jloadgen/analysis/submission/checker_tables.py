"""Prints the official submission checker's own tables for one benchmark, one line per fact.

Usage: python3 checker_tables.py TOOLS_SUBMISSION_DIR VERSION BENCHMARK MLPERF_MODEL

It imports the checker's `constants` and `configuration` modules from TOOLS_SUBMISSION_DIR (unmodified) and prints
tab-separated lines: `key<TAB>value<TAB>value...`. `jloadgen submission` reads them, so the compliance tests, seeds,
required fields and paths are the checker version's own, never a copy in JLoadGen.
"""
import sys

sys.path.insert(0, sys.argv[1])
version, benchmark, mlperf_model = sys.argv[2], sys.argv[3], sys.argv[4]

from submission_checker import constants as c  # noqa: E402
from submission_checker.configuration.configuration import Config  # noqa: E402


def out(key, *values):
    print("\t".join([key] + [str(v) for v in values]))


out("versions", *sorted(c.MODEL_CONFIG.keys()))
if version not in c.MODEL_CONFIG:
    sys.exit(0)
base = c.MODEL_CONFIG[version]
config = Config(version, None)
resolved = config.get_mlperf_model(benchmark, {benchmark: mlperf_model} if mlperf_model else None)
out("mlperf_model", resolved)
# What the name resolves to without open/<submitter>/model_mapping.json (closed and network read none).
out("mlperf_model_plain", config.get_mlperf_model(benchmark, None))
out("models", *base["models"])
known = resolved in base["models"]
out("known", "yes" if known else "no")
# Compliance tests in ComplianceCheck.get_test_list's order, each once.
tests = []
for key in ["models_TEST01", "models_TEST04", "models_TEST06", "models_TEST07", "models_TEST09", "models_TEST08"]:
    if resolved in base.get(key, []) and key[len("models_"):] not in tests:
        tests.append(key[len("models_"):])
extra = sorted(k for k in base if k.startswith("models_TEST") and k[len("models_"):] not in
               ["TEST01", "TEST04", "TEST06", "TEST07", "TEST09", "TEST08"])
for key in extra:
    if resolved in base[key]:
        tests.append(key[len("models_"):])
out("compliance_tests", *tests)
for name, value in base["seeds"].items():
    out("seed", name, value)
out("test_duration_ms", c.TEST_DURATION_MS)
if known:
    out("performance_sample_count", config.get_performance_sample_count(resolved))
    out("dataset_size", config.get_dataset_size(resolved))
    for scenario in ["SingleStream", "MultiStream", "Offline", "Server", "Interactive"]:
        latency = base.get("latency-constraint", {}).get(resolved, {}).get(scenario)
        if latency:
            out("latency_constraint_ns", scenario, latency)
        queries = base.get("min-queries", {}).get(resolved, {}).get(scenario)
        if queries:
            out("min_queries", scenario, queries)
        try:
            patterns = config.get_accuracy_values(resolved, scenario)[0]
            out("accuracy_patterns", scenario, *patterns)
        except ValueError:
            pass
    for kind in ["datacenter", "edge"]:
        required = base["required-scenarios-" + kind].get(resolved)
        optional = base["optional-scenarios-" + kind].get(resolved, [])
        out("scenarios_" + kind, ",".join(required or []), ",".join(optional))
out("system_required", *c.SYSTEM_DESC_REQUIRED_FIELDS)
out("system_meaningful", *c.SYSTEM_DESC_MEANINGFUL_RESPONSE_REQUIRED_FIELDS)
out("system_status", *c.VALID_AVAILABILITIES)
out("measurements_required", *c.SYSTEM_IMP_REQUIRED_FILES)
out("measurements_files", *c.REQUIRED_MEASURE_FILES)
out("max_accuracy_log_bytes", c.MAX_ACCURACY_LOG_SIZE)
for table in ["PERFORMANCE_LOG_PATH", "ACCURACY_LOG_PATH", "ACCURACY_RESULT_PATH", "ACCURACY_JSON_PATH",
              "MEASUREMENTS_PATH", "COMPLIANCE_PATH", "SYSTEM_PATH", "SRC_PATH"]:
    paths = getattr(c, table)
    out("path", table, paths.get(version, paths["default"]))
