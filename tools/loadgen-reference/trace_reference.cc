// trace_reference: an independent C++17 re-implementation of LoadGen 6.0.17's query-trace generation
// (GenerateLoadableSets, GenerateQueries and the per-mode flow), written from the behavioural spec only
// (shared/spec/loadgen-spec.md §2.4, §3.1, §3.2, §4, §5). It draws with the REAL std::mt19937,
// std::uniform_int_distribution, std::shuffle, std::exponential_distribution and std::chrono::duration_cast
// of the libstdc++ it is built with, and calls the C library's log through std::exponential_distribution,
// so its output is what LoadGen built with the same toolchain generates. JLoadGen's golden traces come from
// it (see engine/src/test/resources/golden-traces/README.md).
//
// Input: REQUESTED settings (TestSettings field names, key=value arguments) plus the QSL's reported counts.
// The effective settings are derived here exactly as spec §2.4 says (Offline samples_per_query from
// 1.1 * min_duration * qps, SingleStream equal-issue min_query_count, overrides), so the golden files also
// check JLoadGen's EffectiveSettings.
//
// Output (stdout), one line per event in issue order:
//   L <qsl indices>                 LoadSamplesToRam: the whole loadable set, MultiStream padding included
//   Q <scheduled_ns> <qsl indices>  one generated query: its generated offset and its samples
//   U <qsl indices>                 UnloadSamplesFromRam: the same list as the matching L
// With --golden=N it writes the golden-file form instead: a header with the settings, the first N trace lines
// verbatim, and a digest of the whole trace (line/query/sample counts, each series' generated_query_duration,
// 64-bit FNV-1a of the full text with '\n' after every line).

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

enum class Scenario { SingleStream, MultiStream, Server, Offline };
enum class Mode { SubmissionRun, AccuracyOnly, PerformanceOnly };

using QuerySampleIndex = size_t;

// The TestSettings fields that shape a trace (spec §2.2), with LoadGen's defaults.
struct Requested {
  Scenario scenario = Scenario::SingleStream;
  Mode mode = Mode::PerformanceOnly;
  double single_stream_expected_latency_ns = 1000000;
  double multi_stream_expected_latency_ns = 8000000;
  uint64_t multi_stream_samples_per_query = 8;
  double server_target_qps = 1;
  double offline_expected_qps = 1;
  bool sample_concatenate_permutation = false;
  uint64_t min_duration_ms = 10000;
  uint64_t min_query_count = 100;
  uint64_t qsl_rng_seed = 0;
  uint64_t sample_index_rng_seed = 0;
  uint64_t schedule_rng_seed = 0;
  bool performance_issue_unique = false;
  bool performance_issue_same = false;
  uint64_t performance_issue_same_index = 0;
  uint64_t performance_sample_count_override = 0;
  uint64_t accuracy_sample_count_override = 0;
};

// TestSettingsInternal: the effective values GenerateQueries reads (spec §2.4).
struct Effective {
  Scenario scenario;
  Mode mode;
  uint64_t samples_per_query = 1;
  double target_qps = 1;
  std::chrono::milliseconds target_duration{0};
  uint64_t min_query_count = 0;
  uint64_t qsl_rng_seed = 0;
  uint64_t sample_index_rng_seed = 0;
  uint64_t schedule_rng_seed = 0;
  bool performance_issue_unique = false;
  bool performance_issue_same = false;
  uint64_t performance_issue_same_index = 0;
  uint64_t performance_sample_count = 0;
  uint64_t accuracy_sample_count = 0;
  bool sample_concatenate_permutation = false;
};

