#include "core/compare/review_record.h"
#include "core/compare/json_file.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace lb::compare {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw std::runtime_error(path + ": " + message);
}

const json& require(const json& object, const std::string& key, const std::string& path) {
  if (!object.is_object() || !object.contains(key)) fail(path + "." + key, "required");
  return object.at(key);
}

std::string require_string(const json& object, const std::string& key, const std::string& path) {
  const json& v = require(object, key, path);
  if (!v.is_string()) fail(path + "." + key, "expected a string");
  return v.get<std::string>();
}

double require_number(const json& object, const std::string& key, const std::string& path) {
  const json& v = require(object, key, path);
  if (!v.is_number()) fail(path + "." + key, "expected a number");
  return v.get<double>();
}

json checks_to_json(const std::vector<CheckResult>& checks) {
  json out = json::array();
  for (const auto& c : checks) {
    out.push_back({{"check", c.check_index},
                   {"type", plan::check_type_name(c.type)},
                   {"status", check_status_name(c.status)},
                   {"detail", c.detail}});
  }
  return out;
}

std::vector<CheckResult> checks_from_json(const json& array, const std::string& path) {
  if (!array.is_array()) fail(path, "expected an array");
  std::vector<CheckResult> out;
  for (std::size_t i = 0; i < array.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    CheckResult c;
    c.check_index = static_cast<std::size_t>(require_number(array[i], "check", at));
    auto type = plan::check_type_from_name(require_string(array[i], "type", at));
    if (!type) fail(at + ".type", "unknown check type");
    c.type = *type;
    if (!check_status_from_name(require_string(array[i], "status", at), c.status)) {
      fail(at + ".status", "expected pass, fail or error");
    }
    if (array[i].contains("detail") && array[i]["detail"].is_string()) {
      c.detail = array[i]["detail"].get<std::string>();
    }
    out.push_back(std::move(c));
  }
  return out;
}

json pair_to_json(const PairReview& review) {
  const PairComparison& p = review.comparison;
  json numbers = json::array();
  for (const auto& n : p.triage.changed_numbers) {
    numbers.push_back({{"before", n.before}, {"after", n.after}, {"label", n.label()}});
  }
  json j = {{"index", p.index},
            {"prompt_id", p.prompt_id},
            {"ratio", p.triage.ratio},
            {"triage", triage_name(p.triage.triage)},
            {"labels", p.triage.labels()},
            {"changed_numbers", numbers},
            {"checks_a", checks_to_json(p.checks_a)},
            {"checks_b", checks_to_json(p.checks_b)},
            {"flipped_checks", p.flipped},
            {"review_required", p.review_required()},
            {"verdict", verdict_name(review.verdict)},
            {"note", review.note},
            {"reviewed_at",
             review.reviewed_at ? json(format_iso8601_utc(*review.reviewed_at)) : json(nullptr)}};
  if (!review.batch_variant.empty()) j["batch_variant"] = review.batch_variant;
  if (p.unsupported()) j["unsupported_by"] = p.unsupported_by;
  return j;
}

DifferenceKind difference_from_labels(const json& labels, const std::string& path) {
  if (!labels.is_array()) fail(path, "expected an array");
  for (auto kind : {DifferenceKind::WhitespaceOnly, DifferenceKind::CaseOnly,
                    DifferenceKind::WhitespaceAndCase, DifferenceKind::PunctuationOnly}) {
    for (const auto& l : labels) {
      if (l.is_string() && l.get<std::string>() == difference_kind_name(kind)) return kind;
    }
  }
  return DifferenceKind::None;
}

// An optional array of lane ids; empty when the key is absent.
std::vector<std::string> lane_ids_at(const json& j, const std::string& key, const std::string& at) {
  std::vector<std::string> out;
  if (!j.contains(key)) return out;
  const json& lanes = j[key];
  if (!lanes.is_array()) fail(at + "." + key, "expected an array of lane ids");
  for (const auto& lane : lanes) {
    if (!lane.is_string()) fail(at + "." + key, "expected an array of lane ids");
    out.push_back(lane.get<std::string>());
  }
  return out;
}

