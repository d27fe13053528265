// A null SUT for the official LoadGen, written the way a C++ SUT author writes one: the side-by-side
// benchmark's C++ reference for the Java null SUT under the same LoadGen build (benchmarks/README.md).
//
// Every sample completes at once with no data, either inside IssueQuery (--completion inline) or on one worker
// thread that IssueQuery wakes through a std::condition_variable (--completion worker). Settings come from
// LoadGen's own TestSettings::FromConfig (--user-config, --model) and --set FIELD=VALUE onto TestSettings
// fields; logs go where --out and the log options say. Built by scripts/build-official-loadgen:
//
//   official_null_sut --scenario Offline --set offline_expected_qps=300000 --set min_duration_ms=10000
//       --out out/cpp-offline
#include <sys/stat.h>

#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "jlg_settings_fields.h"
#include "loadgen.h"
#include "query_sample.h"
#include "query_sample_library.h"
#include "system_under_test.h"
#include "test_settings.h"

// The copy of mlperf.conf compiled into LoadGen (generated from its mlperf.conf by LoadGen's build).
extern const char* mlperf_conf;

namespace {

constexpr int kExitUsage = 2;

class NullQsl : public mlperf::QuerySampleLibrary {
 public:
  NullQsl(size_t total, size_t performance) : total_(total), performance_(performance) {}
  const std::string& Name() override { return name_; }
  size_t TotalSampleCount() override { return total_; }
  size_t PerformanceSampleCount() override { return performance_; }
  void LoadSamplesToRam(const std::vector<mlperf::QuerySampleIndex>&) override {}
  void UnloadSamplesFromRam(const std::vector<mlperf::QuerySampleIndex>&) override {}

 private:
  const std::string name_ = "NullQSL";
  const size_t total_;
  const size_t performance_;
};

// Completes inside IssueQuery: one QuerySamplesComplete call per query (as LoadGen's perftests_null_sut.cc), or
// one per `chunk` samples (as JLoadGen's Java null SUT, which completes large queries 1024 at a time).
class NullInlineSut : public mlperf::SystemUnderTest {
 public:
  NullInlineSut(size_t chunk, bool index_data) : chunk_(chunk), index_data_(index_data) {}

  const std::string& Name() override { return name_; }

  void IssueQuery(const std::vector<mlperf::QuerySample>& samples) override {
    if (index_data_) {
      // The accuracy log's data: each sample's QSL index as 4 little-endian bytes (the shape of
      // testdata/official/example-logs/Accuracy-SingleStream), one call per sample.
      for (const mlperf::QuerySample& sample : samples) {
        const uint32_t index = static_cast<uint32_t>(sample.index);
        uint8_t data[4] = {static_cast<uint8_t>(index), static_cast<uint8_t>(index >> 8),
                           static_cast<uint8_t>(index >> 16), static_cast<uint8_t>(index >> 24)};
        mlperf::QuerySampleResponse response(sample.id, reinterpret_cast<uintptr_t>(data), sizeof data);
        mlperf::QuerySamplesComplete(&response, 1);
      }
      return;
    }
    if (samples.size() == 1) {
      mlperf::QuerySampleResponse response(samples[0].id, 0, 0);
      mlperf::QuerySamplesComplete(&response, 1);
      return;
    }
    // One buffer per issuing thread, reused: Server may issue from several threads.
    thread_local std::vector<mlperf::QuerySampleResponse> responses;
    const size_t chunk = chunk_ == 0 ? samples.size() : chunk_;
    responses.reserve(chunk < samples.size() ? chunk : samples.size());
    for (size_t first = 0; first < samples.size(); first += chunk) {
      const size_t end = first + chunk < samples.size() ? first + chunk : samples.size();
      responses.clear();
      for (size_t i = first; i < end; i++) {
        responses.emplace_back(samples[i].id, 0, 0);
      }
      mlperf::QuerySamplesComplete(responses.data(), responses.size());
    }
  }

  void FlushQueries() override {}

 private:
  const std::string name_ = "NullInlineSUT";
  const size_t chunk_;
  const bool index_data_;
};

// IssueQuery queues the samples and wakes one worker thread, which completes everything queued in one call.
class NullWorkerSut : public mlperf::SystemUnderTest {
 public:
  NullWorkerSut() : worker_([this] { Work(); }) {}

  ~NullWorkerSut() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    worker_.join();
  }

  const std::string& Name() override { return name_; }

