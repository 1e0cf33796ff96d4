#include "bigrun_folder.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/compare/review_record.h"
#include "core/metrics/summary.h"
#include "core/plan/plan.h"
#include "core/plan/prompt_set.h"
#include "core/record/run_folder_writer.h"
#include "core/run/experiments/concurrency_sweep.h"
#include "core/run/experiments/experiment.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/run/lanes/environment_info.h"
#include "regression_texts.h"
#include "request_synth.h"

namespace lb::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::array<int64_t, 4> kLevels = {16, 32, 64, 128};
constexpr int64_t kRunStartNs = 1'000'000'000'000;  // steady_clock at the run's start
constexpr double kFailureRate = 0.001;
constexpr size_t kFlushEvery = 4096;    // bounds the writer's queue
constexpr double kReviewedShare = 0.5;  // pairs needing review that the reviewer has settled

class NullSink : public run::RunSink {
 public:
  void on_request_done(const metrics::RequestRecord&) override {}
  void on_progress(const run::RunProgress&) override {}
  void on_message(run::MessageLevel, const std::string&) override {}
};

std::string plan_text(const BigRunShape& shape, const std::string& prompts_path) {
  json lanes = json::array();
  for (const LaneModel& lane : lane_models()) {
    json l = {{"id", lane.id}, {"base_url", "sim:" + lane.id}};
    l["notes"] = {{"spec", lane.acceptance.empty() ? "none" : "mtp:3"}};
    lanes.push_back(l);
  }
  json throughput = {{"kind", "throughput"},
                     {"concurrency", kLevels},
                     {"requests", shape.measured_per_level},
                     {"warmups", shape.warmups_per_level},
                     {"input_tokens", 1024},
                     {"output_tokens", 64}};
  json regression = {{"kind", "regression"}, {"lanes", {"bf16", "fp8"}}, {"prompts", prompts_path}};
  json plan = {{"name", "big-run"},
               {"description", "A long throughput sweep and a regression check"},
               {"lanes", lanes},
               {"experiments", {throughput, regression}}};
  return plan.dump(2);
}

std::string now_iso8601() { return compare::format_iso8601_utc(std::chrono::system_clock::now()); }

// Writes records in finish order, as the load driver hands them to the writer.
class Emitter {
 public:
  Emitter(record::RunFolderWriter& writer, BigRunMade& made) : writer_(writer), made_(made) {}
  void write(std::vector<metrics::RequestRecord>& records) {
    std::stable_sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
      return a.result.t_done_ns < b.result.t_done_ns;
    });
    for (const auto& r : records) {
      made_.failed_requests += r.result.error == net::ErrorKind::None ? 0 : 1;
      made_.events_written += static_cast<int64_t>(r.result.events.size());
      writer_.append_request(r);
      if (++queued_ % kFlushEvery == 0) writer_.flush();
    }
  }

 private:
  record::RunFolderWriter& writer_;
  BigRunMade& made_;
  size_t queued_ = 0;
};

// The summary of one phase as ExperimentContext::run_phase writes it.
json phase_json(const std::vector<metrics::RequestRecord>& measured, int64_t warmups) {
  metrics::LaneSummary summary = metrics::summarize(measured);
  summary.warmups_excluded = warmups;
  json j = metrics::to_json(summary);
  j["interrupted"] = false;
  j["cancelled"] = 0;
  return j;
}

struct RunClock {
  int64_t now_ns = kRunStartNs;
};

// One closed-loop level of one lane: warm-ups, then the measured requests.
run::LevelFigures throughput_level(const LaneModel& lane, int64_t c, const BigRunShape& shape,
                                   RequestSynth& synth, RunClock& clock, Emitter& out,
                                   json& lane_section) {
  const std::string phase = "c" + std::to_string(c);
  std::vector<metrics::RequestRecord> warm, measured;
  for (int stage = 0; stage < 2; ++stage) {
    const bool warmup = stage == 0;
    const int64_t n = warmup ? shape.warmups_per_level : shape.measured_per_level;
    auto& records = warmup ? warm : measured;
    records.reserve(static_cast<size_t>(n));
    ClosedLoop loop(c, clock.now_ns);
    for (int64_t i = 0; i < n; ++i) {
      PhaseRequest request{"throughput", phase, i, warmup, 1024, 64, {}};
      records.push_back(synth.make(lane, request, c, loop.next_send_ns(), kFailureRate));
      loop.finished(records.back().result.t_done_ns);
    }
    clock.now_ns = loop.end_ns();
    out.write(records);
  }
  lane_section["phases"][phase] = phase_json(measured, shape.warmups_per_level);
  lane_section["phase_order"].push_back(phase);
  int64_t errors = 0;
  for (const auto& r : measured) errors += r.result.error == net::ErrorKind::None ? 0 : 1;
  return run::level_figures(c, metrics::summarize(measured), errors, false);
}

