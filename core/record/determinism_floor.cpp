#include "core/record/determinism_floor.h"

#include <tuple>

#include "core/record/json_member.h"

namespace lb::record {
namespace {

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
  c.reset_endpoint = member_text(check, "reset_endpoint");
  c.status = member_text(check, "status");
  c.note = member_text(check, "note");
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
  return out;
}

}  // namespace lb::record
