// cache_variance and POST /reset_prefix_cache: a greedy answer whose prompt prefix the cache
// holds may resolve its near-tie the other way, a reset empties the cache so the next answer is
// the cold one again, and without the option a cache hit never changes an answer.
#include <QtTest>

#include "test_main.h"

#include "core/plan/prompt_set.h"
#include "sim/answer_book.h"
#include "sim/sim_config.h"
#include "sim_test_support.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

std::string greedy_answer(uint16_t port, const lb::plan::PromptSpec& p) {
  const auto r =
      http_request(port, "POST", "/v1/chat/completions",
                   chat_body(p.prompt, {{"max_tokens", p.max_tokens}, {"temperature", 0}}));
  if (r.status != 200) return "<http " + std::to_string(r.status) + ">";
  return json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>();
}

double cache_hits(uint16_t port) {
  const std::string body = http_request(port, "GET", "/metrics").body;
  const std::string name = "vllm:prefix_cache_hits_total{";
  const size_t at = body.find(name);
  if (at == std::string::npos) return -1;
  const size_t space = body.find("} ", at);
  return std::stod(body.substr(space + 2));
}

struct Passes {
  int warm_differs = 0;     // prompts whose warm answer differs from the cold one
  int cold_again_same = 0;  // prompts whose answer after a reset equals the first cold one
  double warm_hits = 0;     // cached tokens the warm answers reused
  double reset_hits = 0;    // cached tokens the answers after the reset reused
};

Passes cold_warm_reset(const std::string& spec, const lb::plan::PromptSet& set) {
  auto server = start_server(spec);
  const uint16_t port = server->port();
  Passes out;
  for (const auto& p : set.prompts) {
    const std::string cold = greedy_answer(port, p);
    const double before = cache_hits(port);
    const std::string warm = greedy_answer(port, p);
    out.warm_hits += cache_hits(port) - before;
    out.warm_differs += warm != cold ? 1 : 0;
    const auto reset = http_request(port, "POST", "/reset_prefix_cache");
    if (reset.status != 200) qFatal("reset answered %d", reset.status);
    const double before_reset = cache_hits(port);
    out.cold_again_same += greedy_answer(port, p) == cold ? 1 : 0;
    out.reset_hits += cache_hits(port) - before_reset;
    http_request(port, "POST", "/reset_prefix_cache");
  }
  return out;
}

}  // namespace

class SimCacheVarianceTest : public QObject {
  Q_OBJECT
  lb::plan::PromptSet set_;

 private slots:
  void initTestCase() {
    auto loaded = lb::plan::load_prompt_set("builtin:regression-20");
    QVERIFY2(loaded.ok(), loaded.error_text().c_str());
    set_ = *loaded.set;
  }

  void theOptionIsCheckedAndListed() {
    auto parsed = parse_lane_spec("fp8?cache_variance=0.3");
    QVERIFY(std::holds_alternative<SimConfig>(parsed));
    QCOMPARE(std::get<SimConfig>(parsed).cache_variance, 0.3);
    QCOMPARE(std::get<SimConfig>(parse_lane_spec("fp8")).cache_variance, 0.0);
    for (const char* bad :
         {"fp8?cache_variance=-1", "fp8?cache_variance=2", "fp8?cache_variance=half"}) {
      auto r = parse_lane_spec(bad);
      QVERIFY2(std::holds_alternative<std::string>(r), bad);
      QVERIFY2(std::get<std::string>(r).find("cache_variance") != std::string::npos, bad);
    }
    const auto names = sim_option_names();
    QVERIFY(std::find(names.begin(), names.end(), "cache_variance") != names.end());
  }

  void theDrawIsItsOwnAndFixedByPromptAndSeed() {
    AnswerContext ctx;
    ctx.cache_flip = 0.5;
    ctx.batch_flip = 0.5;
    int cache = 0, differ_from_batch = 0;
    for (int i = 0; i < 200; ++i) {
      const std::string id = "prompt-" + std::to_string(i);
      const bool c = AnswerBook::cache_flips(id, ctx);
      QCOMPARE(AnswerBook::cache_flips(id, ctx), c);
      cache += c ? 1 : 0;
      differ_from_batch += c != AnswerBook::batch_flips(id, ctx) ? 1 : 0;
    }
    QVERIFY2(cache > 70 && cache < 130, qPrintable(QString::number(cache)));
    QVERIFY(differ_from_batch > 40);  // not the batch draw under another name
    ctx.cache_flip = 0;
    QVERIFY(!AnswerBook::cache_flips("prompt-1", ctx));
  }

  // Over HTTP: a warm pass flips near-ties only with the option, the warm pass really hit the
  // cache, and after a reset the answer is the cold one, computed without the cache.
  void aCacheHitFlipsNearTiesAndAResetUndoesIt() {
    const Passes off = cold_warm_reset("fp8?time_scale=0.001", set_);
    QCOMPARE(off.warm_differs, 0);
    QCOMPARE(off.cold_again_same, static_cast<int>(set_.prompts.size()));
    QVERIFY2(off.warm_hits > 0, "the warm pass reused nothing: the check would be vacuous");

    const Passes on = cold_warm_reset("fp8?time_scale=0.001&cache_variance=1", set_);
    QVERIFY2(on.warm_differs >= 5, qPrintable(QString::number(on.warm_differs)));
    QCOMPARE(on.cold_again_same, static_cast<int>(set_.prompts.size()));
    QCOMPARE(on.reset_hits, 0.0);
  }

  void theResetIsAPost() {
    auto server = start_server("fp8?time_scale=0.001");
    QCOMPARE(http_request(server->port(), "GET", "/reset_prefix_cache").status, 405);
    const auto r = http_request(server->port(), "POST", "/reset_prefix_cache");
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.empty());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimCacheVarianceTest)
#include "sim_cache_variance_test.moc"
