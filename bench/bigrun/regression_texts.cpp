#include "regression_texts.h"

#include <algorithm>
#include <array>
#include <random>

#include <nlohmann/json.hpp>

namespace lb::bench {
namespace {

constexpr std::array<const char*, 48> kWords = {
    "the",      "order",    "customer", "shipment", "invoice",   "refund",  "window",  "days",
    "policy",   "within",   "after",    "before",   "which",     "because", "support", "team",
    "replaced", "delivery", "warranty", "account",  "payment",   "request", "was",     "is",
    "approved", "returned", "received", "schedule", "therefore", "so",      "total",   "number",
    "kettle",   "message",  "answer",   "question", "counted",   "from",    "until",   "each",
    "week",     "month",    "date",     "item",     "charge",    "credit",  "late",    "early"};
constexpr std::array<const char*, 8> kKeywords = {"refund",  "warranty", "delivery", "invoice",
                                                  "account", "schedule", "credit",   "policy"};

// Shares of candidate answers; the rest are identical to the baseline.
constexpr double kNearShare = 0.20;
constexpr double kDivergentShare = 0.075;
constexpr double kFlippedShare = 0.005;

std::string prose(std::mt19937_64& rng, int words) {
  std::string out;
  std::uniform_int_distribution<size_t> pick(0, kWords.size() - 1);
  for (int w = 0; w < words; ++w) {
    if (!out.empty()) out += (w % 14 == 0) ? ". " : " ";
    out += kWords[pick(rng)];
  }
  return out + ".";
}

std::string answer(std::mt19937_64& rng, int64_t value, const char* keyword) {
  const int words = std::uniform_int_distribution<int>(60, 190)(rng);
  const int split = words / 2;
  return prose(rng, split) + " The " + keyword + " answer is " + std::to_string(value) + ". " +
         prose(rng, words - split);
}

// One to three words replaced by others of the vocabulary.
std::string nudged(std::string text, std::mt19937_64& rng) {
  const int edits = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int e = 0; e < edits; ++e) {
    const size_t at = std::uniform_int_distribution<size_t>(0, text.size() / 3)(rng);
    const size_t begin = text.find(' ', at);
    if (begin == std::string::npos) break;
    const size_t end = text.find_first_of(" .", begin + 1);
    if (end == std::string::npos) break;
    text.replace(begin + 1, end - begin - 1, kWords[(at + 7u) % kWords.size()]);
  }
  return text;
}

std::string prompt_line(int64_t i, int64_t value, const char* keyword) {
  nlohmann::json j = {
      {"id", "q" + std::to_string(i)},
      {"category", "extraction"},
      {"prompt", "Case " + std::to_string(i) + ": read the customer's message and the " + keyword +
                     " policy, then give the number of days and explain briefly."},
      {"max_tokens", 256},
      {"checks",
       {{{"type", "numeric"}, {"value", value}, {"tolerance", 0}},
        {{"type", "must_contain"}, {"value", keyword}, {"ignore_case", true}}}}};
  return j.dump() + "\n";
}

}  // namespace

int64_t answer_tokens(const std::string& text) {
  const auto words = std::count(text.begin(), text.end(), ' ') + 1;
  return std::min<int64_t>(256, words * 13 / 10);
}

RegressionTexts make_regression_texts(int64_t prompts, uint64_t seed) {
  RegressionTexts out;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> share(0.0, 1.0);
  for (int64_t i = 0; i < prompts; ++i) {
    const int64_t value = 3 + (i * 37) % 97;
    const char* keyword = kKeywords[static_cast<size_t>(i) % kKeywords.size()];
    out.prompt_set_jsonl += prompt_line(i, value, keyword);
    std::string base = answer(rng, value, keyword);
    const double u = share(rng);
    std::string cand = base;
    if (u < kFlippedShare) {
      const std::string said = "answer is " + std::to_string(value) + ".";
      cand.replace(cand.find(said), said.size(), "answer is " + std::to_string(value + 1) + ".");
    } else if (u < kFlippedShare + kDivergentShare) {
      cand = answer(rng, value, keyword);
    } else if (u < kFlippedShare + kDivergentShare + kNearShare) {
      cand = nudged(base, rng);
    }
    out.baseline.push_back(std::move(base));
    out.candidate.push_back(std::move(cand));
  }
  return out;
}

}  // namespace lb::bench
