// libjlg_loadgen_bridge.so: the official LoadGen driven through a C ABI (jlg_bridge.h), for a Java SUT reached
// through FFM. Linked with LoadGen's position-independent static library; exports only the jlg_* functions.
// Built with hidden visibility; the API declared here is what the library exports (with jlg_bridge.map).
#pragma GCC visibility push(default)
#include "jlg_bridge.h"
#pragma GCC visibility pop

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <future>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "jlg_settings_fields.h"
#include "loadgen.h"
#include "logging.h"  // LoadGen's own logger: the bridge's errors go to the detail log like LoadGen's.
#include "query_sample.h"
#include "query_sample_library.h"
#include "system_under_test.h"
#include "test_settings.h"
#include "version.h"

// The copy of mlperf.conf compiled into LoadGen (test_settings_internal.cc includes the generated mlperf_conf.h).
extern const char* mlperf_conf;

// The C layouts Java relies on are LoadGen's.
static_assert(sizeof(jlg_query_sample) == sizeof(mlperf::QuerySample), "QuerySample size");
static_assert(offsetof(jlg_query_sample, id) == offsetof(mlperf::QuerySample, id), "QuerySample::id");
static_assert(offsetof(jlg_query_sample, index) == offsetof(mlperf::QuerySample, index), "QuerySample::index");
static_assert(sizeof(jlg_query_sample_response) == sizeof(mlperf::QuerySampleResponse), "response size");
static_assert(offsetof(jlg_query_sample_response, id) == offsetof(mlperf::QuerySampleResponse, id), "id");
static_assert(offsetof(jlg_query_sample_response, data) == offsetof(mlperf::QuerySampleResponse, data), "data");
static_assert(offsetof(jlg_query_sample_response, size) == offsetof(mlperf::QuerySampleResponse, size), "size");
static_assert(offsetof(jlg_query_sample_response, n_tokens) == offsetof(mlperf::QuerySampleResponse, n_tokens),
              "n_tokens");
static_assert(sizeof(mlperf::ResponseId) == sizeof(uint64_t) && sizeof(mlperf::QuerySampleIndex) == sizeof(uint64_t),
              "LP64");

struct jlg_settings {
  mlperf::TestSettings test{};
  mlperf::LogSettings log;
};

