// `lanebench-cli compare` end to end: the built binary on fixture files, checked against the
// field report's own Python script, plus exit codes and error messages for bad input.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "test_main.h"

#include <bit>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/compare/similarity.h"
#include "core/compare/texts_file.h"
#include "process_runner.h"
#include "test_paths.h"

using lb::compare::testing::ProcessResult;
using lb::compare::testing::run_process;

namespace {
const QString kCli = lb::test::cli_path();
const QString kDir = QString::fromStdString(lb::test::fixture_path("difflib/cli/"));

ProcessResult cli(QStringList args) {
  args.prepend("compare");
  return run_process(kCli, args);
}

QStringList script_lines(const QString& out) {  // the lines the seed's script would print
  QStringList lines;
  for (const auto& line : out.split('\n', Qt::SkipEmptyParts)) {
    if (!line.startsWith(' ') && !line.startsWith("summary:")) lines << line;
  }
  return lines;
}
}  // namespace

class CompareCliTest : public QObject {
  Q_OBJECT

 private slots:
  void printsWhatTheFieldReportScriptPrints() {
    const auto python = run_process(
        "python3", {kDir + "seed_script.py", kDir + "bf16.texts.json", kDir + "fp8.texts.json"});
    QVERIFY2(python.exit_code == 0, qPrintable("python3 is required: " + python.err));
    const auto ours = cli({kDir + "bf16.texts.json", kDir + "fp8.texts.json"});
    QCOMPARE(ours.exit_code, 0);  // no prompt set, so no fact checks and no blocker
    QCOMPARE(script_lines(ours.out), python.out.split('\n', Qt::SkipEmptyParts));
    QVERIFY(ours.out.contains("summary: 20 pairs: 15 identical, 3 near-identical, 2 divergent"));
  }