  void IssueQuery(const std::vector<mlperf::QuerySample>& samples) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_.insert(pending_.end(), samples.begin(), samples.end());
    }
    wake_.notify_one();
  }

  void FlushQueries() override {}

 private:
  void Work() {
    std::vector<mlperf::QuerySample> taken;
    std::vector<mlperf::QuerySampleResponse> responses;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return stop_ || !pending_.empty(); });
        if (pending_.empty()) {
          return;
        }
        taken.swap(pending_);
      }
      responses.clear();
      for (const mlperf::QuerySample& sample : taken) {
        responses.emplace_back(sample.id, 0, 0);
      }
      mlperf::QuerySamplesComplete(responses.data(), responses.size());
      taken.clear();
    }
  }

  const std::string name_ = "NullWorkerSUT";
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<mlperf::QuerySample> pending_;
  bool stop_ = false;
  std::thread worker_;
};

struct Options {
  mlperf::TestScenario scenario = mlperf::TestScenario::SingleStream;
  mlperf::TestMode mode = mlperf::TestMode::PerformanceOnly;
  std::string scenario_name = "SingleStream";
  std::string model;
  std::string config;
  std::string user_config;
  std::vector<std::string> assignments;
  bool worker = false;
  size_t chunk = 0;
  bool index_data = false;
  size_t qsl_total = 1024;
  size_t qsl_performance = 0;
  mlperf::LogOutputSettings log_output;
  bool trace = false;
  std::string report;
  std::string audit_config = "audit.config";
};

void Usage(std::ostream& out) {
  out << "usage: official_null_sut [--scenario SingleStream|MultiStream|Server|Offline]\n"
         "    [--mode PerformanceOnly|AccuracyOnly|SubmissionRun|FindPeakPerformance] [--model NAME]\n"
         "    [--config MLPERF_CONF] [--user-config USER_CONF] [--set FIELD=VALUE]...\n"
         "    [--completion inline|worker] [--chunk N] [--qsl-total N] [--qsl-performance N] [--out DIR]\n"
         "    [--log-prefix TEXT] [--log-suffix TEXT] [--quiet] [--chrome-trace]\n"
         "    [--audit-config FILE | --no-audit-config] [--report FILE] [--response-data none|index]\n"
         "Runs LoadGen's test against a null SUT (samples complete at once, no data) and writes LoadGen's logs.\n"
         "--chunk N: inline completion of a large query N samples per call (default: the whole query in one).\n"
         "--response-data index: inline completion, one call per sample, whose data is its QSL index as 4\n"
         "    little-endian bytes (what the accuracy log of testdata/official/example-logs shows).\n"
         "--report FILE: at the end, write the peak RSS (vmhwm_kib) and CPU ticks (cpu_ticks) for jloadgen overhead.\n"
         "--config must be LoadGen's own mlperf.conf: LoadGen 6.0.17 reads the copy compiled into it.\n";
}

[[noreturn]] void Fail(const std::string& message) {
  std::cerr << "official_null_sut: " << message << "\n";
  std::exit(kExitUsage);
}

bool ParseScenario(const std::string& text, mlperf::TestScenario* out) {
  static const std::pair<const char*, mlperf::TestScenario> kScenarios[] = {
      {"SingleStream", mlperf::TestScenario::SingleStream},
      {"MultiStream", mlperf::TestScenario::MultiStream},
      {"Server", mlperf::TestScenario::Server},
      {"Offline", mlperf::TestScenario::Offline}};
  for (const auto& s : kScenarios) {
    if (text == s.first) {
      *out = s.second;
      return true;
    }
  }
  return false;
}

bool ParseMode(const std::string& text, mlperf::TestMode* out) {
  static const std::pair<const char*, mlperf::TestMode> kModes[] = {
      {"SubmissionRun", mlperf::TestMode::SubmissionRun},
      {"AccuracyOnly", mlperf::TestMode::AccuracyOnly},
      {"PerformanceOnly", mlperf::TestMode::PerformanceOnly},
      {"FindPeakPerformance", mlperf::TestMode::FindPeakPerformance}};
  for (const auto& m : kModes) {
    if (text == m.first) {
      *out = m.second;
      return true;
    }
  }
  return false;
}

size_t ParseCount(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || value == 0) {
    Fail(option + " needs a positive integer, got '" + text + "'");
  }
  return static_cast<size_t>(value);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Fail("cannot read " + path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// LoadGen opens its log files in outdir but does not create it (and aborts the process if it cannot open them).
void CreateDirectories(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string prefix = dir.substr(0, slash);
    if (!prefix.empty() && mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      Fail("cannot create " + prefix + ": " + std::strerror(errno));
    }
    if (slash == std::string::npos) {
      return;
    }
  }
}

