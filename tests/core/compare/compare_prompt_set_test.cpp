// Prompt sets: the built-in regression-20, JSONL validation errors that name line and field, and
// the JSON-array and ShareGPT imports.
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <fstream>
#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "core/plan/builtin_prompt_sets.h"
#include "core/plan/prompt_set.h"
#include "prompt_set_test_data.h"
#include "test_paths.h"

using namespace lb::plan;

namespace {
std::string first_error(std::string_view jsonl) {
  const auto r = parse_prompt_set_jsonl(jsonl, "set.jsonl");
  return r.errors.empty() ? std::string() : r.errors.front().to_string(r.source_name);
}
}  // namespace

class PromptSetTest : public QObject {
  Q_OBJECT

 private slots:
  void builtinRegression20IsCompiledIn() {
    const auto r = load_prompt_set("builtin:regression-20");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.set->prompts.size(), std::size_t(20));
    std::map<std::string, int> per_category;
    for (const auto& p : r.set->prompts) {
      ++per_category[p.category];
      QVERIFY2(!p.checks.empty(), p.id.c_str());
      QCOMPARE(p.max_tokens, 256);
      QCOMPARE(p.chat().size(), std::size_t(1));
    }
    QCOMPARE(per_category.size(), std::size_t(8));
    for (const auto& [category, count] : per_category) {
      QVERIFY2(count >= 2 && count <= 3, category.c_str());
    }
    const auto* train = r.set->find("reasoning-train-minutes");
    QVERIFY(train);
    QCOMPARE(train->checks.at(0).type, CheckType::Numeric);
    QCOMPARE(train->checks.at(0).number, 165.0);
  }

  void builtinMatchesTheResourceFile() {
    std::ifstream in(lb::test::source_dir() + "/resources/prompts/regression-20.jsonl");
    const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QCOMPARE(std::string(builtin_prompt_set_text("regression-20").value()), file);
    const auto unknown = load_prompt_set("builtin:nope");
    QVERIFY(!unknown.ok());
    QVERIFY(unknown.error_text().find("regression-20") != std::string::npos);
  }

  void errorsNameLineAndField() {
    const std::string ok = std::string(kMinimalLine);
    QCOMPARE(first_error(ok + "\n\n" + std::string(kZeroMaxTokens)),
             std::string("set.jsonl:3: field \"max_tokens\": expected an integer between 1 and "
                         "1000000"));
    QCOMPARE(first_error(std::string(kNegativeTolerance)),
             std::string("set.jsonl:1: field \"checks[0].tolerance\": expected a number >= 0"));
    QVERIFY(first_error(std::string(kInvalidRegex))
                .find("set.jsonl:1: field \"checks[0].pattern\": invalid regular expression") == 0);
    QCOMPARE(first_error(std::string(kUnknownField)),
             std::string("set.jsonl:1: field \"colour\": unknown field"));
    QCOMPARE(first_error(std::string(kMissingId)),
             std::string("set.jsonl:1: field \"id\": required"));
    QCOMPARE(first_error(ok + "\n" + ok),
             std::string("set.jsonl:2: field \"id\": duplicate id \"a\""));
    QCOMPARE(first_error("{not json"), std::string("set.jsonl:1: not valid JSON"));
    QCOMPARE(first_error(std::string(kUnknownCheckType)).substr(0, 42),
             std::string("set.jsonl:1: field \"checks[0].type\": unkno"));
    QCOMPARE(first_error(std::string(kNoPrompt)),
             std::string("set.jsonl:1: field \"prompt\": required (or \"messages\")"));
    QCOMPARE(first_error(std::string(kBadRole)),
             std::string("set.jsonl:1: field \"messages[0].role\": expected \"system\", \"user\" "
                         "or \"assistant\", got \"robot\""));
    QCOMPARE(first_error(""), std::string("set.jsonl: the prompt set is empty"));
  }

  void messagesAndChecksRoundTrip() {
    const auto r = parse_prompt_set_jsonl(std::string(kMessagesAndChecks), "m.jsonl");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& p = r.set->prompts.at(0);
    QCOMPARE(p.chat().size(), std::size_t(2));
    QCOMPARE(p.checks.at(0).match, NumericMatch::Last);
    QCOMPARE(check_to_json(p.checks.at(1)).dump(), std::string(std::string(kMustContainJson)));
    QCOMPARE(describe_check(p.checks.at(0)), std::string("numeric 4 \u00b1 0 (last number)"));
  }

  void importsJsonArrayOfStrings() {
    const auto r = parse_prompt_set(std::string(kStringArray), "list.json");
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.set->prompts.size(), std::size_t(2));
    QCOMPARE(r.set->prompts[1].id, std::string("p001"));
    QCOMPARE(r.set->prompts[1].prompt, std::string("second prompt"));
    const auto bad = parse_prompt_set(std::string(kArrayWithNumber), "list.json");
    QCOMPARE(bad.error_text(), std::string("list.json: field \"[1]\": expected a string (a JSON "
                                           "array of prompts) or a ShareGPT conversation, got "
                                           "number\n"));
  }

  void importsShareGpt() {
    const auto r = parse_prompt_set(std::string(kShareGpt), "share.json");
    QVERIFY2(r.ok(), r.error_text().c_str());
    const auto& first = r.set->prompts.at(0);
    QCOMPARE(first.id, std::string("conv1"));
    QCOMPARE(first.messages.size(), std::size_t(4));
    QCOMPARE(first.messages.back().role, std::string("user"));
    QCOMPARE(first.messages.back().content, std::string("and now?"));
    QCOMPARE(r.set->prompts.at(1).id, std::string("sharegpt-0001"));
    const auto bad = parse_prompt_set(std::string(kShareGptNoHuman), "share.json");
    QCOMPARE(bad.error_text(),
             std::string("share.json: field \"[0].conversations\": has no human turn\n"));
  }

  void loadsFilesAndReportsUnreadable() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("set.jsonl").toStdString();
    std::ofstream(path) << std::string(kRegexLine) << "\n";
    const auto r = load_prompt_set(path);
    QVERIFY2(r.ok(), r.error_text().c_str());
    QCOMPARE(r.set->name, path);
    const auto missing = load_prompt_set(dir.filePath("missing.jsonl").toStdString());
    QVERIFY(missing.error_text().find("missing.jsonl: cannot read the file") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PromptSetTest)
#include "compare_prompt_set_test.moc"
