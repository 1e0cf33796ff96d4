// Synthetic prompts: sized to the token estimate, deterministic, distinct per request index, and
// sharing exactly the asked-for prefix.
#include <QtTest>

#include "test_main.h"

#include <set>
#include <sstream>

#include "core/plan/synthetic_prompt.h"

#define PINNED_PROMPT "Request 0. Made sea carry soil s"

using namespace lb::plan;

namespace {
size_t common_prefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}
std::string make(int64_t tokens, uint64_t seed, int64_t index, int64_t shared = 0) {
  SyntheticPromptSpec spec;
  spec.target_tokens = tokens;
  spec.seed = seed;
  spec.index = index;
  spec.shared_prefix_tokens = shared;
  return synthetic_prompt(spec);
}
}  // namespace

class SyntheticPromptTest : public QObject {
  Q_OBJECT
 private slots:
  void estimate() {
    QCOMPARE(estimate_prompt_tokens(""), int64_t(0));
    QCOMPARE(estimate_prompt_tokens("abc"), int64_t(1));
    QCOMPARE(estimate_prompt_tokens("abcd"), int64_t(1));
    QCOMPARE(estimate_prompt_tokens("abcde"), int64_t(2));
  }
  void sizedToTarget() {
    for (int64_t tokens : {1, 7, 100, 4096, 31225}) {
      const std::string p = make(tokens, 1, 0);
      QCOMPARE(estimate_prompt_tokens(p), tokens);
      QCOMPARE(p.size(), size_t(tokens * 4));
    }
  }
  void deterministicAndPinned() {
    QCOMPARE(make(512, 42, 3), make(512, 42, 3));
    QVERIFY(make(512, 42, 3) != make(512, 43, 3));
    // Pinned bytes: the generator must give the same prompt on every platform and build.
    QCOMPARE(make(8, 42, 0), std::string(PINNED_PROMPT));
  }
  void distinctPerIndexFromTheStart() {
    const std::string a = make(1000, 7, 0);
    const std::string b = make(1000, 7, 1);
    QVERIFY(a != b);
    QVERIFY(common_prefix(a, b) < 16);  // "Request " then the index differs
  }
  void sharedPrefixIsExactlyShared() {
    const std::string a = make(2000, 7, 0, 1000);
    const std::string b = make(2000, 7, 1, 1000);
    QCOMPARE(estimate_prompt_tokens(a), int64_t(2000));
    const size_t common = common_prefix(a, b);
    QVERIFY2(common >= 4000 && common < 4016, std::to_string(common).c_str());
    QCOMPARE(a.substr(0, 4000), make(1200, 7, 9, 1000).substr(0, 4000));
    QVERIFY(a.substr(0, 4000) != make(2000, 8, 0, 1000).substr(0, 4000));  // seed salts it
  }
  void variedReadableText() {
    const std::string p = make(4096, 5, 0);
    std::set<std::string> words;
    std::istringstream in(p);
    for (std::string w; in >> w;) words.insert(w);
    QVERIFY2(words.size() > 100, std::to_string(words.size()).c_str());
    for (unsigned char c : p) QVERIFY(c == '\n' || (c >= 0x20 && c < 0x7f));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SyntheticPromptTest)
#include "plan_synthetic_prompt_test.moc"