namespace {

using mlperf::QuerySample;
using mlperf::QuerySampleResponse;

// Thrown from a callback on the test thread after AbortTest, so StartTest's stack unwinds (its log files close)
// and jlg_bridge_start_test returns: LoadGen's StartTest cannot return by itself once AbortTest stopped its
// logger.
struct TestAborted {};

// Logged with LoadGen's logger, so the detail log counts it as an error and the summary says so.
void LogError(const std::string& message) {
  mlperf::LogDetail([message](mlperf::AsyncDetail& detail) {
    MLPERF_LOG_ERROR(detail, "error_runtime", message);
  });
}

// LogError, then waits (up to 5 s) until LoadGen's IO thread has written it. LoadGen's StopLogging flushes only
// the test thread's entries before it writes the summary, so an error logged on another thread just before the
// test ends (a failure whose drain lets LoadGen finish at once) would miss the summary's error count and the
// detail log. Entries of one thread are written in order, so the marker logged after the error proves it written.
void LogErrorWritten(const std::string& message) {
  LogError(message);
  auto written = std::make_shared<std::promise<void>>();
  std::future<void> done = written->get_future();
  mlperf::logging::Log([written](mlperf::logging::AsyncLog&) { written->set_value(); });
  done.wait_for(std::chrono::seconds(5));
}

std::string Hex(uint64_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

// The samples LoadGen issued that are not complete yet. A response id is the address of LoadGen's per-sample
// record; the samples of one query are records of one array, so a query is kept as one group (base, stride,
// count) with a completion bit per sample, and a sample that is not part of such a group (a one-sample query, or
// a coalesced Server query) as one entry of an open-addressing set. Not thread-safe: the caller holds a lock.
class OutstandingSamples {
 public:
  enum class Mark { kOk, kDuplicate, kUnknown };

  OutstandingSamples() : slots_(kInitialSlots, uint64_t{kEmpty}) {}

  // Registers the samples of one query.
  void AddQuery(const QuerySample* samples, size_t count) {
    outstanding_ += count;
    unsigned shift = 0;
    if (count > 1 && IsStridedArray(samples, count, &shift)) {
      std::unique_ptr<Group> group(new Group());
      group->base = samples[0].id;
      group->shift = shift;
      group->count = count;
      group->remaining = count;
      group->done.assign((count + 63) / 64, 0);
      groups_.push_back(std::move(group));
      return;
    }
    for (size_t i = 0; i < count; i++) {
      Insert(samples[i].id);
    }
  }

  // The fast path of a completion: the responses are one run of consecutive outstanding samples of one group (a
  // batch in issue order) or one outstanding sample. Marks them complete and returns true; false changes nothing.
  bool CompleteRun(const QuerySampleResponse* responses, size_t count) {
    if (count == 1) {
      return Complete(responses[0].id) == Mark::kOk;  // a rejection changes nothing: the slow path reports it
    }
    for (std::unique_ptr<Group>& group : groups_) {
      size_t first = 0;
      if (group->Contains(responses[0].id, &first) && first + count <= group->count &&
          IsRun(responses, count, group->base + (static_cast<uint64_t>(first) << group->shift), group->shift) &&
          group->NoneDone(first, count)) {
        group->SetDone(first, count);
        Settle(group.get(), count);
        return true;
      }
    }
    return false;
  }

  // Marks the responses complete. Returns how many were outstanding; when some were not, `kept` lists the
  // indices of those that were (in order), else it is left empty. The others are counted and listed in rejected.
  size_t CompleteAll(const QuerySampleResponse* responses, size_t count, std::vector<uint32_t>* kept,
                     uint64_t* duplicates, uint64_t* unknown, std::vector<std::pair<uint64_t, Mark>>* rejected) {
    kept->clear();
    size_t valid = 0;
    for (size_t i = 0; i < count; i++) {
      const Mark mark = Complete(responses[i].id);
      if (mark == Mark::kOk) {
        if (valid != i) kept->push_back(static_cast<uint32_t>(i));
        valid++;
        continue;
      }
      if (valid == i) {
        // The first rejection: the ones before it were all kept.
        for (size_t k = 0; k < i; k++) kept->push_back(static_cast<uint32_t>(k));
      }
      (mark == Mark::kDuplicate ? *duplicates : *unknown) += 1;
      rejected->emplace_back(responses[i].id, mark);
    }
    return valid;
  }

  // Whether id is outstanding (for a first token).
  bool IsOutstanding(uint64_t id) const {
    size_t i = 0;
    for (const std::unique_ptr<Group>& group : groups_) {
      if (group->Contains(id, &i)) {
        return !group->IsDone(i);
      }
    }
    return Find(id) != kNotFound;
  }

  // Moves every outstanding id to out and forgets them.
  void TakeAll(std::vector<uint64_t>* out) {
    for (std::unique_ptr<Group>& group : groups_) {
      for (size_t i = 0; i < group->count; i++) {
        if (!group->IsDone(i)) {
          out->push_back(group->base + (static_cast<uint64_t>(i) << group->shift));
        }
      }
    }
    groups_.clear();
    for (uint64_t& slot : slots_) {
      if (slot != kEmpty && slot != kTombstone) {
        out->push_back(slot);
      }
      slot = kEmpty;
    }
    live_ = 0;
    used_ = 0;
    outstanding_ = 0;
  }

  uint64_t outstanding() const { return outstanding_; }

 private:
  struct Group {
    uint64_t base = 0;
    unsigned shift = 0;
    size_t count = 0;
    size_t remaining = 0;
    std::vector<uint64_t> done;

    bool Contains(uint64_t id, size_t* index) const {
      const uint64_t offset = id - base;
      if ((offset & ((uint64_t{1} << shift) - 1)) != 0 || (offset >> shift) >= count) {
        return false;
      }
      *index = static_cast<size_t>(offset >> shift);
      return true;
    }
    bool IsDone(size_t i) const { return (done[i >> 6] >> (i & 63)) & 1; }
    bool NoneDone(size_t first, size_t n) const {
      for (size_t i = first; i < first + n;) {
        if ((i & 63) == 0 && i + 64 <= first + n) {
          if (done[i >> 6] != 0) return false;
          i += 64;
        } else {
          if (IsDone(i)) return false;
          i++;
        }
      }
      return true;
    }
    void SetDone(size_t first, size_t n) {
      for (size_t i = first; i < first + n;) {
        if ((i & 63) == 0 && i + 64 <= first + n) {
          done[i >> 6] = ~uint64_t{0};
          i += 64;
        } else {
          done[i >> 6] |= uint64_t{1} << (i & 63);
          i++;
        }
      }
    }
  };

  static constexpr uint64_t kEmpty = 0;      // ids are never 0 (kResponseIdReserved)
  static constexpr uint64_t kTombstone = 1;  // nor 1: they are addresses of 8-byte aligned records
  static constexpr size_t kInitialSlots = 1024;
  static constexpr size_t kNotFound = SIZE_MAX;
  // Queries larger than this are checked at their first and last kCheckedEnds samples and every kCheckStep-th
  // one: a query's records are one std::vector in LoadGen, and reading 3.3M samples here would cost as much as
  // a tenth of the completion path. Smaller queries are checked whole.
  static constexpr size_t kCheckedEnds = 4096;
  static constexpr size_t kCheckStep = 1021;

  static bool IsStridedArray(const QuerySample* samples, size_t count, unsigned* shift) {
    const uint64_t stride = samples[1].id - samples[0].id;
    if (stride == 0 || (stride & (stride - 1)) != 0 || samples[1].id < samples[0].id) {
      return false;
    }
    unsigned s = 0;
    while ((uint64_t{1} << s) < stride) s++;
    const uint64_t base = samples[0].id;
    auto at = [&](size_t i) { return samples[i].id == base + (static_cast<uint64_t>(i) << s); };
    if (count <= 2 * kCheckedEnds) {
      for (size_t i = 0; i < count; i++) {
        if (!at(i)) return false;
      }
    } else {
      for (size_t i = 0; i < kCheckedEnds; i++) {
        if (!at(i) || !at(count - 1 - i)) return false;
      }
      for (size_t i = kCheckedEnds; i < count - kCheckedEnds; i += kCheckStep) {
        if (!at(i)) return false;
      }
    }
    *shift = s;
    return true;
  }

  static bool IsRun(const QuerySampleResponse* responses, size_t count, uint64_t first_id, unsigned shift) {
    uint64_t mismatch = 0;
    for (size_t i = 0; i < count; i++) {
      mismatch |= responses[i].id ^ (first_id + (static_cast<uint64_t>(i) << shift));
    }
    return mismatch == 0;
  }

  Mark Complete(uint64_t id) {
    size_t i = 0;
    for (std::unique_ptr<Group>& group : groups_) {
      if (group->Contains(id, &i)) {
        if (group->IsDone(i)) {
          return Mark::kDuplicate;
        }
        group->SetDone(i, 1);
        Settle(group.get(), 1);
        return Mark::kOk;
      }
    }
    const size_t slot = Find(id);
    if (slot == kNotFound) {
      return WasRecent(id) ? Mark::kDuplicate : Mark::kUnknown;
    }
    slots_[slot] = kTombstone;
    live_--;
    outstanding_--;
    Remember(id);
    return Mark::kOk;
  }

  // Accounts for n samples of group completed; forgets the group once all are.
  void Settle(Group* group, size_t n) {
    group->remaining -= n;
    outstanding_ -= n;
    if (group->remaining == 0) {
      for (size_t g = 0; g < groups_.size(); g++) {
        if (groups_[g].get() == group) {
          groups_.erase(groups_.begin() + static_cast<std::ptrdiff_t>(g));
          break;
        }
      }
    }
  }

  static size_t Hash(uint64_t id, size_t mask) {
    return static_cast<size_t>((id >> 3) * 0x9E3779B97F4A7C15ULL >> 20) & mask;
  }

  size_t Find(uint64_t id) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(id, mask);; i = (i + 1) & mask) {
      if (slots_[i] == id) return i;
      if (slots_[i] == kEmpty) return kNotFound;
    }
  }

