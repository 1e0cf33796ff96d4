// The report of a run with repeated trials and performance gates: throughput cells show their
// interval over trials (aggregate output tok/s included), the lane comparisons say they are over
// trials, and a "Performance gates" table gives each gate's ratio, threshold and outcome. The
// context sweep's rows and headline figures carry their intervals like the throughput ones.
#include <QtTest>

#include <filesystem>

#include "test_main.h"

#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "report_run_fixture.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json report_trials_plan() {
  const json gates = {{{"figure", "median_decode_tok_s"},
                       {"candidate", "fp8"},
                       {"baseline", "bf16"},
                       {"min_ratio", 1.2}},
                      {{"figure", "output_throughput"},
                       {"candidate", "fp8"},
                       {"baseline", "bf16"},
                       {"min_ratio", 3.0}}};
  const json load = {{"kind", "throughput"}, {"concurrency", {1}},        {"requests", 4},
                     {"warmups", 0},         {"input_tokens", 64},        {"output_tokens", 32},
                     {"trials", 3},          {"performance_gates", gates}};
  const json sweep = {{"kind", "context_sweep"},
                      {"prompt_tokens", {512, 2048}},
                      {"output_tokens", 16},
                      {"repeat", 2},
                      {"trials", 2}};
  return {{"name", "report trials"},
          {"lanes",
           // time_scale 0.1: the modelled times stay far above the client's own costs under
           // instrumentation and load, so fp8's lead is the model's, not the machine's.
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}}}},
          {"experiments", {load, sweep}}};
}

const lb::report::ReportTable* table_titled(const lb::report::ReportModel& m,
                                            const std::string& title) {
  for (const auto& t : m.performance)
    if (t.title == title) return &t;
  return nullptr;
}

}  // namespace

class TestReportTrials : public QObject {
  Q_OBJECT
  fs::path run_;
  std::optional<lb::report::RunFolder> folder_;
  lb::report::ReportModel model_;

 private slots:
  void initTestCase() {
    run_ = lb::test::run_plan_into(report_trials_plan(), "lb-report-trials");
    std::string error;
    folder_ = lb::report::load_run_folder(run_.string(), &error);
    QVERIFY2(folder_, error.c_str());
    model_ = lb::report::build_report_model(*folder_);
  }
  void cleanupTestCase() { fs::remove_all(run_); }

  void throughputCellsShowIntervalsOverTrials() {
    const auto* t = table_titled(model_, "Throughput by concurrency");
    QVERIFY(t);
    QCOMPARE(t->header[4], std::string("Output (tok/s)"));
    const nlohmann::json e =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Throughput).front();
    for (const auto& row : t->rows) {
      const json& p = e["lanes"][row[0]]["phases"][row[1]];
      const json& i = p["intervals"]["output_throughput"];
      QCOMPARE(i["basis"], "trials");
      QCOMPARE(row[4], lb::report::format_number(p["output_throughput"], 1) + " [" +
                           lb::report::format_number(i["lo"], 1) + ", " +
                           lb::report::format_number(i["hi"], 1) + "]");
      // A figure over trials is shown as the mean of its per-trial values, the interval's subject.
      const json& ttft = p["intervals"]["median_ttft_ms"];
      QCOMPARE(row[5], lb::report::format_number(ttft["estimate"], 1) + " [" +
                           lb::report::format_number(ttft["lo"], 1) + ", " +
                           lb::report::format_number(ttft["hi"], 1) + "]");
    }
  }

  // Each size's TTFT, decode and E2EL read "x [lo, hi]" from the size's phase: the mean of the
  // per-trial medians and its interval over trials; effective prefill has no interval.
  void contextSweepRowsShowIntervals() {
    const auto* t = table_titled(model_, "Context sweep");
    QVERIFY(t);
    QCOMPARE(t->rows.size(), size_t(4));  // two lanes x two sizes
    const nlohmann::json e =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::ContextSweep).front();
    auto bracket = [](const json& i, double scale, int decimals) {
      return " [" + lb::report::format_number(i["lo"].get<double>() * scale, decimals) + ", " +
             lb::report::format_number(i["hi"].get<double>() * scale, decimals) + "]";
    };
    for (const auto& row : t->rows) {
      const json& p = e["lanes"][row[0]]["phases"][row[1]];
      QCOMPARE(p["intervals"]["median_ttft_ms"]["basis"], "trials");
      const json& ttft = p["intervals"]["median_ttft_ms"];
      const double s = ttft["estimate"].get<double>() / 1000;
      const int decimals = s >= 100 ? 1 : s >= 1 ? 2 : 3;
      QCOMPARE(row[3], lb::report::format_number(s, decimals) + bracket(ttft, 1e-3, decimals));
      const json& decode = p["intervals"]["median_decode_tok_s"];
      QCOMPARE(row[5], lb::report::format_number(decode["estimate"], 1) + bracket(decode, 1, 1));
      QVERIFY2(row[6].find(" [") != std::string::npos, row[6].c_str());
      QVERIFY2(row[4].find('[') == std::string::npos, row[4].c_str());
    }
    const auto* head = table_titled(model_, "Headline figures");
    QVERIFY(head);
    bool found = false;
    for (const auto& row : head->rows)
      if (row[0] == "TTFT at 2048 prompt tokens (s)") {
        found = true;
        QVERIFY2(row[1].find(" [") != std::string::npos, row[1].c_str());
      }
    QVERIFY(found);
  }

  void comparisonsSayTheyAreOverTrials() {
    const auto* t = table_titled(model_, "Lane comparisons (throughput)");
    QVERIFY(t);
    QVERIFY2(t->note.find("bootstrap over trials") != std::string::npos, t->note.c_str());
    QVERIFY2(t->note.find("3 trials per lane") != std::string::npos, t->note.c_str());
    bool output = false;
    for (const auto& row : t->rows)
      if (row[2] == "output tok/s") output = row[4].rfind("faster (95 %)", 0) == 0;
    QVERIFY(output);  // fp8 outputs about 1.8 times what bf16 does, far outside the noise
  }

  void gatesTableGivesEachOutcome() {
    const auto* t = table_titled(model_, "Performance gates (throughput)");
    QVERIFY(t);
    QCOMPARE(t->rows.size(), size_t(2));
    QCOMPARE(t->rows[0][0], std::string("fp8/bf16"));
    QCOMPARE(t->rows[0][2], std::string("median_decode_tok_s"));
    QCOMPARE(t->rows[0][4], std::string(">= 1.200"));
    QCOMPARE(t->rows[0][5], std::string("pass"));
    QCOMPARE(t->rows[1][4], std::string(">= 3.000"));
    QCOMPARE(t->rows[1][5], std::string("fail"));
    QVERIFY(t->rows[1][3].find(" [") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportTrials)
#include "report_trials_test.moc"