  void flippedFactExitsOne() {
    const auto r = cli(
        {kDir + "bf16.texts.json", kDir + "fp8.texts.json", "--prompts", "builtin:regression-20"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.out.contains("0 similarity 0.968\n  near_identical; numbers: 45 \u2192 55; "
                            "165 \u2192 175;\n  FLIPPED FACT (blocker candidate): numeric 165 "
                            "\u00b1 0 (numbers found: 2, 55, 175) passes "
                            "on bf16, fail on fp8"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("13 similarity 0.875\n  divergent, case_only\n"));
    QVERIFY(r.out.contains("18 similarity 0.976\n  near_identical, whitespace_only\n"));
    QVERIFY(r.out.contains("1 blocker candidate(s)"));
  }

  void noFlippedFactExitsZero() {
    const auto r = cli({kDir + "bf16.texts.json", kDir + "fp8_clean.texts.json", "--prompts",
                        "builtin:regression-20", "--threshold", "0.9"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains("13 similarity 0.875\n  divergent, case_only\n"));
    QVERIFY(r.out.contains("6 similarity 0.961\n  near_identical\n"));
  }

  void jsonHasTheExactRatio() {
    const auto r = cli({kDir + "bf16.texts.json", kDir + "fp8.texts.json", "--json", "--prompts",
                        "builtin:regression-20"});
    QCOMPARE(r.exit_code, 1);
    const auto pairs = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(pairs.size(), std::size_t(20));
    const auto a =
        lb::compare::load_texts_file((kDir + "bf16.texts.json").toStdString()).texts.value();
    const auto b =
        lb::compare::load_texts_file((kDir + "fp8.texts.json").toStdString()).texts.value();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const double expected = lb::compare::similarity_ratio(a[i], b[i]);
      QCOMPARE(std::bit_cast<uint64_t>(pairs[i]["ratio"].get<double>()),
               std::bit_cast<uint64_t>(expected));
      QCOMPARE(pairs[i]["identical"].get<bool>(), a[i] == b[i]);
    }
    QCOMPARE(pairs[0]["prompt_id"].get<std::string>(), std::string("reasoning-train-minutes"));
    QCOMPARE(pairs[0]["flipped_checks"], nlohmann::json::array({0}));
    QCOMPARE(pairs[0]["blocker_candidate"].get<bool>(), true);
    QCOMPARE(pairs[13]["labels"], nlohmann::json::array({"case_only"}));
  }

  void badInputExitsTwoWithAClearMessage() {
    struct Case {
      QStringList args;
      QString message;
    };
    const std::vector<Case> cases{
        {{kDir + "missing.texts.json", kDir + "fp8.texts.json"},
         "missing.texts.json: cannot read the file"},
        {{kDir + "bf16.texts.json", kDir + "not_strings.texts.json"},
         "not_strings.texts.json: element 2 is a number, expected a string"},
        {{kDir + "object.texts.json", kDir + "fp8.texts.json"},
         "object.texts.json: expected a JSON array of strings, got a JSON object"},
        {{kDir + "broken.texts.json", kDir + "fp8.texts.json"},
         "broken.texts.json: not valid JSON"},
        {{kDir + "bf16.texts.json", kDir + "short.texts.json"},
         "different lengths: " + kDir + "bf16.texts.json has 20 texts, " + kDir +
             "short.texts.json has 19"},
        {{kDir + "short.texts.json", kDir + "short.texts.json", "--prompts",
          "builtin:regression-20"},
         "prompt set builtin:regression-20 has 20 prompts but the texts have 19"},
        {{kDir + "bf16.texts.json", kDir + "fp8.texts.json", "--prompts", "builtin:nope"},
         "no built-in prompt set named \"nope\""},
        {{kDir + "bf16.texts.json", kDir + "fp8.texts.json", "--threshold", "1.5"},
         "--threshold must be between 0 and 1"},
    };
    for (const auto& c : cases) {
      const auto r = cli(c.args);
      QVERIFY2(r.exit_code == 2,
               qPrintable(c.args.join(' ') + " -> " + QString::number(r.exit_code)));
      QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
      QVERIFY(r.out.isEmpty());
    }
    QCOMPARE(cli({kDir + "bf16.texts.json"}).exit_code, 2);  // usage error
  }

  void acceptsRunFolderAndLane() {
    QTemporaryDir run;
    QVERIFY(QDir(run.path()).mkpath("texts"));
    QVERIFY(QFile::copy(kDir + "bf16.texts.json", run.filePath("texts/bf16.texts.json")));
    QVERIFY(QFile::copy(kDir + "fp8.texts.json", run.filePath("texts/fp8.texts.json")));
    const auto r =
        cli({run.path() + ":bf16", run.path() + ":fp8", "--prompts", "builtin:regression-20"});
    QCOMPARE(r.exit_code, 1);
    QVERIFY(r.out.contains("passes on bf16, fail on fp8"));
    const auto missing = cli({run.path() + ":bf16", run.path() + ":int4"});
    QCOMPARE(missing.exit_code, 2);
    QVERIFY(missing.err.contains("texts/int4.texts.json: cannot read the file"));
  }

  void readsLogprobsBesideTheTexts() {
    using nlohmann::json;
    QTemporaryDir run;
    QVERIFY(QDir(run.path()).mkpath("texts") && QDir(run.path()).mkpath("logprobs"));
    const auto write = [&](const QString& name, const std::string& text) {
      std::ofstream(run.filePath(name).toStdString()) << text;
    };
    write("texts/a.texts.json", json::array({"The cat", "Same"}).dump());
    write("texts/b.texts.json", json::array({"The dog", "Same"}).dump());
    const json the = json::array(
        {"The", -0.01, json::array({json::array({"The", -0.01}), json::array({" A", -5.0})})});
    const json same = json::array({"Same", -0.1, json::array({json::array({"Same", -0.1})})});
    const auto line = [&](int i, const json& tokens) {
      return json{{"i", i},
                  {"id", "p" + std::to_string(i)},
                  {"status", "ok"},
                  {"k", 2},
                  {"t", tokens}}
                 .dump() +
             "\n";
    };
    const json cat = json::array(
        {" cat", -0.6, json::array({json::array({" cat", -0.6}), json::array({" dog", -0.8})})});
    const json dog = json::array(
        {" dog", -0.7, json::array({json::array({" dog", -0.7}), json::array({" cat", -0.9})})});
    write("logprobs/a.jsonl", line(0, json::array({the, cat})) + line(1, json::array({same})));
    write("logprobs/b.jsonl", line(0, json::array({the, dog})) + line(1, json::array({same})));

    const auto r = cli({run.path() + ":a", run.path() + ":b", "--json"});
    QCOMPARE(r.exit_code, 0);
    const json out = json::parse(r.out.toStdString());
    const json& d = out[0]["token_divergence"];
    QCOMPARE(d["class"].get<std::string>(), std::string("near_tie"));
    QCOMPARE(d["token_index"].get<int>(), 1);
    QCOMPARE(d["char_offset_baseline"].get<int>(), 3);
    QVERIFY(std::abs(d["baseline_margin_nats"].get<double>() - 0.2) < 1e-9);
    QCOMPARE(d["baseline_logprob_of_candidate_token"].get<double>(), -0.8);
    QCOMPARE(out[1]["token_divergence"]["class"].get<std::string>(), std::string("identical"));

    const auto text = cli({run.path() + ":a", run.path() + ":b", "--near-tie-margin", "0.1"});
    QVERIFY2(text.out.contains("tokens: confident_change at token 1 (char 3)"),
             qPrintable(text.out));
    QVERIFY(text.out.contains("confident_change 1;"));

    write("logprobs/b.jsonl", "{\"i\":0,\"t\":[[1]]}\n");
    const auto bad = cli({run.path() + ":a", run.path() + ":b"});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("b.jsonl: line 1"), qPrintable(bad.err));
  }

  // A run folder's stored cross-scores (tokens.json) for A = baseline, B = candidate: a line per
  // pair, the totals, and "cross_score" in --json; other lanes' scores are not shown.
  void printsStoredCrossScores() {
    using nlohmann::json;
    QTemporaryDir run;
    QVERIFY(QDir(run.path()).mkpath("texts"));
    const auto write = [&](const QString& name, const std::string& text) {
      std::ofstream(run.filePath(name).toStdString()) << text;
    };
    write("texts/a.texts.json", json::array({"The cat", "Same"}).dump());
    write("texts/b.texts.json", json::array({"The dog", "Same"}).dump());
    const json b_by_a = {
        {"scorer", "a"},
        {"answer_of", "b"},
        {"status", "ok"},
        {"tokens", 3},
        {"top1_agreeing", 2},
        {"top1_agreement", 2.0 / 3},
        {"mean_abs_dlogprob_nats", 0.3},
        {"p95_abs_dlogprob_nats", 0.5},
        {"mean_kl_nats", 0.01},
        {"most_surprising",
         {{"id", "p0"}, {"token_index", 1}, {"token", " dog"}, {"scorer_logprob", -0.8}}}};
    const json a_by_b = {{"scorer", "b"},
                         {"answer_of", "a"},
                         {"status", "unsupported"},
                         {"reason", "cross-scoring unsupported: no /tokenize"}};
    const json both = {{"candidate_under_baseline", b_by_a}, {"baseline_under_candidate", a_by_b}};
    write("tokens.json",
          json{{"cross_score", both},
               {"pairs", json::array({{{"index", 0}, {"cross_score", both}}, {{"index", 1}}})}}
              .dump());
    const auto r = cli({run.path() + ":a", run.path() + ":b"});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.out.contains("  cross-scores: B read by A top-1 0.6667 (2/3), |dlogprob| mean "
                            "0.3000 p95 0.5000 nats, KL 0.01000 nats/token; most surprising "
                            "\" dog\" at token 1 of p0 (-0.800); A read by B cross-scoring "
                            "unsupported: no /tokenize"),
             qPrintable(r.out));
    QVERIFY(r.out.contains("cross-scores (B read by A): top-1 0.6667"));
    QCOMPARE(r.out.count("  cross-scores:"), 1);
    const auto j = cli({run.path() + ":a", run.path() + ":b", "--json"});
    const json out = json::parse(j.out.toStdString());
    QCOMPARE(out[0]["cross_score"]["candidate_under_baseline"]["top1_agreeing"].get<int>(), 2);
    QVERIFY(!out[1].contains("cross_score"));
    // Swapped lanes: the stored scores are not theirs.
    const auto swapped = cli({run.path() + ":b", run.path() + ":a"});
    QVERIFY(!swapped.out.contains("cross-scores"));
  }

