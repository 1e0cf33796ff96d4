// Triage (identical / near-identical / divergent, whitespace- and case-only labels, changed
// numbers) and fact checks, including the flipped-fact rule.
#include <QtTest>

#include "test_main.h"

#include "core/compare/fact_check.h"
#include "core/compare/number_scan.h"
#include "core/compare/pair_comparison.h"
#include "core/compare/texts_file.h"
#include "core/compare/triage.h"

using namespace lb::compare;
using lb::plan::CheckType;
using lb::plan::FactCheck;

namespace {
FactCheck text_check(CheckType type, std::string text, bool ignore_case = false) {
  FactCheck c;
  c.type = type;
  c.text = std::move(text);
  c.ignore_case = ignore_case;
  return c;
}
FactCheck numeric_check(double value, double tolerance) {
  FactCheck c;
  c.type = CheckType::Numeric;
  c.number = value;
  c.tolerance = tolerance;
  return c;
}
CheckStatus status(const FactCheck& c, std::string_view output) {
  return run_check(c, 0, output).status;
}
}  // namespace

class TriageChecksTest : public QObject {
  Q_OBJECT

 private slots:
  void triageClasses() {
    QCOMPARE(triage_pair("same", "same").triage, TriageClass::Identical);
    const auto near = triage_pair("The journey takes 165 minutes in total.",
                                  "The journey takes 165 minutes in total!", 0.95);
    QCOMPARE(near.triage, TriageClass::NearIdentical);
    QVERIFY(near.ratio < 1.0 && near.ratio >= 0.95);
    QCOMPARE(triage_pair("The journey takes 165 minutes in total.",
                         "The journey takes 165 minutes in total!", 0.99)
                 .triage,
             TriageClass::Divergent);
    QCOMPARE(triage_pair("Paris", "Berlin").triage, TriageClass::Divergent);
  }

  void whitespaceAndCaseLabels() {
    QCOMPARE(triage_pair("a b\nc", "a  b c").difference, DifferenceKind::WhitespaceOnly);
    QCOMPARE(triage_pair("Hello World", "hello world").difference, DifferenceKind::CaseOnly);
    QCOMPARE(triage_pair("Straße ÉTÉ", "straße été").difference, DifferenceKind::CaseOnly);
    QCOMPARE(triage_pair("Hello World", "helloworld").difference,
             DifferenceKind::WhitespaceAndCase);
    QCOMPARE(triage_pair("Hello World", "Hello there").difference, DifferenceKind::None);
    QCOMPARE(triage_pair("a b", "a  b").labels(), std::vector<std::string>{"whitespace_only"});
  }

  void punctuationOnlyLabel() {
    QCOMPARE(triage_pair("Paris.", "Paris").difference, DifferenceKind::PunctuationOnly);
    QCOMPARE(triage_pair("Hello, world!", "Hello world").difference,
             DifferenceKind::PunctuationOnly);
    QCOMPARE(triage_pair("\u201cYes\u201d \u2014 sure\u2026", "\"Yes\" sure").difference,
             DifferenceKind::PunctuationOnly);
    QCOMPARE(triage_pair("Paris.", "Paris").labels(), std::vector<std::string>{"punctuation_only"});
    // Symbols and numbers that carry meaning are differences of substance.
    QCOMPARE(triage_pair("15%", "15").difference, DifferenceKind::None);
    QCOMPARE(triage_pair("-5", "5").difference, DifferenceKind::None);
    QCOMPARE(triage_pair("3.5 kg", "35 kg").difference, DifferenceKind::None);
    QCOMPARE(triage_pair("Paris.", "paris").difference, DifferenceKind::None);
    QCOMPARE(triage_pair("a b", "a  b").difference, DifferenceKind::WhitespaceOnly);
  }

  void changedNumbersAreNamed() {
    const auto t =
        triage_pair("The answer is 42 and 1,725 tok/s.", "The answer is 24 and 1725 tok/s.");
    QCOMPARE(t.changed_numbers.size(), std::size_t(1));
    QCOMPARE(t.changed_numbers[0].label(), std::string("42 \u2192 24"));
    const auto added = triage_pair("took 3 s", "took 3 s, then 7 s");
    QCOMPARE(added.changed_numbers.size(), std::size_t(1));
    QCOMPARE(added.changed_numbers[0].label(), std::string("7 added"));
  }

  void numbersAreReadAsWritten() {
    const auto n = scan_numbers("x = -5, 1,725 tok/s, 3.14, 2e3, 3-2, list 1,2,3 and Qwen3-8B");
    std::vector<std::string> texts;
    for (const auto& t : n) texts.push_back(t.text);
    const std::vector<std::string> expected{"-5", "1,725", "3.14", "2e3", "3", "2",
                                            "1",  "2",     "3",    "3",   "8"};
    QCOMPARE(texts, expected);
    QCOMPARE(n[1].value, 1725.0);
    QCOMPARE(n[3].value, 2000.0);
  }

  void textChecks() {
    QCOMPARE(status(text_check(CheckType::MustContain, "Dave"), "It is Dave."), CheckStatus::Pass);
    QCOMPARE(status(text_check(CheckType::MustContain, "dave"), "It is Dave."), CheckStatus::Fail);
    QCOMPARE(status(text_check(CheckType::MustContain, "dave", true), "It is Dave."),
             CheckStatus::Pass);
    QCOMPARE(status(text_check(CheckType::MustNotContain, "Friday", true), "It is friday"),
             CheckStatus::Fail);
    QCOMPARE(status(text_check(CheckType::Regex, R"(count\s*\()", true), "SELECT COUNT(*)"),
             CheckStatus::Pass);
    QCOMPARE(status(text_check(CheckType::Regex, R"(^\s*HELLO, 7\s*$)"), "HELLO, 8"),
             CheckStatus::Fail);
    QCOMPARE(status(text_check(CheckType::Regex, "a"), std::string(kMaxRegexInputBytes + 1, 'a')),
             CheckStatus::Error);
  }

