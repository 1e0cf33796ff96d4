// The report of a real run on simulator lanes: gate cells and figures equal summary.json's,
// charts are well-formed SVG with titles, units and one series per lane, the HTML is one
// self-contained file with everything escaped, and the CSV and texts match what the run
// recorded.
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include "test_main.h"

#include "core/record/run_summary.h"
#include "core/report/concurrency_knee.h"
#include "core/report/decision_record.h"
#include "core/report/qualification_summary.h"
#include "core/report/report_writer.h"
#include "report_run_fixture.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;
using lb::test::read_text;

namespace {

const char* kHostileName = "qual <script>alert(1)</script> & \"co\"";

// A summary.json, or one experiment of it, as the record reads it.
lb::record::RunSummary typed_summary(const nlohmann::json& summary) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_run_summary(summary, fields);
}
lb::record::ExperimentSection typed_section(const nlohmann::json& section) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_experiment_section(section, fields);
}

bool well_formed_svg(const std::string& svg, QString* why) {
  QXmlStreamReader xml(QByteArray::fromStdString(svg));
  bool root = false;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement() && !root) root = xml.name() == QLatin1String("svg");
  }
  if (xml.hasError()) *why = xml.errorString();
  return !xml.hasError() && root;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

// The summary as the gate table reads it: through the record.
static lb::record::RunSummary content_record(const nlohmann::json& summary) {
  lb::record::FileFields fields("summary.json");
  return lb::record::read_run_summary(summary, fields);
}

class TestReportContent : public QObject {
  Q_OBJECT
  fs::path run_, out_;
  std::optional<lb::report::RunFolder> folder_;
  lb::report::ReportModel model_;
  std::string html_, md_;

 private slots:
  void initTestCase() {
    auto plan = lb::test::report_test_plan("serves <b>chat</b> & tools");
    plan["name"] = kHostileName;
    run_ = lb::test::run_plan_into(plan, "lb-report-content");
    lb::report::DecisionRecord decision;
    decision.decision = lb::report::Decision::Challenger;
    decision.rationale = "fp8 faster; quality A/B still required";
    QVERIFY(lb::report::save_decision(run_.string(), decision, nullptr));
    std::string error;
    folder_ = lb::report::load_run_folder(run_.string(), &error);
    QVERIFY2(folder_, error.c_str());
    const auto scrubber = lb::report::PrivacyScrubber::for_run(*folder_);
    model_ = lb::report::build_report_model(*folder_);
    lb::report::redact_model_secrets(model_, scrubber);
    out_ = run_ / "report";
    const auto result = lb::report::write_report_files(*folder_, model_, scrubber, out_.string(),
                                                       lb::report::report_format_names());
    QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
    html_ = read_text(out_ / "report.html");
    md_ = read_text(out_ / "report.md");
  }
  void cleanupTestCase() { fs::remove_all(run_); }

