// Finding where a JSON container ends (logprobs/json_skip.h), as the logprob cut does on the I/O
// thread: the block-at-a-time scan must agree with the byte-at-a-time one on any bytes, and both
// must find the exact end of real JSON, however its strings and escapes fall across blocks.
#include <QtTest>

#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "core/logprobs/json_skip.h"
#include "core/logprobs/raw_logprobs.h"
#include "test_main.h"

namespace lp = lb::logprobs;

namespace {

// Bytes drawn mostly from the ones the scan looks at; `backslash_per_mille` sets how often a
// backslash comes, so some blocks have none right after one that ends in one.
std::string random_bytes(std::mt19937& rng, size_t size, int backslash_per_mille) {
  static constexpr char kBytes[] = "\"{}[],:a 0";
  std::uniform_int_distribution<int> pick(0, sizeof(kBytes) - 2);
  std::uniform_int_distribution<int> mille(0, 999);
  std::string s;
  for (size_t i = 0; i < size; ++i) {
    s += mille(rng) < backslash_per_mille ? '\\' : kBytes[pick(rng)];
  }
  return s;
}

std::string random_text(std::mt19937& rng) {
  static const char* kPieces[] = {"a", "tok", " ",        "\"", "\\", "}", "]",  "{",
                                  "[", "\n",  "\xc3\xa9", "\t", ",",  ":", "\\u"};
  std::uniform_int_distribution<int> count(0, 12);
  std::uniform_int_distribution<int> pick(0, 14);
  std::string s;
  for (int n = count(rng); n > 0; --n) s += kPieces[pick(rng)];
  return s;
}

nlohmann::json random_json(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> kind(0, depth > 4 ? 2 : 5);
  std::uniform_int_distribution<int> size(0, 6);
  switch (kind(rng)) {
    case 0:
      return random_text(rng);
    case 1:
      return std::uniform_real_distribution<double>(-30, 0)(rng);
    case 2:
      return nullptr;
    case 3: {
      nlohmann::json a = nlohmann::json::array();
      for (int n = size(rng); n > 0; --n) a.push_back(random_json(rng, depth + 1));
      return a;
    }
    default: {
      nlohmann::json o = nlohmann::json::object();
      for (int n = size(rng); n > 0; --n) o[random_text(rng)] = random_json(rng, depth + 1);
      return o;
    }
  }
}

}  // namespace

class JsonSkipTest : public QObject {
  Q_OBJECT

 private slots:
  void agreesWithTheBytewiseScanOnAnyBytes() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<size_t> size(1, 400);
    std::uniform_int_distribution<size_t> lead(0, 70);
    int ended = 0;
    for (int n = 0; n < 30000; ++n) {
      const int backslashes = n % 3 == 0 ? 100 : n % 3 == 1 ? 8 : 0;
      std::string d = random_bytes(rng, lead(rng), backslashes);
      const size_t start = d.size();
      d += n % 2 ? '{' : '[';
      d += random_bytes(rng, size(rng), backslashes);
      const size_t fast = lp::skip_container(d, start);
      const size_t bytewise = lp::skip_container_bytewise(d, start);
      if (fast != bytewise) {
        QFAIL(qPrintable(QString("ends differ (%1 against %2) for: %3")
                             .arg(fast)
                             .arg(bytewise)
                             .arg(QString::fromStdString(d.substr(start)))));
      }
      if (fast != std::string_view::npos) ++ended;
    }
    QVERIFY2(ended > 3000, "too few inputs closed their container to test the ends");
  }

  void findsTheExactEndOfJsonAndIgnoresWhatFollows() {
    std::mt19937 rng(11);
    for (int n = 0; n < 3000; ++n) {
      nlohmann::json value = random_json(rng, 0);
      if (!value.is_structured()) value = nlohmann::json::array({value});
      const std::string dumped = value.dump();
      const std::string d = "{\"logprobs\":" + dumped + ",\"finish_reason\":\"}]\"}]}";
      QCOMPARE(lp::skip_container(d, 12), 12 + dumped.size());
      QCOMPARE(lp::skip_container_bytewise(d, 12), 12 + dumped.size());
      // Cut short anywhere inside, the value is left open.
      const size_t cut = 12 + std::uniform_int_distribution<size_t>(0, dumped.size() - 1)(rng);
      QCOMPARE(lp::skip_container(std::string_view(d).substr(0, cut), 12), std::string_view::npos);
    }
  }

  void cutCountsTheEntriesOfGeneratedValues() {
    std::mt19937 rng(5);
    std::string out;
    std::vector<lp::CutValue> cuts;
    for (int n = 0; n < 2000; ++n) {
      const int entries = n % 7;
      nlohmann::json content = nlohmann::json::array();
      for (int k = 0; k < entries; ++k) {
        content.push_back({{"token", random_text(rng)},
                           {"logprob", -0.5},
                           {"top_logprobs", random_json(rng, 2)}});
      }
      const nlohmann::json value = {{"content", content}, {"extra", random_json(rng, 1)}};
      const std::string dumped = value.dump();
      const std::string message =
          "{\"id\":\"x\",\"choices\":[{\"delta\":{\"content\":\"a\"},"
          "\"logprobs\":" +
          dumped + ",\"finish_reason\":null}]}";
      QVERIFY(lp::cut_logprobs(message, out, cuts));
      QCOMPARE(cuts.size(), size_t(1));
      QCOMPARE(cuts[0].entries, entries);
      QCOMPARE(message.substr(cuts[0].begin, cuts[0].end - cuts[0].begin), dumped);
      QCOMPARE(nlohmann::json::parse(out)["choices"][0]["logprobs"], nlohmann::json(0));
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(JsonSkipTest)
#include "net_json_skip_test.moc"