  void Insert(uint64_t id) {
    if ((used_ + 1) * 2 > slots_.size()) {
      Rehash(live_ * 4 > slots_.size() ? slots_.size() * 2 : slots_.size());
    }
    const size_t mask = slots_.size() - 1;
    for (size_t i = Hash(id, mask);; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty || slots_[i] == kTombstone) {
        used_ += slots_[i] == kEmpty ? 1 : 0;
        slots_[i] = id;
        live_++;
        return;
      }
      if (slots_[i] == id) return;  // LoadGen never issues an outstanding sample again
    }
  }

  // Clears the tombstones (every few hundred one-sample queries), or grows the table. The spare table keeps its
  // memory, so clearing allocates nothing.
  void Rehash(size_t size) {
    spare_.assign(size, uint64_t{kEmpty});  // a copy: C++14 would odr-use the constant
    spare_.swap(slots_);
    live_ = 0;
    used_ = 0;
    for (uint64_t id : spare_) {
      if (id != kEmpty && id != kTombstone) Insert(id);
    }
  }

  // The last ids completed one at a time, to tell a duplicate from an id that was never issued.
  void Remember(uint64_t id) { recent_[recent_next_++ % kRecent] = id; }
  bool WasRecent(uint64_t id) const {
    for (uint64_t r : recent_) {
      if (r == id) return true;
    }
    return false;
  }

  static constexpr size_t kRecent = 4096;
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<uint64_t> slots_;
  std::vector<uint64_t> spare_;
  size_t live_ = 0;
  size_t used_ = 0;
  uint64_t outstanding_ = 0;
  uint64_t recent_[kRecent] = {};
  size_t recent_next_ = 0;
};

