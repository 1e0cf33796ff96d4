#include "core/run/experiments/determinism_experiment.h"

#include <cmath>
#include <cstdio>
#include <utility>
#include <variant>

#include "core/net/secret_text.h"
#include "core/plan/prompt_set.h"
#include "core/run/experiments/decode_load.h"
#include "core/run/experiments/determinism_checks.h"
#include "core/run/experiments/pass_counters.h"
#include "core/run/lanes/prefix_cache_reset.h"

namespace lb::run {
namespace {

// One lane's passes and checks.
class LaneFloor {
 public:
  LaneFloor(ExperimentContext& ctx, LaneRuntime& lane, const plan::DeterminismExperiment& p,
            const plan::PromptSet& set, std::string answers_file)
      : ctx_(ctx), lane_(lane), p_(p), set_(set), answers_file_(std::move(answers_file)) {}

  record::DeterminismFloor run() {
    thresholds_.near_tie_margin_nats = p_.near_tie_margin_nats;
    thresholds_.top_k = static_cast<int>(p_.logprobs);
    std::vector<record::FloorCheck> checks;
    checks.push_back(repeatability());
    if (p_.batch_concurrency > 0 && !ctx_.stopped()) checks.push_back(batch());
    if (p_.decode_load_streams > 0 && !ctx_.stopped()) checks.push_back(decode_load());
    if (p_.cache && !ctx_.stopped()) checks.push_back(cache());
    std::vector<const FlipCheck*> counted;
    std::vector<std::string> names;
    for (const auto& [name, check] : counted_) {
      counted.push_back(&check);
      names.push_back(name);
    }
    record::DeterminismFloor out = combined_floor(counted, names);
    out.checks = std::move(checks);
    ctx_.writer().write_json(answers_file_, answers_);
    out.answers_file = answers_file_;
    return out;
  }

 private:
  LaneTexts pass(const std::string& phase, int64_t concurrency) {
    PromptPass pass;
    pass.phase = phase;
    pass.concurrency = concurrency;
    pass.max_tokens = p_.max_tokens;
    pass.top_logprobs = logprobs_refused_ ? 0 : p_.logprobs;
    PhaseOutcome outcome = ctx_.run_phase(prompt_set_phase(ctx_, lane_, set_, pass));
    std::string refused;
    if (pass.top_logprobs > 0 && refused_logprobs(outcome.records, refused)) {
      // Texts still show a flip; only its margin is lost.
      ctx_.warn("determinism: " + lane_.plan.id +
                " refuses logprobs; flips are shown without "
                "their margin");
      logprobs_refused_ = true;
      pass.top_logprobs = 0;
      if (!ctx_.stopped()) outcome = ctx_.run_phase(prompt_set_phase(ctx_, lane_, set_, pass));
    }
    LaneTexts texts = texts_in_prompt_order(outcome.records, set_.prompts.size());
    if (pass.top_logprobs > 0) {
      texts.logprobs =
          logprobs_in_prompt_order(outcome.records, set_, static_cast<int>(p_.logprobs), "");
      // Notes quote server error messages, which may quote the key they refused.
      const std::vector<std::string> keys = {api_key_of(lane_.endpoint)};
      for (auto& l : texts.logprobs) l.note = net::redact_secret_text(std::move(l.note), keys);
    }
    answers_["passes"][phase] = texts.texts;
    return texts;
  }

  // Empties the prefix cache when the server allows it; remembers why not otherwise.
  bool reset() {
    const CacheReset r = reset_prefix_cache(ctx_.client(), lane_.endpoint, lane_.probe.kind);
    if (!r.done && reset_note_.empty())
      reset_note_ = net::redact_secret_text(r.note, {api_key_of(lane_.endpoint)});
    reset_endpoint_ = r.endpoint;
    return r.done;
  }

  static record::FloorCheck stopped(std::string name) {
    record::FloorCheck c;
    c.name = std::move(name);
    c.status = "stopped";
    return c;
  }

  record::FloorCheck repeatability() {
    std::vector<LaneTexts> passes;
    bool all_reset = true;
    for (int64_t k = 1; k <= p_.repeats && !ctx_.stopped(); ++k) {
      if (p_.cache) all_reset = reset() && all_reset;
      passes.push_back(pass("repeat-" + std::to_string(k), 1));
    }
    if (passes.size() < 2 || ctx_.stopped()) return stopped("repeatability");
    std::vector<const LaneTexts*> others;
    for (size_t i = 1; i < passes.size(); ++i) others.push_back(&passes[i]);
    FlipCheck check = compare_passes(set_, passes[0], others, thresholds_);
    record::FloorCheck j = flip_check_record("repeatability", check, set_);
    j.status = "measured";
    j.passes = static_cast<double>(passes.size());
    j.concurrency = 1;
    j.cache_reset_before_each = p_.cache && all_reset;
    if (p_.cache && !all_reset)
      j.note = "passes after the first may have reused the prefix cache: " + reset_note_;
    reference_ = std::move(passes[0]);
    counted_.emplace_back("repeatability", std::move(check));
    return j;
  }

  record::FloorCheck batch() {
    if (p_.cache) reset();
    const std::string phase = "batch-c" + std::to_string(p_.batch_concurrency);
    LaneTexts batched = pass(phase, p_.batch_concurrency);
    if (ctx_.stopped()) return stopped("batch");
    FlipCheck check = compare_passes(set_, reference_, {&batched}, thresholds_);
    record::FloorCheck j = flip_check_record("batch", check, set_);
    j.status = "measured";
    j.concurrency = static_cast<double>(p_.batch_concurrency);
    j.reference_concurrency = 1;
    counted_.emplace_back("batch", std::move(check));
    return j;
  }

