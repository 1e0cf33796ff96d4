#include "logprob_model.h"

#include <algorithm>
#include <cmath>

#include "text_filler.h"

namespace lb::sim {
namespace {

// Runner-up tokens: common pieces, each a valid SimTokenizer piece (at most four bytes).
constexpr const char* kFillers[] = {" the", " a",  ",",   ".",    " and", " of", " to", " in",
                                    " is",  " it", " on", " we",  " be",  " as", " at", " by",
                                    " or",  " an", " so", " if",  " no",  " up", " do", " my",
                                    "The",  "It",  "A",   " not", " but", " all"};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  for (auto p : SimTokenizer::pieces(text)) out.emplace_back(p);
  return out;
}

// First position where the sequences differ (a shorter one differs at its end); -1 if equal.
int64_t first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return static_cast<int64_t>(i);
  return a.size() == b.size() ? -1 : static_cast<int64_t>(n);
}

double unit(uint64_t seed, int64_t c, const std::string& what) {
  return static_cast<double>(fnv1a64(what + '#' + std::to_string(c), seed) % 1'000'000) / 1e6;
}

const std::string* at(const std::vector<std::string>& v, int64_t c) {
  return c >= 0 && c < static_cast<int64_t>(v.size()) ? &v[static_cast<size_t>(c)] : nullptr;
}

}  // namespace

LogprobModel::LogprobModel(const OutputScript& script, const std::string& reference,
                           const std::string& near_tie, const std::string& confident,
                           uint64_t prompt_seed, bool fp8)
    : seed_(prompt_seed), fp8_(fp8) {
  content_before_.reserve(script.tokens.size() + 1);
  for (const auto& t : script.tokens) {
    content_before_.push_back(static_cast<int64_t>(content_.size()));
    if (t.channel == Channel::Content && !t.text.empty()) content_.push_back(t.text);
  }
  content_before_.push_back(static_cast<int64_t>(content_.size()));
  reference_ = split(reference);
  near_tie_ = split(near_tie);
  confident_ = split(confident);
  const auto real_at = [&](int64_t d, const std::vector<std::string>& v) {
    return d >= 0 && d < static_cast<int64_t>(reference_.size()) &&
                   d < static_cast<int64_t>(v.size())
               ? d
               : -1;
  };
  near_tie_at_ =
      near_tie.empty() ? -1 : real_at(first_difference(reference_, near_tie_), near_tie_);
  confident_at_ =
      confident.empty() ? -1 : real_at(first_difference(reference_, confident_), confident_);
  near_tie_margin_ = 0.08 + 0.37 * unit(seed_, 0, "tie");

  ended_ = script.finish_reason != "length";
  int64_t d = first_difference(content_, reference_);
  // A lane cut at max_tokens has not departed where its text merely ends.
  if (script.finish_reason == "length" && d == content_tokens()) d = -1;
  if (d < 0) return;
  flip_.index = d;
  if (d >= static_cast<int64_t>(reference_.size()) || d >= content_tokens()) {
    flip_.cls = "length_change";
  } else if (d == near_tie_at_ &&
             content_[static_cast<size_t>(d)] == near_tie_[static_cast<size_t>(d)]) {
    flip_.cls = "near_tie";
    flip_.baseline_margin_nats = near_tie_margin_;
  } else {
    flip_.cls = "confident_change";
    const auto u = unperturbed(d);
    flip_.baseline_margin_nats = u[0].z - u[1].z;
  }
}

int64_t LogprobModel::content_before(int64_t script_index) const {
  if (script_index <= 0) return 0;
  const size_t i = std::min(static_cast<size_t>(script_index), content_before_.size() - 1);
  return content_before_[i];
}

// Chosen (z = 0) and runner-up given; the rest filled from kFillers in a seeded order, each a
// little further behind.
static std::vector<std::pair<std::string, double>> fill(
    uint64_t seed, int64_t c, std::vector<std::pair<std::string, double>> head,
    const std::vector<std::string>& exclude, const std::string& salt) {
  std::vector<std::pair<uint64_t, std::string>> order;
  for (const char* f : kFillers) {
    const std::string s = f;
    const bool skip =
        std::any_of(head.begin(), head.end(), [&](auto& h) { return h.first == s; }) ||
        std::find(exclude.begin(), exclude.end(), s) != exclude.end();
    if (!skip) order.emplace_back(fnv1a64(salt + s + std::to_string(c), seed), s);
  }
  std::sort(order.begin(), order.end());
  double z = head.back().second;
  for (size_t k = 0; head.size() < LogprobModel::kMaxTopK && k < order.size(); ++k) {
    z -= 0.4 + 0.6 * unit(seed, c, salt + order[k].second);
    head.emplace_back(order[k].second, z);
  }
  return head;
}

std::vector<LogprobModel::Logit> LogprobModel::unperturbed(int64_t c) const {
  const std::string& chosen = *at(reference_, c);
  std::vector<std::pair<std::string, double>> head = {{chosen, 0.0}};
  if (c == near_tie_at_) {
    head.emplace_back(*at(near_tie_, c), -near_tie_margin_);
  }
  std::vector<std::string> exclude;
  for (const auto* v : {&near_tie_, &confident_})
    if (const std::string* s = at(*v, c)) exclude.push_back(*s);
  if (head.size() == 1) {
    // Runner-up 2-4 nats behind: no other position is close to a tie.
    auto filled = fill(seed_, c, head, exclude, "ref");
    const double shift = -(2.0 + 2.0 * unit(seed_, c, "gap")) - filled[1].second;
    for (size_t k = 1; k < filled.size(); ++k) filled[k].second += shift;
    head = std::move(filled);
  } else {
    head = fill(seed_, c, head, exclude, "ref");
  }
  std::vector<Logit> out;
  for (auto& [t, z] : head) out.push_back({t, z});
  return out;
}