Effective Derive(const Requested& r, uint64_t qsl_total, uint64_t qsl_psc) {
  Effective s;
  s.scenario = r.scenario;
  s.mode = r.mode;
  s.target_duration = std::chrono::milliseconds(r.min_duration_ms);
  s.min_query_count = r.min_query_count;
  switch (r.scenario) {
    case Scenario::SingleStream:
      s.target_qps = 1e9 / r.single_stream_expected_latency_ns;
      break;
    case Scenario::MultiStream:
      s.target_qps = 1e9 / r.multi_stream_expected_latency_ns;
      s.samples_per_query = r.multi_stream_samples_per_query;
      break;
    case Scenario::Server:
      if (r.server_target_qps >= 0.0) s.target_qps = r.server_target_qps;
      break;
    case Scenario::Offline:
      if (r.offline_expected_qps >= 0.0) s.target_qps = r.offline_expected_qps;
      break;
  }
  s.performance_sample_count =
      r.performance_sample_count_override != 0 ? r.performance_sample_count_override : qsl_psc;
  s.accuracy_sample_count =
      r.accuracy_sample_count_override != 0 ? r.accuracy_sample_count_override : qsl_total;
  s.sample_concatenate_permutation = r.sample_concatenate_permutation;
  if (r.scenario == Scenario::Offline) {
    // Left to right in double, then truncated.
    const uint64_t target_sample_count =
        static_cast<uint64_t>(1.1 * (r.min_duration_ms / 1000.0) * s.target_qps);
    s.samples_per_query = r.performance_issue_unique
                              ? s.performance_sample_count
                              : std::max<uint64_t>(r.min_query_count, target_sample_count);
    s.min_query_count = 1;
    s.target_duration = std::chrono::milliseconds(0);
  }
  if (r.scenario == Scenario::SingleStream && s.sample_concatenate_permutation) {
    const double target_duration_s = std::chrono::duration<double>(s.target_duration).count();
    const uint64_t expected = static_cast<uint64_t>(2.0 * target_duration_s * s.target_qps);
    s.min_query_count = std::max(s.min_query_count, expected);
    // Uses the QSL-reported count; a whole extra pass when already a multiple [LG quirk].
    s.min_query_count += qsl_psc - (s.min_query_count % qsl_psc);
  }
  s.qsl_rng_seed = r.qsl_rng_seed;
  s.sample_index_rng_seed = r.sample_index_rng_seed;
  s.schedule_rng_seed = r.schedule_rng_seed;
  s.performance_issue_unique = r.performance_issue_unique;
  s.performance_issue_same = r.performance_issue_same;
  s.performance_issue_same_index = r.performance_issue_same_index;
  return s;
}

struct LoadableSampleSet {
  std::vector<QuerySampleIndex> set;
  size_t sample_distribution_end;
};

// Spec §5.
std::vector<LoadableSampleSet> GenerateLoadableSets(const Effective& s, uint64_t count, uint64_t qsl_total) {
  std::mt19937 qsl_rng(s.qsl_rng_seed);
  const size_t n = static_cast<size_t>(std::min(count, qsl_total));
  std::vector<QuerySampleIndex> samples(n);
  std::iota(samples.begin(), samples.end(), QuerySampleIndex(0));
  std::shuffle(samples.begin(), samples.end(), qsl_rng);

  const size_t set_size = static_cast<size_t>(s.performance_sample_count);
  const size_t set_padding =
      s.scenario == Scenario::MultiStream ? static_cast<size_t>(s.samples_per_query) - 1 : 0;
  std::vector<LoadableSampleSet> result;
  std::vector<QuerySampleIndex> loadable_set;
  for (QuerySampleIndex sample : samples) {
    loadable_set.push_back(sample);
    if (loadable_set.size() == set_size) {
      result.push_back({std::move(loadable_set), set_size});
      loadable_set.clear();
    }
  }
  if (!loadable_set.empty()) {
    const size_t size = loadable_set.size();
    result.push_back({std::move(loadable_set), size});
  }
  // Append each set's own first spq-1 entries. push_back of set[i] reads an entry that already exists even
  // when the set is shorter than the padding, so a short set's padding wraps around it.
  for (auto& loadable : result) {
    auto& set = loadable.set;
    for (size_t i = 0; i < set_padding; i++) {
      const QuerySampleIndex p = set[i];
      set.push_back(p);
    }
  }
  return result;
}

struct Query {
  std::vector<QuerySampleIndex> samples;
  std::chrono::nanoseconds scheduled_delta;
};

struct Series {
  std::vector<Query> queries;
  std::chrono::nanoseconds duration;  // generated_query_duration
};

