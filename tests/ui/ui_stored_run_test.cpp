// Stored runs, offscreen, on a real run folder made by the engine on two in-process simulator
// lanes: the Decision page shows the gate table from summary.json, saves decision.json with Ctrl+S
// and shows it again when the run is reopened; the Runs page lists an interrupted copy (summary
// deleted, last request line cut) as incomplete and reopens both runs' charts with one TTFT point
// per finished request, and a run of none of the traffic kinds with none of their charts; the
// window hands an opened run to the Decision page; a run folder made by importing a vLLM bench
// serve result opens with its charts.
#include <QAbstractItemModelTester>
#include <QDir>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QImage>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/compare/review_record.h"
#include "core/fleet/run_merge.h"
#include "core/interop/run_import.h"
#include "core/plan/plan.h"
#include "core/report/decision_record.h"
#include "core/report/report_writer.h"
#include "core/report/run_folder.h"
#include "core/run/plan_runner.h"
#include "models/item_roles.h"
#include "sim/sim_lane.h"
#include "test_main.h"
#include "test_paths.h"
#include "ui/history/run_folder_job.h"
#include "ui/history/stored_charts.h"
#include "ui/main_window.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/runs_page.h"
#include "ui/report/report_export_job.h"
#include "ui/run/live_charts.h"
#include "ui/run/staging_sink.h"
#include "ui_run_fixture.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

using namespace lb;
using namespace lb::ui;

namespace {

// The summary's status of one gate for one lane ("pass", "fail", "unsupported").
QString summary_gate_status(const nlohmann::json& summary, const std::string& lane,
                            const std::string& check) {
  for (const auto& e : summary["experiments"])
    if (e.value("kind", "") == "gates")
      return QString::fromStdString(e["lanes"][lane]["gates"][check].value("status", "?"));
  return "?";
}

// The row with this label (and, when given, of this experiment).
int row_of(const models::GateTableModel& model, const QString& label,
           const QString& experiment = QString()) {
  for (int r = 0; r < model.rowCount(); ++r)
    if (model.index(r, 0).data().toString() == label &&
        (experiment.isEmpty() ||
         model.index(r, models::GateTableModel::kExperimentColumn).data().toString() == experiment))
      return r;
  return -1;
}

constexpr int kLane0 = models::GateTableModel::kFirstLaneColumn;

int history_row(const models::RunHistoryModel& model, const QString& dir) {
  for (int r = 0; r < model.rowCount(); ++r)
    if (QDir(model.run_at(r)->path) == QDir(dir)) return r;
  return -1;
}

}  // namespace

