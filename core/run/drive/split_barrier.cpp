#include "core/run/drive/split_barrier.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <thread>
#include <vector>

#include "core/files/confined_write.h"
#include "core/files/regular_file.h"
#include "core/net/steady_clock.h"

namespace lb::run {
namespace {

constexpr int64_t kPollNs = 10'000'000;

int64_t wall_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// FNV-1a as hex: a file name of plain characters for any key.
std::string hex_name(const std::string& key) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : key) h = (h ^ ch) * 1099511628211ULL;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = kDigits[h & 15];
  return out;
}

// Only plain characters of TAG reach the file name.
std::string plain(const std::string& tag) {
  std::string out;
  for (char c : tag)
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')
      out.push_back(c);
  return out.empty() ? "run" : out.substr(0, 64);
}

}  // namespace

SplitBarrier::SplitBarrier(std::string root, std::string tag, int64_t client, int64_t clients,
                           double timeout_s)
    : root_(std::move(root)),
      tag_(plain(tag)),
      client_(client),
      clients_(clients),
      timeout_ns_(static_cast<int64_t>(timeout_s * 1e9)) {}

std::optional<int64_t> SplitBarrier::read_arrival(const std::string& relative) const {
  std::string error;
  const auto text = files::read_regular_file(root_ + "/" + relative, 64, &error);
  if (!text) return std::nullopt;
  int64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [at, ec] = std::from_chars(text->data(), end, value);
  if (ec != std::errc() || at != end || value <= 0) return std::nullopt;
  return value;
}

bool SplitBarrier::any_marked(const std::string& dir, const char* mark) const {
  std::string error;
  for (int64_t k = 0; k < clients_; ++k)
    if (files::read_regular_file(root_ + "/" + dir + "/" + std::to_string(k) + mark, 64, &error))
      return true;
  return false;
}

std::optional<int64_t> SplitBarrier::meet(const std::string& key, const std::atomic<bool>& stop,
                                          std::string* why) {
  if (failed_) {
    *why = "the split lane's clients did not meet at an earlier phase, so they are not in step";
    return std::nullopt;
  }
  // Numbered: a phase name that comes twice (a level listed twice) is two meetings.
  const std::string dir =
      ".lanebench-split/" + tag_ + "/" + hex_name(key + "\n" + std::to_string(meetings_++));
  failed_ = true;  // until this meeting succeeds
  if (any_marked(dir, ".met")) {
    *why =
        "the lane's other clients already met at this phase without this one (a client run "
        "again needs its lane's clients run again, in a fresh --split-sync folder)";
    return std::nullopt;
  }
  const int64_t arrived = wall_now_ns();
  std::string error;
  if (!files::write_confined(root_, dir + "/" + std::to_string(client_), std::to_string(arrived),
                             &error)) {
    *why = "the split lane's clients meet in " + root_ + ", which cannot be written: " + error;
    return std::nullopt;
  }
  const int64_t waited_from = steady_now_ns();
  while (!stop.load()) {
    // A client that gave up waiting is not coming: starting without it would not be together.
    if (any_marked(dir, ".gone")) {
      *why = "a client of the split lane gave up waiting for the others at this phase";
      return std::nullopt;
    }
    int64_t last = arrived;
    std::vector<int64_t> absent;
    for (int64_t k = 0; k < clients_; ++k) {
      const auto at = read_arrival(dir + "/" + std::to_string(k));
      // An arrival older than the wait is another attempt's, left behind: not this meeting.
      if (!at || *at < arrived - timeout_ns_)
        absent.push_back(k);
      else
        last = std::max(last, *at);
    }
    if (absent.empty()) {
      const int64_t ahead_ns = last - wall_now_ns();
      if (ahead_ns > kMaxAheadNs) {
        *why = "a client's clock is " + std::to_string(ahead_ns / 1'000'000) +
               " ms ahead of this one's; the clients' clocks must agree within a second";
        return std::nullopt;
      }
      (void)files::write_confined(root_, dir + "/" + std::to_string(client_) + ".met", "1", &error);
      failed_ = false;
      return steady_now_ns() + (last + kLeadNs - wall_now_ns());
    }
    if (steady_now_ns() - waited_from > timeout_ns_) {
      (void)files::write_confined(root_, dir + "/" + std::to_string(client_) + ".gone", "1",
                                  &error);
      std::string names;
      for (int64_t k : absent) names += (names.empty() ? "" : ", ") + std::to_string(k);
      *why = "client" + std::string(absent.size() > 1 ? "s " : " ") + names +
             " of the split lane's " + std::to_string(clients_) + " did not arrive within " +
             std::to_string(timeout_ns_ / 1'000'000'000) + " s (split.sync_timeout_s)";
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::nanoseconds(kPollNs));
  }
  *why = "stopped while waiting for the split lane's other clients";
  return std::nullopt;
}

}  // namespace lb::run
