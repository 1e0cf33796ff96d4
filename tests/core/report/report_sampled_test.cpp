// The sampled review in the qualification: a real sampled run on simulator lanes (one lane with
// flip_facts=1) read back as a run folder. The gate row waits for a verdict on every shifted
// prompt and fails on a blocker; the report's table has a row per prompt with its
// distributions, fact loss and verdict.
#include <QtTest>

#include "test_main.h"

#include <algorithm>

#include "core/record/run_summary.h"
#include "core/report/gate_table.h"
#include "core/report/markdown_report.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "report_run_fixture.h"

namespace fs = std::filesystem;
using lb::report::GateStatus;

namespace {

nlohmann::json sampled_plan() {
  const nlohmann::json exp = {{"kind", "sampled_regression"}, {"samples", 8}, {"concurrency", 8}};
  return {{"name", "sampled report"},
          {"lanes",
           {{{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.002"}},
            {{"id", "fp8-flip"}, {"base_url", "sim:fp8?time_scale=0.002&flip_facts=1"}}}},
          {"experiments", {exp}}};
}

lb::report::GateCell sampled_cell(const lb::report::RunFolder& folder, size_t lane) {
  const auto t = lb::report::build_gate_table(folder.record, folder.lane_ids(), &folder.reviews,
                                              &folder.artifacts, &folder.sampled_reviews);
  const auto row =
      std::find_if(t.rows.begin(), t.rows.end(), [](const auto& r) { return r.key == "sampled"; });
  if (row == t.rows.end()) qFatal("no sampled row");
  return row->cells[lane];
}

}  // namespace

class ReportSampledTest : public QObject {
  Q_OBJECT
  fs::path run_;

 private slots:
  void initTestCase() { run_ = lb::test::run_plan_into(sampled_plan(), "lb-sampled-report"); }
  void cleanupTestCase() { fs::remove_all(run_); }

  void gateWaitsForEveryShiftedPrompt() {
    auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    QCOMPARE(folder->sampled_reviews.size(), size_t{1});
    auto& record = folder->sampled_reviews.front();
    const size_t shifted = record.outcome().shifted;
    QVERIFY(shifted > 0);
    QCOMPARE(sampled_cell(*folder, 0).detail, std::string("baseline"));
    auto cell = sampled_cell(*folder, 1);
    QCOMPARE(cell.status, GateStatus::NotRun);
    QCOMPARE(cell.detail, "review pending: " + std::to_string(shifted) + " of " +
                              std::to_string(shifted) + " shifted prompt(s)");
    QCOMPARE(cell.score, std::to_string(20 - shifted) + "/20 indistinguishable");
    const auto now = std::chrono::system_clock::now();
    for (auto& p : record.prompts)
      if (p.review_required())
        record.set_verdict(p.index, lb::compare::Verdict::MaterialDifference, "fact changed", now);
    QCOMPARE(sampled_cell(*folder, 1).status, GateStatus::Pass);
    for (auto& p : record.prompts)
      if (p.review_required()) {
        record.set_verdict(p.index, lb::compare::Verdict::Blocker, "wrong number", now);
        break;
      }
    QCOMPARE(sampled_cell(*folder, 1).status, GateStatus::Fail);
  }

  void reportHasATableRowPerPrompt() {
    const auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    const auto tables = lb::report::sampled_review_tables(*folder);
    QCOMPARE(tables.size(), size_t{1});
    const auto& t = tables.front();
    QCOMPARE(t.title, std::string("Sampled review: fp8-flip vs fp8"));
    QCOMPARE(t.rows.size(), size_t{20});
    int shifted = 0;
    for (const auto& row : t.rows) {
      QCOMPARE(row.size(), t.header.size());
      if (row[1] != "shifted") {
        QCOMPARE(row[8], std::string("–"));
        continue;
      }
      ++shifted;
      QCOMPARE(row[8], std::string("unreviewed"));
      QVERIFY2(row[6].rfind("0/8", 0) == 0, row[6].c_str());  // the baseline keeps its facts
      QVERIFY2(row[7].rfind("0/8", 0) != 0, row[7].c_str());
    }
    QVERIFY(shifted > 0);
    QVERIFY(t.note.find("Benjamini–Hochberg") != std::string::npos);
    const std::string md = lb::report::render_markdown(lb::report::build_report_model(*folder));
    QVERIFY(md.find("Sampled review: fp8-flip vs fp8") != std::string::npos);
    QVERIFY(md.find("Sampled review (no shifted prompt unreviewed)") != std::string::npos);
  }

  // A prompt whose figures are damaged (text where numbers belong, a null) loses those cells,
  // not the table, and the prompts after it keep their rows.
  void damagedPromptFiguresReadAsNotAvailable() {
    auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    nlohmann::json summary = lb::test::summary_json(folder->dir);
    auto& prompt = summary["experiments"][0]["comparisons"][0]["prompts"][0];
    prompt["q_value"] = nullptr;
    prompt["within_a"]["median"] = "high";
    prompt["fact_lost"]["fp8"]["lost"] = "none";
    summary["experiments"][0]["samples"] = "eight";
    lb::record::FileFields fields("summary.json");
    folder->record = lb::record::read_run_summary(summary, fields);
    const auto tables = lb::report::sampled_review_tables(*folder);
    QCOMPARE(tables.size(), size_t{1});
    const auto& t = tables.front();
    QCOMPARE(t.rows.size(), size_t{20});
    QCOMPARE(t.rows[0][2], std::string("n/a"));
    QVERIFY2(t.rows[0][3].rfind("n/a [", 0) == 0, t.rows[0][3].c_str());
    QVERIFY2(t.rows[0][6].rfind("0/8", 0) == 0, t.rows[0][6].c_str());
    QVERIFY(t.note.rfind("n/a samples per prompt", 0) == 0);
    QVERIFY(t.rows[1][2] != "n/a");
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ReportSampledTest)
#include "report_sampled_test.moc"