Options Parse(int argc, char** argv) {
  Options o;
  o.log_output.copy_summary_to_stdout = true;
  for (int i = 1; i < argc; i++) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        Fail(arg + " needs a value");
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      Usage(std::cout);
      std::exit(0);
    } else if (arg == "--scenario") {
      o.scenario_name = value();
      if (!ParseScenario(o.scenario_name, &o.scenario)) Fail("unknown scenario '" + o.scenario_name + "'");
    } else if (arg == "--mode") {
      const std::string mode = value();
      if (!ParseMode(mode, &o.mode)) Fail("unknown mode '" + mode + "'");
    } else if (arg == "--model") {
      o.model = value();
    } else if (arg == "--config") {
      o.config = value();
    } else if (arg == "--user-config") {
      o.user_config = value();
    } else if (arg == "--set") {
      o.assignments.push_back(value());
    } else if (arg == "--completion") {
      const std::string completion = value();
      if (completion != "inline" && completion != "worker") {
        Fail("--completion must be inline or worker, got '" + completion + "'");
      }
      o.worker = completion == "worker";
    } else if (arg == "--chunk") {
      o.chunk = ParseCount(arg, value());
    } else if (arg == "--qsl-total") {
      o.qsl_total = ParseCount(arg, value());
    } else if (arg == "--qsl-performance") {
      o.qsl_performance = ParseCount(arg, value());
    } else if (arg == "--out") {
      o.log_output.outdir = value();
    } else if (arg == "--log-prefix") {
      o.log_output.prefix = value();
    } else if (arg == "--log-suffix") {
      o.log_output.suffix = value();
    } else if (arg == "--quiet") {
      o.log_output.copy_summary_to_stdout = false;
    } else if (arg == "--chrome-trace") {
      o.trace = true;
    } else if (arg == "--audit-config") {
      o.audit_config = value();
    } else if (arg == "--no-audit-config") {
      o.audit_config.clear();
    } else if (arg == "--report") {
      o.report = value();
    } else if (arg == "--response-data") {
      const std::string data = value();
      if (data != "none" && data != "index") {
        Fail("--response-data must be none or index, got '" + data + "'");
      }
      o.index_data = data == "index";
    } else {
      Usage(std::cerr);
      Fail("unknown argument '" + arg + "'");
    }
  }
  CreateDirectories(o.log_output.outdir);
  if (o.qsl_performance == 0) {
    o.qsl_performance = o.qsl_total;
  }
  if (!o.config.empty() && ReadFile(o.config) != mlperf_conf) {
    Fail("--config " + o.config + " differs from the mlperf.conf compiled into this LoadGen; LoadGen 6.0.17 "
         "reads only its built-in copy (rebuild LoadGen from a source whose mlperf.conf you want)");
  }
  return o;
}

// What jloadgen overhead's children report (OverheadChild's format): peak RSS from /proc/self/status and the
// CPU ticks (user + system) from /proc/self/stat.
void WriteReport(const std::string& path) {
  long vmhwm_kib = -1;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.compare(0, 6, "VmHWM:") == 0) {
      vmhwm_kib = std::strtol(line.c_str() + 6, nullptr, 10);
    }
  }
  long long cpu_ticks = -1;
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren != std::string::npos) {
    std::istringstream fields(text.substr(paren + 2));
    std::string field;
    long long utime = 0;
    long long stime = 0;
    // After the command name: state is field 3; utime and stime are fields 14 and 15.
    for (int i = 3; i <= 15 && fields >> field; i++) {
      if (i == 14) utime = std::atoll(field.c_str());
      if (i == 15) stime = std::atoll(field.c_str());
    }
    cpu_ticks = utime + stime;
  }
  std::ofstream out(path);
  out << "exit=0\nvmhwm_kib=" << vmhwm_kib << "\ncpu_ticks=" << cpu_ticks << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = Parse(argc, argv);

  mlperf::TestSettings settings{};
  settings.scenario = o.scenario;
  settings.mode = o.mode;
  const std::string model = o.model.empty() ? "*" : o.model;
  if (!o.user_config.empty()) {
    if (settings.FromConfig(o.user_config, model, o.scenario_name) != 0) {
      std::cerr << "official_null_sut: LoadGen rejected " << o.user_config << " (see the detail log)\n";
    }
  } else if (!o.model.empty() || !o.config.empty()) {
    settings.FromConfig("", model, o.scenario_name, 0);
  }
  for (const std::string& assignment : o.assignments) {
    std::string error;
    if (!jlg::SetFieldAssignment(&settings, assignment, &error)) {
      Fail("--set: " + error);
    }
  }

  mlperf::LogSettings log_settings;
  log_settings.log_output = o.log_output;
  log_settings.enable_trace = o.trace;

  NullQsl qsl(o.qsl_total, o.qsl_performance);
  if (o.worker) {
    NullWorkerSut sut;
    mlperf::StartTest(&sut, &qsl, settings, log_settings, o.audit_config);
  } else {
    NullInlineSut sut(o.chunk, o.index_data);
    mlperf::StartTest(&sut, &qsl, settings, log_settings, o.audit_config);
  }
  std::cout << "Logs: " << o.log_output.outdir << "\n";
  if (!o.report.empty()) {
    WriteReport(o.report);
  }
  return 0;
}