class UiStoredRunTest : public QObject {
  Q_OBJECT
  QTemporaryDir workspace_;
  QString complete_, interrupted_;
  int interrupted_lines_ = 0;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(workspace_.isValid());
    complete_ = QDir(workspace_.path()).filePath("runs/20260101-100000-complete");
    interrupted_ = QDir(workspace_.path()).filePath("runs/20260101-110000-killed");
    QDir().mkpath(QDir(workspace_.path()).filePath("runs"));
    test::run_small_plan(complete_);
    QVERIFY(QFileInfo::exists(QDir(complete_).filePath("summary.json")));
    interrupted_lines_ = test::make_interrupted_copy(complete_, interrupted_);
    QVERIFY(interrupted_lines_ > 10);
  }

  void stored_charts_look_like_the_live_ones() {
    auto palette = std::make_shared<widgets::LanePalette>();
    LiveCharts live(palette);
    StoredCharts stored(palette);
    const std::vector<std::pair<widgets::ChartPanel*, widgets::ChartPanel*>> pairs = {
        {live.output_rate(), stored.output_rate()},
        {live.ttft(), stored.ttft()},
        {live.itl(), stored.itl()},
        {live.tokens_per_event(), stored.tokens_per_event()},
        {live.decode_vs_context(), stored.decode_vs_context()},
        {live.ttft_vs_context(), stored.ttft_vs_context()},
        {live.trace_lateness(), stored.trace_lateness()},
        {live.ttft_by_turn(), stored.ttft_by_turn()},
        {live.capacity_probes(), stored.capacity_probes()},
        {live.capacity_ttft(), stored.capacity_ttft()},
        {live.capacity_tpot(), stored.capacity_tpot()}};
    for (const auto& [a, b] : pairs) {
      QVERIFY(!a->title().isEmpty());
      QCOMPARE(b->title(), a->title());
      QVERIFY(b->kind() == a->kind());
      QCOMPARE(b->x_axis().label(), a->x_axis().label());
      QCOMPARE(b->y_axis().label(), a->y_axis().label());
      QVERIFY2(!a->y_axis().unit.isEmpty(), qPrintable(a->title()));  // every value has a unit
    }
  }

  // An empty chart says why: no run is open yet, or the open run has nothing for it.
  void stored_charts_say_why_they_are_empty() {
    StoredCharts stored(std::make_shared<widgets::LanePalette>());
    const auto says = [&](const QString& text) {
      for (QGraphicsItem* item : stored.itl()->findChild<QGraphicsView*>()->scene()->items())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(item); t && t->text() == text)
          return t->isVisible();
      return false;
    };
    QVERIFY(says("Open a run to see its charts"));
    stored.show_run(StoredRunSeries{});
    QVERIFY(says("No finished requests in this run"));
    stored.clear();
    QVERIFY(says("Open a run to see its charts"));
  }

  void decision_page_shows_gates_and_round_trips_decision() {
    const auto run = load_run(complete_);
    QVERIFY2(run->folder, qPrintable(run->error));
    DecisionPage page;
    QAbstractItemModelTester tester(page.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY(!page.save(&error));  // nothing open yet
    QVERIFY2(error.contains("No run is open"), qPrintable(error));

    page.set_run(run);
    const models::GateTableModel& model = *page.model();
    QCOMPARE(model.lanes(), QStringList({"bf16", "fp8"}));
    const nlohmann::json summary = nlohmann::json::parse(
        std::ifstream(std::filesystem::path(run->folder->dir) / "summary.json"));
    for (const auto& [check, label] :
         {std::pair{"json", "JSON schema output"}, std::pair{"streaming", "Streaming integrity"}}) {
      const int row = row_of(model, label);
      QVERIFY2(row >= 0, label);
      for (int lane = 0; lane < 2; ++lane)
        QCOMPARE(model.index(row, kLane0 + lane).data(models::GateStatusRole).toString(),
                 summary_gate_status(summary, lane == 0 ? "bf16" : "fp8", check));
    }
    QVERIFY(model.count("pass") >= 2);
    QVERIFY(row_of(model, "Long-context retrieval (sizes passed)") >= 0);
    // A performance figure equals summary.json's, as shown (one decimal below 100), followed by
    // its interval; the cell's tooltip is the lane's verdict against the first lane.
    const int ttft_row = row_of(model, "TTFT median (ms) at c1", "throughput");
    QVERIFY(ttft_row >= 0);
    nlohmann::json c1;
    for (const auto& e : summary["experiments"])
      if (e.value("kind", "") == "throughput") c1 = e["lanes"]["fp8"]["phases"]["c1"];
    const double want = c1["median_ttft_ms"].get<double>();
    const int decimals = want >= 100 ? 0 : 1;
    const auto& interval = c1["intervals"]["median_ttft_ms"];
    const QStringList cell = model.index(ttft_row, kLane0 + 1).data().toString().split('\n');
    QCOMPARE(cell.size(), 2);
    QCOMPARE(cell[0], QString("%1 [%2, %3]")
                          .arg(QString::number(want, 'f', decimals),
                               QString::number(interval["lo"].get<double>(), 'f', decimals),
                               QString::number(interval["hi"].get<double>(), 'f', decimals)));
    // The second line is fp8's ratio to bf16 with its interval and verdict, as summary.json has
    // them; the full statement is the tooltip.
    nlohmann::json comparison;
    for (const auto& e : summary["experiments"])
      if (e.value("kind", "") == "throughput")
        for (const auto& c : e["comparisons"])
          if (c["candidate"] == "fp8" && c["phase"] == "c1" && c["figure"] == "median_ttft_ms")
            comparison = c;
    QVERIFY(comparison.is_object());
    QCOMPARE(cell[1], QString("\u00d7%1 [%2, %3] %4")
                          .arg(QString::number(comparison["ratio"].get<double>(), 'f', 2),
                               QString::number(comparison["lo"].get<double>(), 'f', 2),
                               QString::number(comparison["hi"].get<double>(), 'f', 2),
                               QString::fromStdString(comparison["verdict"].get<std::string>())));
    const QString verdict = model.index(ttft_row, kLane0 + 1).data(Qt::ToolTipRole).toString();
    QVERIFY2(verdict.startsWith("fp8/bf16 c1 TTFT p50 ") && verdict.contains("(95 %)"),
             qPrintable(verdict));
    QVERIFY(model.index(ttft_row, kLane0).data(Qt::ToolTipRole).isNull());  // the baseline
    QVERIFY(!model.index(ttft_row, kLane0).data().toString().contains('\n'));
    // Every phase has its rows, not only the first: c2, and both context sizes.
    QVERIFY(row_of(model, "Decode median (tok/s) at c2", "throughput") >= 0);
    QVERIFY(row_of(model, "TTFT median (ms) at 1024", "context_sweep") >= 0);
    QVERIFY(row_of(model, "TTFT median (ms) at 2048", "context_sweep") >= 0);
    QVERIFY(page.banner_text().isEmpty());

    QVERIFY(!page.save(&error));  // no choice yet
    page.set_decision(report::Decision::Challenger);
    QVERIFY(!page.save(&error));  // no rationale
    QVERIFY2(error.contains("rationale"), qPrintable(error));
    page.set_rationale("fp8 passes every gate; decode within noise; keep bf16 until review.");
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    QSignalSpy saved(&page, &DecisionPage::saved);
    QTest::keySequence(&page, QKeySequence::Save);  // Ctrl+S
    QCOMPARE(saved.count(), 1);
    std::string why;
    const auto record = report::load_decision(complete_.toStdString(), &why);
    QVERIFY2(record.has_value(), why.c_str());
    QCOMPARE(record->decision, report::Decision::Challenger);
    QCOMPARE(record->candidate, std::string("fp8"));  // the only candidate
    QCOMPARE(record->baseline, std::string("bf16"));
    QVERIFY(record->overridden_gates.empty());
    QVERIFY(record->rationale.find("every gate") != std::string::npos);
    QVERIFY(!record->decided_at.empty());
    QCOMPARE(static_cast<int>(record->gates["rows"].size()),
             model.rowCount() - static_cast<int>(std::count_if(
                                    model.rows().begin(), model.rows().end(),
                                    [](const models::GateRowView& r) { return r.performance; })));

    // Reopened in a fresh page, the saved decision is shown.
    DecisionPage reopened;
    reopened.set_run(load_run(complete_));
    QCOMPARE(reopened.decision(), std::optional(report::Decision::Challenger));
    QCOMPARE(reopened.rationale(), page.rationale());
    QVERIFY2(reopened.saved_text().contains("challenger"), qPrintable(reopened.saved_text()));
    QVERIFY(!reopened.dirty());

    // An unsaved edit survives opening another run as a draft and comes back with its run.
    const QString saved_rationale = reopened.rationale();
    reopened.set_decision(report::Decision::Reject);
    reopened.set_rationale("Reject: the fp8 lane's long-context row needs another look.");
    QVERIFY(reopened.dirty());
    QVERIFY2(reopened.saved_text().startsWith("Unsaved changes"),
             qPrintable(reopened.saved_text()));
    QSignalSpy status(&reopened, &DecisionPage::status);
    reopened.set_run(load_run(interrupted_));
    QCOMPARE(status.count(), 1);
    QVERIFY2(status.last().at(0).toString().contains("kept as a draft"),
             qPrintable(status.last().at(0).toString()));
    QVERIFY(!reopened.decision().has_value());  // the other run's own (empty) decision
    QVERIFY(reopened.rationale().isEmpty());
    QVERIFY(!reopened.dirty());
    QCOMPARE(reopened.unsaved_runs(), QStringList({complete_}));
    reopened.set_run(load_run(complete_));
    QCOMPARE(reopened.decision(), std::optional(report::Decision::Reject));
    QVERIFY(reopened.rationale().startsWith("Reject:"));
    QVERIFY(reopened.dirty());
    QVERIFY(reopened.saved_text().startsWith("Unsaved changes"));
    QCOMPARE(reopened.unsaved_runs(), QStringList({complete_}));
    // Editing back to what is saved leaves nothing unsaved; the file was never touched.
    reopened.set_decision(report::Decision::Challenger);
    reopened.set_rationale(saved_rationale);
    QVERIFY(!reopened.dirty());
    QVERIFY(reopened.unsaved_runs().isEmpty());
    QVERIFY(reopened.confirm_discard());  // nothing to ask about
    QCOMPARE(report::load_decision(complete_.toStdString())->decision,
             report::Decision::Challenger);

    reopened.clear_run();
    QVERIFY(!reopened.has_run());
    QVERIFY(!reopened.decision().has_value());
  }

  // File > Export Report's job: every format written off the GUI thread, the PDF a real PDF.
  // The Decision page judges as the report does: verdicts given since the run decide the
  // regression row, and a checkpoint verification attached to the run (verify --attach) is a row.
  void decision_page_follows_reviews_and_attached_artifacts() {
    QTemporaryDir copy;
    const std::filesystem::path run_dir = std::filesystem::path(copy.path().toStdString()) / "run";
    std::filesystem::copy(complete_.toStdString(), run_dir,
                          std::filesystem::copy_options::recursive);
    std::filesystem::create_directories(run_dir / "artifacts");
    std::ofstream(run_dir / "artifacts" / "fp8.verification.json")
        << R"({"passed": false, "files": [], "totals": {"ok": 3, "mismatch": 1, "refused": 0}})";
    // Every pair that needs review gets a benign-drift verdict, saved as the Review page would.
    auto folder = report::load_run_folder(run_dir.string(), nullptr);
    QVERIFY(folder && folder->reviews.size() == 1);
    compare::ReviewRecord review = folder->reviews.front();
    QVERIFY(review.outcome().unreviewed_required > 0);
    for (size_t i = 0; i < review.pairs.size(); ++i)
      if (review.pairs[i].comparison.review_required())
        review.set_verdict(i, compare::Verdict::BenignDrift, "wording",
                           std::chrono::system_clock::now());
    std::string error;
    QVERIFY2(compare::save_review(review, (run_dir / "review.json").string(), &error),
             error.c_str());

    const auto run = load_run(QString::fromStdString(run_dir.string()));
    QVERIFY2(run->folder, qPrintable(run->error));
    DecisionPage page;
    page.set_run(run);
    const models::GateTableModel& model = *page.model();
    const int regression = row_of(model, "Regression vs baseline (identical or similar)");
    QVERIFY(regression >= 0);
    QCOMPARE(model.index(regression, kLane0 + 1).data(models::GateStatusRole).toString(),
             QString("pass"));
    const int row = row_of(model, "Artifacts verified (identity, refuse list, headers)");
    QVERIFY(row >= 0);
    QCOMPARE(model.index(row, kLane0).data(models::GateStatusRole).toString(), QString("not run"));
    QCOMPARE(model.index(row, kLane0 + 1).data(models::GateStatusRole).toString(), QString("fail"));
    QVERIFY2(model.index(row, kLane0 + 1).data().toString().contains("3/4"),
             qPrintable(model.index(row, kLane0 + 1).data().toString()));
  }

  void report_export_writes_every_format() {
    QTemporaryDir out;
    ReportExportJob job;
    QSignalSpy finished(&job, &ReportExportJob::finished);
    QVERIFY(job.start(complete_, out.path(), lb::report::report_format_names()));
    QVERIFY(!job.start(complete_, out.path(), {"html"}));  // one export at a time
    QVERIFY(finished.wait(60'000));
    const auto result = finished.at(0).at(0).value<ReportExportResult>();
    QVERIFY2(result.errors.isEmpty(), qPrintable(result.errors.join("; ")));
    for (const QString name :
         {"report.html", "report.md", "report.pdf", "requests.csv", "qualification-summary.json"}) {
      QVERIFY2(result.written.contains(name), qPrintable(result.written.join(", ")));
      QVERIFY(QFileInfo(QDir(out.path()).filePath(name)).size() > 0);
    }
    // The charts as PNG too, one per SVG chart.
    const QStringList pngs = result.written.filter(QRegularExpression("^charts/.*\\.png$"));
    QVERIFY(!pngs.isEmpty());
    QCOMPARE(pngs.size(), result.written.filter(QRegularExpression("^charts/.*\\.svg$")).size());
    QVERIFY(!QImage(QDir(out.path()).filePath(pngs.front())).isNull());
    QFile pdf(QDir(out.path()).filePath("report.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    const ReportExportResult missing =
        export_report(QDir(workspace_.path()).filePath("runs/no-such-run"), out.path(), {"html"});
    QVERIFY(missing.written.isEmpty());
    QCOMPARE(missing.errors.size(), 1);
  }

  void runs_page_lists_interrupted_run_and_reopens_charts() {
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(workspace_.path(), &error), qPrintable(error));
    RunsPage* runs = window.runs_page();
    QAbstractItemModelTester tester(runs->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy refreshed(runs, &RunsPage::refreshed);
    runs->refresh();
    QVERIFY(refreshed.wait(10'000));
    const models::RunHistoryModel& model = *runs->model();
    const int killed_row = history_row(model, interrupted_);
    const int complete_row = history_row(model, complete_);
    QVERIFY(killed_row >= 0 && complete_row >= 0);
    QCOMPARE(model.index(killed_row, models::RunHistoryModel::Status).data().toString(),
             QString("incomplete"));
    QCOMPARE(model.index(complete_row, models::RunHistoryModel::Status).data().toString(),
             QString("complete"));
    QCOMPARE(model.index(killed_row, models::RunHistoryModel::Requests).data().toLongLong(),
             qlonglong(interrupted_lines_));

    // Opened by keyboard: select the killed run, Return. Charts, banner and Decision follow.
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.show_page(MainWindow::Runs);
    QSignalSpy loaded(runs, &RunsPage::run_loaded);
    runs->table()->setFocus();
    runs->table()->selectRow(killed_row);
    QTest::keyClick(runs->table(), Qt::Key_Return);
    QVERIFY(loaded.wait(20'000));
    QVERIFY2(runs->banner_text().startsWith("Incomplete run"), qPrintable(runs->banner_text()));
    QVERIFY2(runs->banner_text().contains("1 request line cut short"),
             qPrintable(runs->banner_text()));
    QCOMPARE(static_cast<int>(runs->current_run()->folder->request_count), interrupted_lines_);
    QVERIFY(runs->current_run()->folder->requests.empty());  // folded into the charts, not kept
    StoredCharts* charts = runs->charts();
    for (widgets::ChartPanel* panel : charts->panels()) panel->flush();
    for (const QString lane : {"bf16", "fp8"})
      QCOMPARE(charts->ttft()->drawn_point_count(lane),
               test::count_ttft_points(interrupted_, lane));
    QVERIFY(charts->output_rate()->drawn_point_count("bf16") >= 1);
    QVERIFY(charts->itl()->drawn_point_count("fp8") >= 1);
    DecisionPage* decision = window.decision_page();
    QVERIFY(decision->has_run());
    QCOMPARE(QDir(decision->run_dir()), QDir(interrupted_));
    QVERIFY2(decision->banner_text().startsWith("Incomplete run"),
             qPrintable(decision->banner_text()));

    // The complete run: no banner, context charts shown with one point per sweep request.
    runs->open_run(complete_);
    QVERIFY(loaded.wait(20'000));
    QVERIFY(runs->banner_text().isEmpty());
    for (widgets::ChartPanel* panel : charts->panels()) panel->flush();
    QVERIFY(charts->ttft_vs_context()->isVisibleTo(runs));
    for (const QString lane : {"bf16", "fp8"}) {
      QCOMPARE(charts->ttft()->drawn_point_count(lane), test::count_ttft_points(complete_, lane));
      QCOMPARE(charts->ttft_vs_context()->drawn_point_count(lane),
               test::count_ttft_points(complete_, lane, true));
    }
    QVERIFY(test::count_ttft_points(complete_, "bf16", true) >= 2);
    // No traffic kind ran, so none of their charts is shown: the throughput's phases c1 and c2
    // are no capacity probes.
    for (widgets::ChartPanel* panel :
         {charts->trace_lateness(), charts->ttft_by_turn(), charts->capacity_probes(),
          charts->capacity_ttft(), charts->capacity_tpot()}) {
      QVERIFY2(panel->isHidden(), qPrintable(panel->title()));
      QVERIFY(panel->lanes().isEmpty());
    }

    // A folder that is not a run is a message, not a crash.
    QSignalSpy status(runs, &RunsPage::status);
    runs->open_run(QDir(workspace_.path()).filePath("runs/no-such-run"));
    QVERIFY(status.wait(10'000));
    QVERIFY2(status.last().at(0).toString().startsWith("Cannot open the run"),
             qPrintable(status.last().at(0).toString()));
    QVERIFY(runs->current_run() == nullptr);
  }

  // A run merged from shards (lanebench-cli merge) says where each shard ran and how far its
  // clock was from its lane's server; a partial merge warns which shard is missing.
  void merged_run_shows_where_its_shards_ran() {
    // Two simulator lanes, and a third whose load two clients share (one server on loopback).
    auto server = sim::start_lane("fp8?time_scale=0.01");
    QVERIFY2(server.error.empty(), server.error.c_str());
    const nlohmann::json plan = {
        {"name", "sharded"},
        {"lanes",
         {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01"}},
          {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01"}},
          {{"id", "fp8-split"}, {"base_url", server.base_url}}}},
        {"split", {{"lane", "fp8-split"}, {"clients", 2}}},
        {"experiments",
         {{{"kind", "throughput"}, {"concurrency", {2}}, {"requests", 4}, {"output_tokens", 8}}}}};
    auto parsed = plan::parse_plan(plan.dump(), "sharded.json");
    QVERIFY2(parsed.ok(), parsed.error_text().c_str());
    const QDir runs_dir(QDir(workspace_.path()).filePath("runs"));
    std::vector<std::string> shards;
    std::vector<std::thread> clients;
    std::vector<int> exits(4, -1);
    for (int i = 0; i < 4; ++i) {
      shards.push_back(runs_dir.filePath(QString("shard-%1").arg(i)).toStdString());
      auto run_shard = [&, i, dir = shards.back()] {
        ui::StagingSink sink;
        std::atomic<bool> stop{false};
        run::RunOptions options{dir, "test", false};
        options.shard = run::ShardSpec{i, 4};
        exits[size_t(i)] = run::PlanRunner(*parsed.plan, options, sink).run(stop).exit_code;
      };
      // The split lane's clients (shards 2 and 3) run at once, and meet at each phase's start.
      if (i < 2)
        run_shard();
      else
        clients.emplace_back(run_shard);
    }
    for (auto& t : clients) t.join();
    QCOMPARE(exits, std::vector<int>(4, 0));
    const QString merged = runs_dir.filePath("20260101-130000-merged");
    QVERIFY(fleet::merge_shards({shards, merged.toStdString()}).errors.empty());
    fleet::MergeOptions partial{{shards[0]}, runs_dir.filePath("partial").toStdString()};
    partial.partial = true;
    QVERIFY(fleet::merge_shards(partial).errors.empty());

    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(workspace_.path(), &error), qPrintable(error));
    RunsPage* runs = window.runs_page();
    QSignalSpy refreshed(runs, &RunsPage::refreshed);
    runs->refresh();
    QVERIFY(refreshed.wait(10'000));
    const auto status = [&](const QString& dir) {
      const int row = history_row(*runs->model(), dir);
      return runs->model()->index(row, models::RunHistoryModel::Status).data().toString();
    };
    QCOMPARE(status(merged), QString("complete"));
    QCOMPARE(status(runs_dir.filePath("partial")), QString("partial"));
    QSignalSpy loaded(runs, &RunsPage::run_loaded);
    runs->open_run(merged);
    QVERIFY(loaded.wait(20'000));
    // The table shows which run the charts are of, after a refresh too.
    QCOMPARE(runs->table()->currentIndex().row(), history_row(*runs->model(), merged));
    runs->refresh();
    QVERIFY(refreshed.wait(10'000));
    QCOMPARE(runs->table()->currentIndex().row(), history_row(*runs->model(), merged));
    const QString line = runs->shards_text();
    QVERIFY2(line.startsWith("Merged from 4 shards: 0 bf16 on ") && line.contains("1 fp8 on ") &&
                 line.contains("2 fp8-split client 0/2 on ") &&
                 line.contains("3 fp8-split client 1/2 on ") && line.contains(" ms \u00b1 "),
             qPrintable(line));
    QVERIFY(runs->banner_text().isEmpty());
    for (widgets::ChartPanel* panel : runs->charts()->panels()) panel->flush();
    for (const QString lane : {"bf16", "fp8", "fp8-split"})
      QCOMPARE(runs->charts()->ttft()->drawn_point_count(lane),
               test::count_ttft_points(merged, lane));
    if (const QByteArray shots = qgetenv("LANEBENCH_SHOT_DIR"); !shots.isEmpty()) {
      window.resize(1440, 900);
      window.show();
      window.show_page(MainWindow::Runs);
      QTest::qWait(500);
      QVERIFY(
          window.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath("29-merged-run.png")));
    }
    runs->open_run(runs_dir.filePath("partial"));
    QVERIFY(loaded.wait(20'000));
    QVERIFY(runs->shards_text().startsWith("Merged from 1 shard: 0 bf16"));
    QVERIFY2(runs->banner_text().startsWith("Partial run: shard(s) 1, 2, 3 of 4 are missing"),
             qPrintable(runs->banner_text()));
    runs->open_run(complete_);
    QVERIFY(loaded.wait(20'000));
    QVERIFY(runs->shards_text().isEmpty());  // one process, no shards line
  }

  // A run folder made by importing a vLLM bench serve result (what lanebench-cli import writes):
  // its lane "imported:vllm" is listed and charted like a measured one; tokens per event, which
  // the tool does not record, stays empty rather than showing zeros.
  void imported_run_opens_with_its_charts() {
    const QString dir = QDir(workspace_.path()).filePath("runs/20260101-120000-imported");
    interop::ImportOptions options;
    options.file = lb::test::fixture_path("interop/vllm_detailed_c2.json");
    options.out_dir = dir.toStdString();
    const interop::ImportOutcome outcome = interop::import_into_run(options);
    QVERIFY2(outcome.exit_code == 0, outcome.error.c_str());
    QCOMPARE(outcome.lane_id, std::string("imported:vllm"));
    MainWindow window;
    QString error;
    QVERIFY2(window.open_workspace(workspace_.path(), &error), qPrintable(error));
    RunsPage* runs = window.runs_page();
    QSignalSpy refreshed(runs, &RunsPage::refreshed);
    runs->refresh();
    QVERIFY(refreshed.wait(10'000));
    const int row = history_row(*runs->model(), dir);
    QVERIFY(row >= 0);
    QCOMPARE(runs->model()->index(row, models::RunHistoryModel::Status).data().toString(),
             QString("complete"));
    QSignalSpy loaded(runs, &RunsPage::run_loaded);
    runs->open_run(dir);
    QVERIFY(loaded.wait(20'000));
    QVERIFY(runs->banner_text().isEmpty());
    StoredCharts* charts = runs->charts();
    for (widgets::ChartPanel* panel : charts->panels()) panel->flush();
    const QString lane = "imported:vllm";
    const int ttft_points = test::count_ttft_points(dir, lane);
    QVERIFY(ttft_points >= 1);
    QCOMPARE(charts->ttft()->drawn_point_count(lane), ttft_points);
    QVERIFY(charts->output_rate()->drawn_point_count(lane) >= 1);
    QVERIFY(charts->itl()->drawn_point_count(lane) >= 1);  // from the tool's per-token times
    QCOMPARE(charts->tokens_per_event()->drawn_point_count(lane), -1);  // no series at all
    QVERIFY(window.decision_page()->has_run());
  }
};

LANEBENCH_TEST_MAIN(UiStoredRunTest)
#include "ui_stored_run_test.moc"
