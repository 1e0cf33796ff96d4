// The report's determinism floor (core/run/experiments/determinism_experiment.h): per lane and
// check, how many prompts' greedy answers changed on their own, the rate with its 95 % Wilson
// interval, and every flip's first divergent token with the reference pass's margin there.
#include "core/report/json_access.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

using nlohmann::json;

constexpr size_t kMaxFlipRows = 60;
constexpr const char* kChecks[] = {"repeatability", "batch", "decode_load", "cache"};

std::string floor_percent(double share) { return format_number(100 * share, 1) + " %"; }

std::string rate_text(const json& check) {
  const json& rate = json_at(check, {"flip_rate"});
  if (!rate.is_number()) return "n/a";
  std::string out = floor_percent(rate.get<double>());
  const json& ci = json_at(check, {"flip_rate_interval"});
  if (ci.is_array() && ci.size() == 2 && ci[0].is_number() && ci[1].is_number())
    out +=
        " [" + floor_percent(ci[0].get<double>()) + ", " + floor_percent(ci[1].get<double>()) + "]";
  return out;
}

std::string how_run(const std::string& name, const json& check) {
  if (name == "repeatability")
    return format_number(number_at(check, {"passes"}), 0) + " passes at concurrency 1";
  if (name == "batch")
    return "concurrency " + format_number(number_at(check, {"concurrency"}), 0) + " vs 1";
  if (name == "decode_load")
    return "alone among " + format_number(number_at(check, {"streams"}), 0) +
           " decoding streams vs alone";
  return "warm vs cold (" + string_at(check, {"reset_endpoint"}) + ")";
}

std::string status_text(const json& check) {
  std::string status = string_at(check, {"status"});
  const std::string note = string_at(check, {"note"});
  return note.empty() ? status : status + ": " + note;
}

void add_lane_rows(ReportTable& t, const std::string& lane, const json& floor) {
  for (const char* name : kChecks) {
    const json& check = json_at(floor, {name});
    if (!check.is_object()) continue;
    const bool counted = check.contains("flips");
    t.rows.push_back({lane, name, counted ? how_run(name, check) : "–",
                      counted ? format_number(number_at(check, {"prompts_compared"}), 0) : "–",
                      counted ? format_number(number_at(check, {"flips"}), 0) : "–",
                      counted ? rate_text(check) : "–", status_text(check)});
  }
  const json& f = json_at(floor, {"floor"});
  std::string checks;
  for (const json& c : json_at(f, {"checks"}))
    if (c.is_string()) checks += (checks.empty() ? "" : ", ") + c.get<std::string>();
  t.rows.push_back({lane, "floor (any check)", checks.empty() ? "–" : checks,
                    format_number(number_at(f, {"prompts_compared"}), 0),
                    format_number(number_at(f, {"flips"}), 0), rate_text(f), ""});
}

// A token quoted; the end of an answer (a lane stopped there) said in words.
std::string token_text(const std::string& token) {
  return token.empty() ? "(end of answer)" : "“" + token + "”";
}

void add_flip_rows(ReportTable& t, const std::string& lane, const json& floor, size_t& left_out) {
  for (const char* name : kChecks) {
    for (const json& flip : json_at(floor, {name, "flipped"})) {
      if (t.rows.size() >= kMaxFlipRows) {
        ++left_out;
        continue;
      }
      const json& d = json_at(flip, {"divergence"});
      const json& margin = json_at(d, {"margin_nats"});
      t.rows.push_back({lane, name, string_at(flip, {"id"}),
                        format_number(number_at(d, {"token_index"}), 0),
                        token_text(string_at(d, {"reference_token"})) + " → " +
                            token_text(string_at(d, {"other_token"})),
                        margin.is_number() ? format_number(margin.get<double>(), 3) : "n/a",
                        string_at(d, {"class"})});
    }
  }
}

}  // namespace

std::vector<ReportTable> determinism_tables(const RunFolder& folder) {
  ReportTable floor_table{
      "Determinism floor",
      {"lane", "check", "passes", "prompts", "flips", "flip rate [95 %]", "status"},
      {},
      "How often each lane's greedy answers changed on their own: repeated alone and cold, in a "
      "batch, and warm against cold prefix cache. A candidate's differences from the baseline "
      "are judged against this floor (Wilson intervals). A cache check whose warm pass reused no "
      "more "
      "cached tokens than its cold pass is left out (vacuous); one on a lane without the counter "
      "is counted but marked unverified."};
  ReportTable flips{"Determinism flips",
                    {"lane", "check", "prompt", "first divergent token", "reference → other",
                     "margin (nats)", "class"},
                    {},
                    "Where each flipped prompt's answer first parted from the reference pass, "
                    "and the reference's top-1 minus top-2 logprob there."};
  size_t left_out = 0;
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Determinism)) {
    const json& lanes = json_at(*e, {"lanes"});
    if (!lanes.is_object()) continue;
    for (const auto& [lane, section] : lanes.items()) {
      const json& floor = json_at(section, {"determinism"});
      if (!floor.is_object()) continue;
      add_lane_rows(floor_table, lane, floor);
      add_flip_rows(flips, lane, floor, left_out);
    }
  }
  if (left_out > 0)
    flips.note += " " + std::to_string(left_out) + " more flips are in summary.json.";
  ReportTable verdicts{
      "Candidates against the baseline's floor",
      {"baseline", "candidate", "answers differing", "baseline floor", "p", "verdict"},
      {},
      "A candidate's answers that differ from the baseline's, against the "
      "baseline's answers that differ from themselves (the regression's "
      "\"floor\" option). Above the floor: the candidate differs more often "
      "than the baseline's own non-determinism explains (one-sided Fisher exact "
      "test, p < 0.05); within it, the test found no such excess, which with few "
      "prompts is weak evidence that there is none."};
  for (const json* e : folder.experiments_of_kind(record::ExperimentKind::Regression)) {
    const json& floor = json_at(*e, {"floor"});
    if (!floor.is_object()) continue;
    add_lane_rows(floor_table, string_at(floor, {"lane"}) + " (regression baseline)", floor);
    add_flip_rows(flips, string_at(floor, {"lane"}), floor, left_out);
    for (const json& c : json_at(*e, {"comparisons"})) {
      const json& v = json_at(c, {"floor_verdict"});
      if (!v.is_object()) continue;
      verdicts.rows.push_back({string_at(c, {"baseline"}), string_at(c, {"candidate"}),
                               format_number(number_at(v, {"differing"}), 0) + " of " +
                                   format_number(number_at(v, {"compared"}), 0),
                               format_number(number_at(v, {"floor_flips"}), 0) + " of " +
                                   format_number(number_at(v, {"floor_compared"}), 0),
                               format_number(number_at(v, {"p_value"}), 4),
                               string_at(v, {"verdict"})});
    }
  }
  std::vector<ReportTable> out;
  if (!verdicts.rows.empty()) out.push_back(std::move(verdicts));
  if (!floor_table.rows.empty()) out.push_back(std::move(floor_table));
  if (!flips.rows.empty()) out.push_back(std::move(flips));
  return out;
}

}  // namespace lb::report
