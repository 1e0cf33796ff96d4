// The report's determinism floor (core/run/experiments/determinism_experiment.h): per lane and
// check, how many prompts' greedy answers changed on their own, the rate with its 95 % Wilson
// interval, and every flip's first divergent token with the reference pass's margin there.
#include <cmath>

#include "core/report/report_model.h"
#include "core/report/run_folder.h"

namespace lb::report {
namespace {

using record::DeterminismFloor;
using record::FlipRate;
using record::FloorCheck;

constexpr size_t kMaxFlipRows = 60;

std::string floor_percent(double share) { return format_number(100 * share, 1) + " %"; }

std::string rate_text(const FlipRate& rate) {
  if (!std::isfinite(rate.rate)) return "n/a";
  std::string out = floor_percent(rate.rate);
  if (rate.interval_known())
    out += " [" + floor_percent(rate.lo) + ", " + floor_percent(rate.hi) + "]";
  return out;
}

std::string how_run(const FloorCheck& check) {
  if (check.name == "repeatability")
    return format_number(check.passes, 0) + " passes at concurrency 1";
  if (check.name == "batch") return "concurrency " + format_number(check.concurrency, 0) + " vs 1";
  if (check.name == "decode_load")
    return "alone among " + format_number(check.streams, 0) + " decoding streams vs alone";
  return "warm vs cold (" + check.reset_endpoint + ")";
}

std::string status_text(const FloorCheck& check) {
  return check.note.empty() ? check.status : check.status + ": " + check.note;
}

void add_lane_rows(ReportTable& t, const std::string& lane, const DeterminismFloor& floor) {
  for (const FloorCheck& check : floor.checks) {
    const bool counted = check.counted;
    t.rows.push_back({lane, check.name, counted ? how_run(check) : "–",
                      counted ? format_number(check.rate.prompts_compared, 0) : "–",
                      counted ? format_number(check.rate.flips, 0) : "–",
                      counted ? rate_text(check.rate) : "–", status_text(check)});
  }
  std::string checks;
  for (const std::string& c : floor.counts) checks += (checks.empty() ? "" : ", ") + c;
  t.rows.push_back({lane, "floor (any check)", checks.empty() ? "–" : checks,
                    format_number(floor.floor.prompts_compared, 0),
                    format_number(floor.floor.flips, 0), rate_text(floor.floor), ""});
}

// A token quoted; the end of an answer (a lane stopped there) said in words.
std::string token_text(const std::string& token) {
  return token.empty() ? "(end of answer)" : "“" + token + "”";
}

void add_flip_rows(ReportTable& t, const std::string& lane, const DeterminismFloor& floor,
                   size_t& left_out) {
  for (const FloorCheck& check : floor.checks) {
    for (const record::FlipRecord& flip : check.flipped) {
      if (t.rows.size() >= kMaxFlipRows) {
        ++left_out;
        continue;
      }
      t.rows.push_back(
          {lane, check.name, flip.prompt_id, format_number(flip.token_index, 0),
           token_text(flip.reference_token) + " → " + token_text(flip.other_token),
           std::isfinite(flip.margin_nats) ? format_number(flip.margin_nats, 3) : "n/a",
           flip.divergence_class});
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
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Determinism)) {
    for (const record::LaneRecord& lane : e->lanes) {
      const std::optional<DeterminismFloor> floor = lane.determinism_floor();
      if (!floor) continue;
      add_lane_rows(floor_table, lane.id, *floor);
      add_flip_rows(flips, lane.id, *floor, left_out);
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
  for (const record::ExperimentSection* e :
       folder.record.of_kind(record::ExperimentKind::Regression)) {
    const std::optional<DeterminismFloor> floor = e->determinism_floor();
    if (!floor) continue;
    add_lane_rows(floor_table, floor->lane + " (regression baseline)", *floor);
    add_flip_rows(flips, floor->lane, *floor, left_out);
    for (const record::FloorVerdictRecord& v : e->floor_verdicts())
      verdicts.rows.push_back(
          {v.baseline, v.candidate,
           format_number(v.differing, 0) + " of " + format_number(v.compared, 0),
           format_number(v.floor_flips, 0) + " of " + format_number(v.floor_compared, 0),
           format_number(v.p_value, 4), v.verdict});
  }
  std::vector<ReportTable> out;
  if (!verdicts.rows.empty()) out.push_back(std::move(verdicts));
  if (!floor_table.rows.empty()) out.push_back(std::move(floor_table));
  if (!flips.rows.empty()) out.push_back(std::move(flips));
  return out;
}

}  // namespace lb::report
