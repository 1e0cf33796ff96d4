// Deterministic outputs: every built-in regression prompt gets a reference answer that passes
// its fact checks on BF16; the FP8 drift model keeps facts unless flip_facts is on; needles are
// found only inside the retrieval window. Requests go over HTTP, as a lane's client sends them.
#include <QtTest>

#include "test_main.h"

#include "core/compare/fact_check.h"
#include "core/plan/prompt_set.h"
#include "sim/answer_book.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

std::string answer_over_http(uint16_t port, const std::string& prompt, int max_tokens) {
  const auto r = http_request(port, "POST", "/v1/chat/completions",
                              chat_body(prompt, {{"max_tokens", max_tokens}, {"temperature", 0}}));
  if (r.status != 200) return "<http " + std::to_string(r.status) + ">";
  return json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>();
}

bool all_pass(const std::vector<lb::compare::CheckResult>& results) {
  for (const auto& r : results) {
    if (r.status != lb::compare::CheckStatus::Pass) return false;
  }
  return true;
}

}  // namespace

class SimAnswersTest : public QObject {
  Q_OBJECT
  lb::plan::PromptSet set_;

 private slots:
  void initTestCase() {
    auto loaded = lb::plan::load_prompt_set("builtin:regression-20");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    set_ = *loaded.set;
    QCOMPARE(AnswerBook::builtin().size(), set_.prompts.size());
  }

  void bf16_answers_pass_every_check_and_repeat_exactly() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    for (const auto& p : set_.prompts) {
      const std::string out = answer_over_http(bf16->port(), p.prompt, p.max_tokens);
      QVERIFY2(all_pass(lb::compare::run_checks(p.checks, out)), (p.id + ": " + out).c_str());
      QCOMPARE(answer_over_http(bf16->port(), p.prompt, p.max_tokens), out);
    }
  }

  void fp8_drifts_wording_but_keeps_facts() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    auto fp8 = start_server("fp8?time_scale=0.001");
    int identical = 0, drifted = 0;
    for (const auto& p : set_.prompts) {
      const std::string a = answer_over_http(bf16->port(), p.prompt, p.max_tokens);
      const std::string b = answer_over_http(fp8->port(), p.prompt, p.max_tokens);
      (a == b ? identical : drifted)++;
      QVERIFY2(all_pass(lb::compare::run_checks(p.checks, b)), (p.id + ": " + b).c_str());
    }
    QVERIFY(identical >= 5);
    QVERIFY(drifted >= 3);
  }

  void flip_facts_makes_candidate_blockers() {
    auto bf16 = start_server("bf16?time_scale=0.001");
    auto flips = start_server("fp8?time_scale=0.001&flip_facts=1");
    int flipped = 0;
    for (const auto& p : set_.prompts) {
      const auto a =
          lb::compare::run_checks(p.checks, answer_over_http(bf16->port(), p.prompt, p.max_tokens));
      const auto b = lb::compare::run_checks(
          p.checks, answer_over_http(flips->port(), p.prompt, p.max_tokens));
      if (!lb::compare::flipped_checks(a, b).empty()) ++flipped;
      AnswerContext ctx;
      ctx.weights_dtype = "fp8";
      ctx.flip_facts = true;
      const bool expected = AnswerBook::drift_kind(p.id, ctx) == DriftKind::FlippedFact;
      QCOMPARE(!lb::compare::flipped_checks(a, b).empty(), expected);
    }
    QVERIFY(flipped >= 1);
  }

  void other_prompts_get_deterministic_filler() {
    auto fp8 = start_server("fp8?time_scale=0.001");
    const std::string a = answer_over_http(fp8->port(), "Write about lanes.", 30);
    QCOMPARE(answer_over_http(fp8->port(), "Write about lanes.", 30), a);
    QVERIFY(answer_over_http(fp8->port(), "Write about queues.", 30) != a);
    QVERIFY(a.size() > 40);
  }

  void needle_found_only_inside_the_window() {
    std::string haystack;
    for (int i = 0; i < 400; ++i) haystack += "The river flows past the old mill every spring. ";
    const std::string prompt = "The secret code is ZX-4417. " + haystack +
                               "\nWhat is the secret code? Answer with the code only.";
    auto wide = start_server("fp8?time_scale=0.001");
    auto narrow = start_server("fp8?time_scale=0.001&retrieval_window_tokens=1000");
    const std::string found = answer_over_http(wide->port(), prompt, 40);
    QCOMPARE(found, std::string("The secret code is ZX-4417."));
    const std::string missed = answer_over_http(narrow->port(), prompt, 40);
    QVERIFY2(missed.find("ZX-4417") == std::string::npos, missed.c_str());
    QVERIFY(missed.find("could not find the secret code") != std::string::npos);
    // The same needle near the end is inside even the narrow window.
    const std::string late = haystack + "The secret code is ZX-4417. What is the secret code?";
    QVERIFY(answer_over_http(narrow->port(), late, 40).find("ZX-4417") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimAnswersTest)
#include "sim_answers_test.moc"