// Spec §3.2, mode is AccuracyOnly or PerformanceOnly.
Series GenerateQueries(const Effective& s, const LoadableSampleSet& loaded, Mode mode) {
  const std::vector<QuerySampleIndex>& L = loaded.set;
  const size_t E = loaded.sample_distribution_end;
  const bool accuracy = mode == Mode::AccuracyOnly;
  const Scenario scenario = s.scenario;

  // Steps 1-3.
  std::chrono::nanoseconds gen_duration = (scenario == Scenario::Server ? 1 : 2) * s.target_duration;
  size_t min_queries = static_cast<size_t>(s.min_query_count);
  size_t spq = static_cast<size_t>(s.samples_per_query);
  if (accuracy && scenario == Scenario::Offline) spq = E;
  if (spq == 0) throw std::invalid_argument("samples_per_query is 0");
  if (accuracy || s.performance_issue_unique) {
    gen_duration = std::chrono::nanoseconds(0);
    min_queries = L.size() / spq;
  }

  // Steps 4-5: generators and distributions in construction order.
  std::mt19937 sample_rng(s.sample_index_rng_seed);
  std::mt19937 schedule_rng(s.schedule_rng_seed);
  const size_t stride = scenario == Scenario::MultiStream ? spq : 1;

  // (a) accuracy: a shuffled list handed out in order; performance: uniform_int_distribution<int>.
  std::vector<size_t> accuracy_indices;
  size_t accuracy_next = 0;
  if (accuracy) {
    for (size_t i = 0; i < E; i += stride) accuracy_indices.push_back(i);
    std::shuffle(accuracy_indices.begin(), accuracy_indices.end(), sample_rng);
  }
  std::uniform_int_distribution<int> performance_distribution(0, static_cast<int>(E) - 1);
  auto sample_distribution = [&]() -> size_t {
    if (accuracy) return accuracy_indices.at(accuracy_next++);
    return static_cast<size_t>(performance_distribution(sample_rng));
  };

  // (b) the unique list, always built.
  std::vector<size_t> unique_indices;
  for (size_t i = 0; i < E; i += stride) unique_indices.push_back(i);
  std::shuffle(unique_indices.begin(), unique_indices.end(), sample_rng);
  size_t unique_next = 0;
  auto sample_distribution_unique = [&]() -> size_t { return unique_indices.at(unique_next++); };

  // (c) the equal-issue list, always built: one cumulative permutation, reshuffled per pass.
  std::vector<size_t> permutation(L.size());
  std::iota(permutation.begin(), permutation.end(), size_t(0));
  std::vector<size_t> equal_issue_indices;
  for (size_t j = 0; j < min_queries; j += L.size()) {
    std::shuffle(permutation.begin(), permutation.end(), sample_rng);
    equal_issue_indices.insert(equal_issue_indices.end(), permutation.begin(), permutation.end());
  }
  size_t equal_issue_next = 0;
  auto sample_distribution_equal_issue = [&]() -> size_t {
    return equal_issue_indices.at((equal_issue_next++) % equal_issue_indices.size());
  };

  // (d) schedule: Server exponential, others a constant period, both through duration_cast.
  std::exponential_distribution<> exponential(s.target_qps);
  const double period_s = 1.0 / s.target_qps;
  auto schedule_distribution = [&]() -> std::chrono::nanoseconds {
    if (scenario == Scenario::Server) {
      return std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::duration<double>(exponential(schedule_rng)));
    }
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(period_s));
  };

  // Step 6: equal-issue padding.
  const bool enable_equal_issue = s.sample_concatenate_permutation;
  if (enable_equal_issue && !accuracy) {
    if (scenario == Scenario::Offline) {
      if (spq % L.size() != 0) spq += L.size() - spq % L.size();
    } else if (min_queries % L.size() != 0) {
      min_queries += L.size() - min_queries % L.size();
    }
  }

  // Step 7.
  Series series;
  std::chrono::nanoseconds timestamp(0);
  std::chrono::nanoseconds prev_timestamp(0);
  const size_t same = static_cast<size_t>(s.performance_issue_same_index);
  while (prev_timestamp < gen_duration || series.queries.size() < min_queries) {
    std::vector<QuerySampleIndex> samples;
    if (scenario == Scenario::MultiStream) {
      const size_t start = s.performance_issue_unique ? sample_distribution_unique()
                           : s.performance_issue_same ? same
                                                      : sample_distribution();
      for (size_t k = 0; k < spq; k++) samples.push_back(L.at(start + k));
    } else if (scenario == Scenario::Offline) {
      const size_t full = spq / L.size();
      const size_t rem = spq % L.size();
      if (s.performance_issue_same) {
        samples.assign(spq, L.at(same));
      } else {
        samples.resize(spq);
        for (size_t r = 0; r < full; r++) {
          const auto block = samples.begin() + static_cast<std::ptrdiff_t>(r * L.size());
          std::copy(L.begin(), L.end(), block);
          if (s.sample_concatenate_permutation) {
            std::shuffle(block, block + static_cast<std::ptrdiff_t>(L.size()), sample_rng);
          }
        }
        std::copy(L.begin(), L.begin() + static_cast<std::ptrdiff_t>(rem),
                  samples.begin() + static_cast<std::ptrdiff_t>(full * L.size()));
      }
    } else {
      for (size_t k = 0; k < spq; k++) {
        const size_t idx = s.performance_issue_unique ? sample_distribution_unique()
                           : s.performance_issue_same ? same
                           : enable_equal_issue       ? sample_distribution_equal_issue()
                                                      : sample_distribution();
        samples.push_back(L.at(idx));
      }
    }
    series.queries.push_back({std::move(samples), timestamp});
    prev_timestamp = timestamp;
    timestamp += schedule_distribution();
    if (enable_equal_issue && series.queries.size() >= min_queries && prev_timestamp < gen_duration &&
        scenario != Scenario::Offline) {
      min_queries += L.size();
    }
  }

  // Step 8: Offline accuracy remainder (cannot happen while spq == E == L.size(); kept for fidelity).
  if (accuracy && scenario == Scenario::Offline && L.size() % spq != 0) {
    std::vector<QuerySampleIndex> samples;
    for (size_t k = 0; k < L.size() % spq; k++) samples.push_back(L.at(sample_distribution()));
    series.queries.push_back({std::move(samples), timestamp});
  }
  series.duration = timestamp;
  return series;
}