PairReview pair_from_json(const json& j, const std::string& at) {
  PairReview review;
  PairComparison& p = review.comparison;
  p.index = static_cast<std::size_t>(require_number(j, "index", at));
  p.prompt_id = require_string(j, "prompt_id", at);
  p.triage.ratio = require_number(j, "ratio", at);
  if (!triage_from_name(require_string(j, "triage", at), p.triage.triage)) {
    fail(at + ".triage", "expected identical, near_identical or divergent");
  }
  if (j.contains("labels"))
    p.triage.difference = difference_from_labels(j["labels"], at + ".labels");
  if (j.contains("changed_numbers") && j["changed_numbers"].is_array()) {
    for (const auto& n : j["changed_numbers"]) {
      p.triage.changed_numbers.push_back(
          {n.value("before", std::string()), n.value("after", std::string())});
    }
  }
  p.checks_a = checks_from_json(require(j, "checks_a", at), at + ".checks_a");
  p.checks_b = checks_from_json(require(j, "checks_b", at), at + ".checks_b");
  p.flipped = flipped_checks(p.checks_a, p.checks_b);
  auto verdict = verdict_from_name(require_string(j, "verdict", at));
  if (!verdict) {
    fail(at + ".verdict",
         "expected unreviewed, identical, benign_drift, material_difference or blocker");
  }
  review.verdict = *verdict;
  if (j.contains("note") && j["note"].is_string()) review.note = j["note"].get<std::string>();
  if (j.contains("reviewed_at") && !j["reviewed_at"].is_null()) {
    if (!j["reviewed_at"].is_string()) fail(at + ".reviewed_at", "expected a string or null");
    review.reviewed_at = parse_iso8601_utc(j["reviewed_at"].get<std::string>());
    if (!review.reviewed_at) fail(at + ".reviewed_at", "expected ISO 8601 UTC time");
  }
  p.unsupported_by = lane_ids_at(j, "unsupported_by", at);
  review.batch_variant = lane_ids_at(j, "batch_variant", at);
  return review;
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::Unreviewed:
      return "unreviewed";
    case Verdict::Identical:
      return "identical";
    case Verdict::BenignDrift:
      return "benign_drift";
    case Verdict::MaterialDifference:
      return "material_difference";
    case Verdict::Blocker:
      return "blocker";
  }
  return "unreviewed";
}

std::optional<Verdict> verdict_from_name(std::string_view name) {
  for (auto v : {Verdict::Unreviewed, Verdict::Identical, Verdict::BenignDrift,
                 Verdict::MaterialDifference, Verdict::Blocker}) {
    if (name == verdict_name(v)) return v;
  }
  return std::nullopt;
}

std::string format_iso8601_utc(SystemTime time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

std::optional<SystemTime> parse_iso8601_utc(std::string_view text) {
  std::tm utc{};
  char zone = 0;
  int consumed = 0;
  const std::string s(text);
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &utc.tm_year, &utc.tm_mon, &utc.tm_mday,
                  &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &zone, &consumed) != 7 ||
      zone != 'Z' || static_cast<std::size_t>(consumed) != s.size()) {
    return std::nullopt;
  }
  // Fields in range, and a year the clock's nanoseconds reach (1970-2261): a file from elsewhere
  // saying year 1000 would otherwise overflow the conversion.
  if (utc.tm_year < 1970 || utc.tm_year > 2261 || utc.tm_mon < 1 || utc.tm_mon > 12 ||
      utc.tm_mday < 1 || utc.tm_mday > 31 || utc.tm_hour < 0 || utc.tm_hour > 23 ||
      utc.tm_min < 0 || utc.tm_min > 59 || utc.tm_sec < 0 || utc.tm_sec > 60)
    return std::nullopt;
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&utc));
}