// Errors about single completions are logged one by one up to this many per test, then counted.
constexpr uint64_t kLoggedRejections = 10;

// The one test of this process.
class Bridge {
 public:
  static Bridge& Get() {
    static Bridge bridge;
    return bridge;
  }

  bool Begin(std::thread::id test_thread) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (ran_) return false;
    ran_ = true;
    running_ = true;
    test_thread_ = test_thread;
    // What was dropped before (a client warming up its own path) is not the test's.
    dropped_ = 0;
    return true;
  }

  void End() {
    std::lock_guard<std::mutex> lock(mutex_);
    running_ = false;
  }

  bool IsTestThread() const { return std::this_thread::get_id() == test_thread_; }

  bool failed() const { return failed_.load(std::memory_order_acquire); }

  void AddQuery(const QuerySample* samples, size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    outstanding_.AddQuery(samples, count);
    issued_ += count;
  }

  // Completes what is outstanding among responses; returns how many were dropped.
  uint64_t Complete(QuerySampleResponse* responses, size_t count, jlg_response_callback callback, uint64_t client) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (failed_.load(std::memory_order_relaxed) || !running_) {
      dropped_ += count;
      return count;
    }
    if (count == 0) {
      return 0;
    }
    if (outstanding_.CompleteRun(responses, count)) {
      completed_ += count;
      EnterForward();
      lock.unlock();
      Forward(responses, count, kNoneDropped, callback, client);
      LeaveForward();
      return 0;
    }
    // Rejections, or a batch not in issue order: the valid ones are forwarded, in order.
    thread_local std::vector<uint32_t> kept;
    thread_local std::vector<std::pair<uint64_t, OutstandingSamples::Mark>> rejected;
    rejected.clear();
    const size_t valid = outstanding_.CompleteAll(responses, count, &kept, &duplicates_, &unknown_, &rejected);
    completed_ += valid;
    EnterForward();
    lock.unlock();
    LogRejected(rejected);
    Forward(responses, valid, kept, callback, client);
    LeaveForward();
    return count - valid;
  }

  // First tokens of the responses whose sample is outstanding (LoadGen itself reports a second first token).
  uint64_t FirstToken(QuerySampleResponse* responses, size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (failed_.load(std::memory_order_relaxed) || !running_) {
      dropped_ += count;
      return count;
    }
    size_t valid = 0;
    while (valid < count && outstanding_.IsOutstanding(responses[valid].id)) {
      valid++;
    }
    if (valid == count) {
      EnterForward();
      lock.unlock();
      if (count > 0) mlperf::FirstTokenComplete(responses, count);
      LeaveForward();
      return 0;
    }
    thread_local std::vector<QuerySampleResponse> kept;
    thread_local std::vector<std::pair<uint64_t, OutstandingSamples::Mark>> rejected;
    kept.assign(responses, responses + valid);
    rejected.clear();
    for (size_t i = valid; i < count; i++) {
      if (outstanding_.IsOutstanding(responses[i].id)) {
        kept.push_back(responses[i]);
      } else {
        unknown_++;
        rejected.emplace_back(responses[i].id, OutstandingSamples::Mark::kUnknown);
      }
    }
    EnterForward();
    lock.unlock();
    LogRejected(rejected, "first token");
    if (!kept.empty()) mlperf::FirstTokenComplete(kept.data(), kept.size());
    LeaveForward();
    return count - kept.size();
  }

  // Fails the test: logs why, completes the outstanding samples for the client. Returns whether this call failed
  // it (the first one does).
  bool Fail(const std::string& reason) {
    std::vector<uint64_t> ids;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failed_.load(std::memory_order_relaxed)) {
        return false;
      }
      failed_.store(true, std::memory_order_release);
      if (!running_) {
        drain_done_.store(true, std::memory_order_release);
        return true;
      }
      outstanding_.TakeAll(&ids);
    }
    LogErrorWritten("jloadgen bridge: the test ends because the SUT failed: " + reason +
             (ids.empty() ? std::string()
                          : "; the bridge completes the " + std::to_string(ids.size()) +
                                " outstanding samples on the SUT's behalf so LoadGen can end"));
    // Completions that passed the check before the failure finish first: nothing else may touch LoadGen's
    // records of the drained samples once they are complete. (A failure raised inside a completion, from a
    // response callback, waits only for the others.)
    while (in_flight_.load(std::memory_order_acquire) != t_forwards_) {
      std::this_thread::yield();
    }
    CompleteOnBehalf(ids.data(), ids.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      drained_ += ids.size();
      completed_ += ids.size();
    }
    drain_done_.store(true, std::memory_order_release);
    return true;
  }

  // On the test thread, after a failure: LoadGen's AbortTest, then unwind StartTest. On an issue thread: complete
  // the query at once (the test thread ends the test once issuing is over).
  void OnCallbackAfterFailure(const QuerySample* samples, size_t count) {
    while (!drain_done_.load(std::memory_order_acquire)) {
      std::this_thread::yield();
    }
    if (IsTestThread()) {
      mlperf::AbortTest();
      throw TestAborted();
    }
    if (samples != nullptr && count > 0) {
      std::vector<uint64_t> ids(count);
      for (size_t i = 0; i < count; i++) ids[i] = samples[i].id;
      CompleteOnBehalf(ids.data(), count);
      std::lock_guard<std::mutex> lock(mutex_);
      issued_ += count;
      drained_ += count;
      completed_ += count;
    }
  }

  // After a callback: a nonzero result or a failure meanwhile (from any thread) ends the test.
  void Check(int32_t result, const char* callback) {
    if (result != 0 && !failed()) {
      Fail(std::string("the client's ") + callback + " callback returned " + std::to_string(result) +
           " without giving a reason");
    }
    if (failed()) {
      OnCallbackAfterFailure(nullptr, 0);
    }
  }

  // Series end (the QSL's unload): the rejections not logged one by one are logged as one count.
  void LogUnloggedRejections() {
    uint64_t unlogged = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const uint64_t total = duplicates_ + unknown_;
      unlogged = total - logged_;
      logged_ = total;
    }
    if (unlogged > 0) {
      LogError("jloadgen bridge: " + std::to_string(unlogged) +
               " more completions were dropped because their sample was not outstanding (completed twice, "
               "never issued, or from an earlier series)");
    }
  }

  void Progress(jlg_bridge_progress* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    out->issued = issued_;
    out->completed = completed_;
    out->outstanding = outstanding_.outstanding();
    out->duplicates = duplicates_;
    out->unknown = unknown_;
    out->dropped = dropped_;
    out->drained = drained_;
    out->failed = failed_.load(std::memory_order_relaxed) ? 1 : 0;
    out->running = running_ ? 1 : 0;
  }

 private:
  Bridge() = default;

  void LogRejected(const std::vector<std::pair<uint64_t, OutstandingSamples::Mark>>& rejected,
                   const char* what = "completion") {
    for (const auto& r : rejected) {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (logged_ >= kLoggedRejections) return;
        logged_++;
      }
      LogError(std::string("jloadgen bridge: dropped the ") + what + " of response id " + Hex(r.first) + ": " +
               (r.second == OutstandingSamples::Mark::kDuplicate
                    ? "the sample was already complete (completed twice)"
                    : "no such sample is outstanding (never issued, or from an earlier series)"));
    }
  }

  // Hands the valid responses to LoadGen: the client's array itself when all are valid (kept empty), else a copy
  // of the kept ones.
  static void Forward(QuerySampleResponse* responses, size_t valid, const std::vector<uint32_t>& kept,
                      jlg_response_callback callback, uint64_t client) {
    if (valid == 0) {
      return;
    }
    QuerySampleResponse* batch = responses;
    if (!kept.empty()) {
      thread_local std::vector<QuerySampleResponse> copy;
      copy.clear();
      for (uint32_t i : kept) copy.push_back(responses[i]);
      batch = copy.data();
    }
    if (callback == nullptr) {
      mlperf::QuerySamplesComplete(batch, valid);
      return;
    }
    // The client sees its own entry (its index in the array it passed) and may rewrite its data and size.
    mlperf::QuerySamplesComplete(batch, valid, [&](QuerySampleResponse* response) {
      const size_t at = static_cast<size_t>(response - batch);
      const size_t index = kept.empty() ? at : kept[at];
      callback(client, index);
      response->data = responses[index].data;
      response->size = responses[index].size;
    });
  }

  // Under mutex_: a forward to LoadGen starts (counted, so a failure waits for it).
  void EnterForward() {
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    t_forwards_++;
  }

  void LeaveForward() {
    t_forwards_--;
    in_flight_.fetch_sub(1, std::memory_order_release);
  }

  static void CompleteOnBehalf(const uint64_t* ids, size_t count) {
    constexpr size_t kChunk = 4096;
    std::vector<QuerySampleResponse> responses;
    for (size_t first = 0; first < count; first += kChunk) {
      const size_t n = count - first < kChunk ? count - first : kChunk;
      responses.clear();
      for (size_t i = 0; i < n; i++) responses.emplace_back(ids[first + i], 0, 0);
      mlperf::QuerySamplesComplete(responses.data(), n);
    }
  }

  std::mutex mutex_;
  OutstandingSamples outstanding_;
  bool ran_ = false;
  bool running_ = false;
  std::thread::id test_thread_;
  std::atomic<bool> failed_{false};
  std::atomic<bool> drain_done_{false};
  std::atomic<uint32_t> in_flight_{0};
  static const std::vector<uint32_t> kNoneDropped;
  // Forwards of the calling thread (nested through a response callback). Initial-exec TLS: a plain load on the hot
  // path instead of a __tls_get_addr call (one word of the static TLS that glibc keeps for dlopened libraries).
  static thread_local uint32_t t_forwards_ __attribute__((tls_model("initial-exec")));
  uint64_t issued_ = 0;
  uint64_t completed_ = 0;
  uint64_t duplicates_ = 0;
  uint64_t unknown_ = 0;
  uint64_t dropped_ = 0;
  uint64_t drained_ = 0;
  uint64_t logged_ = 0;
};

