// The numeric and boolean fields of mlperf::TestSettings (LoadGen 6.0.17 test_settings.h) by their C++ names,
// so a command line can set them as `--set FIELD=VALUE`, in the field's own unit (ns, ms, fraction), as
// JLoadGen's SettingsFields does. Shared by the bridge shim and the C++ null SUT; header-only C++14.
// scenario and mode are enums and set by their own options.
#ifndef JLG_SETTINGS_FIELDS_H
#define JLG_SETTINGS_FIELDS_H

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "test_settings.h"

namespace jlg {

enum class FieldType { kDouble, kUint64, kInt, kBool };

struct SettingsField {
  const char* name;
  FieldType type;
  double mlperf::TestSettings::*as_double;
  uint64_t mlperf::TestSettings::*as_uint64;
  int mlperf::TestSettings::*as_int;
  bool mlperf::TestSettings::*as_bool;
};

#define JLG_D(f) {#f, FieldType::kDouble, &mlperf::TestSettings::f, nullptr, nullptr, nullptr}
#define JLG_U(f) {#f, FieldType::kUint64, nullptr, &mlperf::TestSettings::f, nullptr, nullptr}
#define JLG_I(f) {#f, FieldType::kInt, nullptr, nullptr, &mlperf::TestSettings::f, nullptr}
#define JLG_B(f) {#f, FieldType::kBool, nullptr, nullptr, nullptr, &mlperf::TestSettings::f}

// In test_settings.h's declaration order.
static const SettingsField kSettingsFields[] = {
    JLG_D(single_stream_expected_latency_ns),
    JLG_D(single_stream_target_latency_percentile),
    JLG_D(multi_stream_expected_latency_ns),
    JLG_D(multi_stream_target_latency_percentile),
    JLG_U(multi_stream_samples_per_query),
    JLG_D(server_target_qps),
    JLG_U(server_target_latency_ns),
    JLG_D(server_target_latency_percentile),
    JLG_B(server_coalesce_queries),
    JLG_I(server_find_peak_qps_decimals_of_precision),
    JLG_D(server_find_peak_qps_boundary_step_size),
    JLG_U(server_max_async_queries),
    JLG_U(server_num_issue_query_threads),
    JLG_D(offline_expected_qps),
    JLG_B(sample_concatenate_permutation),
    JLG_U(min_duration_ms),
    JLG_U(max_duration_ms),
    JLG_U(min_query_count),
    JLG_U(max_query_count),
    JLG_U(qsl_rng_seed),
    JLG_U(sample_index_rng_seed),
    JLG_U(schedule_rng_seed),
    JLG_U(accuracy_log_rng_seed),
    JLG_D(accuracy_log_probability),
    JLG_U(accuracy_log_sampling_target),
    JLG_B(test05),
    JLG_U(test05_qsl_rng_seed),
    JLG_U(test05_sample_index_rng_seed),
    JLG_U(test05_schedule_rng_seed),
    JLG_B(print_timestamps),
    JLG_B(performance_issue_unique),
    JLG_B(performance_issue_same),
    JLG_U(performance_issue_same_index),
    JLG_U(performance_sample_count_override),
    JLG_U(accuracy_sample_count_override),
    JLG_B(use_token_latencies),
    JLG_U(server_ttft_latency),
    JLG_U(server_tpot_latency),
    JLG_B(infer_token_latencies),
    JLG_U(token_latency_scaling_factor),
};

#undef JLG_D
#undef JLG_U
#undef JLG_I
#undef JLG_B

inline const SettingsField* FindSettingsField(const std::string& name) {
  for (const SettingsField& field : kSettingsFields) {
    if (name == field.name) {
      return &field;
    }
  }
  return nullptr;
}

inline const char* FieldTypeName(FieldType type) {
  switch (type) {
    case FieldType::kDouble:
      return "double";
    case FieldType::kUint64:
      return "unsigned 64-bit integer";
    case FieldType::kInt:
      return "int";
    case FieldType::kBool:
      return "boolean: true, false, 1 or 0";
  }
  return "?";
}

// Parses text as the field's type (doubles as strtod reads them; unsigned integers in decimal or 0x hex;
// ints in decimal; booleans true, false, 1, 0) and sets it. On a bad value returns false and says why.
inline bool SetFieldFromText(mlperf::TestSettings* settings, const SettingsField& field, const std::string& text,
                             std::string* error) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  bool ok = !text.empty();
  switch (field.type) {
    case FieldType::kDouble: {
      const double value = ok ? std::strtod(begin, &end) : 0;
      ok = ok && *end == '\0' && errno == 0;
      if (ok) settings->*field.as_double = value;
      break;
    }
    case FieldType::kUint64: {
      const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
      ok = ok && text[0] != '-' && text[0] != '+' && text[0] != ' ';
      const unsigned long long value = ok ? std::strtoull(begin, &end, hex ? 16 : 10) : 0;
      ok = ok && *end == '\0' && errno == 0;
      if (ok) settings->*field.as_uint64 = static_cast<uint64_t>(value);
      break;
    }
    case FieldType::kInt: {
      const long value = ok ? std::strtol(begin, &end, 10) : 0;
      ok = ok && *end == '\0' && errno == 0 && value >= INT32_MIN && value <= INT32_MAX;
      if (ok) settings->*field.as_int = static_cast<int>(value);
      break;
    }
    case FieldType::kBool: {
      ok = text == "true" || text == "false" || text == "1" || text == "0";
      if (ok) settings->*field.as_bool = text == "true" || text == "1";
      break;
    }
  }
  if (!ok && error != nullptr) {
    *error = std::string("bad value '") + text + "' for " + field.name + " (" + FieldTypeName(field.type) + ")";
  }
  return ok;
}

// Applies one `FIELD=VALUE` assignment; false with a message for a missing '=', an unknown field or a bad value.
inline bool SetFieldAssignment(mlperf::TestSettings* settings, const std::string& assignment,
                               std::string* error) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos) {
    *error = "expected FIELD=VALUE, got '" + assignment + "'";
    return false;
  }
  const std::string name = assignment.substr(0, eq);
  const SettingsField* field = FindSettingsField(name);
  if (field == nullptr) {
    *error = "unknown TestSettings field '" + name + "'";
    return false;
  }
  return SetFieldFromText(settings, *field, assignment.substr(eq + 1), error);
}

}  // namespace jlg

#endif  // JLG_SETTINGS_FIELDS_H
