// Run folders written by earlier versions of LaneBench (tests/fixtures/run_folders_older/VERSION,
// one small run per experiment kind on three simulator lanes, written by that version's
// lanebench-cli with tests/fixtures/run_folders/make.sh) still open: summary.json reads into the
// typed record without a note, every kind is known, and the report is built and written from
// each, as the workbench and lanebench-cli report do.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <set>

#include "core/record/run_summary.h"
#include "core/report/html_report.h"
#include "core/report/markdown_report.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"
#include "test_main.h"
#include "test_paths.h"

namespace fs = std::filesystem;

namespace {

// VERSION/KIND folders, sorted.
std::vector<fs::path> older_folders() {
  std::vector<fs::path> out;
  for (const auto& version : fs::directory_iterator(lb::test::fixture_path("run_folders_older")))
    if (version.is_directory())
      for (const auto& kind : fs::directory_iterator(version.path()))
        if (kind.is_directory()) out.push_back(kind.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string name_of(const fs::path& dir) {
  return dir.parent_path().filename().string() + "/" + dir.filename().string();
}

}  // namespace

class ReportOlderFoldersTest : public QObject {
  Q_OBJECT
 private slots:
  void everyKindOfTheOlderVersionIsThere() {
    std::set<std::string> kinds;
    for (const fs::path& dir : older_folders()) kinds.insert(dir.filename().string());
    for (const char* kind :
         {"throughput", "regression", "context_sweep", "prefix_cache", "speculative", "gates",
          "trace", "sampled_regression", "sessions", "capacity"})
      QVERIFY2(kinds.count(kind), kind);
  }

  void olderFoldersReadIntoTheRecordWithoutANote() {
    for (const fs::path& dir : older_folders()) {
      std::string error;
      const auto folder = lb::report::load_run_folder(dir.string(), &error);
      QVERIFY2(folder, (name_of(dir) + ": " + error).c_str());
      QVERIFY2(folder->record_damage.empty(),
               (name_of(dir) + ": " +
                (folder->record_damage.empty() ? std::string() : folder->record_damage[0]))
                   .c_str());
      QVERIFY2(folder->damage.empty(),
               (name_of(dir) + ": " + (folder->damage.empty() ? std::string() : folder->damage[0]))
                   .c_str());
      QVERIFY2(folder->complete, name_of(dir).c_str());
      QCOMPARE(folder->record.experiments.size(), size_t(1));
      const auto& section = folder->record.experiments.front();
      QVERIFY2(section.kind && lb::record::to_string(*section.kind) == dir.filename().string(),
               name_of(dir).c_str());
      QCOMPARE(section.lanes.size(), size_t(3));
      QCOMPARE(folder->lane_ids().size(), size_t(3));
    }
  }

  void theReportIsWrittenFromEach() {
    for (const fs::path& dir : older_folders()) {
      std::string error;
      const auto folder = lb::report::load_run_folder(dir.string(), &error);
      QVERIFY2(folder, error.c_str());
      const lb::report::ReportModel model = lb::report::build_report_model(*folder);
      const std::string markdown = lb::report::render_markdown(model);
      QVERIFY2(markdown.find("# ") != std::string::npos, name_of(dir).c_str());
      QVERIFY2(!lb::report::render_html(model).empty(), name_of(dir).c_str());
      for (const std::string& lane : folder->lane_ids())
        QVERIFY2(markdown.find(lane) != std::string::npos, (name_of(dir) + ": " + lane).c_str());
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ReportOlderFoldersTest)
#include "report_older_folders_test.moc"