thread_local uint32_t Bridge::t_forwards_ __attribute__((tls_model("initial-exec"))) = 0;
const std::vector<uint32_t> Bridge::kNoneDropped;

class BridgeSut : public mlperf::SystemUnderTest {
 public:
  BridgeSut(std::string name, uint64_t client, jlg_issue_query_callback issue, jlg_flush_queries_callback flush)
      : name_(std::move(name)), client_(client), issue_(issue), flush_(flush) {}

  // LoadGen asks for the name once its log files are open, before anything else.
  const std::string& Name() override {
    named_ = true;
    return name_;
  }

  bool named() const { return named_; }

  void IssueQuery(const std::vector<QuerySample>& samples) override {
    Bridge& bridge = Bridge::Get();
    if (bridge.failed()) {
      bridge.OnCallbackAfterFailure(samples.data(), samples.size());
      return;
    }
    // Registered before the client sees the query: it may complete inside the call.
    bridge.AddQuery(samples.data(), samples.size());
    bridge.Check(issue_(client_, reinterpret_cast<uint64_t>(samples.data()), samples.size()), "IssueQuery");
  }

  void FlushQueries() override {
    Bridge& bridge = Bridge::Get();
    if (bridge.failed()) {
      bridge.OnCallbackAfterFailure(nullptr, 0);
      return;
    }
    bridge.Check(flush_(client_), "FlushQueries");
  }

