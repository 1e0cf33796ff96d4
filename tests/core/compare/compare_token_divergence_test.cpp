// The divergence rule on hand-made token series: where the lanes part, with which tokens and
// logprobs, and each class (near_tie, confident_change, length_change, tokenizer_mismatch,
// no_logprobs) on the inputs that should produce it and not on their near neighbours.
#include <QtTest>

#include <cmath>

#include "core/compare/token_divergence.h"
#include "test_main.h"

using namespace lb::compare;
namespace lp = lb::logprobs;

namespace {

struct Step {
  std::string token;
  std::vector<std::pair<std::string, double>> top;  // best first; top[0] is usually the token
  int64_t id = -1;
};

lp::PromptLogprobs series(const std::vector<Step>& steps, bool ids = false) {
  lp::PromptLogprobs p;
  p.index = 0;
  p.prompt_id = "p";
  p.top_k = 3;
  for (const auto& s : steps) {
    lp::TokenLogprob t;
    t.token = s.token;
    t.id = ids ? static_cast<int64_t>(std::hash<std::string>{}(s.token) % 100000) : -1;
    for (const auto& [tok, v] : s.top) {
      t.top.push_back(
          {tok, v, ids ? static_cast<int64_t>(std::hash<std::string>{}(tok) % 100000) : -1});
      if (tok == s.token) t.logprob = v;
    }
    p.tokens.push_back(t);
  }
  return p;
}

std::string text(const lp::PromptLogprobs& p) {
  std::string s;
  for (const auto& t : p.tokens) s += t.token;
  return s;
}

TokenDivergence run(const lp::PromptLogprobs& a, const lp::PromptLogprobs& b, double tau = 0.5) {
  return analyse_token_divergence(&a, &b, text(a), text(b), {tau, 3});
}

const Step kThe{"The", {{"The", -0.01}, {"A", -5.0}, {"It", -6.0}}};
const Step kCafe{" café", {{" café", -0.02}, {" bar", -4.0}, {" pub", -4.5}}};

}  // namespace

class TestTokenDivergence : public QObject {
  Q_OBJECT
 private slots:
  void identicalTextsAreIdentical() {
    auto a = series({kThe, kCafe});
    QCOMPARE(run(a, a).cls, DivergenceClass::Identical);
    QCOMPARE(run(a, a).token_index, int64_t(-1));
  }

  void nearTieAtTheFirstDifference() {
    auto a = series({kThe, kCafe, {" is", {{" is", -0.6}, {" was", -0.9}, {" has", -3.0}}}}, true);
    auto b = series({kThe, kCafe, {" was", {{" was", -0.7}, {" is", -0.8}, {" has", -3.1}}}}, true);
    const auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::NearTie);
    QCOMPARE(d.aligned_by, std::string("ids"));
    QCOMPARE(d.token_index, int64_t(2));
    QCOMPARE(d.char_offset_a, int64_t(8));  // "The café": é is one character, two bytes
    QCOMPARE(d.token_a, std::string(" is"));
    QCOMPARE(d.token_b, std::string(" was"));
    QCOMPARE(*d.logprob_a, -0.6);
    QCOMPARE(*d.a_logprob_of_b, -0.9);
    QCOMPARE(*d.b_logprob_of_a, -0.8);
    QVERIFY(std::abs(*d.baseline_margin_nats - 0.3) < 1e-12);
    // The same pair with a tighter τ is a confident change.
    QCOMPARE(run(a, b, 0.29).cls, DivergenceClass::ConfidentChange);
  }

  void aTokenOutsideTheOthersTopKIsAConfidentChange() {
    auto a = series({kThe, {" 36", {{" 36", -0.1}, {" 35", -0.2}, {" 3", -4.0}}}});
    auto b = series({kThe, {" 38", {{" 38", -0.05}, {" 36", -3.0}, {" 3", -5.0}}}});
    const auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::ConfidentChange);
    QCOMPARE(d.aligned_by, std::string("bytes"));
    QVERIFY(!d.a_logprob_of_b.has_value());
    QCOMPARE(*d.b_logprob_of_a, -3.0);
    QVERIFY(d.reason.find("baseline's top-K") != std::string::npos);
  }

  void aWideBaselineMarginIsAConfidentChange() {
    auto a = series({{"Yes", {{"Yes", -0.01}, {"No", -4.7}, {"Maybe", -6.0}}}});
    auto b = series({{"No", {{"No", -0.3}, {"Yes", -1.4}, {"Maybe", -6.0}}}});
    const auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::ConfidentChange);
    QVERIFY(std::abs(*d.baseline_margin_nats - 4.69) < 1e-9);
  }

  void oneLaneStoppingIsALengthChange() {
    auto a = series({kThe});
    auto b = series({kThe, kCafe});
    const auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::LengthChange);
    QCOMPARE(d.token_index, int64_t(1));
    QCOMPARE(d.token_b, std::string(" café"));
  }

  void theSameTextCutDifferentlyIsATokenizerMismatch() {
    auto a = series({kThe, {" caf", {{" caf", -0.1}}}, {"é!", {{"é!", -0.1}}}});
    auto b = series({kThe, {" café", {{" café", -0.1}}}, {"?", {{"?", -0.1}}}});
    QCOMPARE(run(a, b).cls, DivergenceClass::TokenizerMismatch);
  }

  void oneIdForDifferentBytesIsATokenizerMismatch() {
    auto a = series({kThe, kCafe}, true);
    auto b = series({kThe, {" bar", {{" bar", -0.1}}}}, true);
    b.tokens[1].id = a.tokens[1].id;
    const auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::TokenizerMismatch);
    QVERIFY(d.reason.find("tokenizers differ") != std::string::npos);
  }

  void missingOrUnusableLogprobsSaySo() {
    auto a = series({kThe, kCafe});
    auto b = series({kThe, {" bar", {{" bar", -0.1}, {" café", -0.2}}}});
    b.status = "unsupported";
    b.note = "the server refused logprobs";
    auto d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::NoLogprobs);
    QVERIFY(d.reason.find("refused") != std::string::npos);
    b.status = "ok";
    b.tokens[1].logprob = std::nan("");
    b.tokens[1].flags = lp::kNonFiniteLogprob;
    d = run(a, b);
    QCOMPARE(d.cls, DivergenceClass::NoLogprobs);
    QVERIFY(d.reason.find("nan_or_inf") != std::string::npos);
    b.tokens[1].flags = 0;
    b.tokens[1].logprob = -0.1;
    b.tokens[1].top.clear();
    QCOMPARE(run(a, b).cls, DivergenceClass::NoLogprobs);
    QCOMPARE(analyse_token_divergence(&a, nullptr, "x", "y", {}).cls, DivergenceClass::NoLogprobs);
  }

  void theReportRecordsItsThresholds() {
    auto a = series({kThe});
    auto b = series({kThe, kCafe});
    const auto report = divergence_report({run(a, a), run(a, b)}, {0.25, 7});
    QCOMPARE(report["thresholds"]["near_tie_margin_nats"].get<double>(), 0.25);
    QCOMPARE(report["thresholds"]["top_k"].get<int>(), 7);
    QCOMPARE(report["counts"]["identical"].get<int>(), 1);
    QCOMPARE(report["counts"]["length_change"].get<int>(), 1);
    QCOMPARE(report["pairs"][1]["token_candidate"].get<std::string>(), std::string(" café"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestTokenDivergence)
#include "compare_token_divergence_test.moc"