json throughput_section(const BigRunShape& shape, RequestSynth& synth, RunClock& clock,
                        Emitter& out) {
  json section = {{"name", "throughput"}, {"kind", "throughput"}, {"started_at", now_iso8601()}};
  for (const LaneModel& lane : lane_models()) {
    json& lane_section = section["lanes"][lane.id];
    lane_section["kv_capacity"] = {{"tokens", nullptr},
                                   {"provenance", "none"},
                                   {"reason", "the server's /metrics exposes no KV cache config"}};
    std::vector<run::LevelFigures> levels;
    for (int64_t c : kLevels)
      levels.push_back(throughput_level(lane, c, shape, synth, clock, out, lane_section));
    lane_section["concurrency_sweep"] = record::to_json(
        run::sweep_record(levels, plan::ConcurrencyDoubling{}.min_gain, "list", std::nullopt));
  }
  section["finished_at"] = now_iso8601();
  section["status"] = "done";
  return section;
}

// Both lanes answer every prompt at concurrency 1; texts, comparison and review.json follow as
// the regression experiment writes them.
json regression_section(const plan::Plan& plan, const plan::PromptSet& set,
                        const RegressionTexts& texts, RequestSynth& synth, RunClock& clock,
                        Emitter& out, record::RunFolderWriter& writer,
                        std::vector<std::string>& blockers) {
  const plan::Experiment& spec = plan.experiments.at(1);
  json section = {{"name", "regression"}, {"kind", "regression"}, {"started_at", now_iso8601()}};
  section["prompt_set"] = set.name;
  section["prompt_count"] = set.prompts.size();
  std::vector<std::pair<std::string, run::LaneTexts>> lane_texts;
  for (const LaneModel& lane : lane_models()) {
    if (std::find(spec.lanes.begin(), spec.lanes.end(), lane.id) == spec.lanes.end()) continue;
    const auto& answers = lane_texts.empty() ? texts.baseline : texts.candidate;
    std::vector<metrics::RequestRecord> records;
    ClosedLoop loop(1, clock.now_ns);
    for (size_t i = 0; i < answers.size(); ++i) {
      PhaseRequest request{"regression", "greedy", static_cast<int64_t>(i),
                           false,        96,       answer_tokens(answers[i]),
                           answers[i]};
      records.push_back(synth.make(lane, request, 1, loop.next_send_ns(), 0.0));
      loop.finished(records.back().result.t_done_ns);
    }
    clock.now_ns = loop.end_ns();
    out.write(records);
    json& lane_section = section["lanes"][lane.id];
    lane_section["phases"]["greedy"] = phase_json(records, 0);
    lane_section["phase_order"].push_back("greedy");
    run::LaneTexts in_order = run::texts_in_prompt_order(records, set.prompts.size());
    writer.write_json("texts/" + lane.id + ".texts.json", in_order.texts);
    lane_section["prompt_errors"] = json::array();
    lane_texts.emplace_back(lane.id, std::move(in_order));
  }
  NullSink sink;
  net::StreamClient client;
  const std::atomic<bool> stop{false};
  const auto& params = std::get<plan::RegressionExperiment>(spec.params);
  run::ExperimentContext ctx(client, sink, writer, stop, spec, {}, section);
  run::triage_lane_pairs(ctx, set, lane_texts, params.similarity_threshold);
  blockers = ctx.blockers();
  section["finished_at"] = now_iso8601();
  section["status"] = "done";
  return section;
}