  // Each prompt alone among decoding sequences: the batch it meets is long decodes, not its own
  // kind of prompt.
  record::FloorCheck decode_load() {
    if (p_.cache) reset();
    const std::string phase = "decode-load-c" + std::to_string(p_.decode_load_streams);
    LaneTexts loaded;
    record::BackgroundLoadRecord background;
    {
      DecodeLoad load(ctx_, lane_, p_.decode_load_streams,
                      std::max<int64_t>(4 * p_.max_tokens, 1024));
      ctx_.set_energy_not_measured("the lane's GPUs also ran the decode-load background");
      loaded = pass(phase, 1);
      ctx_.set_energy_not_measured("");
      background = load.stop();
    }
    if (ctx_.stopped()) return stopped("decode_load");
    FlipCheck check = compare_passes(set_, reference_, {&loaded}, thresholds_);
    record::FloorCheck j = flip_check_record("decode_load", check, set_);
    j.concurrency = 1;
    j.streams = static_cast<double>(p_.decode_load_streams);
    j.background = background;
    if (!background.loaded()) {
      // Flips are still shown, but nothing says the prompts met a batch.
      j.status = "unverified";
      j.note = "every background request failed: the prompts may have run alone";
      return j;
    }
    j.status = "measured";
    counted_.emplace_back("decode_load", std::move(check));
    return j;
  }

  record::FloorCheck cache() {
    if (!reset()) {
      record::FloorCheck unsupported;
      unsupported.name = "cache";
      unsupported.status = "unsupported";
      unsupported.note = reset_note_;
      return unsupported;
    }
    PassCounters cold_counters(ctx_, lane_);
    LaneTexts cold = pass("cache-cold", 1);
    if (ctx_.stopped()) return stopped("cache");
    const auto cold_delta = cold_counters.finish();
    PassCounters counters(ctx_, lane_);
    LaneTexts warm = pass("cache-warm", 1);
    if (ctx_.stopped()) return stopped("cache");
    const auto delta = counters.finish();
    FlipCheck check = compare_passes(set_, cold, {&warm}, thresholds_);
    record::FloorCheck j = flip_check_record("cache", check, set_);
    j.reset_endpoint = reset_endpoint_;
    const bool counted = delta && delta->prefix_cache_hits.has_value() && cold_delta &&
                         cold_delta->prefix_cache_hits.has_value();
    j.cached_tokens = counted ? record::CachedTokensRecord{*cold_delta->prefix_cache_hits,
                                                           *delta->prefix_cache_hits}
                              : record::CachedTokensRecord{};
    if (!counted) {
      // Flips are still shown, but invariance cannot be claimed: nothing says the cache was hit.
      j.status = "unverified";
      j.note =
          "the lane exposes no prefix-cache hit counter: a warm pass that reused nothing "
          "cannot be told from one that did";
    } else if (*delta->prefix_cache_hits <= *cold_delta->prefix_cache_hits) {
      // A shared template prefix is reused in the cold pass too; only reuse beyond it is the
      // warm pass's own.
      j.status = "vacuous";
      j.note =
          "the warm pass reused no more cached tokens than the cold one (prefix caching off, "
          "or prompts shorter than a cache block), so it says nothing about cache invariance";
    } else {
      j.status = "measured";
    }
    if (j.status != "vacuous") counted_.emplace_back("cache", std::move(check));
    return j;
  }

  ExperimentContext& ctx_;
  LaneRuntime& lane_;
  const plan::DeterminismExperiment& p_;
  const plan::PromptSet& set_;
  std::string answers_file_;
  compare::DivergenceThresholds thresholds_;
  bool logprobs_refused_ = false;
  std::string reset_note_, reset_endpoint_;
  LaneTexts reference_;
  std::vector<std::pair<std::string, FlipCheck>> counted_;
  nlohmann::json answers_ = {{"passes", nlohmann::json::object()}};
};

std::string rate_percent(double rate) {
  if (!std::isfinite(rate)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f %%", rate * 100);
  return text;
}

}  // namespace

record::DeterminismFloor measure_floor(ExperimentContext& ctx, LaneRuntime& lane,
                                       const plan::DeterminismExperiment& p,
                                       const plan::PromptSet& set,
                                       const std::string& answers_file) {
  return LaneFloor(ctx, lane, p, set, answers_file).run();
}

void DeterminismExperiment::run(ExperimentContext& ctx) {
  const auto& p = std::get<plan::DeterminismExperiment>(ctx.spec().params);
  const std::optional<plan::PromptSet> loaded = load_experiment_prompts(ctx, p.prompts);
  if (!loaded) return;
  const plan::PromptSet& set = *loaded;
  for (LaneRuntime* lane : ctx.lanes()) {
    if (ctx.stopped()) break;
    const record::DeterminismFloor floor =
        measure_floor(ctx, *lane, p, set, "determinism/" + lane->plan.id + ".json");
    char counts[64];
    std::snprintf(counts, sizeof counts, "%.0f of %.0f", floor.floor.flips,
                  floor.floor.prompts_compared);
    ctx.info("determinism: " + lane->plan.id + " floor " + counts + " prompts (" +
             rate_percent(floor.floor.rate) + ")");
    ctx.section()["lanes"][lane->plan.id]["determinism"] = record::to_json(floor);
  }
}

}  // namespace lb::run
