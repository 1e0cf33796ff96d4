#include "core/fleet/merged_requests.h"

#include <cmath>

#include "core/files/confined_write.h"
#include "core/files/line_reader.h"
#include "core/fleet/request_line_record.h"
#include "core/text/json_depth.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

constexpr size_t kMaxLineBytes = 64u << 20;  // as the run-folder reader
constexpr int kMaxDepth = 64;  // a request line nests 3 deep; writing deeper values recurses

bool is_stamp(const std::string& key) {
  return key.size() > 5 && key.compare(0, 2, "t_") == 0 &&
         key.compare(key.size() - 3, 3, "_ns") == 0;
}

void keep(std::vector<double>& to, const json& line, const char* key) {
  const auto it = line.find(key);
  if (it == line.end() || !it->is_number()) return;
  const double v = it->get<double>();
  if (std::isfinite(v) && v >= 0) to.push_back(v);
}

bool is_true(const json& line, const char* key) {
  const auto it = line.find(key);
  return it != line.end() && it->is_boolean() && it->get<bool>();
}

void keep_samples(const json& line, MergedRequests& out) {
  if (is_true(line, "warmup") || !is_true(line, "ok")) return;
  const auto name = [&](const char* key) {
    const auto it = line.find(key);
    return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  metrics::RequestSamples& s = out.samples[{name("experiment"), name("lane"), name("phase")}];
  keep(s.ttft_ms, line, "ttft_ms");
  keep(s.tpot_ms, line, "tpot_ms");
  keep(s.e2el_ms, line, "e2el_ms");
  keep(s.decode_tok_s, line, "decode_tok_s");
}

void keep_split_record(const json& line, const std::set<ExperimentLane>& split,
                       MergedRequests& out) {
  auto record = record_from_line(line);
  if (!record || !split.count({record->experiment, record->lane_id})) return;
  PhaseKey key{record->experiment, record->lane_id, record->phase};
  out.split_records[key].push_back(std::move(*record));
}

}  // namespace

int64_t stamp_shift_ns(const ShardFolder& s, const ShardFolder& reference) {
  const auto server_ns = [](const ShardFolder& f) {
    return f.wall_minus_steady_ns - std::llround(f.clock_offset_ms.value_or(0.0) * 1e6);
  };
  return server_ns(s) - server_ns(reference);
}

bool merge_request_lines(const std::vector<ShardFolder>& shards, const std::string& out_dir,
                         const std::set<ExperimentLane>& split, MergedRequests& out,
                         std::string* error) {
  std::string read_error;
  auto produce = [&](const files::PieceWriter& write) {
    for (const ShardFolder& shard : shards) {
      const int64_t shift = stamp_shift_ns(shard, shards.front());
      bool wrote = true;
      auto on_line = [&](std::string_view text) {
        if (!wrote || text.empty()) return;
        json line = text::json_depth_within(text, kMaxDepth)
                        ? json::parse(text, nullptr, /*allow_exceptions=*/false)
                        : json();
        if (!line.is_object()) {
          ++out.unreadable;
          return;
        }
        for (auto& [key, value] : line.items()) {
          // 0 means "never" (a request that was not sent, a failure before its first byte);
          // a stamp that would overflow is left as it is.
          int64_t shifted = 0;
          if (is_stamp(key) && value.is_number_integer() && shift != 0 &&
              value.get<int64_t>() > 0 &&
              !__builtin_add_overflow(value.get<int64_t>(), shift, &shifted))
            value = shifted;
        }
        keep_samples(line, out);
        if (!split.empty()) keep_split_record(line, split, out);
        wrote = write(line.dump(-1, ' ', false, json::error_handler_t::replace) + "\n");
        ++out.lines;
      };
      files::LineCounts counts;
      if (!files::read_lines(shard.dir + "/requests.jsonl", kMaxLineBytes, on_line, &counts,
                             &read_error))
        return false;
      out.unreadable += counts.too_long;
      if (!wrote) return false;
    }
    return true;
  };
  if (files::write_confined_pieces(out_dir, "requests.jsonl", produce, error)) return true;
  if (!read_error.empty()) *error = read_error;
  return false;
}

}  // namespace lb::fleet