// A reviewer's verdicts on part of the pairs that need review, saved as the Review page does.
bool add_verdicts(const std::string& review_path, std::string* error) {
  auto record = compare::load_review(review_path, error);
  if (!record) return false;
  std::vector<size_t> required;
  for (size_t i = 0; i < record->pairs.size(); ++i)
    if (record->pairs[i].comparison.review_required()) required.push_back(i);
  const auto settled = static_cast<size_t>(static_cast<double>(required.size()) * kReviewedShare);
  const auto at = std::chrono::system_clock::now();
  for (size_t k = 0; k < settled; ++k) {
    const auto& pair = record->pairs[required[k]].comparison;
    const auto verdict =
        pair.blocker_candidate() ? compare::Verdict::Blocker : compare::Verdict::BenignDrift;
    record->set_verdict(required[k], verdict, "wording only; same facts", at);
  }
  return compare::save_review(*record, review_path, error);
}

std::vector<run::LaneRuntime> lane_runtimes(const plan::Plan& plan) {
  std::vector<run::LaneRuntime> out;
  for (const plan::Lane& lane : plan.lanes) out.push_back(run::LaneRuntime{lane, {}, {}, {}});
  return out;
}

bool write_prompt_set(const fs::path& path, const std::string& text, std::string* error) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (file.good()) return true;
  *error = "cannot write " + path.string();
  return false;
}

}  // namespace

BigRunShape shape_of(const BigRunConfig& config, std::string* error) {
  BigRunShape shape;
  shape.regression_requests = 2 * config.prompts;
  const int64_t per_level =
      (config.requests - shape.regression_requests) / (shape.lanes * shape.levels) -
      shape.warmups_per_level;
  if (config.prompts < 1 || per_level < 1) {
    *error = "--requests must leave at least one request per lane and level after " +
             std::to_string(shape.regression_requests) + " regression requests";
    return shape;
  }
  shape.measured_per_level = per_level;
  return shape;
}

BigRunMade make_big_run(const std::string& dir, const BigRunConfig& config) {
  BigRunMade made;
  const auto t0 = std::chrono::steady_clock::now();
  const BigRunShape shape = shape_of(config, &made.error);
  if (!made.error.empty()) return made;
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    made.error = dir + " exists and is not empty";
    return made;
  }
  const RegressionTexts texts = make_regression_texts(config.prompts, config.seed);
  const fs::path prompts_path = fs::absolute(fs::path(dir) / "prompt-set" / "regression.jsonl");
  if (!write_prompt_set(prompts_path, texts.prompt_set_jsonl, &made.error)) return made;
  const plan::PlanParseResult parsed = plan::parse_plan(plan_text(shape, prompts_path), "plan");
  plan::PromptSetResult set = plan::load_prompt_set(prompts_path.string());
  if (!parsed.ok() || !set.ok()) {
    made.error = parsed.ok() ? set.error_text() : parsed.error_text();
    return made;
  }
  json summary;
  std::vector<std::string> blockers;
  {
    record::RunFolderWriter writer(dir);
    if (!writer.ok()) {
      made.error = writer.open_error();
      return made;
    }
    writer.write_json("plan.json", plan::resolved_plan_json(*parsed.plan));
    writer.write_json("environment.json",
                      run::environment_json(lane_runtimes(*parsed.plan), "lanebench-bench-bigrun"));
    summary["run"] = {{"name", parsed.plan->name}, {"started_at", now_iso8601()}};
    RequestSynth synth(config.seed);
    RunClock clock;
    Emitter out(writer, made);
    summary["experiments"].push_back(throughput_section(shape, synth, clock, out));
    writer.write_json("summary.json", summary);
    summary["experiments"].push_back(
        regression_section(*parsed.plan, *set.set, texts, synth, clock, out, writer, blockers));
    summary["run"]["finished_at"] = now_iso8601();
    summary["run"]["interrupted"] = false;
    summary["run"]["blockers"] = blockers;
    writer.write_json("summary.json", summary);
    writer.flush();
    made.requests_written = writer.requests_written();
    for (const auto& e : writer.take_errors()) made.error += e + "\n";
  }
  if (made.error.empty()) add_verdicts((fs::path(dir) / "review.json").string(), &made.error);
  made.ok = made.error.empty() && made.requests_written == shape.total_requests();
  if (made.ok == false && made.error.empty())
    made.error = "wrote " + std::to_string(made.requests_written) + " requests, expected " +
                 std::to_string(shape.total_requests());
  made.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return made;
}

}  // namespace lb::bench