ReviewOutcome ReviewRecord::outcome() const {
  ReviewOutcome out;
  for (const auto& p : pairs) {
    if (p.verdict == Verdict::Blocker) ++out.blockers;
    if (p.verdict == Verdict::MaterialDifference) ++out.material;
    if (p.verdict == Verdict::Unreviewed && p.comparison.review_required()) {
      ++out.unreviewed_required;
    }
  }
  out.passed = out.blockers == 0 && out.unreviewed_required == 0;
  std::ostringstream s;
  s << (out.passed ? "pass" : "fail") << ": " << out.blockers << " blocker(s), "
    << out.unreviewed_required << " pair(s) awaiting review";
  if (out.material > 0) s << "; " << out.material << " material difference(s)";
  out.summary = s.str();
  return out;
}

bool ReviewRecord::set_verdict(std::size_t index, Verdict verdict, std::string note,
                               SystemTime now) {
  if (index >= pairs.size()) return false;
  pairs[index].verdict = verdict;
  pairs[index].note = std::move(note);
  pairs[index].reviewed_at = now;
  return true;
}

ReviewRecord make_review(std::string lane_a, std::string lane_b, std::string prompt_set,
                         double threshold, std::vector<PairComparison> pairs) {
  ReviewRecord record{std::move(lane_a), std::move(lane_b), std::move(prompt_set), threshold, {}};
  for (auto& p : pairs) {
    PairReview review;
    review.verdict =
        p.triage.triage == TriageClass::Identical ? Verdict::Identical : Verdict::Unreviewed;
    review.comparison = std::move(p);
    record.pairs.push_back(std::move(review));
  }
  return record;
}

void carry_over_verdicts(ReviewRecord& fresh, const ReviewRecord& previous) {
  for (auto& p : fresh.pairs) {
    const auto i = p.comparison.index;
    if (i >= previous.pairs.size()) continue;
    const PairReview& old = previous.pairs[i];
    // Which lane refused the prompt's media is known from the run, not from the texts.
    if (old.comparison.prompt_id == p.comparison.prompt_id)
      p.comparison.unsupported_by = old.comparison.unsupported_by;
    if (old.verdict == Verdict::Unreviewed || old.comparison.prompt_id != p.comparison.prompt_id ||
        old.comparison.triage.triage != p.comparison.triage.triage ||
        old.comparison.triage.ratio != p.comparison.triage.ratio) {
      continue;
    }
    p.verdict = old.verdict;
    p.note = old.note;
    p.reviewed_at = old.reviewed_at;
  }
}

json review_to_json(const ReviewRecord& record) {
  const ReviewOutcome outcome = record.outcome();
  json pairs = json::array();
  for (const auto& p : record.pairs) pairs.push_back(pair_to_json(p));
  return {{"format", ReviewRecord::kFormat},
          {"lane_a", record.lane_a},
          {"lane_b", record.lane_b},
          {"prompt_set", record.prompt_set},
          {"threshold", record.threshold},
          {"outcome",
           {{"passed", outcome.passed},
            {"blockers", outcome.blockers},
            {"unreviewed_required", outcome.unreviewed_required},
            {"summary", outcome.summary}}},
          {"pairs", pairs}};
}

ReviewRecord review_from_json(const json& j) {
  if (!j.is_object()) fail("$", "expected an object");
  if (require_string(j, "format", "$") != ReviewRecord::kFormat) {
    fail("$.format", "expected \"" + std::string(ReviewRecord::kFormat) + "\"");
  }
  ReviewRecord record;
  record.lane_a = require_string(j, "lane_a", "$");
  record.lane_b = require_string(j, "lane_b", "$");
  if (j.contains("prompt_set") && j["prompt_set"].is_string()) record.prompt_set = j["prompt_set"];
  record.threshold = require_number(j, "threshold", "$");
  const json& pairs = require(j, "pairs", "$");
  if (!pairs.is_array()) fail("$.pairs", "expected an array");
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    record.pairs.push_back(pair_from_json(pairs[i], "$.pairs[" + std::to_string(i) + "]"));
  }
  return record;
}

bool save_review(const ReviewRecord& record, const std::string& path, std::string* error) {
  return save_json_file(review_to_json(record), path, error);
}

std::optional<ReviewRecord> load_review(const std::string& path, std::string* error) {
  return load_json_file(path, error, [](const json& j) { return review_from_json(j); });
}

}  // namespace lb::compare