 private:
  const std::string name_;
  const uint64_t client_;
  const jlg_issue_query_callback issue_;
  const jlg_flush_queries_callback flush_;
  bool named_ = false;
};

class BridgeQsl : public mlperf::QuerySampleLibrary {
 public:
  BridgeQsl(std::string name, uint64_t total, uint64_t performance, uint64_t client, jlg_samples_callback load,
            jlg_samples_callback unload)
      : name_(std::move(name)), total_(total), performance_(performance), client_(client), load_(load),
        unload_(unload) {}

  const std::string& Name() override { return name_; }
  size_t TotalSampleCount() override { return total_; }
  size_t PerformanceSampleCount() override { return performance_; }

  void LoadSamplesToRam(const std::vector<mlperf::QuerySampleIndex>& samples) override {
    Call(load_, samples, "LoadSamplesToRam");
  }

  void UnloadSamplesFromRam(const std::vector<mlperf::QuerySampleIndex>& samples) override {
    Bridge::Get().LogUnloggedRejections();
    Call(unload_, samples, "UnloadSamplesFromRam");
  }

 private:
  void Call(jlg_samples_callback callback, const std::vector<mlperf::QuerySampleIndex>& samples,
            const char* what) {
    Bridge& bridge = Bridge::Get();
    if (bridge.failed()) {
      bridge.OnCallbackAfterFailure(nullptr, 0);
      return;
    }
    bridge.Check(callback(client_, reinterpret_cast<uint64_t>(samples.data()), samples.size()), what);
  }

