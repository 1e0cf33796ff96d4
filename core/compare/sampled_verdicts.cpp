#include "core/compare/sampled_verdicts.h"
#include "core/compare/json_file.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace lb::compare {

using nlohmann::json;

SampledReviewOutcome SampledReviewRecord::outcome() const {
  SampledReviewOutcome o;
  for (const auto& p : prompts) {
    o.blockers += p.verdict == Verdict::Blocker ? 1 : 0;
    if (!p.review_required()) continue;
    ++o.shifted;
    o.unreviewed += p.verdict == Verdict::Unreviewed ? 1 : 0;
  }
  return o;
}

bool SampledReviewRecord::set_verdict(size_t index, Verdict verdict, std::string note,
                                      SystemTime now) {
  for (auto& p : prompts) {
    if (p.index != index) continue;
    p.verdict = verdict;
    p.note = std::move(note);
    p.reviewed_at = verdict == Verdict::Unreviewed ? std::nullopt : std::optional(now);
    return true;
  }
  return false;
}

SampledReviewRecord make_sampled_review(const SampledComparison& c) {
  SampledReviewRecord r;
  r.lane_a = c.lane_a;
  r.lane_b = c.lane_b;
  r.prompt_set = c.prompt_set;
  for (const auto& p : c.prompts)
    r.prompts.push_back({p.index, p.prompt_id, sampled_result_name(p.result), Verdict::Unreviewed,
                         "", std::nullopt});
  return r;
}

json sampled_review_to_json(const SampledReviewRecord& r) {
  json prompts = json::array();
  for (const auto& p : r.prompts) {
    json j = {{"index", p.index},
              {"id", p.prompt_id},
              {"result", p.result},
              {"verdict", verdict_name(p.verdict)},
              {"note", p.note}};
    j["reviewed_at"] = p.reviewed_at ? json(format_iso8601_utc(*p.reviewed_at)) : json(nullptr);
    prompts.push_back(std::move(j));
  }
  return {{"format", SampledReviewRecord::kFormat},
          {"baseline", r.lane_a},
          {"candidate", r.lane_b},
          {"prompt_set", r.prompt_set},
          {"prompts", std::move(prompts)}};
}

SampledReviewRecord sampled_review_from_json(const json& j) {
  if (!j.is_object() || j.value("format", "") != SampledReviewRecord::kFormat)
    throw std::runtime_error("format: not " + std::string(SampledReviewRecord::kFormat));
  SampledReviewRecord r;
  try {
    r.lane_a = j.at("baseline").get<std::string>();
    r.lane_b = j.at("candidate").get<std::string>();
    r.prompt_set = j.value("prompt_set", "");
    const json& prompts = j.at("prompts");
    for (size_t i = 0; i < prompts.size(); ++i) {
      const json& p = prompts.at(i);
      SampledVerdict v;
      v.index = p.at("index").get<size_t>();
      v.prompt_id = p.value("id", "");
      v.result = p.at("result").get<std::string>();
      const auto verdict = verdict_from_name(p.at("verdict").get<std::string>());
      if (!verdict) throw std::runtime_error("prompts[" + std::to_string(i) + "].verdict: unknown");
      v.verdict = *verdict;
      v.note = p.value("note", "");
      if (p.contains("reviewed_at") && p["reviewed_at"].is_string())
        v.reviewed_at = parse_iso8601_utc(p["reviewed_at"].get<std::string>());
      r.prompts.push_back(std::move(v));
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(e.what());
  }
  return r;
}

bool save_sampled_review(const SampledReviewRecord& record, const std::string& path,
                         std::string* error) {
  return save_json_file(sampled_review_to_json(record), path, error);
}

std::optional<SampledReviewRecord> load_sampled_review(const std::string& path,
                                                       std::string* error) {
  return load_json_file(path, error, [](const json& j) { return sampled_review_from_json(j); });
}

}  // namespace lb::compare
