// A real run folder read back: every request line, the gate table from summary.json, the
// decision record round trip, and a folder killed mid-run (torn last line, no summary.json)
// that still loads, marked incomplete.
#include <sys/stat.h>

#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include "test_main.h"

#include "core/record/run_summary.h"
#include "core/report/decision_record.h"
#include "core/report/gate_table.h"
#include "core/report/report_model.h"
#include "core/report/requests_csv.h"
#include "core/report/run_folder.h"
#include "report_run_fixture.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;
using lb::report::GateStatus;

// The summary as the gate table reads it: through the record.
static lb::record::RunSummary folder_record(const nlohmann::json& summary) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_run_summary(summary, fields);
}

class TestReportRunFolder : public QObject {
  Q_OBJECT
  fs::path run_;

 private slots:
  void initTestCase() { run_ = lb::test::run_plan_into(lb::test::report_test_plan(), "lb-rf"); }
  void cleanupTestCase() { fs::remove_all(run_); }

  void loadsEveryRequestOfAFinishedRun() {
    std::string error;
    const auto folder = lb::report::load_run_folder(run_.string(), &error);
    QVERIFY2(folder, error.c_str());
    QVERIFY(folder->complete);
    QVERIFY(!folder->interrupted);
    QCOMPARE(folder->torn_lines, int64_t(0));
    const auto lines = lb::test::read_jsonl(run_ / "requests.jsonl");
    QCOMPARE(folder->requests.size(), lines.size());
    QCOMPARE(folder->lane_ids(), (std::vector<std::string>{"bf16", "fp8"}));
    QCOMPARE(folder->reviews.size(), size_t(1));
    QVERIFY(!folder->decision);
    // Chart data agrees with the line it came from.
    const auto& p = folder->requests.front();
    QCOMPARE(p.lane, lines.front()["lane"].get<std::string>());
    QCOMPARE(p.ttft_ms, lines.front()["ttft_ms"].get<double>());
    size_t with_itl = 0;
    for (const auto& r : folder->requests) with_itl += r.itl_ms().empty() ? 0 : 1;
    QVERIFY(with_itl > folder->requests.size() / 2);
  }