  void gateCellsAppearAsInTheSummary() {
    QVERIFY(!model_.gates.empty());
    const nlohmann::json gates =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Gates)
            .front()["lanes"];
    for (const auto& row : model_.gates.rows) {
      QVERIFY2(html_.find(row.label) != std::string::npos, row.label.c_str());
      if (row.key.rfind("gates.", 0) != 0) continue;
      for (size_t i = 0; i < row.cells.size(); ++i) {
        const auto& g = gates[model_.gates.lanes[i]]["gates"][row.key.substr(6)];
        QCOMPARE(lb::report::cell_text(row.cells[i]),
                 g["status"].get<std::string>() + " " + g["score"].get<std::string>());
      }
    }
    const auto passes = static_cast<size_t>(model_.gates.count(lb::report::GateStatus::Pass));
    QVERIFY(count_of(html_, ">pass ") >= passes);
    QVERIFY(count_of(md_, "| pass ") >= passes);
    // Each cell is styled by its status's class ("not run" -> "notrun").
    using lb::report::GateStatus;
    for (const auto status :
         {GateStatus::Pass, GateStatus::Fail, GateStatus::Unsupported, GateStatus::NotRun}) {
      std::string css = lb::report::gate_status_name(status);
      std::erase(css, ' ');
      QCOMPARE(count_of(html_, "<td class=\"" + css + "\""),
               static_cast<size_t>(model_.gates.count(status)));
    }
  }

  void headlineFiguresEqualTheSummary() {
    const nlohmann::json throughput =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Throughput).front();
    const auto& head = model_.performance.front();
    QCOMPARE(head.title, std::string("Headline figures"));
    QCOMPARE(head.rows[0][0], std::string("c1 decode, median (tok/s)"));
    for (size_t i = 0; i < 2; ++i) {
      const std::string lane = i == 0 ? "bf16" : "fp8";
      const auto& c1 = throughput["lanes"][lane]["phases"]["c1"];
      // "x [lo, hi]": the figure and its interval, as summary.json records them.
      const auto& ci = c1["intervals"]["median_decode_tok_s"];
      const std::string decode = lb::report::format_number(c1["median_decode_tok_s"], 1) + " [" +
                                 lb::report::format_number(ci["lo"], 1) + ", " +
                                 lb::report::format_number(ci["hi"], 1) + "]";
      QCOMPARE(head.rows[0][i + 1], decode);
      const std::string e2el = head.rows[1][i + 1];
      QVERIFY2(e2el.rfind(lb::report::format_seconds(c1["p50_e2el_ms"]) + " [", 0) == 0,
               e2el.c_str());
      const auto& c4 = throughput["lanes"][lane]["phases"]["c4"];
      QCOMPARE(head.rows[3][i + 1], "c4: " + lb::report::format_number(c4["output_throughput"], 1));
      QVERIFY(html_.find("<td>" + decode + "</td>") != std::string::npos);
      QVERIFY(md_.find("| " + decode + " |") != std::string::npos);
    }
    const auto summary = lb::test::read_json(out_ / "qualification-summary.json");
    const auto& fp8 = summary["lanes"][1];
    QCOMPARE(fp8["id"], "fp8");
    QCOMPARE(fp8["performance"]["c1_decode_tok_s"]["value"].get<double>(),
             throughput["lanes"]["fp8"]["phases"]["c1"]["median_decode_tok_s"].get<double>());
    // The context-size TTFT rows follow the sweep.
    QVERIFY(md_.find("TTFT at 2048 prompt tokens (s)") != std::string::npos);
    QVERIFY(md_.find("TTFT at 8192 prompt tokens (s)") != std::string::npos);
  }

  // Each closed-loop level's steady window stands beside the whole level's figures.
  void steadyStateTableFollowsTheThroughputTable() {
    const nlohmann::json throughput =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Throughput).front();
    const auto table =
        std::find_if(model_.performance.begin(), model_.performance.end(),
                     [](const auto& t) { return t.title == "Steady state by concurrency"; });
    QVERIFY(table != model_.performance.end());
    QVERIFY(!table->rows.empty());
    for (const auto& row : table->rows) {
      const auto& p = throughput["lanes"][row[0]]["phases"][row[1]];
      const auto& steady = p["steady_state"];
      // A loaded machine may keep a level below 95 % of its streams in flight throughout: the
      // row then says so instead of showing a window.
      if (!steady["found"].get<bool>()) {
        QCOMPARE(row[2], std::string("none"));
        QCOMPARE(row[10], "fewer streams in flight than " +
                              lb::report::format_number(steady["threshold"], 0));
        continue;
      }
      QCOMPARE(row[2], lb::report::format_number(steady["window_s"][0], 1) + "–" +
                           lb::report::format_number(steady["window_s"][1], 1) + " of " +
                           lb::report::format_number(steady["phase_duration"], 1));
      QCOMPARE(row[4], lb::report::format_number(steady["output_throughput"], 1));
      QCOMPARE(row[5], lb::report::format_number(p["output_throughput"], 1));
      QCOMPARE(row[6], lb::report::format_number(steady["median_ttft_ms"], 1));
      QCOMPARE(row[10].rfind("short", 0) == 0, steady["short"].get<bool>());
      for (const char* figure : {"ttft_ms", "tpot_ms", "output_throughput"}) {
        const std::string verdict = steady["drift"][figure]["verdict"];
        QCOMPARE(verdict.rfind("drifting", 0) == 0, row[10].find(verdict) != std::string::npos);
      }
    }
    QVERIFY(md_.find("### Steady state by concurrency") != std::string::npos);
  }

  // The throughput table shows each level's figures with their intervals, and the lane
  // comparisons table says each ratio, its interval and the verdict at its confidence level.
  void intervalsAndVerdictsAreShown() {
    const nlohmann::json throughput =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Throughput).front();
    const auto table =
        std::find_if(model_.performance.begin(), model_.performance.end(),
                     [](const auto& t) { return t.title == "Throughput by concurrency"; });
    QVERIFY(table != model_.performance.end());
    QCOMPARE(table->header[5], std::string("TTFT p50 (ms)"));
    for (const auto& row : table->rows) {
      const auto& p = throughput["lanes"][row[0]]["phases"][row[1]];
      const auto& i = p["intervals"]["median_ttft_ms"];
      QVERIFY(double(i["lo"]) <= double(p["median_ttft_ms"]));
      QCOMPARE(row[5], lb::report::format_number(p["median_ttft_ms"], 1) + " [" +
                           lb::report::format_number(i["lo"], 1) + ", " +
                           lb::report::format_number(i["hi"], 1) + "]");
      QVERIFY(row[10].find(" [") != std::string::npos);  // decode p50
      QVERIFY(row[8].find('[') == std::string::npos);    // ITL p50 has no interval
    }
    const auto verdicts =
        std::find_if(model_.performance.begin(), model_.performance.end(),
                     [](const auto& t) { return t.title == "Lane comparisons (throughput)"; });
    QVERIFY(verdicts != model_.performance.end());
    QCOMPARE(verdicts->rows.size(), throughput["comparisons"].size());
    QVERIFY(!verdicts->rows.empty());
    for (size_t r = 0; r < verdicts->rows.size(); ++r) {
      const auto& c = throughput["comparisons"][r];
      const auto& row = verdicts->rows[r];
      QCOMPARE(row[0], std::string("fp8/bf16"));
      QCOMPARE(row[1], c["phase"].get<std::string>());
      QCOMPARE(row[3].substr(0, row[3].find(' ')), lb::report::format_number(c["ratio"], 3));
      const std::string verdict = c["verdict"];
      // With 4 requests a level's p99 has no interval (it needs 100) and so no verdict.
      const std::string expected = verdict == "n/a" ? "n/a (too few requests" : verdict + " (95 %)";
      QCOMPARE(verdict == "n/a", row[2].rfind("p99") != std::string::npos);
      QVERIFY2(row[4].rfind(expected, 0) == 0, row[4].c_str());
    }
    QVERIFY(md_.find("### Lane comparisons (throughput)") != std::string::npos);
    QVERIFY(md_.find("| fp8/bf16 | c1 | decode p50 | ") != std::string::npos);
    QVERIFY(html_.find("Lane comparisons (throughput)") != std::string::npos);
  }

  void sweepKneeAndStopAreReported() {
    const nlohmann::json throughput =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Throughput).front();
    const auto table =
        std::find_if(model_.performance.begin(), model_.performance.end(),
                     [](const auto& t) { return t.title == "Concurrency sweep: knee and stop"; });
    QVERIFY(table != model_.performance.end());
    QCOMPARE(table->rows.size(), size_t(2));
    for (const auto& row : table->rows) {
      const auto& sweep = throughput["lanes"][row[0]]["concurrency_sweep"];
      QCOMPARE(row[1], std::string("list"));
      QVERIFY2(row[2].rfind(std::to_string(sweep["knee"]["concurrency"].get<int>()), 0) == 0,
               row[2].c_str());
      QCOMPARE(row[5], std::string("—"));  // a list sweep runs every level it was given
    }
    QVERIFY(md_.find("Concurrency sweep: knee and stop") != std::string::npos);

    // A doubling sweep that stopped: the sentence names the knee, the stop and its reason.
    nlohmann::json summary = {
        {"experiments",
         {{{"kind", "throughput"},
           {"lanes",
            {{"fp8",
              {{"concurrency_sweep",
                {{"mode", "doubling"},
                 {"min_gain", 0.05},
                 {"knee",
                  {{"concurrency", 2},
                   {"output_tok_s", {{"value", 812.24}}},
                   {"e2el_p99_ms", {{"value", 2310.0}}},
                   {"reached", true}}},
                 {"stopped",
                  {{"reason", "gain_below_min"},
                   {"at_concurrency", 4},
                   {"detail", "output gained 1.2 % at 4 streams, below 5 %"}}}}}}}}}}}}};
    const auto sweeps = lb::report::sweep_summaries(typed_summary(summary), {"bf16", "fp8"});
    QCOMPARE(sweeps.size(), size_t(1));
    QCOMPARE(lb::report::describe_sweep(sweeps[0]),
             std::string("knee at 2 streams (812.2 tok/s, E2EL p99 2.31 s); stopped at 4 "
                         "streams: output gained 1.2 % at 4 streams, below 5 %"));
    summary["experiments"][0]["lanes"]["fp8"]["concurrency_sweep"]["knee"]["reached"] = false;
    summary["experiments"][0]["lanes"]["fp8"]["concurrency_sweep"].erase("stopped");
    QVERIFY(
        lb::report::describe_sweep(lb::report::sweep_summaries(typed_summary(summary), {"fp8"})[0])
            .find("not reached") != std::string::npos);
    QVERIFY(lb::report::sweep_summaries(typed_summary(nlohmann::json::object()), {"fp8"}).empty());
  }

  void chartsAreWellFormedSvgWithLanesAndUnits() {
    std::vector<std::string> ids;
    for (const auto& c : model_.charts) ids.push_back(c.id);
    for (const char* want : {"ttft_vs_context", "decode_vs_context", "output_vs_concurrency",
                             "pareto_frontier", "itl_distribution"})
      QVERIFY2(std::find(ids.begin(), ids.end(), want) != ids.end(), want);
    for (const auto& c : model_.charts) {
      const std::string svg = read_text(out_ / "charts" / (c.id + ".svg"));
      QString why;
      QVERIFY2(well_formed_svg(svg, &why), qPrintable(QString::fromStdString(c.id) + ": " + why));
      QVERIFY(svg.find(">" + c.x_title) != std::string::npos);
      QVERIFY(svg.find(">" + c.y_title + "<") != std::string::npos);
      QVERIFY(c.y_title.find('(') != std::string::npos || c.x_title.find('(') != std::string::npos);
      // The Pareto chart adds its frontier to the lanes' curves.
      const size_t series = c.id == "pareto_frontier" ? 3 : 2;
      QCOMPARE(c.series.size(), series);
      const size_t first_lane = series - 2;
      QCOMPARE(c.series[first_lane].color, std::string("#0072B2"));  // the GUI's first lane colour
      QCOMPARE(count_of(svg, "<polyline"), series);
      QVERIFY(svg.find(">fp8</text>") != std::string::npos);  // legend
    }
    const auto& ttft = model_.charts.front();
    QCOMPARE(ttft.series[1].points.size(), size_t(2));  // two context sizes
    QVERIFY(ttft.series[1].points[0].first < ttft.series[1].points[1].first);
    // Each size's needle retrieval marks its TTFT point, as the summary says.
    QCOMPARE(ttft.series[1].marks.size(), size_t(2));
    const nlohmann::json sweep =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::ContextSweep).front();
    for (size_t k = 0; k < 2; ++k)
      QCOMPARE(ttft.series[1].marks[k] == lb::report::PointMark::Pass,
               sweep["lanes"]["fp8"]["context_sweep"][k]["retrieval_pass"].get<bool>());
    QVERIFY(!ttft.note.empty());
    QCOMPARE(count_of(html_, "<svg "), model_.charts.size());
  }

  // Per-user decode against total output, one curve per lane in the order the levels ran; the
  // frontier holds the levels no other beats on both axes, across lanes.
  void paretoChartMarksTheFrontier() {
    using nlohmann::json;
    auto level = [](double total, double per_user) {
      return json{{"output_throughput", total}, {"median_decode_tok_s", per_user}};
    };
    json e = {{"name", "throughput"}, {"kind", "throughput"}};
    e["lanes"]["bf16"] = {
        {"phase_order", {"c1", "c2", "c4"}},
        {"phases", {{"c1", level(26, 26.9)}, {"c2", level(27, 13.5)}, {"c4", level(27.5, 6.9)}}}};
    e["lanes"]["fp8"] = {
        {"phase_order", {"c1", "c5", "c10"}},
        {"phases", {{"c1", level(47, 47.9)}, {"c5", level(51, 13.2)}, {"c10", level(50, 6.0)}}}};
    const auto c = lb::report::pareto_chart(typed_section(e), {"bf16", "fp8"});
    QCOMPARE(c.id, std::string("pareto_frontier"));
    QVERIFY(c.x_title.find("tok/s") != std::string::npos);
    QVERIFY(c.y_title.find("tok/s") != std::string::npos);
    QCOMPARE(c.series.size(), size_t(3));
    QCOMPARE(c.series[2].points, (std::vector<std::pair<double, double>>{
                                     {47, 47.9}, {51, 13.2}, {50, 6.0}}));  // as the levels ran
    using lb::report::PointMark;
    // fp8 c1 and c5 are on the frontier; fp8 c10 is beaten by c5 on both axes, and every bf16
    // level by fp8 c1.
    QCOMPARE(c.series[2].marks,
             (std::vector<PointMark>{PointMark::Pass, PointMark::Pass, PointMark::None}));
    QCOMPARE(c.series[1].marks, std::vector<PointMark>(3, PointMark::None));
    QCOMPARE(c.series[0].name, std::string("Pareto frontier"));  // drawn first, under the lanes
    QCOMPARE(c.series[0].points, (std::vector<std::pair<double, double>>{{47, 47.9}, {51, 13.2}}));
    QVERIFY(!c.note.empty());
  }

  // The effects as bars: the prefix cache's passes and speculative decoding per level, read from
  // a summary section of the shape the experiments write.
  void effectChartsReadTheSummary() {
    using nlohmann::json;
    auto pass = [](double ttft_ms, double out, double cached, double prompt) {
      return json{{"median_ttft_ms", ttft_ms},
                  {"output_tok_s", out},
                  {"prompt_tokens", prompt},
                  {"cached_tokens", {{"value", cached}, {"provenance", "server"}}}};
    };
    json prefix = {{"name", "prefix_cache"}, {"kind", "prefix_cache"}};
    prefix["lanes"]["bf16"]["prefix_cache"]["passes"] = {{"cold", pass(4800, 11, 0, 1000)},
                                                         {"warm", pass(400, 140, 1000, 1000)}};
    prefix["lanes"]["fp8"]["prefix_cache"]["passes"] = {{"cold", pass(3200, 18, 0, 1000)},
                                                        {"warm", pass(140, 178, 500, 1000)},
                                                        {"control", pass(6800, 7, 0, 1000)}};
    const auto pc = lb::report::prefix_cache_charts(typed_section(prefix), {"bf16", "fp8"});
    QCOMPARE(pc.size(), size_t(2));
    QCOMPARE(pc[0].categories, (std::vector<std::string>{"cold", "warm", "control"}));
    QCOMPARE(pc[0].series[0].points,
             (std::vector<std::pair<double, double>>{{0, 4.8}, {1, 0.4}}));  // no control pass
    QCOMPARE(pc[0].series[1].points.back(), (std::pair<double, double>{2, 6.8}));
    QCOMPARE(pc[1].series[1].points[1], (std::pair<double, double>{1, 178}));
    QVERIFY2(pc[0].note.find("bf16 100 %, fp8 50 % (server)") != std::string::npos,
             pc[0].note.c_str());

    json spec = {{"name", "speculative"}, {"kind", "speculative"}};
    auto level = [](double decode, double tpe, std::vector<double> per_position) {
      json j = {{"decode_tok_s", {{"median", decode}}}, {"tokens_per_event", {{"mean", tpe}}}};
      if (!per_position.empty()) j["acceptance"]["per_position"] = per_position;
      return j;
    };
    spec["lanes"]["fp8"]["speculative"] = {{"c5", level(60, 1, {})}, {"c1", level(67, 1, {})}};
    spec["lanes"]["mtp"]["speculative"] = {{"c1", level(233, 2.8, {0.9, 0.7, 0.4})},
                                           {"c5", level(120, 2.7, {0.92, 0.69, 0.45})}};
    const auto sc = lb::report::speculative_charts(typed_section(spec), {"fp8", "mtp"});
    QCOMPARE(sc.size(), size_t(3));
    QCOMPARE(sc[0].categories, (std::vector<std::string>{"c1", "c5"}));
    QCOMPARE(sc[0].series[0].points, (std::vector<std::pair<double, double>>{{0, 67}, {1, 60}}));
    QCOMPARE(sc[1].series[1].points[0], (std::pair<double, double>{0, 2.8}));
    QCOMPARE(sc[2].categories, (std::vector<std::string>{"draft 1", "draft 2", "draft 3"}));
    QVERIFY(sc[2].series[0].points.empty());           // no acceptance without speculation
    QCOMPARE(sc[2].series[1].points[2].second, 40.0);  // at c1, the first level
  }

  // The regression's token-level evidence: a Token fidelity table whose counts are the
  // summary's, each confident change listed, and a gate row that waits for their verdicts.
  void tokenFidelityTablesAndGate() {
    const nlohmann::json regression =
        lb::test::summary_sections(folder_->dir, lb::record::ExperimentKind::Regression).front();
    const auto& td = regression["comparisons"][0]["token_divergence"];
    QVERIFY2(td.is_object(), "the fixture's lanes record logprobs");
    const auto tables = lb::report::token_fidelity_tables(*folder_);
    QVERIFY(!tables.empty());
    QCOMPARE(tables[0].title, std::string("Token fidelity"));
    QCOMPARE(tables[0].rows.at(0).at(0), std::string("fp8"));
    QCOMPARE(tables[0].rows[0][4], std::to_string(td["counts"]["confident_change"].get<int>()));
    const size_t confident = td["confident_changes"].size();
    QCOMPARE(confident, size_t(td["counts"]["confident_change"].get<int>()));
    if (confident > 0) QCOMPARE(tables.at(1).rows.size(), confident);
    const auto gates = lb::report::build_gate_table(folder_->record, folder_->lane_ids());
    const auto row = std::find_if(gates.rows.begin(), gates.rows.end(),
                                  [](const auto& r) { return r.key == "tokens"; });
    QVERIFY(row != gates.rows.end());
    QCOMPARE(row->cells[0].detail, std::string("baseline"));
    QCOMPARE(row->cells[1].status,
             confident > 0 ? lb::report::GateStatus::NotRun : lb::report::GateStatus::Pass);
    QCOMPARE(row->cells[1].score, confident > 0 ? "0/" + std::to_string(confident) : "");

    // Without a confident change the row passes with a reason, never with a bare "0/0".
    nlohmann::json summary = lb::test::summary_json(folder_->dir);
    for (auto& e : summary["experiments"])
      if (e.value("kind", "") == "regression")
        e["comparisons"][0]["token_divergence"]["confident_changes"] = nlohmann::json::array();
    const auto none = lb::report::build_gate_table(content_record(summary), folder_->lane_ids());
    const auto quiet = std::find_if(none.rows.begin(), none.rows.end(),
                                    [](const auto& r) { return r.key == "tokens"; });
    QVERIFY(quiet != none.rows.end());
    QCOMPARE(quiet->cells[1].status, lb::report::GateStatus::Pass);
    QCOMPARE(quiet->cells[1].score, std::string());
    QVERIFY2(quiet->cells[1].detail.find("no confident change") != std::string::npos,
             quiet->cells[1].detail.c_str());
  }

  // Cross-scores and the top-1 gate: the Cross-scores table shows both directions, each
  // confident change with both lanes' top-K gets a Top-K table rank by rank, and the gate row
  // passes at or above the plan's least agreement, fails below it and is unsupported when the
  // lanes could not be cross-scored.
  void crossScoresTopKTablesAndTopOneGate() {
    using nlohmann::json;
    lb::report::RunFolder folder = *folder_;
    nlohmann::json summary = lb::test::summary_json(folder.dir);
    json* td = nullptr;
    for (auto& e : summary["experiments"])
      if (e.value("kind", "") == "regression") td = &e["comparisons"][0]["token_divergence"];
    QVERIFY(td != nullptr && td->is_object());
    const json direction = {{"scorer", "bf16"},
                            {"answer_of", "fp8"},
                            {"status", "ok"},
                            {"tokens", 400},
                            {"top1_agreeing", 380},
                            {"top1_agreement", 0.95},
                            {"mean_abs_dlogprob_nats", 0.0123},
                            {"p95_abs_dlogprob_nats", 0.0456},
                            {"mean_kl_nats", 0.00321},
                            {"most_surprising",
                             {{"index", 3},
                              {"id", "math-percentage"},
                              {"token_index", 7},
                              {"token", " 175"},
                              {"scorer_logprob", -9.5}}}};
    json back = direction;
    back["scorer"] = "fp8";
    back["answer_of"] = "bf16";
    (*td)["cross_score"] = {{"candidate_under_baseline", direction},
                            {"baseline_under_candidate", back},
                            {"min_top1_agreement", 0.98}};
    // [[token, logprob], ...] as tokens.json lists them (an initializer list of string-keyed
    // pairs would be read as an object).
    const json top_baseline =
        json::array({json::array({" 165", -0.01}), json::array({" 160", -4.2})});
    const json top_candidate = json::array({json::array({" 175", -0.02})});
    (*td)["confident_changes"] = json::array({{{"index", 3},
                                               {"id", "math-percentage"},
                                               {"token_index", 7},
                                               {"token_baseline", " 165"},
                                               {"token_candidate", " 175"},
                                               {"top_baseline", top_baseline},
                                               {"top_candidate", top_candidate}}});
    folder.record = content_record(summary);
    const auto tables = lb::report::token_fidelity_tables(folder);
    const auto find = [&tables](const std::string& prefix) -> const lb::report::ReportTable* {
      for (const auto& t : tables)
        if (t.title.rfind(prefix, 0) == 0) return &t;
      return nullptr;
    };
    const auto* cross = find("Cross-scores");
    QVERIFY(cross != nullptr);
    QCOMPARE(cross->rows.size(), size_t(2));
    QCOMPARE(cross->rows[0][0], std::string("fp8"));
    QCOMPARE(cross->rows[0][1], std::string("bf16"));
    QCOMPARE(cross->rows[0][2], std::string("0.9500"));
    QCOMPARE(cross->rows[0][5], std::string("0.00321"));
    QVERIFY(cross->rows[0][6].find("\" 175\"") != std::string::npos);
    const auto* top = find("Top-K at fp8's confident change in math-percentage");
    QVERIFY(top != nullptr);
    QCOMPARE(top->rows.size(), size_t(2));
    QCOMPARE(top->rows[0][1], std::string("\" 165\""));
    QCOMPARE(top->rows[0][3], std::string("\" 175\""));
    QCOMPARE(top->rows[1][3], std::string("–"));  // the candidate listed one alternative
    const auto top1_cell = [&folder, &summary]() {
      const auto gates = lb::report::build_gate_table(content_record(summary), folder.lane_ids());
      const auto row = std::find_if(gates.rows.begin(), gates.rows.end(),
                                    [](const auto& r) { return r.key == "tokens.top1"; });
      if (row == gates.rows.end()) qFatal("no top-1 gate row");
      return row->cells.at(1);
    };
    QCOMPARE(top1_cell().status, lb::report::GateStatus::Fail);
    QCOMPARE(top1_cell().score, std::string("0.9500"));
    (*td)["cross_score"]["min_top1_agreement"] = 0.95;
    QCOMPARE(top1_cell().status, lb::report::GateStatus::Pass);
    (*td)["cross_score"]["candidate_under_baseline"] = {
        {"status", "unsupported"}, {"reason", "cross-scoring unsupported: no /tokenize"}};
    QCOMPARE(top1_cell().status, lb::report::GateStatus::Unsupported);
    QVERIFY(top1_cell().detail.find("/tokenize") != std::string::npos);

    // A damaged change (its token index is text, a top-K entry is not a pair, a second change is
    // not an object) loses those cells, not the tables.
    (*td)["confident_changes"][0]["token_index"] = "seven";
    (*td)["confident_changes"][0]["top_baseline"][0] = "165";
    (*td)["confident_changes"].push_back(42);
    folder.record = content_record(summary);
    const auto damaged = lb::report::token_fidelity_tables(folder);
    const auto changes = std::find_if(damaged.begin(), damaged.end(),
                                      [](const auto& t) { return t.title == "Confident changes"; });
    QVERIFY(changes != damaged.end());
    QCOMPARE(changes->rows.size(), size_t(1));
    QCOMPARE(changes->rows[0][2], std::string("-1"));
    const auto ranks = std::find_if(damaged.begin(), damaged.end(), [](const auto& t) {
      return t.title.rfind("Top-K at fp8", 0) == 0;
    });
    QVERIFY(ranks != damaged.end());
    QCOMPARE(ranks->rows[0][1], std::string("–"));
    QCOMPARE(ranks->rows[1][1], std::string("\" 160\""));
  }

  // A regression with a load baseline on batch-variant lanes: the load table's rows are each
  // lane's summary figures, and the Markdown report prints it. The caveats name by id every
  // differing pair whose prompt is batch-variant, with the lanes it varies on, and no other.
  void loadBaselineTable() {
    nlohmann::json plan = {
        {"name", "load"},
        {"lanes",
         {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.01&batch_variance=1"}},
          {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01&batch_variance=1"}}}},
        {"experiments",
         {{{"kind", "regression"},
           {"prompts", "builtin:regression-20"},
           {"max_tokens", 96},
           {"logprobs", 0},
           {"load_baseline", {{"concurrency", 16}}}}}}};
    const fs::path run = lb::test::run_plan_into(plan, "lb-report-load-baseline");
    std::string error;
    const auto folder = lb::report::load_run_folder(run.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto table = lb::report::load_baseline_table(*folder);
    QCOMPARE(table.title, std::string("Greedy A/A baseline under load"));
    QCOMPARE(table.rows.size(), size_t(2));
    const nlohmann::json lanes =
        lb::test::summary_sections(folder->dir, lb::record::ExperimentKind::Regression)
            .front()["lanes"];
    for (const auto& row : table.rows) {
      const auto& load = lanes[row.at(0)]["load_baseline"];
      QCOMPARE(row[1], std::string("1 vs 16"));
      QCOMPARE(row[2], std::to_string(load["prompts_compared"].get<int>()));
      QCOMPARE(row[3], std::to_string(load["mismatches"].get<int>()));
      QVERIFY2(row[4].find(lb::report::format_number(100 * load["mismatch_rate"].get<double>(), 1) +
                           " % [") == 0,
               row[4].c_str());
      if (load["mismatches"].get<int>() > 0)
        QVERIFY(row[5].find(load["batch_variant"][0]["id"].get<std::string>()) !=
                std::string::npos);
    }
    const auto model = lb::report::build_report_model(*folder);
    QCOMPARE(folder->reviews.size(), size_t(1));
    std::vector<std::string> named, unnamed;
    for (const auto& pair : folder->reviews[0].pairs) {
      const bool differs = pair.comparison.triage.triage != lb::compare::TriageClass::Identical;
      std::string lanes;
      for (const auto& lane : pair.batch_variant) lanes += (lanes.empty() ? "" : ", ") + lane;
      (differs && !pair.batch_variant.empty() ? named : unnamed)
          .push_back(pair.comparison.prompt_id + " (" + lanes + ")");
    }
    QVERIFY2(!named.empty(), "batch_variance=1 makes some differing prompt batch-variant");
    const auto caveats = lb::report::batch_variant_caveats(*folder);
    QCOMPARE(caveats.size(), size_t(1));
    const std::string& caveat = caveats[0];
    QVERIFY2(caveat.rfind("Regression bf16 vs fp8: " + std::to_string(named.size()) + " ", 0) == 0,
             caveat.c_str());
    for (const auto& n : named) QVERIFY2(caveat.find(n) != std::string::npos, n.c_str());
    for (const auto& n : unnamed) QVERIFY2(caveat.find(n) == std::string::npos, n.c_str());
    QVERIFY(std::find(model.caveats.begin(), model.caveats.end(), caveat) != model.caveats.end());
    const auto scrubber = lb::report::PrivacyScrubber::for_run(*folder);
    const auto out = run / "report";
    QVERIFY(lb::report::write_report_files(*folder, model, scrubber, out.string(), {"md"}).ok());
    const std::string md = read_text(out / "report.md");
    QVERIFY(md.find("Greedy A/A baseline under load") != std::string::npos);
    QVERIFY(md.find(named.front()) != std::string::npos);
    fs::remove_all(run);
  }

  // A sweep's tuning curves: the objective's figure and each bounded one against the value, in
  // value order, the best point marked, the points out of bounds crossed.
  void sweepChartsMarkTheBestValue() {
    using nlohmann::json;
    auto point = [](double value, double tok_s, double ttft, bool eligible) {
      return json{{"value", value},
                  {"eligible", eligible},
                  {"figures", {{"output_throughput", tok_s}, {"p99_ttft_ms", ttft}}}};
    };
    json summary;
    summary["sweeps"] = {
        {{"lane", "mtp"},
         {"parameter", "max_num_batched_tokens"},
         {"objective", {{"maximize", "output_throughput"}, {"subject_to", {{"p99_ttft_ms", 350}}}}},
         {"best", {{"value", 2048}}},
         {"points",
          {point(4096, 1220, 295, true), point(1024, 1199, 409, false),
           point(2048, 1284, 322, true), point(8192, 1151, 295, true)}}}};
    const auto charts = lb::report::sweep_charts(typed_summary(summary));
    QCOMPARE(charts.size(), size_t(2));
    QCOMPARE(charts[0].y_title, std::string("output throughput (tok/s)"));
    QCOMPARE(charts[1].y_title, std::string("p99_ttft (ms)"));
    QVERIFY(charts[0].log_x);
    const auto& s = charts[0].series.at(0);
    QCOMPARE(s.points, (std::vector<std::pair<double, double>>{
                           {1024, 1199}, {2048, 1284}, {4096, 1220}, {8192, 1151}}));
    using lb::report::PointMark;
    QCOMPARE(s.marks, (std::vector<PointMark>{PointMark::Fail, PointMark::Pass, PointMark::None,
                                              PointMark::None}));
    QVERIFY2(charts[1].note.find("p99_ttft_ms <= 350") != std::string::npos,
             charts[1].note.c_str());
    QVERIFY(lb::report::sweep_charts(typed_summary(json::object())).empty());
  }

  void htmlIsSelfContainedAndEscaped() {
    const QString html = QString::fromStdString(html_);
    QVERIFY(!html.contains(
        QRegularExpression(R"((src|href)\s*=)", QRegularExpression::CaseInsensitiveOption)));
    QVERIFY(!html.contains(QRegularExpression("<(link|script|iframe|img)\\b",
                                              QRegularExpression::CaseInsensitiveOption)));
    QVERIFY(!html.contains("@import"));
    QVERIFY(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;"));
    QVERIFY(html.contains("serves &lt;b&gt;chat&lt;/b&gt; &amp; tools"));
    QVERIFY(html.contains("challenger, no promotion"));
    QVERIFY(html.contains("fp8 faster; quality A/B still required"));
    QVERIFY(html.contains("lanebench-cli run plan.json --out"));
    QVERIFY(html.contains("built-in simulator"));  // the caveat of sim lanes
    // ... and of their time scale: at 0.01 every modelled delay is 100 times shorter.
    const auto scaled = std::count_if(model_.caveats.begin(), model_.caveats.end(), [](auto& c) {
      return c.find("time scale 0.01: every modelled delay is 100 times shorter") !=
             std::string::npos;
    });
    QCOMPARE(scaled, 2);                   // bf16 and fp8
    QVERIFY(!html.contains("127.0.0.1"));  // the report describes endpoints only
  }

  // A lane allowed to send its key over plain http (allow_key_over_http) is named in the caveats.
  void keyOverPlainHttpIsACaveat() {
    lb::report::RunFolder folder = *folder_;
    const std::string lane = folder.lane_ids().front();
    const auto has_caveat = [&] {
      const auto caveats = lb::report::report_caveats(folder);
      return std::any_of(caveats.begin(), caveats.end(), [&](const std::string& c) {
        return c.find("Lane " + lane + " sent its API key over plain http to gpu.example.com") !=
               std::string::npos;
      });
    };
    QVERIFY(!has_caveat());
    folder.environment.lanes[lane].key_over_plain_http_to = "gpu.example.com";
    QVERIFY(has_caveat());
  }

  // A trace replay gets its own table: the lane's figures on the trace's traffic, and whether
  // the client kept to the schedule.
  void traceReplayHasItsTable() {
    lb::report::RunFolder folder = *folder_;
    nlohmann::json summary = lb::test::summary_json(folder.dir);
    const std::vector<std::string> lanes = folder.lane_ids();
    nlohmann::json trace = {
        {"kind", "trace"},
        {"name", "trace"},
        {"trace",
         {{"path", "t.jsonl"}, {"format", "mooncake"}, {"requests", 30}, {"speedup", 2.0}}}};
    for (size_t i = 0; i < lanes.size(); ++i)
      trace["lanes"][lanes[i]] = {
          {"schedule",
           {{"scheduled", 30},
            {"sent", 30},
            {"lateness_p99_ms", 1.25},
            {"late_share", i == 0 ? 0.0 : 0.05},
            {"kept_up", i == 0}}},
          {"phases",
           {{"trace",
             {{"median_ttft_ms", 12.5}, {"median_tpot_ms", 3.25}, {"output_throughput", 100.5}}}}}};
    summary["experiments"].push_back(trace);
    folder.record = content_record(summary);
    const auto tables = lb::report::performance_tables(folder);
    const auto it = std::find_if(tables.begin(), tables.end(),
                                 [](const auto& t) { return t.title == "Trace replay"; });
    QVERIFY(it != tables.end());
    QCOMPARE(it->rows.size(), lanes.size());
    QCOMPARE(it->rows[0], (std::vector<std::string>{lanes[0], "30 / 30", "12.5", "3.25", "100.5",
                                                    "1.25", "0.0 %", "yes"}));
    QCOMPARE(it->rows[1][6], std::string("5.0 %"));
    QCOMPARE(it->rows[1][7], std::string("no"));
    QVERIFY(it->note.find("t.jsonl (mooncake), 30 requests replayed at 2.00x") !=
            std::string::npos);
  }

  // A speculative level the server kept no acceptance counters for reads as null in the shared
  // summary, not as -1 (a number a reader could take for a measurement).
  void unmeasuredSpeculativeFiguresAreNullInTheSummary() {
    lb::report::RunFolder folder = *folder_;
    nlohmann::json summary = lb::test::summary_json(folder.dir);
    const std::string lane = folder.lane_ids().front();
    nlohmann::json spec = {{"kind", "speculative"}, {"name", "speculative"}};
    spec["lanes"][lane]["speculative"]["c1"] = {{"decode_tok_s", {{"median", 61.5}}},
                                                {"output_tok_s", 60.0}};
    summary["experiments"].push_back(spec);
    folder.record = content_record(summary);
    const auto model = lb::report::build_report_model(folder);
    const auto j = lb::report::qualification_summary(folder, model,
                                                     lb::report::PrivacyScrubber::for_run(folder));
    const auto& level = j["lanes"][0]["performance"]["speculative"]["c1"];
    QCOMPARE(level["decode_tok_s_median"].get<double>(), 61.5);
    QVERIFY2(level["acceptance_rate"].is_null(), level.dump().c_str());
    QVERIFY(level["decode_speedup"].is_null());
  }

  void reviewedPairsCarryHighlightedDifferences() {
    size_t non_identical = 0;
    for (const auto& review : folder_->reviews)
      for (const auto& p : review.pairs)
        non_identical += p.comparison.triage.triage != lb::compare::TriageClass::Identical;
    QCOMPARE(model_.pairs.size() + model_.pairs_left_out, non_identical);
    QVERIFY(!model_.pairs.empty());  // the fp8 profile drifts in wording on some prompts
    QVERIFY(html_.find("<del>") != std::string::npos || html_.find("<ins>") != std::string::npos);
    QVERIFY(md_.find("[-") != std::string::npos || md_.find("{+") != std::string::npos);
    QVERIFY(html_.find("verdict <b>unreviewed</b>") != std::string::npos);
  }

  void csvAndTextsMatchTheRun() {
    const std::string csv = read_text(out_ / "requests.csv");
    QCOMPARE(count_of(csv, "\r\n"), lb::test::read_jsonl(run_ / "requests.jsonl").size() + 1);
    QVERIFY(csv.rfind("lane,experiment,phase,index,", 0) == 0);
    for (const char* lane : {"bf16", "fp8"}) {
      const auto name = std::string(lane) + ".texts.json";
      QCOMPARE(read_text(out_ / "texts" / name), read_text(run_ / "texts" / name));
    }
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportContent)
#include "report_content_test.moc"