// Collects the trace text and its digest.
class Sink {
 public:
  explicit Sink(long keep_lines) : keep_lines_(keep_lines) {}

  void Line(const std::string& line) {
    for (unsigned char c : line) Hash(c);
    Hash('\n');
    lines_++;
    if (keep_lines_ < 0) {
      std::fwrite(line.data(), 1, line.size(), stdout);
      std::fputc('\n', stdout);
    } else if (static_cast<long>(kept_.size()) < keep_lines_) {
      kept_.push_back(line);
    }
  }

  void Load(char tag, const std::vector<QuerySampleIndex>& set) {
    std::string line(1, tag);
    for (QuerySampleIndex i : set) AppendNumber(&line, i);
    Line(line);
  }

  void Queries(const Series& series) {
    for (const Query& q : series.queries) {
      std::string line = "Q";
      AppendNumber(&line, static_cast<long long>(q.scheduled_delta.count()));
      for (QuerySampleIndex i : q.samples) AppendNumber(&line, i);
      Line(line);
      queries_++;
      samples_ += q.samples.size();
    }
    durations_.push_back(series.duration.count());
  }

  const std::vector<std::string>& kept() const { return kept_; }
  uint64_t lines() const { return lines_; }
  uint64_t queries() const { return queries_; }
  uint64_t samples() const { return samples_; }
  uint64_t hash() const { return hash_; }
  const std::vector<long long>& durations() const { return durations_; }

 private:
  static void AppendNumber(std::string* line, unsigned long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %llu", v);
    *line += buf;
  }
  static void AppendNumber(std::string* line, long long v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %lld", v);
    *line += buf;
  }
  static void AppendNumber(std::string* line, unsigned long v) {
    AppendNumber(line, static_cast<unsigned long long>(v));
  }
  void Hash(unsigned char c) {
    hash_ ^= c;
    hash_ *= 0x100000001b3ULL;
  }

  long keep_lines_;
  std::vector<std::string> kept_;
  uint64_t hash_ = 0xcbf29ce484222325ULL;
  uint64_t lines_ = 0;
  uint64_t queries_ = 0;
  uint64_t samples_ = 0;
  std::vector<long long> durations_;
};