  const std::string name_;
  const uint64_t total_;
  const uint64_t performance_;
  const uint64_t client_;
  const jlg_samples_callback load_;
  const jlg_samples_callback unload_;
};

int32_t SetField(jlg_settings* settings, const char* field, jlg::FieldType type, double d, uint64_t u, int32_t i) {
  if (settings == nullptr || field == nullptr) return JLG_SETTINGS_UNKNOWN_FIELD;
  const jlg::SettingsField* f = jlg::FindSettingsField(field);
  if (f == nullptr) return JLG_SETTINGS_UNKNOWN_FIELD;
  if (f->type != type) return JLG_SETTINGS_WRONG_TYPE;
  switch (type) {
    case jlg::FieldType::kDouble:
      settings->test.*f->as_double = d;
      break;
    case jlg::FieldType::kUint64:
      settings->test.*f->as_uint64 = u;
      break;
    case jlg::FieldType::kInt:
      settings->test.*f->as_int = i;
      break;
    case jlg::FieldType::kBool:
      if (i != 0 && i != 1) return JLG_SETTINGS_BAD_VALUE;
      settings->test.*f->as_bool = i == 1;
      break;
  }
  return JLG_SETTINGS_OK;
}

}  // namespace

extern "C" {

const char* jlg_bridge_loadgen_version(void) { return mlperf::LoadgenVersion().c_str(); }

const char* jlg_bridge_builtin_mlperf_conf(void) { return mlperf_conf; }

const char* jlg_bridge_loadgen_file_sha1(void) { return mlperf::LoadgenSha1OfFiles().c_str(); }

jlg_settings* jlg_settings_create(int32_t scenario, int32_t mode) {
  if (scenario < 0 || scenario > 3 || mode < 0 || mode > 3) return nullptr;
  jlg_settings* settings = new (std::nothrow) jlg_settings();
  if (settings != nullptr) {
    settings->test.scenario = static_cast<mlperf::TestScenario>(scenario);
    settings->test.mode = static_cast<mlperf::TestMode>(mode);
  }
  return settings;
}

void jlg_settings_destroy(jlg_settings* settings) { delete settings; }

int32_t jlg_settings_from_config(jlg_settings* settings, const char* path, const char* model, const char* scenario,
                                 int32_t conf_type) {
  if (settings == nullptr || path == nullptr || model == nullptr || scenario == nullptr) return -1;
  return settings->test.FromConfig(path, model, scenario, conf_type);
}

int32_t jlg_settings_set_mode(jlg_settings* settings, int32_t mode) {
  if (settings == nullptr || mode < 0 || mode > 3) return JLG_SETTINGS_BAD_VALUE;
  settings->test.mode = static_cast<mlperf::TestMode>(mode);
  return JLG_SETTINGS_OK;
}

int32_t jlg_settings_get_mode(const jlg_settings* settings) { return static_cast<int32_t>(settings->test.mode); }

int32_t jlg_settings_set_double(jlg_settings* settings, const char* field, double value) {
  return SetField(settings, field, jlg::FieldType::kDouble, value, 0, 0);
}

int32_t jlg_settings_set_uint64(jlg_settings* settings, const char* field, uint64_t value) {
  return SetField(settings, field, jlg::FieldType::kUint64, 0, value, 0);
}

int32_t jlg_settings_set_int(jlg_settings* settings, const char* field, int32_t value) {
  return SetField(settings, field, jlg::FieldType::kInt, 0, 0, value);
}

int32_t jlg_settings_set_bool(jlg_settings* settings, const char* field, int32_t value) {
  return SetField(settings, field, jlg::FieldType::kBool, 0, 0, value);
}

int32_t jlg_settings_get_double(const jlg_settings* settings, const char* field, double* value) {
  const jlg::SettingsField* f = settings == nullptr || field == nullptr ? nullptr : jlg::FindSettingsField(field);
  if (f == nullptr) return JLG_SETTINGS_UNKNOWN_FIELD;
  if (f->type != jlg::FieldType::kDouble) return JLG_SETTINGS_WRONG_TYPE;
  *value = settings->test.*f->as_double;
  return JLG_SETTINGS_OK;
}

int32_t jlg_settings_get_uint64(const jlg_settings* settings, const char* field, uint64_t* value) {
  const jlg::SettingsField* f = settings == nullptr || field == nullptr ? nullptr : jlg::FindSettingsField(field);
  if (f == nullptr) return JLG_SETTINGS_UNKNOWN_FIELD;
  switch (f->type) {
    case jlg::FieldType::kDouble:
      return JLG_SETTINGS_WRONG_TYPE;
    case jlg::FieldType::kUint64:
      *value = settings->test.*f->as_uint64;
      break;
    case jlg::FieldType::kInt:
      *value = static_cast<uint64_t>(static_cast<int64_t>(settings->test.*f->as_int));
      break;
    case jlg::FieldType::kBool:
      *value = settings->test.*f->as_bool ? 1 : 0;
      break;
  }
  return JLG_SETTINGS_OK;
}

void jlg_settings_log_output(jlg_settings* settings, const char* outdir, const char* prefix, const char* suffix,
                             int32_t prefix_with_datetime, int32_t copy_detail_to_stdout,
                             int32_t copy_summary_to_stdout, int32_t enable_trace) {
  mlperf::LogOutputSettings& out = settings->log.log_output;
  out.outdir = outdir;
  out.prefix = prefix;
  out.suffix = suffix;
  out.prefix_with_datetime = prefix_with_datetime != 0;
  out.copy_detail_to_stdout = copy_detail_to_stdout != 0;
  out.copy_summary_to_stdout = copy_summary_to_stdout != 0;
  settings->log.enable_trace = enable_trace != 0;
}

int32_t jlg_bridge_start_test(const jlg_settings* settings, const char* sut_name, const char* qsl_name,
                              uint64_t total_sample_count, uint64_t performance_sample_count,
                              const char* audit_config, uint64_t client, jlg_issue_query_callback issue_query,
                              jlg_flush_queries_callback flush_queries, jlg_samples_callback load_samples,
                              jlg_samples_callback unload_samples) {
  Bridge& bridge = Bridge::Get();
  if (!bridge.Begin(std::this_thread::get_id())) {
    return JLG_BRIDGE_ALREADY_RAN;
  }
  int32_t result = JLG_BRIDGE_COMPLETED;
  try {
    BridgeSut sut(sut_name, client, issue_query, flush_queries);
    BridgeQsl qsl(qsl_name, total_sample_count, performance_sample_count, client, load_samples, unload_samples);
    mlperf::StartTest(&sut, &qsl, settings->test, settings->log, audit_config);
    if (!sut.named()) {
      // LoadGen could not open a log file and returned at once, leaving its logger's IO thread running (the
      // process would abort at exit) and registered issue threads waiting: AbortTest ends both.
      mlperf::AbortTest();
      result = JLG_BRIDGE_NO_LOGS;
    } else if (bridge.failed()) {
      result = JLG_BRIDGE_ABORTED;
    }
  } catch (const TestAborted&) {
    result = JLG_BRIDGE_ABORTED;
  } catch (...) {
    result = JLG_BRIDGE_INTERNAL_ERROR;
  }
  bridge.End();
  // LoadGen prints the summary with std::cout; the client's own output follows it.
  std::cout.flush();
  return result;
}

uint64_t jlg_bridge_complete(jlg_query_sample_response* responses, uint64_t count) {
  return Bridge::Get().Complete(reinterpret_cast<QuerySampleResponse*>(responses), count, nullptr, 0);
}

uint64_t jlg_bridge_complete_one(uint64_t id, uint64_t data, uint64_t size, int64_t n_tokens) {
  QuerySampleResponse response(id, data, size, n_tokens);
  return Bridge::Get().Complete(&response, 1, nullptr, 0);
}

uint64_t jlg_bridge_complete_with_callback(jlg_query_sample_response* responses, uint64_t count,
                                           jlg_response_callback callback, uint64_t client) {
  return Bridge::Get().Complete(reinterpret_cast<QuerySampleResponse*>(responses), count, callback, client);
}

uint64_t jlg_bridge_first_token(jlg_query_sample_response* responses, uint64_t count) {
  return Bridge::Get().FirstToken(reinterpret_cast<QuerySampleResponse*>(responses), count);
}

uint64_t jlg_bridge_first_token_one(uint64_t id, uint64_t data, uint64_t size) {
  QuerySampleResponse response(id, data, size);
  return Bridge::Get().FirstToken(&response, 1);
}

int32_t jlg_bridge_fail(const char* reason) {
  return Bridge::Get().Fail(reason == nullptr ? "(no reason given)" : reason) ? 1 : 0;
}

void jlg_bridge_register_issue_thread(void) { mlperf::RegisterIssueQueryThread(); }

void jlg_bridge_progress_read(jlg_bridge_progress* out) { Bridge::Get().Progress(out); }

}  // extern "C"