std::vector<LogprobModel::Logit> LogprobModel::logits(int64_t c) const {
  std::vector<Logit> z;
  const bool shared = flip_.index < 0 || c < flip_.index;
  if (shared && at(reference_, c)) {
    z = unperturbed(c);
  } else if (c == flip_.index && flip_.cls == "near_tie") {
    // The FP8 perturbation lifts the runner-up just past the reference token.
    z = unperturbed(c);
    const double delta = 0.05 + 0.05 * unit(seed_, c, "fp8tie");
    std::swap(z[0], z[1]);
    z[0].z = 0;
    z[1].z = -delta;
  } else if (c == flip_.index && flip_.cls == "confident_change") {
    std::vector<std::pair<std::string, double>> head = {{*at(content_, c), 0.0},
                                                        {*at(reference_, c), -3.5}};
    for (auto& [t, v] : fill(seed_, c, head, {}, "flip")) z.push_back({t, v});
  } else {
    z = own_context(content_, c);
  }
  perturb(z, c);
  return z;
}

// A context that has left the reference: the text's own token first, the runner-up 2-4 nats
// behind (keyed on the text, so every lane reading it agrees up to its perturbation).
std::vector<LogprobModel::Logit> LogprobModel::own_context(const std::vector<std::string>& seq,
                                                           int64_t c) const {
  const std::string salt = "own" + (c > 0 ? *at(seq, c - 1) : std::string());
  std::vector<std::pair<std::string, double>> head = {{*at(seq, c), 0.0}};
  auto filled = fill(seed_, c, head, {}, salt);
  const double shift = -(2.0 + 2.0 * unit(seed_, c, salt + "gap")) - filled[1].second;
  std::vector<Logit> z = {{filled[0].first, 0.0}};
  for (size_t k = 1; k < filled.size(); ++k)
    z.push_back({filled[k].first, filled[k].second + shift});
  return z;
}

void LogprobModel::perturb(std::vector<Logit>& z, int64_t c) const {
  if (!fp8_) return;
  for (size_t k = 1; k < z.size(); ++k)
    z[k].z += 0.03 * (2 * unit(seed_, c, "fp8" + z[k].text) - 1);
  std::stable_sort(z.begin() + 1, z.end(),
                   [](const Logit& a, const Logit& b) { return a.z > b.z; });
}

ForcedToken LogprobModel::forced(const std::vector<std::string>& seq, int64_t c, int k) const {
  const auto begins_with = [&](const std::vector<std::string>& v) {
    if (c >= static_cast<int64_t>(v.size())) return false;
    return std::equal(seq.begin(), seq.begin() + c, v.begin());
  };
  std::vector<Logit> z;
  if (begins_with(content_)) {
    z = logits(c);  // still the lane's own text: what it said there
  } else if (ended_ && c == content_tokens() &&
             std::equal(seq.begin(), seq.begin() + c, content_.begin())) {
    // The lane stopped here: its end-of-turn token first, the text's token well behind.
    z = own_context(seq, c);
    for (auto& l : z) l.z -= 1.5;
    z.insert(z.begin(), {kEndOfTurn, 0.0});
    z.pop_back();
  } else if (begins_with(reference_)) {
    z = unperturbed(c);
    perturb(z, c);
  } else {
    z = own_context(seq, c);
    perturb(z, c);
  }
  const std::string& token = *at(seq, c);
  const double lse = log_normalizer(z);
  ForcedToken out;
  // An unlisted token is one of the ~50 tail tokens the normalizer counts at z.back() - 1.
  const auto id_of = [](const std::string& text) {
    return text == kEndOfTurn ? SimTokenizer::kImEnd : SimTokenizer::piece_id(text);
  };
  out.token = {token, id_of(token), z.back().z - 1.0 - lse};
  out.rank = static_cast<int>(z.size()) + 1;
  for (size_t i = 0; i < z.size(); ++i) {
    if (z[i].text == token) {
      out.token.logprob = z[i].z - lse;
      out.rank = static_cast<int>(i) + 1;
    }
    if (static_cast<int>(i) < k) out.top.push_back({z[i].text, id_of(z[i].text), z[i].z - lse});
  }
  return out;
}

double LogprobModel::log_normalizer(const std::vector<Logit>& z) {
  // Log-softmax over the listed logits plus one bucket for the rest of the vocabulary.
  double sum = std::exp(z.back().z - 1.0) * 50;
  for (const auto& l : z) sum += std::exp(l.z);
  return std::log(sum);
}

TokenChoice LogprobModel::chosen(int64_t c) const { return top(c, 1).front(); }

std::vector<TokenChoice> LogprobModel::top(int64_t c, int k) const {
  if (!at(content_, c)) return {TokenChoice{"", 0, 0}};
  const std::vector<Logit> z = logits(c);
  const double lse = log_normalizer(z);
  std::vector<TokenChoice> out;
  for (size_t i = 0; i < z.size() && static_cast<int>(i) < std::max(k, 1); ++i)
    out.push_back({z[i].text, SimTokenizer::piece_id(z[i].text), z[i].z - lse});
  return out;
}

}  // namespace lb::sim