  // Security: a prompt set's pattern is from anyone. With std::regex, `^(a|b)*$` on 60,000
  // characters overflowed the stack and `^(a+)+$` on 40 characters and a "!" spun forever.
  void regexChecksRunInLinearTime() {
    QCOMPARE(status(text_check(CheckType::Regex, "^(a|b)*$"), std::string(60'000, 'a')),
             CheckStatus::Pass);
    QCOMPARE(status(text_check(CheckType::Regex, "^(a+)+$"), std::string(40, 'a') + "!"),
             CheckStatus::Fail);
    QCOMPARE(status(text_check(CheckType::Regex, "^(a+)+$"), std::string(500'000, 'a') + "!"),
             CheckStatus::Fail);
    // What RE2 cannot evaluate is a check error that says why, not a crash.
    const auto backreference = run_check(text_check(CheckType::Regex, R"((a)\1)"), 0, "aa");
    QCOMPARE(backreference.status, CheckStatus::Error);
    QVERIFY2(backreference.detail.find("regular expression error") != std::string::npos,
             backreference.detail.c_str());
    const auto huge = run_check(text_check(CheckType::Regex, std::string(5'000, 'a')), 0, "a");
    QCOMPARE(huge.status, CheckStatus::Error);
    QVERIFY2(huge.detail.find("longer than") != std::string::npos, huge.detail.c_str());
  }

  void numericCheckWithTolerance() {
    QCOMPARE(status(numeric_check(165, 0), "2 h 45 min, that is 165 minutes."), CheckStatus::Pass);
    QCOMPARE(status(numeric_check(165, 0), "That is 175 minutes."), CheckStatus::Fail);
    QCOMPARE(status(numeric_check(7.5, 0.01), "unit price 7.50 USD"), CheckStatus::Pass);
    QCOMPARE(status(numeric_check(1725, 0), "1,725 tok/s"), CheckStatus::Pass);
    auto last = numeric_check(11, 0);
    last.match = lb::plan::NumericMatch::Last;
    QCOMPARE(status(last, "x = 11, check: 3*11+7 = 40"), CheckStatus::Fail);
    QCOMPARE(status(last, "3x = 33 so x = 11"), CheckStatus::Pass);
    const auto failed = run_check(numeric_check(165, 0), 0, "That is 175 minutes.");
    QVERIFY(failed.detail.find("175") != std::string::npos);
  }

  void validJsonAcceptsFencedBlock() {
    FactCheck json;
    json.type = CheckType::ValidJson;
    QCOMPARE(status(json, R"(  {"name": "Maria"} )"), CheckStatus::Pass);
    QCOMPARE(status(json, "Here you go:\n```json\n{\"a\": [1, 2]}\n```\nDone."), CheckStatus::Pass);
    QCOMPARE(status(json, "```\n[\"2024-03-03\"]\n```"), CheckStatus::Pass);
    QCOMPARE(status(json, "```json\n{\"a\": 1,}\n```"), CheckStatus::Fail);
    QCOMPARE(status(json, "name: Maria"), CheckStatus::Fail);
    QCOMPARE(status(json, ""), CheckStatus::Fail);
  }

  void numberTooLargeIsNotJsonNotACrash() {
    // Found by fuzz/fuzz_texts_file: nlohmann reports 1e999 as out_of_range, not parse_error,
    // and both parsers let it escape. A model may well write such a number.
    FactCheck json;
    json.type = CheckType::ValidJson;
    QCOMPARE(status(json, R"({"distance": 1e999})"), CheckStatus::Fail);
    const auto texts = lb::compare::parse_texts_json(
        "[\"a\",55555E55555555555555 \"b\", 0]55555555555E555555555555555555555555", "t.json");
    QVERIFY(!texts.ok());
    QVERIFY2(texts.error.rfind("t.json: not valid JSON (", 0) == 0, texts.error.c_str());
  }

  void flippedFactIsABlockerCandidate() {
    lb::plan::PromptSpec prompt;
    prompt.id = "train";
    prompt.checks = {numeric_check(165, 0), text_check(CheckType::MustContain, "minutes")};
    const auto flipped = compare_pair(3, "The journey is 165 minutes.",
                                      "The journey is 175 minutes.", &prompt, 0.95);
    QCOMPARE(flipped.prompt_id, std::string("train"));
    QCOMPARE(flipped.flipped, std::vector<std::size_t>{0});
    QVERIFY(flipped.blocker_candidate());
    QVERIFY(flipped.review_required());
    // Failing on A and passing on B is a fix, not a flipped fact.
    const auto fixed = compare_pair(0, "It is 175 minutes.", "It is 165 minutes.", &prompt, 0.95);
    QVERIFY(!fixed.blocker_candidate());
    const auto drift = compare_pair(0, "It is 165 minutes.", "It is 165 minutes!", &prompt, 0.9);
    QVERIFY(!drift.review_required());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TriageChecksTest)
#include "compare_triage_checks_test.moc"
