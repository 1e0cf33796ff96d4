// A merged run's regression: the shards ran one lane each and left its answers; the pairs are
// judged here, from those files, exactly as RegressionExperiment::run judges them in one process.
#include <algorithm>
#include <stdexcept>

#include "core/net/stream_client.h"
#include "core/record/json_object_file.h"
#include "core/record/run_folder_writer.h"
#include "core/run/experiments/regression_experiment.h"
#include "core/run/lanes/tokenizer_match.h"

namespace lb::run {
namespace {

using json = nlohmann::json;

// One lane's answers as its shard recorded them; nullopt (with *why) when they cannot be read.
std::optional<LaneTexts> read_lane_texts(const std::string& run_dir, const std::string& lane,
                                         const json& lane_section, const plan::PromptSet& set,
                                         int top_k, std::string* why) {
  const size_t n = set.prompts.size();
  std::string error;
  const auto text = record::read_run_file(run_dir, "texts/" + lane + ".texts.json", &error);
  const json texts = text ? json::parse(*text, nullptr, false) : json();
  if (!texts.is_array() || texts.size() != n) {
    *why = "texts/" + lane + ".texts.json: " +
           (!text ? (error.empty() ? "missing" : error)
                  : "not a list of " + std::to_string(n) + " answers");
    return std::nullopt;
  }
  LaneTexts out;
  out.texts.assign(n, std::string());
  out.errors.assign(n, std::string());
  out.media_refused.assign(n, false);
  for (size_t i = 0; i < n; ++i)
    if (texts[i].is_string()) out.texts[i] = texts[i].get<std::string>();
  for (const json& e : lane_section.value("prompt_errors", json::array())) {
    if (!e.is_object() || !e.contains("index") || !e["index"].is_number_unsigned()) continue;
    const auto i = e["index"].get<size_t>();
    if (i < n && e.contains("error") && e["error"].is_string())
      out.errors[i] = e["error"].get<std::string>();
  }
  for (const json& i : lane_section.value("media_refused", json::array()))
    if (i.is_number_unsigned() && i.get<size_t>() < n) out.media_refused[i.get<size_t>()] = true;
  if (top_k > 0 && lane_section.contains("logprobs")) {
    const auto lines = record::read_run_file(run_dir, "logprobs/" + lane + ".jsonl", &error);
    if (lines) out.logprobs = logprobs::parse_lines(*lines, error);
    if (out.logprobs.size() != n) out.logprobs.clear();
  }
  if (const auto baseline = record::read_load_baseline(lane_section.value("load_baseline", json())))
    out.batch_variant = batch_variant_prompts(*baseline, set);
  return out;
}

// Keeps the warnings of a judgement that runs without a live run to report to.
class NoteSink : public RunSink {
 public:
  explicit NoteSink(std::vector<std::string>& notes) : notes_(notes) {}
  void on_request_done(const metrics::RequestRecord&) override {}
  void on_progress(const RunProgress&) override {}
  void on_message(MessageLevel level, const std::string& text) override {
    if (level != MessageLevel::Info) notes_.push_back(text);
  }

 private:
  std::vector<std::string>& notes_;
};

}  // namespace

std::vector<std::string> judge_merged_regression(const plan::Plan& plan,
                                                 const plan::Experiment& spec,
                                                 const std::string& run_dir,
                                                 nlohmann::json& section,
                                                 std::vector<std::string>& notes) {
  std::vector<LaneRuntime> runtimes;
  for (const auto& lane : plan.lanes)
    if (spec.runs_on(lane.id)) runtimes.push_back(LaneRuntime{lane, {}, {}, nullptr, {}});
  std::vector<LaneRuntime*> lanes;
  for (auto& r : runtimes) lanes.push_back(&r);
  net::StreamClient client;
  NoteSink sink(notes);
  record::RunFolderWriter writer(run_dir);
  if (!writer.ok()) {
    notes.push_back(writer.open_error());
    return {};
  }
  const std::atomic<bool> stop{false};
  ExperimentContext ctx(client, sink, writer, stop, spec, lanes, section);
  triage_merged_regression(ctx, run_dir);
  writer.flush();
  for (const std::string& e : writer.take_errors()) notes.push_back(e);
  return ctx.blockers();
}

void triage_merged_regression(ExperimentContext& ctx, const std::string& run_dir) {
  const auto& p = std::get<plan::RegressionExperiment>(ctx.spec().params);
  auto loaded = plan::load_prompt_set(p.prompts);
  if (!loaded.ok()) {
    ctx.warn("regression: cannot load prompt set " + p.prompts + " to judge the shards' answers");
    ctx.section()["error"] = "cannot load prompt set " + p.prompts;
    return;
  }
  const plan::PromptSet& set = *loaded.set;
  const int top_k = static_cast<int>(p.logprobs);
  const json lanes = ctx.section().value("lanes", json::object());
  std::vector<std::pair<std::string, LaneTexts>> lane_texts;
  std::vector<TokenizerProbe> probes;
  for (const LaneRuntime* lane : ctx.lanes()) {
    const std::string& id = lane->plan.id;
    if (!lanes.contains(id) || !lanes[id].is_object()) continue;
    std::string why;
    auto texts = read_lane_texts(run_dir, id, lanes[id], set, top_k, &why);
    if (!texts) {
      ctx.warn("regression: lane " + id + " is left out of the review: " + why);
      continue;
    }
    lane_texts.emplace_back(id, std::move(*texts));
    probes.push_back(tokenizer_probe_from(lanes[id].value("tokenizer_probe", json())));
  }
  if (lane_texts.size() < 2) return;
  if (ctx.lanes().empty() || lane_texts.front().first != ctx.lanes().front()->plan.id) {
    ctx.warn("regression: the baseline's answers are missing; no pair is judged");
    return;
  }
  std::vector<TokenizerMatch> tokenizers;
  for (size_t i = 1; top_k > 0 && i < lane_texts.size(); ++i)
    tokenizers.push_back(
        match_tokenizers(lane_texts[0].first, probes[0], lane_texts[i].first, probes[i]));
  if (p.cross_score && top_k > 0)
    ctx.section()["cross_score"] =
        "not run: the lanes ran in different shards, and cross-scoring asks both lanes' servers";
  std::vector<record::PairOutcome> outcomes =
      triage_lane_pairs(ctx, set, lane_texts, p.similarity_threshold, p.near_tie_margin_nats, top_k,
                        nullptr, tokenizers.empty() ? nullptr : &tokenizers);
  // The floor the baseline's shard measured; a floor that does not read as one refuses the merge
  // as any damaged shard file does.
  const json floor_json = ctx.section().value("floor", json());
  if (floor_json.is_null()) return;
  const auto floor = record::read_determinism_floor(floor_json);
  if (!floor) throw std::runtime_error("the regression's floor is not an object");
  judge_regression_floor(ctx, *floor, outcomes);
}

}  // namespace lb::run
