// Issue 36: `report` of a run folder from elsewhere writes only inside its report folder and
// copies only the run's own texts. Each case is a shared folder built the way an attacker would.
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/record/phase_name.h"
#include "core/report/report_writer.h"
#include "test_main.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

void spit(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A run folder with one lane and, when FIGURE is given, a sweep whose objective maximises it.
fs::path shared_run(const QTemporaryDir& tmp, const std::string& figure = {}) {
  const fs::path run = tmp.filePath("run").toStdString();
  spit(run / "plan.json", json{{"name", "shared"}, {"lanes", {{{"id", "fp8"}}}}}.dump());
  json summary = {{"run", {{"name", "shared"}}}, {"experiments", json::array()}};
  if (!figure.empty())
    summary["sweeps"] = {{{"parameter", "max_num_seqs"},
                          {"lane", "fp8"},
                          {"objective", {{"maximize", figure}}},
                          {"best", {{"value", 8}}},
                          {"points",
                           {{{"value", 4}, {"figures", {{figure, 10.0}}}},
                            {{"value", 8}, {"figures", {{figure, 12.0}}}}}}}};
  spit(run / "summary.json", summary.dump());
  spit(run / "requests.jsonl", "");
  return run;
}

lb::report::ReportWriteResult write_report(const fs::path& run, const fs::path& out) {
  std::string error;
  const auto folder = lb::report::load_run_folder(run.string(), &error);
  if (!folder) qFatal("run folder refused: %s", error.c_str());
  const auto scrubber = lb::report::PrivacyScrubber::for_run(*folder);
  lb::report::ReportModel model = lb::report::build_report_model(*folder);
  lb::report::redact_model_secrets(model, scrubber);
  return lb::report::write_report_files(*folder, model, scrubber, out.string(), {"md", "html"});
}

}  // namespace

class TestReportConfinement : public QObject {
  Q_OBJECT
 private slots:
  // Case 2: sweeps[].objective.maximize became charts/<id>.svg; "/.." x 12, a path and a NUL
  // wrote that path.
  void sweepFigureCannotNameAFileOutsideTheReport() {
    QTemporaryDir tmp;
    const fs::path target = tmp.filePath("authorized_keys").toStdString();
    std::string figure;
    for (int i = 0; i < 12; ++i) figure += "/..";
    figure += target.string() + std::string(1, '\0');
    const fs::path run = shared_run(tmp, figure);
    // The chart a sweep over that figure gets, as the report model names it.
    std::string error;
    const auto folder = lb::report::load_run_folder(run.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto scrubber = lb::report::PrivacyScrubber::for_run(*folder);
    lb::report::ReportModel model = lb::report::build_report_model(*folder);
    lb::report::ChartSpec chart;
    chart.id = "sweep-0-" + figure;
    chart.title = "figure against max_num_seqs";
    chart.series.push_back({"fp8", "#1f77b4", {{4, 10.0}, {8, 12.0}}, {}});
    model.charts.push_back(chart);
    const auto result =
        lb::report::write_report_files(*folder, model, scrubber, (run / "report").string(), {"md"});
    QVERIFY(!fs::exists(target));
    bool chart_written = false;
    for (const auto& name : result.written) {
      if (name.rfind("charts/", 0) != 0) continue;
      // One file name inside charts/, whatever the figure held ("_.._" is just characters).
      const std::string file = name.substr(7);
      QVERIFY2(file.find('/') == std::string::npos && file.find('\0') == std::string::npos,
               name.c_str());
      QVERIFY2(fs::is_regular_file(run / "report" / "charts" / file), name.c_str());
      chart_written = true;
    }
    QVERIFY(chart_written);
    QVERIFY(fs::is_directory(run / "report" / "charts"));
  }

  // Case 3: RUN/report came with the folder, RUN/report/texts linked to ~/.ssh.
  void linkedReportTextsFolderIsNotWrittenThrough() {
    QTemporaryDir tmp;
    const fs::path run = shared_run(tmp);
    const fs::path ssh = tmp.filePath("ssh").toStdString();
    spit(ssh / "authorized_keys", "mine\n");
    spit(run / "texts" / "authorized_keys", "theirs\n");
    spit(run / "texts" / "fp8.texts.json", "[\"hello\"]");
    fs::create_directories(run / "report");
    fs::create_directory_symlink(ssh, run / "report" / "texts");
    const auto result = write_report(run, run / "report");
    QCOMPARE(slurp(ssh / "authorized_keys"), std::string("mine\n"));
    QVERIFY(!fs::exists(ssh / "fp8.texts.json"));
    QVERIFY(!result.ok());  // the refusal is reported
    QVERIFY(fs::exists(run / "report" / "report.md"));
  }

  // Case 4: texts/a.texts.json -> ~/.ssh/id_rsa landed in report/texts/, the folder users share.
  void linkedTextsFileIsNotCopied() {
    QTemporaryDir tmp;
    const fs::path run = shared_run(tmp);
    const fs::path id_rsa = tmp.filePath("id_rsa").toStdString();
    spit(id_rsa, "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    spit(run / "texts" / "fp8.texts.json", "[\"hello\"]");
    spit(run / "texts" / "notes.txt", "not a run's file");
    fs::create_symlink(id_rsa, run / "texts" / "a.texts.json");
    write_report(run, run / "report");
    QVERIFY(fs::exists(run / "report" / "texts" / "fp8.texts.json"));
    QVERIFY(!fs::exists(run / "report" / "texts" / "a.texts.json"));
    QVERIFY(!fs::exists(run / "report" / "texts" / "notes.txt"));
  }

  // Case 13: a phase named "c" + 20 digits threw std::out_of_range out of the CLI.
  void aPhaseOfTwentyDigitsDoesNotAbortTheReport() {
    const std::string phase = "c" + std::string(20, '9');
    QCOMPARE(lb::record::concurrency_of(phase), -1LL);
    QCOMPARE(lb::record::concurrency_of("c32"), 32LL);
    QTemporaryDir tmp;
    const fs::path run = shared_run(tmp);
    json summary = json::parse(slurp(run / "summary.json"));
    summary["experiments"] = {
        {{"name", "throughput"},
         {"kind", "throughput"},
         {"lanes",
          {{"fp8", {{"phases", {{phase, {{"requests", 1}}}, {"c4", {{"requests", 1}}}}}}}}}}};
    spit(run / "summary.json", summary.dump());
    write_report(run, run / "report");
    QVERIFY(fs::exists(run / "report" / "report.md"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportConfinement)
#include "report_confinement_test.moc"