  void gateTableFollowsSummary() {
    const auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    const auto table = lb::report::build_gate_table(folder->record, folder->lane_ids());
    QCOMPARE(table.lanes.size(), size_t(2));
    const auto gates = lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::Gates);
    QCOMPARE(gates.size(), size_t(1));
    int functional = 0;
    for (const auto& row : table.rows) {
      QCOMPARE(row.cells.size(), size_t(2));
      if (row.key.rfind("gates.", 0) != 0) continue;
      ++functional;
      const std::string check = row.key.substr(6);
      for (size_t i = 0; i < 2; ++i) {
        const auto& g = gates[0]["lanes"][table.lanes[i]]["gates"][check];
        QCOMPARE(std::string(lb::report::gate_status_name(row.cells[i].status)),
                 g["status"].get<std::string>());
        QCOMPARE(row.cells[i].score, g["score"].get<std::string>());
      }
    }
    QCOMPARE(functional, 7);
    // Rows follow the run: the regression (first in the plan) and its token fidelity, then the
    // gates in product order.
    QCOMPARE(table.rows.front().key, std::string("regression"));
    QCOMPARE(table.rows[1].key, std::string("tokens"));
    QCOMPARE(table.rows[2].label, std::string("JSON schema output"));
    QCOMPARE(table.rows[8].key, std::string("gates.reasoning"));
    QVERIFY(table.count(GateStatus::Pass) >= 14);
    const auto retrieval = std::find_if(table.rows.begin(), table.rows.end(),
                                        [](const auto& r) { return r.key == "retrieval"; });
    QVERIFY(retrieval != table.rows.end());
    QCOMPARE(lb::report::cell_text(retrieval->cells[1]), std::string("pass 2/2"));
    const auto regression = std::find_if(table.rows.begin(), table.rows.end(),
                                         [](const auto& r) { return r.key == "regression"; });
    QVERIFY(regression != table.rows.end());
    QCOMPARE(lb::report::cell_text(regression->cells[0]), std::string("baseline"));
    // Each row names the experiment it comes from.
    QCOMPARE(regression->experiment, std::string("regression"));
    QCOMPARE(table.rows[2].experiment, std::string("gates"));
    QCOMPARE(retrieval->experiment, std::string("context_sweep"));
    QVERIFY(regression->cells[1].score.find("/20") != std::string::npos);
  }

  // A context size whose retrieval_pass is not a boolean is no retrieval on that lane, and the
  // rows of the experiments after it are all still there (they were lost to a throw).
  void damagedRetrievalKeepsTheRowsAfterIt() {
    const auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    nlohmann::json summary = lb::test::summary_json(folder->dir);
    nlohmann::json sweep =
        lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::ContextSweep).front();
    const std::string first = folder->lane_ids().front();
    for (auto& size : sweep["lanes"][first]["context_sweep"]) size["retrieval_pass"] = "yes";
    nlohmann::json experiments = nlohmann::json::array({sweep});
    for (const auto& e : summary["experiments"])
      if (e.value("kind", "") != "context_sweep") experiments.push_back(e);
    summary["experiments"] = experiments;
    const auto table = lb::report::build_gate_table(folder_record(summary), folder->lane_ids());
    QCOMPARE(table.rows.front().key, std::string("retrieval"));
    QCOMPARE(lb::report::cell_text(table.rows.front().cells[0]), std::string("not run"));
    QCOMPARE(lb::report::cell_text(table.rows.front().cells[1]), std::string("pass 2/2"));
    const auto has = [&table](const std::string& key) {
      return std::any_of(table.rows.begin(), table.rows.end(),
                         [&key](const auto& r) { return r.key == key; });
    };
    QVERIFY(has("regression") && has("tokens") && has("gates.json") && has("gates.reasoning"));
  }

  // The fp8 profile drifts in wording: its divergent pairs await verdicts until a reviewer gives
  // them, and one blocker verdict fails the candidate.
  // A run that holds a kind twice (an experiment added to it) keeps both rows apart: each keyed
  // KEY@NAME and naming its experiment.
  void repeatedKindsKeepTheirRowsApart() {
    const auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    nlohmann::json summary = lb::test::summary_json(folder->dir);
    nlohmann::json again =
        lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::ContextSweep).front();
    again["name"] = "context_sweep-2";
    summary["experiments"].push_back(again);
    const auto table = lb::report::build_gate_table(folder_record(summary), folder->lane_ids());
    std::vector<std::pair<std::string, std::string>> retrieval;
    for (const auto& row : table.rows)
      if (row.key.rfind("retrieval", 0) == 0) retrieval.emplace_back(row.key, row.experiment);
    QCOMPARE(retrieval, (std::vector<std::pair<std::string, std::string>>{
                            {"retrieval@context_sweep", "context_sweep"},
                            {"retrieval@context_sweep-2", "context_sweep-2"}}));
    const auto json = lb::report::gate_table_to_json(table);
    QCOMPARE(json["rows"].back()["experiment"], "context_sweep-2");
  }

  void regressionRowFollowsReviewVerdicts() {
    auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder && folder->reviews.size() == 1);
    auto regression = [&folder] {
      const auto t =
          lb::report::build_gate_table(folder->record, folder->lane_ids(), &folder->reviews);
      return std::find_if(t.rows.begin(), t.rows.end(),
                          [](const auto& r) { return r.key == "regression"; })
          ->cells[1];
    };
    auto& review = folder->reviews.front();
    const size_t pending = review.outcome().unreviewed_required;
    QVERIFY(pending > 0);
    QCOMPARE(regression().status, GateStatus::NotRun);
    QCOMPARE(regression().detail, "review pending: " + std::to_string(pending) + " pair(s)");
    const auto now = std::chrono::system_clock::now();
    for (size_t i = 0; i < review.pairs.size(); ++i)
      if (review.pairs[i].comparison.review_required())
        review.set_verdict(i, lb::compare::Verdict::BenignDrift, "wording only", now);
    QCOMPARE(regression().status, GateStatus::Pass);
    QVERIFY(regression().note.empty());
    // A material difference passes, and the cell says how many there are.
    size_t material = 0;
    for (size_t i = 0; i < review.pairs.size(); ++i)
      if (review.pairs[i].comparison.review_required()) {
        material = i;
        review.set_verdict(i, lb::compare::Verdict::MaterialDifference, "drops a clause", now);
        break;
      }
    QCOMPARE(regression().status, GateStatus::Pass);
    QCOMPARE(regression().note, std::string("1 material"));
    QVERIFY2(lb::report::cell_text(regression()).find(" · 1 material") != std::string::npos,
             lb::report::cell_text(regression()).c_str());
    QVERIFY2(regression().detail.find("1 material difference(s)") != std::string::npos,
             regression().detail.c_str());
    review.set_verdict(material, lb::compare::Verdict::BenignDrift, "wording only", now);
    for (size_t i = 0; i < review.pairs.size(); ++i)
      if (review.pairs[i].comparison.review_required()) {
        review.set_verdict(i, lb::compare::Verdict::Blocker, "changed the answer", now);
        break;
      }
    QCOMPARE(regression().status, GateStatus::Fail);
    QVERIFY2(regression().detail.find("1 blocker") != std::string::npos,
             regression().detail.c_str());
  }

  void decisionRoundTripsAndRejectsNonsense() {
    const auto dir = lb::test::fresh_dir("lb-decision");
    fs::create_directories(dir);
    QVERIFY(!lb::report::load_decision(dir.string()));
    lb::report::DecisionRecord d;
    d.decision = lb::report::Decision::Reject;
    d.rationale = "flipped fact on prompt 7";
    d.gates = {{"json", "pass"}};
    std::string error;
    QVERIFY2(lb::report::save_decision(dir.string(), d, &error), error.c_str());
    const auto back = lb::report::load_decision(dir.string(), &error);
    QVERIFY2(back, error.c_str());
    QCOMPARE(back->decision, lb::report::Decision::Reject);
    QCOMPARE(back->rationale, d.rationale);
    QVERIFY(back->decided_at.size() == 20 && back->decided_at.back() == 'Z');
    QCOMPARE(back->gates, d.gates);
    QCOMPARE(fs::directory_iterator(dir)->path().filename().string(), std::string("decision.json"));
    std::ofstream(dir / "decision.json") << R"({"decision": "maybe", "decided_at": "x"})";
    QVERIFY(!lb::report::load_decision(dir.string(), &error));
    QVERIFY2(error.find("\"decision\"") != std::string::npos, error.c_str());
    fs::remove_all(dir);
  }

  void killedRunStillLoadsAsIncomplete() {
    const auto dir = lb::test::fresh_dir("lb-rf-torn");
    fs::copy(run_, dir, fs::copy_options::recursive);
    fs::remove(dir / "summary.json");
    const auto size = fs::file_size(dir / "requests.jsonl");
    fs::resize_file(dir / "requests.jsonl", size - 40);  // the kill cuts the last line
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder, error.c_str());
    QVERIFY(!folder->complete);
    QVERIFY(folder->interrupted);
    QCOMPARE(folder->torn_lines, int64_t(1));
    QCOMPARE(folder->requests.size(), lb::test::read_jsonl(run_ / "requests.jsonl").size() - 1);
    QVERIFY(!folder->warnings.empty());
    QVERIFY(lb::report::build_gate_table(folder->record, folder->lane_ids()).empty());
    fs::remove_all(dir);
  }

  // A steady_state of the wrong shape is a row saying none was found, never a throw.
  void damagedSteadyStateIsARowNotAThrow() {
    const auto dir = lb::test::fresh_dir("lb-rf-steady");
    fs::copy(run_, dir, fs::copy_options::recursive);
    auto summary = lb::test::read_json(dir / "summary.json");
    bool damaged = false;
    for (auto& e : summary["experiments"])
      if (e["kind"] == "throughput")
        for (auto& [lane, section] : e["lanes"].items())
          for (auto& [name, phase] : section["phases"].items()) {
            phase["steady_state"] = {{"found", "yes"}, {"short", 3}, {"window_s", "x"}};
            damaged = true;
          }
    QVERIFY(damaged);
    std::ofstream(dir / "summary.json") << summary.dump();
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto tables = lb::report::performance_tables(*folder);
    const auto steady = std::find_if(tables.begin(), tables.end(), [](const auto& t) {
      return t.title == "Steady state by concurrency";
    });
    QVERIFY(steady != tables.end());
    for (const auto& row : steady->rows) QCOMPARE(row[2], std::string("none"));
    fs::remove_all(dir);
  }

  // A report loads no request, only their digest, and writes requests.csv from the file itself:
  // the same rows as from the requests kept in memory; a requests.jsonl it cannot read leaves no
  // half-written CSV behind.
  void aReportHoldsNoRequestsAndStreamsItsCsv() {
    std::string error;
    const auto kept = lb::report::load_run_folder(run_.string(), &error);
    QVERIFY2(kept, error.c_str());
    const auto lean = lb::report::load_run_folder_for_report(run_.string(), &error);
    QVERIFY2(lean, error.c_str());
    QVERIFY(lean->requests.empty());
    QVERIFY(!kept->requests.empty());
    QCOMPARE(lean->request_count, kept->request_count);
    QCOMPARE(lean->digest.failed(), kept->digest.failed());
    std::set<std::string> experiments;
    for (const auto& r : kept->requests) experiments.insert(r.experiment);
    int64_t gaps = 0;
    for (const std::string& lane : kept->lane_ids()) {
      QCOMPARE(lean->digest.gaps(lane, experiments).count(),
               kept->digest.gaps(lane, experiments).count());
      gaps += lean->digest.gaps(lane, experiments).count();
    }
    QVERIFY(gaps > 0);

    const auto out = lb::test::fresh_dir("lb-rf-csv");
    QVERIFY2(lb::report::write_requests_csv(*lean, out.string(), "requests.csv", &error),
             error.c_str());
    std::string want = lb::report::requests_csv_header();
    lb::report::append_requests_csv_rows(kept->requests, want);
    std::ifstream in(out / "requests.csv", std::ios::binary);
    const std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QCOMPARE(got.size(), want.size());
    QVERIFY(got == want);

    const auto fifo = lb::test::fresh_dir("lb-rf-csv-fifo");
    fs::create_directories(fifo);
    QCOMPARE(::mkfifo((fifo / "requests.jsonl").c_str(), 0600), 0);
    lb::report::RunFolder broken = *lean;
    broken.dir = fifo.string();
    QVERIFY(!lb::report::write_requests_csv(broken, fifo.string(), "out.csv", &error));
    QVERIFY2(error.find("out.csv not written") != std::string::npos, error.c_str());
    for (const auto& entry : fs::directory_iterator(fifo))  // no temporary left behind
      QCOMPARE(entry.path().filename().string(), std::string("requests.jsonl"));
    fs::remove_all(out);
    fs::remove_all(fifo);
  }

  // Each damaged file is named once, in the pages' words, whatever made it unreadable.
  void damagedFilesAreNamedAsThePagesSayIt() {
    const auto dir = lb::test::fresh_dir("lb-rf-damage");
    fs::copy(run_, dir, fs::copy_options::recursive);
    fs::remove(dir / "summary.json");
    QCOMPARE(::mkfifo((dir / "summary.json").c_str(), 0600), 0);
    std::ofstream(dir / "plan.json") << "[1]";
    std::ofstream(dir / "environment.json") << "{\"cut";
    std::ofstream(dir / "decision.json") << "{";
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder, error.c_str());
    std::string all;
    for (const std::string& line : folder->damage) all += line + "\n";
    QCOMPARE(folder->damage.size(), size_t{4});
    QVERIFY2(all.find("damaged: summary.json: a FIFO") != std::string::npos, all.c_str());
    QVERIFY2(all.find("damaged: plan.json: the file is array, not an object") != std::string::npos,
             all.c_str());
    QVERIFY2(
        all.find("damaged: environment.json: not valid JSON (cut short?)") != std::string::npos,
        all.c_str());
    QVERIFY2(all.find("damaged: decision.json: not valid JSON (cut short?)") != std::string::npos,
             all.c_str());
    QVERIFY2(all.find(dir.string()) == std::string::npos, all.c_str());  // named, not pathed
    fs::remove_all(dir);
  }

  void notARunFolderIsAClearError() {
    std::string error;
    QVERIFY(!lb::report::load_run_folder("/nonexistent/run", &error));
    QVERIFY2(error.find("no such directory") != std::string::npos, error.c_str());
    const auto empty = lb::test::fresh_dir("lb-rf-empty");
    fs::create_directories(empty);
    QVERIFY(!lb::report::load_run_folder(empty.string(), &error));
    QVERIFY2(error.find("not a run folder") != std::string::npos, error.c_str());
    fs::remove_all(empty);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportRunFolder)
#include "report_run_folder_test.moc"