// Spec §3.1: accuracy pass over every loadable set, performance pass on the first.
void RunTest(const Effective& s, uint64_t qsl_total, Sink* sink) {
  if (s.mode == Mode::SubmissionRun || s.mode == Mode::AccuracyOnly) {
    for (const LoadableSampleSet& set : GenerateLoadableSets(s, s.accuracy_sample_count, qsl_total)) {
      sink->Load('L', set.set);
      sink->Queries(GenerateQueries(s, set, Mode::AccuracyOnly));
      sink->Load('U', set.set);
    }
  }
  if (s.mode == Mode::SubmissionRun || s.mode == Mode::PerformanceOnly) {
    const std::vector<LoadableSampleSet> sets = GenerateLoadableSets(s, s.performance_sample_count, qsl_total);
    sink->Load('L', sets.front().set);
    sink->Queries(GenerateQueries(s, sets.front(), Mode::PerformanceOnly));
    sink->Load('U', sets.front().set);
  }
}

// Which glibc log this process calls: x86-64 glibc picks an FMA-compiled log at run time on CPUs with FMA and
// AVX2, the SSE2 one otherwise; they differ in the last bit for about 1 input in 17,000. This input tells them
// apart (found by comparing the two).
const char* LogVariant() {
  volatile double x = 0x1.7a94cbd623d58p-1;
  const double y = std::log(x);
  if (y == -0x1.3523b017b91f8p-2) return "fma";
  if (y == -0x1.3523b017b91f7p-2) return "sse2";
  return "unknown";
}

[[noreturn]] void Usage(const char* message) {
  std::fprintf(stderr,
               "trace_reference: %s\n"
               "usage: trace_reference [--golden=N] key=value...\n"
               "  scenario=SingleStream|MultiStream|Server|Offline  mode=PerformanceOnly|AccuracyOnly|SubmissionRun\n"
               "  qsl_total_sample_count=N qsl_performance_sample_count=N (required)\n"
               "  single_stream_expected_latency_ns multi_stream_expected_latency_ns multi_stream_samples_per_query\n"
               "  server_target_qps offline_expected_qps min_duration_ms min_query_count\n"
               "  qsl_rng_seed sample_index_rng_seed schedule_rng_seed (uint64)\n"
               "  performance_issue_unique performance_issue_same performance_issue_same_index\n"
               "  performance_sample_count_override accuracy_sample_count_override sample_concatenate_permutation\n",
               message);
  std::exit(2);
}

uint64_t ParseU64(const std::string& key, const std::string& v) {
  if (v.empty() || v[0] == '-') Usage(("bad unsigned value for " + key).c_str());
  errno = 0;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') Usage(("bad unsigned value for " + key).c_str());
  return x;
}

double ParseDouble(const std::string& key, const std::string& v) {
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || errno != 0 || *end != '\0') Usage(("bad number for " + key).c_str());
  return x;
}

