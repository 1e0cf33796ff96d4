#include "core/record/determinism_floor.h"

#include <tuple>

#include "core/record/json_member.h"
#include "core/record/json_number.h"

namespace lb::record {
namespace {

using nlohmann::json;

constexpr const char* kIntervalMethod = "Wilson score, 95 %";

FlipRate read_rate(const nlohmann::json& object) {
  FlipRate r;
  r.prompts_compared = member_number(object, "prompts_compared");
  r.flips = member_number(object, "flips");
  r.rate = member_number(object, "flip_rate");
  if (const auto ci = member_pair(object, "flip_rate_interval")) std::tie(r.lo, r.hi) = *ci;
  return r;
}

FlipRecord read_flip(const nlohmann::json& flip) {
  const nlohmann::json& d = member(flip, "divergence");
  FlipRecord f;
  f.prompt_id = member_text(flip, "id");
  f.index = member_number(flip, "index");
  f.unique_outputs = member_number(flip, "unique_outputs");
  f.char_offset = member_number(d, "char_offset");
  f.reason = member_text(d, "reason");
  f.token_index = member_number(d, "token_index");
  f.reference_token = member_text(d, "reference_token");
  f.other_token = member_text(d, "other_token");
  f.margin_nats = member_number(d, "margin_nats");
  f.divergence_class = member_text(d, "class");
  return f;
}

FloorCheck read_check(const std::string& name, const nlohmann::json& check) {
  FloorCheck c;
  c.name = name;
  c.counted = check.contains("flips");
  c.rate = read_rate(check);
  c.passes = member_number(check, "passes");
  c.concurrency = member_number(check, "concurrency");
  c.streams = member_number(check, "streams");
  c.reference_concurrency = member_number(check, "reference_concurrency");
  c.reset_endpoint = member_text(check, "reset_endpoint");
  c.cache_reset_before_each = member_optional_flag(check, "cache_reset_before_each");
  if (const json& b = member(check, "background"); b.is_object())
    c.background = BackgroundLoadRecord{member_number(b, "streams"), member_number(b, "max_tokens"),
                                        member_number(b, "completed"), member_number(b, "failed")};
  if (check.contains("warm_cached_tokens") || check.contains("cold_cached_tokens"))
    c.cached_tokens = CachedTokensRecord{member_number(check, "cold_cached_tokens"),
                                         member_number(check, "warm_cached_tokens")};
  c.status = member_text(check, "status");
  c.note = member_text(check, "note");
  if (const json& failed = member(check, "failed_prompts"); failed.is_array())
    for (const json& f : failed)
      if (f.is_object())
        c.failed_prompts.push_back({member_number(f, "index"), member_text(f, "id")});
  const nlohmann::json& flipped = member(check, "flipped");
  if (flipped.is_array())
    for (const nlohmann::json& flip : flipped)
      if (flip.is_object()) c.flipped.push_back(read_flip(flip));
  return c;
}

}  // namespace

const std::vector<std::string>& floor_check_names() {
  static const std::vector<std::string> kNames = {"repeatability", "batch", "decode_load", "cache"};
  return kNames;
}

std::optional<DeterminismFloor> read_determinism_floor(const nlohmann::json& floor) {
  if (!floor.is_object()) return std::nullopt;
  DeterminismFloor out;
  out.lane = member_text(floor, "lane");
  for (const std::string& name : floor_check_names()) {
    const nlohmann::json& check = member(floor, name.c_str());
    if (check.is_object()) out.checks.push_back(read_check(name, check));
  }
  const nlohmann::json& combined = member(floor, "floor");
  out.floor = read_rate(combined);
  const nlohmann::json& counts = member(combined, "checks");
  if (counts.is_array())
    for (const nlohmann::json& c : counts)
      if (c.is_string()) out.counts.push_back(c.get<std::string>());
  if (const json& flipped = member(combined, "flipped_prompts"); flipped.is_array())
    for (const json& i : flipped)
      if (i.is_number()) out.flipped_prompts.push_back(i.get<double>());
  out.answers_file = member_text(floor, "answers_file");
  return out;
}

json to_json(const FlipRate& r) {
  return {{"flips", count_or_null(r.flips)},
          {"prompts_compared", count_or_null(r.prompts_compared)},
          {"flip_rate", number_or_null(r.rate)},
          {"flip_rate_interval", r.interval_known() ? json({r.lo, r.hi}) : json(nullptr)},
          {"interval_method", kIntervalMethod}};
}

json to_json(const FlipRecord& f) {
  json d = {{"class", f.divergence_class}, {"reason", f.reason}};
  if (std::isfinite(f.token_index)) d["token_index"] = count_or_null(f.token_index);
  d["char_offset"] = count_or_null(f.char_offset);
  d["reference_token"] = f.reference_token;
  d["other_token"] = f.other_token;
  d["margin_nats"] = number_or_null(f.margin_nats);
  return {{"index", count_or_null(f.index)},
          {"id", f.prompt_id},
          {"unique_outputs", count_or_null(f.unique_outputs)},
          {"divergence", std::move(d)}};
}

json to_json(const FloorCheck& c) {
  json j = c.counted ? to_json(c.rate) : json::object();
  if (c.counted) {
    json failed = json::array();
    for (const PromptRef& f : c.failed_prompts)
      failed.push_back({{"index", count_or_null(f.index)}, {"id", f.id}});
    json flipped = json::array();
    for (const FlipRecord& f : c.flipped) flipped.push_back(to_json(f));
    j["failed_prompts"] = std::move(failed);
    j["flipped"] = std::move(flipped);
  }
  if (!c.status.empty()) j["status"] = c.status;
  if (!c.note.empty()) j["note"] = c.note;
  if (std::isfinite(c.passes)) j["passes"] = count_or_null(c.passes);
  if (std::isfinite(c.concurrency)) j["concurrency"] = count_or_null(c.concurrency);
  if (std::isfinite(c.reference_concurrency))
    j["reference_concurrency"] = count_or_null(c.reference_concurrency);
  if (std::isfinite(c.streams)) j["streams"] = count_or_null(c.streams);
  if (c.cache_reset_before_each) j["cache_reset_before_each"] = *c.cache_reset_before_each;
  if (const auto& b = c.background)
    j["background"] = {{"streams", count_or_null(b->streams)},
                       {"max_tokens", count_or_null(b->max_tokens)},
                       {"completed", count_or_null(b->completed)},
                       {"failed", count_or_null(b->failed)}};
  if (c.cached_tokens) {
    j["cold_cached_tokens"] = number_or_null(c.cached_tokens->cold);
    j["warm_cached_tokens"] = number_or_null(c.cached_tokens->warm);
  }
  if (c.cached_tokens || !c.reset_endpoint.empty()) j["reset_endpoint"] = c.reset_endpoint;
  return j;
}

json to_json(const DeterminismFloor& f) {
  json j = json::object();
  for (const FloorCheck& c : f.checks) j[c.name] = to_json(c);
  json combined = to_json(f.floor);
  combined["checks"] = f.counts;
  json flipped = json::array();
  for (double i : f.flipped_prompts) flipped.push_back(count_or_null(i));
  combined["flipped_prompts"] = std::move(flipped);
  j["floor"] = std::move(combined);
  if (!f.answers_file.empty()) j["answers_file"] = f.answers_file;
  if (!f.lane.empty()) j["lane"] = f.lane;
  return j;
}

}  // namespace lb::record