  void reviewFileKeepsVerdictsAndClearsJudgedBlockers() {
    QTemporaryDir dir;
    const QString review = dir.filePath("review.json");
    const QStringList args{kDir + "bf16.texts.json",
                           kDir + "fp8.texts.json",
                           "--prompts",
                           "builtin:regression-20",
                           "--review",
                           review};
    QCOMPARE(cli(args).exit_code, 1);
    auto j = nlohmann::json::parse(std::ifstream(review.toStdString()));
    QCOMPARE(j["pairs"].size(), std::size_t(20));
    QCOMPARE(j["pairs"][0]["verdict"].get<std::string>(), std::string("unreviewed"));
    QCOMPARE(j["pairs"][1]["verdict"].get<std::string>(), std::string("identical"));
    j["pairs"][0]["verdict"] = "material_difference";
    j["pairs"][0]["note"] = "175 is wrong but the prompt is out of scope";
    j["pairs"][0]["reviewed_at"] = "2026-11-29T22:00:00Z";
    std::ofstream(review.toStdString()) << j.dump(2);
    QCOMPARE(cli(args).exit_code, 0);
    const auto again = nlohmann::json::parse(std::ifstream(review.toStdString()));
    QCOMPARE(again["pairs"][0]["verdict"].get<std::string>(), std::string("material_difference"));
    QCOMPARE(again["pairs"][0]["reviewed_at"].get<std::string>(),
             std::string("2026-11-29T22:00:00Z"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(CompareCliTest)
#include "compare_cli_test.moc"
