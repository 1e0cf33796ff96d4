#include "core/compare/sampled_review.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/compare/fact_check.h"
#include "core/compare/similarity.h"

namespace lb::compare {
namespace {

using nlohmann::json;

struct Pool {
  std::vector<const std::string*> texts;  // A's good samples, then B's
  std::vector<uint32_t> sample;           // each one's index in its lane
  size_t n_a = 0;
};

Pool pool_of(const PromptSamples& a, const PromptSamples& b) {
  Pool pool;
  for (size_t k = 0; k < a.texts.size(); ++k)
    if (a.ok(k)) {
      pool.texts.push_back(&a.texts[k]);
      pool.sample.push_back(static_cast<uint32_t>(k));
    }
  pool.n_a = pool.texts.size();
  for (size_t k = 0; k < b.texts.size(); ++k)
    if (b.ok(k)) {
      pool.texts.push_back(&b.texts[k]);
      pool.sample.push_back(static_cast<uint32_t>(k));
    }
  return pool;
}

std::vector<bool> losses(const PromptSamples& s, const plan::PromptSpec* spec, int64_t& lost,
                         int64_t& total) {
  std::vector<bool> out(s.texts.size(), false);
  lost = total = 0;
  if (spec == nullptr || spec->checks.empty()) return out;
  for (size_t k = 0; k < s.texts.size(); ++k) {
    if (!s.ok(k)) continue;
    ++total;
    for (const auto& r : run_checks(spec->checks, s.texts[k]))
      if (r.status != CheckStatus::Pass) out[k] = true;
    lost += out[k] ? 1 : 0;
  }
  return out;
}

// Everything about one prompt but its q-value and result, which need every prompt's p-value.
SampledPrompt analyse_prompt(size_t index, const PromptSamples& a, const PromptSamples& b,
                             const plan::PromptSpec* spec, const SampledReviewOptions& o) {
  SampledPrompt p;
  p.index = index;
  if (spec) p.prompt_id = spec->id;
  const Pool pool = pool_of(a, b);
  p.samples_a = static_cast<int64_t>(pool.n_a);
  p.samples_b = static_cast<int64_t>(pool.texts.size() - pool.n_a);
  SimilarityMatrix m;
  m.n = pool.texts.size();
  m.values.assign(m.n * m.n, 1.0);
  for (size_t i = 0; i < m.n; ++i)
    for (size_t j = i + 1; j < m.n; ++j) {
      const double r = similarity_ratio(*pool.texts[i], *pool.texts[j]);
      m.values[i * m.n + j] = m.values[j * m.n + i] = r;
      const SamplePair pair{pool.sample[i], pool.sample[j], r};
      if (j < pool.n_a)
        p.within_a.push_back(pair);
      else if (i >= pool.n_a)
        p.within_b.push_back(pair);
      else
        p.cross.push_back(pair);
    }
  if (p.samples_a < 2 || p.samples_b < 2) {
    p.why_untested = "fewer than 2 answered samples on a lane";
  } else {
    // Each prompt its own stream, so a prompt's p-value does not depend on the others.
    p.test = permutation_test(m, pool.n_a, o.permutations, o.seed + 0x9e3779b97f4a7c15ULL * index);
  }
  p.has_checks = spec != nullptr && !spec->checks.empty();
  int64_t lost = 0, total = 0;
  p.lost_a = losses(a, spec, lost, total);
  p.fact_lost_a = wilson_interval(lost, total, o.confidence);
  p.lost_b = losses(b, spec, lost, total);
  p.fact_lost_b = wilson_interval(lost, total, o.confidence);
  return p;
}

json proportion_json(const Proportion& p) {
  return {{"lost", p.count}, {"samples", p.total}, {"rate", p.rate}, {"lo", p.lo}, {"hi", p.hi}};
}

json pairs_json(const std::vector<SamplePair>& pairs) {
  json out = json::array();
  for (const auto& p : pairs) out.push_back({p.i, p.j, p.ratio});
  return out;
}

json prompt_json(const SampledPrompt& p, const SampledComparison& c, bool with_pairs) {
  json j = {{"index", p.index},
            {"id", p.prompt_id},
            {"samples", {{c.lane_a, p.samples_a}, {c.lane_b, p.samples_b}}},
            {"within_a", distribution_summary(p.within_a)},
            {"within_b", distribution_summary(p.within_b)},
            {"cross", distribution_summary(p.cross)},
            {"statistic", p.test.statistic},
            {"p_value", p.test.p_value},
            {"q_value", p.q_value},
            {"result", sampled_result_name(p.result)}};
  if (!p.why_untested.empty()) j["why_untested"] = p.why_untested;
  if (p.has_checks) {
    j["fact_lost"] = {{c.lane_a, proportion_json(p.fact_lost_a)},
                      {c.lane_b, proportion_json(p.fact_lost_b)}};
    j["fact_loss_text"] = fact_loss_text(p, c.lane_a, c.lane_b);
  }
  if (with_pairs) {
    j["pairs"] = {{"within_a", pairs_json(p.within_a)},
                  {"within_b", pairs_json(p.within_b)},
                  {"cross", pairs_json(p.cross)}};
    if (p.has_checks) j["lost_samples"] = {{c.lane_a, p.lost_a}, {c.lane_b, p.lost_b}};
  }
  return j;
}

json comparison_json(const SampledComparison& c, bool with_pairs) {
  json prompts = json::array();
  for (const auto& p : c.prompts) prompts.push_back(prompt_json(p, c, with_pairs));
  return {{"baseline", c.lane_a},
          {"candidate", c.lane_b},
          {"prompt_set", c.prompt_set},
          {"test",
           {{"method", "permutation of sample labels, within minus cross mean similarity"},
            {"permutations", c.options.permutations},
            {"seed", c.options.seed},
            {"correction", "Benjamini-Hochberg"},
            {"fdr", c.options.fdr},
            {"fact_loss_interval", "Wilson score"},
            {"confidence", c.options.confidence}}},
          {"shifted", c.count(SampledResult::Shifted)},
          {"indistinguishable", c.count(SampledResult::Indistinguishable)},
          {"untested", c.count(SampledResult::Untested)},
          {"prompts", std::move(prompts)}};
}

}  // namespace

const char* sampled_result_name(SampledResult r) {
  switch (r) {
    case SampledResult::Indistinguishable:
      return "indistinguishable";
    case SampledResult::Shifted:
      return "shifted";
    case SampledResult::Untested:
      return "untested";
  }
  return "untested";
}

int64_t SampledComparison::count(SampledResult r) const {
  return std::count_if(prompts.begin(), prompts.end(),
                       [r](const SampledPrompt& p) { return p.result == r; });
}

SampledComparison compare_samples(std::string lane_a, std::string lane_b,
                                  const std::vector<PromptSamples>& a,
                                  const std::vector<PromptSamples>& b,
                                  const plan::PromptSet* prompts,
                                  const SampledReviewOptions& options) {
  SampledComparison c;
  c.lane_a = std::move(lane_a);
  c.lane_b = std::move(lane_b);
  c.options = options;
  if (prompts) c.prompt_set = prompts->name;
  const size_t n = std::min(a.size(), b.size());
  c.prompts.resize(n);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) {
      const plan::PromptSpec* spec =
          prompts && i < prompts->prompts.size() ? &prompts->prompts[i] : nullptr;
      c.prompts[i] = analyse_prompt(i, a[i], b[i], spec, options);
    }
  };
  const unsigned threads =
      std::clamp<unsigned>(options.threads ? options.threads : std::thread::hardware_concurrency(),
                           1, static_cast<unsigned>(std::max<size_t>(n, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  std::vector<double> p_values;
  std::vector<size_t> tested;
  for (const auto& p : c.prompts)
    if (p.why_untested.empty()) {
      p_values.push_back(p.test.p_value);
      tested.push_back(p.index);
    }
  const std::vector<double> q = benjamini_hochberg(p_values);
  for (size_t k = 0; k < tested.size(); ++k) {
    SampledPrompt& p = c.prompts[tested[k]];
    p.q_value = q[k];
    p.result = q[k] <= options.fdr ? SampledResult::Shifted : SampledResult::Indistinguishable;
  }
  return c;
}

json distribution_summary(const std::vector<SamplePair>& pairs) {
  if (pairs.empty()) return {{"n", 0}};
  std::vector<double> v;
  v.reserve(pairs.size());
  for (const auto& p : pairs) v.push_back(p.ratio);
  std::sort(v.begin(), v.end());
  auto quantile = [&v](double q) {  // linear interpolation, as numpy.percentile
    const double pos = q * double(v.size() - 1);
    const size_t lo = static_cast<size_t>(pos);
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - double(lo));
  };
  double sum = 0;
  for (double x : v) sum += x;
  return {{"n", v.size()},
          {"min", v.front()},
          {"q1", quantile(0.25)},
          {"median", quantile(0.5)},
          {"q3", quantile(0.75)},
          {"max", v.back()},
          {"mean", sum / double(v.size())}};
}

std::string fact_loss_text(const SampledPrompt& p, const std::string& lane_a,
                           const std::string& lane_b) {
  if (!p.has_checks) return "";
  auto part = [](const Proportion& x, const std::string& lane) {
    return std::to_string(x.count) + "/" + std::to_string(x.total) + " " + lane;
  };
  return "fact lost in " + part(p.fact_lost_b, lane_b) + " samples vs " +
         part(p.fact_lost_a, lane_a);
}

json sampled_to_json(const SampledComparison& c) { return comparison_json(c, true); }
json sampled_summary_json(const SampledComparison& c) { return comparison_json(c, false); }

}  // namespace lb::compare