bool ParseBool(const std::string& key, const std::string& v) {
  if (v == "0") return false;
  if (v == "1") return true;
  Usage(("bad flag (0 or 1) for " + key).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Requested r;
  uint64_t qsl_total = 0;
  uint64_t qsl_psc = 0;
  long keep_lines = -1;
  std::vector<std::pair<std::string, std::string>> given;
  for (int a = 1; a < argc; a++) {
    const std::string arg = argv[a];
    if (arg.rfind("--golden=", 0) == 0) {
      keep_lines = static_cast<long>(ParseU64("--golden", arg.substr(9)));
      continue;
    }
    const size_t eq = arg.find('=');
    if (eq == std::string::npos) Usage(("expected key=value: " + arg).c_str());
    const std::string k = arg.substr(0, eq);
    const std::string v = arg.substr(eq + 1);
    given.emplace_back(k, v);
    if (k == "scenario") {
      static const std::map<std::string, Scenario> names = {{"SingleStream", Scenario::SingleStream},
                                                            {"MultiStream", Scenario::MultiStream},
                                                            {"Server", Scenario::Server},
                                                            {"Offline", Scenario::Offline}};
      if (!names.count(v)) Usage(("unknown scenario " + v).c_str());
      r.scenario = names.at(v);
    } else if (k == "mode") {
      static const std::map<std::string, Mode> names = {{"SubmissionRun", Mode::SubmissionRun},
                                                        {"AccuracyOnly", Mode::AccuracyOnly},
                                                        {"PerformanceOnly", Mode::PerformanceOnly}};
      if (!names.count(v)) Usage(("unknown mode " + v).c_str());
      r.mode = names.at(v);
    } else if (k == "qsl_total_sample_count") {
      qsl_total = ParseU64(k, v);
    } else if (k == "qsl_performance_sample_count") {
      qsl_psc = ParseU64(k, v);
    } else if (k == "single_stream_expected_latency_ns") {
      r.single_stream_expected_latency_ns = ParseDouble(k, v);
    } else if (k == "multi_stream_expected_latency_ns") {
      r.multi_stream_expected_latency_ns = ParseDouble(k, v);
    } else if (k == "multi_stream_samples_per_query") {
      r.multi_stream_samples_per_query = ParseU64(k, v);
    } else if (k == "server_target_qps") {
      r.server_target_qps = ParseDouble(k, v);
    } else if (k == "offline_expected_qps") {
      r.offline_expected_qps = ParseDouble(k, v);
    } else if (k == "min_duration_ms") {
      r.min_duration_ms = ParseU64(k, v);
    } else if (k == "min_query_count") {
      r.min_query_count = ParseU64(k, v);
    } else if (k == "qsl_rng_seed") {
      r.qsl_rng_seed = ParseU64(k, v);
    } else if (k == "sample_index_rng_seed") {
      r.sample_index_rng_seed = ParseU64(k, v);
    } else if (k == "schedule_rng_seed") {
      r.schedule_rng_seed = ParseU64(k, v);
    } else if (k == "performance_issue_unique") {
      r.performance_issue_unique = ParseBool(k, v);
    } else if (k == "performance_issue_same") {
      r.performance_issue_same = ParseBool(k, v);
    } else if (k == "performance_issue_same_index") {
      r.performance_issue_same_index = ParseU64(k, v);
    } else if (k == "performance_sample_count_override") {
      r.performance_sample_count_override = ParseU64(k, v);
    } else if (k == "accuracy_sample_count_override") {
      r.accuracy_sample_count_override = ParseU64(k, v);
    } else if (k == "sample_concatenate_permutation") {
      r.sample_concatenate_permutation = ParseBool(k, v);
    } else {
      Usage(("unknown key " + k).c_str());
    }
  }
  if (qsl_total == 0 || qsl_psc == 0) Usage("qsl_total_sample_count and qsl_performance_sample_count are required");
  if (r.scenario == Scenario::MultiStream && r.multi_stream_samples_per_query == 0) Usage("samples per query is 0");

  const Effective s = Derive(r, qsl_total, qsl_psc);
  if (s.performance_sample_count == 0) Usage("performance_sample_count is 0");
  if (s.performance_issue_same && s.performance_issue_same_index >= s.performance_sample_count) {
    Usage("performance_issue_same_index is outside the loaded set");
  }
  if (s.scenario != Scenario::Server && s.target_duration.count() > 0 &&
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(1.0 / s.target_qps))
              .count() <= 0) {
    Usage("the query period rounds to 0 ns: generation would not end");
  }

  Sink sink(keep_lines);
  try {
    RunTest(s, qsl_total, &sink);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trace_reference: generation failed: %s\n", e.what());
    return 1;
  }
  if (keep_lines < 0) return 0;

  std::printf("# JLoadGen golden trace: written by tools/loadgen-reference/trace_reference, do not edit.\n");
  std::printf("# reference: g++ %d.%d.%d, libstdc++ %d, glibc log %s\n", __GNUC__, __GNUC_MINOR__,
              __GNUC_PATCHLEVEL__, static_cast<int>(__GLIBCXX__), LogVariant());
  for (const auto& kv : given) std::printf("@ %s=%s\n", kv.first.c_str(), kv.second.c_str());
  for (const std::string& line : sink.kept()) std::printf("%s\n", line.c_str());
  std::printf("= lines %" PRIu64 "\n", sink.lines());
  std::printf("= queries %" PRIu64 "\n", sink.queries());
  std::printf("= samples %" PRIu64 "\n", sink.samples());
  std::printf("= durations_ns");
  for (long long d : sink.durations()) std::printf(" %lld", d);
  std::printf("\n= fnv1a64 %016" PRIx64 "\n", sink.hash());
  return 0;
}
