#include "core/compare/cross_score.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/logprobs/logprob_lines.h"

namespace lb::compare {
namespace {

using logprobs::TokenLogprob;

constexpr double kFloor = 1e-12;

std::string key_of(const std::string& token, int64_t id, bool by_id) {
  return by_id ? "#" + std::to_string(id) : "b" + token;
}

// token key -> probability, from the token itself and its listed alternatives.
std::map<std::string, double> listed(const TokenLogprob& t, bool by_id) {
  std::map<std::string, double> out;
  for (const auto& a : t.top)
    if (std::isfinite(a.logprob)) out.emplace(key_of(a.token, a.id, by_id), std::exp(a.logprob));
  if (std::isfinite(t.logprob)) out.emplace(key_of(t.token, t.id, by_id), std::exp(t.logprob));
  return out;
}

// One side's probabilities over the union plus the tail bucket (last).
std::vector<double> buckets(const std::map<std::string, double>& own,
                            const std::vector<std::string>& keys) {
  double mass = 0, smallest = 1;
  for (const auto& [k, p] : own) {
    mass += p;
    smallest = std::min(smallest, p);
  }
  double rest = std::max(0.0, 1.0 - mass);
  size_t unlisted = 0;
  for (const auto& k : keys) unlisted += own.count(k) ? 0 : 1;
  const double share = std::min(rest / static_cast<double>(unlisted + 1), smallest);
  std::vector<double> out;
  for (const auto& k : keys) {
    const auto it = own.find(k);
    out.push_back(it != own.end() ? it->second : share);
  }
  out.push_back(rest - share * static_cast<double>(unlisted));
  for (auto& v : out) v = std::max(v, kFloor);
  return out;
}

bool same_token(const TokenLogprob& a, const TokenLogprob& b) {
  return a.id >= 0 && b.id >= 0 ? a.id == b.id : a.token == b.token;
}

// The scorer's token as text: servers naming tokens by id only (vLLM's "token_id:N") leave the
// text empty; the producer's own lists often name the same id.
std::string text_of(const logprobs::Alternative& a, const TokenLogprob& own) {
  if (!a.token.empty() || a.id < 0) return a.token;
  if (a.id == own.id) return own.token;
  for (const auto& o : own.top)
    if (o.id == a.id) return o.token;
  return "token_id:" + std::to_string(a.id);
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

}  // namespace

double truncated_kl_nats(const TokenLogprob& p, const TokenLogprob& q, bool by_id) {
  const auto lp = listed(p, by_id), lq = listed(q, by_id);
  std::vector<std::string> keys;
  for (const auto& [k, v] : lp) keys.push_back(k);
  for (const auto& [k, v] : lq)
    if (!lp.count(k)) keys.push_back(k);
  const auto bp = buckets(lp, keys), bq = buckets(lq, keys);
  double kl = 0;
  for (size_t i = 0; i < bp.size(); ++i) kl += bp[i] * std::log(bp[i] / bq[i]);
  return std::max(0.0, kl);
}

CrossScoreAccumulator::CrossScoreAccumulator(std::string scorer, std::string producer,
                                             bool scorer_is_baseline)
    : scorer_(std::move(scorer)),
      producer_(std::move(producer)),
      scorer_is_baseline_(scorer_is_baseline) {}

std::string CrossScoreAccumulator::add(int64_t prompt_index, const std::string& prompt_id,
                                       const logprobs::TokenSeries& own,
                                       const logprobs::TokenSeries& forced) {
  if (own.size() != forced.size())
    return "the scorer returned " + std::to_string(forced.size()) + " answer token(s) for " +
           std::to_string(own.size());
  for (size_t i = 0; i < own.size(); ++i)
    if (!same_token(own[i], forced[i]))
      return "the scorer echoed a different token at answer token " + std::to_string(i);
  ++prompts_;
  for (size_t i = 0; i < own.size(); ++i) {
    const TokenLogprob& o = own[i];
    const TokenLogprob& f = forced[i];
    const bool by_id = o.id >= 0 && f.id >= 0;
    ++tokens_;
    std::optional<std::string> top1;
    if (!f.top.empty()) {
      top1 = text_of(f.top.front(), o);
      const auto& best = f.top.front();
      agreeing_ += (by_id ? best.id == o.id : best.token == o.token) ? 1 : 0;
    }
    if (std::isfinite(f.logprob) && std::isfinite(o.logprob))
      abs_delta_.push_back(std::abs(f.logprob - o.logprob));
    if (!f.top.empty() && !o.top.empty()) {
      kl_sum_ +=
          scorer_is_baseline_ ? truncated_kl_nats(f, o, by_id) : truncated_kl_nats(o, f, by_id);
      ++kl_n_;
    }
    if (std::isfinite(f.logprob) && (!surprising_ || f.logprob < surprising_->scorer_logprob)) {
      SurprisingToken s;
      s.prompt_index = prompt_index;
      s.prompt_id = prompt_id;
      s.token_index = static_cast<int64_t>(i);
      s.token = o.token;
      s.scorer_logprob = f.logprob;
      if (std::isfinite(o.logprob)) s.own_logprob = o.logprob;
      s.scorer_top1 = top1;
      surprising_ = std::move(s);
    }
  }
  return {};
}

CrossScore CrossScoreAccumulator::result() const {
  CrossScore s;
  s.scorer = scorer_;
  s.producer = producer_;
  s.prompts = prompts_;
  s.tokens = tokens_;
  s.top1_agreeing = agreeing_;
  if (tokens_ > 0) s.top1_agreement = static_cast<double>(agreeing_) / static_cast<double>(tokens_);
  if (!abs_delta_.empty()) {
    double sum = 0;
    for (double v : abs_delta_) sum += v;
    s.mean_abs_dlogprob_nats = sum / static_cast<double>(abs_delta_.size());
    s.p95_abs_dlogprob_nats = percentile(abs_delta_, 95);
  }
  if (kl_n_ > 0) s.mean_kl_nats = kl_sum_ / static_cast<double>(kl_n_);
  s.most_surprising = surprising_;
  return s;
}

nlohmann::json to_json(const CrossScore& s) {
  const auto opt = [](const std::optional<double>& v) -> nlohmann::json {
    return v ? nlohmann::json(std::round(*v * 1e6) / 1e6) : nlohmann::json(nullptr);
  };
  nlohmann::json j = {{"scorer", s.scorer},
                      {"answer_of", s.producer},
                      {"status", s.status},
                      {"prompts", s.prompts},
                      {"tokens", s.tokens},
                      {"top1_agreeing", s.top1_agreeing},
                      {"top1_agreement", opt(s.top1_agreement)},
                      {"mean_abs_dlogprob_nats", opt(s.mean_abs_dlogprob_nats)},
                      {"p95_abs_dlogprob_nats", opt(s.p95_abs_dlogprob_nats)},
                      {"mean_kl_nats", opt(s.mean_kl_nats)}};
  if (!s.reason.empty()) j["reason"] = s.reason;
  if (s.most_surprising) {
    const auto& m = *s.most_surprising;
    j["most_surprising"] = {
        {"index", m.prompt_index},
        {"id", m.prompt_id},
        {"token_index", m.token_index},
        {"token", logprobs::token_text_json(m.token)},
        {"scorer_logprob", opt(m.scorer_logprob)},
        {"own_logprob", opt(m.own_logprob)},
        {"scorer_top1",
         m.scorer_top1 ? logprobs::token_text_json(*m.scorer_top1) : nlohmann::json(nullptr)}};
  }
  return j;
}

}  // namespace lb::compare
