// The report of a multimodal qualification, read back from a run folder written the way a run
// writes it: the gate table's multimodal row, the per-kind table, the caveat naming a lane that
// refused media next to one that answered them, and the TTFT charts against media pixels and
// image count (requests.jsonl lines made by the run's own serialiser).
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "test_main.h"

#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/report/report_model.h"
#include "core/report/run_folder.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json kinds(int image, int video, int mixed) {
  auto k = [](int n) {
    return json{{"passed", n}, {"total", 10}, {"score", std::to_string(n) + "/10"}};
  };
  return {{"image", k(image)}, {"video", k(video)}, {"mixed", k(mixed)}};
}

// A finished request of LANE with IMAGES images of SIDE×SIDE pixels and the given TTFT.
std::string request_line(const std::string& lane, int64_t index, int images, int side,
                         double ttft_ms) {
  lb::metrics::RequestRecord r;
  r.lane_id = lane;
  r.experiment = "gates";
  r.phase = "multimodal";
  r.index = index;
  r.t_sched_ns = 1'000'000;
  r.result.http_status = 200;
  r.result.t_sent_ns = 2'000'000;
  r.result.t_first_byte_ns = r.result.t_sent_ns + static_cast<int64_t>(ttft_ms * 1e6);
  r.result.events.push_back({r.result.t_first_byte_ns, 1, 5, 0, 0});
  r.result.t_done_ns = r.result.t_first_byte_ns;
  r.result.content = "three";
  for (int i = 0; i < images; ++i) {
    lb::metrics::MediaItemStats item;
    item.kind = "image";
    item.mime = "image/png";
    item.bytes = 1000;
    item.width_px = side;
    item.height_px = side;
    r.media.items.push_back(item);
  }
  return lb::metrics::to_json(r, lb::metrics::compute_request_metrics(r)).dump() + "\n";
}

fs::path write_run() {
  const fs::path dir = fs::temp_directory_path() / ("lb-report-mm-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const json plan = {{"name", "mm"},
                     {"lanes",
                      {{{"id", "bf16"}, {"base_url", "http://127.0.0.1:9/v1"}},
                       {{"id", "fp8"}, {"base_url", "http://127.0.0.1:10/v1"}}}},
                     {"experiments", {{{"kind", "gates"}, {"checks", {"multimodal"}}}}}};
  const json bf16 = {{"status", "fail"},
                     {"passed", 29},
                     {"attempts", 30},
                     {"repeat", 30},
                     {"score", "29/30"},
                     {"kinds", kinds(10, 9, 10)},
                     {"prompts", "builtin:multimodal-30"},
                     {"failures", {{{"id", "video-4"}, {"kind", "video"}, {"why", "x"}}}}};
  const json fp8 = {{"status", "unsupported"},
                    {"unsupported", "multimodal unsupported"},
                    {"why", "HTTP 400: At most 0 image(s) may be provided in one request."},
                    {"passed", 0},
                    {"attempts", 1},
                    {"repeat", 30},
                    {"score", "0/30"},
                    {"prompts", "builtin:multimodal-30"}};
  const json summary = {{"experiments",
                         {{{"kind", "gates"},
                           {"name", "gates"},
                           {"status", "done"},
                           {"lanes",
                            {{"bf16", {{"gates", {{"multimodal", bf16}}}}},
                             {"fp8", {{"gates", {{"multimodal", fp8}}}}}}}}}}};
  std::ofstream(dir / "plan.json") << plan.dump();
  std::ofstream(dir / "summary.json") << summary.dump();
  std::ofstream lines(dir / "requests.jsonl");
  // bf16: TTFT grows with pixels and with images; two requests at each size.
  int64_t index = 0;
  for (int images : {1, 2, 4})
    for (int side : {100, 200})
      for (double extra : {0.0, 2.0})
        lines << request_line("bf16", index++, images, side, 20.0 + images * side / 10.0 + extra);
  return dir;
}

const lb::report::ChartSpec* chart(const std::vector<lb::report::ChartSpec>& charts,
                                   const std::string& id) {
  for (const auto& c : charts)
    if (c.id == id) return &c;
  return nullptr;
}

}  // namespace

class TestReportMultimodal : public QObject {
  Q_OBJECT
 private slots:
  void gateRowTableAndCaveat() {
    const fs::path dir = write_run();
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder.has_value(), error.c_str());
    const auto model = lb::report::build_report_model(*folder);
    const lb::report::GateRow* row = nullptr;
    for (const auto& r : model.gates.rows)
      if (r.key == "gates.multimodal") row = &r;
    QVERIFY(row != nullptr);
    QCOMPARE(row->label, std::string("Multimodal answers (image, video, mixed)"));
    QCOMPARE(lb::report::cell_text(row->cells[0]), std::string("fail 29/30"));
    QCOMPARE(row->cells[1].status, lb::report::GateStatus::Unsupported);
    QVERIFY2(row->cells[1].detail.rfind("multimodal unsupported: HTTP 400", 0) == 0,
             row->cells[1].detail.c_str());

    const lb::report::ReportTable* table = nullptr;
    for (const auto& t : model.performance)
      if (t.title == "Multimodal gate") table = &t;
    QVERIFY(table != nullptr);
    QCOMPARE(table->rows.size(), size_t{2});
    QCOMPARE(table->rows[0], (std::vector<std::string>{"bf16", "OpenAI chat (/v1/chat/completions)",
                                                       "fail", "10/10", "9/10", "10/10", "29/30",
                                                       "builtin:multimodal-30"}));
    QVERIFY(table->rows[1][2].rfind("multimodal unsupported (HTTP 400", 0) == 0);

    bool named = false;
    for (const auto& c : model.caveats)
      named = named || (c.find("Lane fp8 is multimodal unsupported") != std::string::npos &&
                        c.find("lane bf16 (29/30)") != std::string::npos);
    QVERIFY(named);
    fs::remove_all(dir);
  }

  void eachApiIsARowNamingItsRouteAndWhatItCannotCarry() {
    const fs::path dir = write_run();
    json summary = json::parse(std::ifstream(dir / "summary.json"));
    json images_only = {{"image", {{"passed", 10}, {"total", 10}, {"score", "10/10"}}},
                        {"video",
                         {{"passed", 0},
                          {"total", 0},
                          {"score", "unsupported by the API"},
                          {"unsupported_by_api", 10}}}};
    json& lanes = summary["experiments"][0]["lanes"];
    lanes["bf16"]["gates"]["multimodal (responses)"] = {{"status", "pass"},
                                                        {"api", "responses"},
                                                        {"route", "/v1/responses"},
                                                        {"score", "10/10"},
                                                        {"kinds", images_only},
                                                        {"not_sent", 10},
                                                        {"prompts", "builtin:multimodal-30"}};
    json ollama = lanes["bf16"]["gates"]["multimodal (responses)"];
    ollama["api"] = "ollama";
    ollama["route"] = "/api/chat";
    lanes["fp8"]["gates"] = {{"multimodal", ollama}};
    std::ofstream(dir / "summary.json") << summary.dump();
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY2(folder.has_value(), error.c_str());
    const auto model = lb::report::build_report_model(*folder);
    const lb::report::GateRow *chat = nullptr, *responses = nullptr;
    for (const auto& r : model.gates.rows) {
      if (r.key == "gates.multimodal") chat = &r;
      if (r.key == "gates.multimodal (responses)") responses = &r;
    }
    QVERIFY(chat && responses);
    QCOMPARE(responses->label, std::string("Multimodal answers via the Responses API (images)"));
    QCOMPARE(lb::report::cell_text(responses->cells[0]), std::string("pass 10/10"));
    QCOMPARE(responses->cells[0].detail,
             std::string("over /v1/responses; unsupported by the API: video 10"));
    QCOMPARE(responses->cells[1].status, lb::report::GateStatus::NotRun);
    QCOMPARE(chat->cells[1].detail,
             std::string("over /api/chat; unsupported by the API: video 10"));

    const lb::report::ReportTable* table = nullptr;
    for (const auto& t : model.performance)
      if (t.title == "Multimodal gate") table = &t;
    QVERIFY(table != nullptr);
    QCOMPARE(table->rows.size(), size_t{3});
    QCOMPARE(table->rows[1], (std::vector<std::string>{"bf16", "Responses API (/v1/responses)",
                                                       "pass", "10/10", "unsupported by the API",
                                                       "", "10/10", "builtin:multimodal-30"}));
    QCOMPARE(table->rows[2][1], std::string("Ollama (/api/chat)"));
    for (const auto& c : model.caveats)  // both lanes answered media over some API
      QVERIFY2(c.find("multimodal unsupported") == std::string::npos, c.c_str());
    fs::remove_all(dir);
  }

  void noCaveatWhenEveryLaneAnswersMedia() {
    const fs::path dir = write_run();
    json summary = json::parse(std::ifstream(dir / "summary.json"));
    summary["experiments"][0]["lanes"]["fp8"]["gates"]["multimodal"] =
        summary["experiments"][0]["lanes"]["bf16"]["gates"]["multimodal"];
    std::ofstream(dir / "summary.json") << summary.dump();
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY(folder.has_value());
    for (const auto& c : lb::report::report_caveats(*folder))
      QVERIFY2(c.find("multimodal unsupported") == std::string::npos, c.c_str());
    fs::remove_all(dir);
  }

  void ttftChartsAgainstPixelsAndImageCount() {
    const fs::path dir = write_run();
    std::string error;
    const auto folder = lb::report::load_run_folder(dir.string(), &error);
    QVERIFY(folder.has_value());
    QCOMPARE(folder->requests.front().media_images, int64_t{1});
    QCOMPARE(folder->requests.front().media_pixels, int64_t{100 * 100});
    const auto charts = lb::report::report_charts(*folder);
    const auto* pixels = chart(charts, "ttft_vs_media_pixels");
    QVERIFY(pixels != nullptr);
    QCOMPARE(pixels->series.size(), size_t{1});  // fp8 sent no media
    const auto& p = pixels->series[0].points;
    // Totals: 1×100², 2×100², 1×200² = 4×100², 2×200², 4×200²: five distinct values, sorted.
    QCOMPARE(p.size(), size_t{5});
    QCOMPARE(p.front().first, 0.01);
    QCOMPARE(p.front().second, 31.0);  // median of 30 and 32 ms
    QCOMPARE(p.back().first, 0.16);
    QCOMPARE(p.back().second, 101.0);
    const auto* count = chart(charts, "ttft_vs_image_count");
    QVERIFY(count != nullptr);
    const auto& c = count->series[0].points;
    QCOMPARE(c.size(), size_t{3});
    QCOMPARE(c[0].first, 1.0);
    QCOMPARE(c[2].first, 4.0);
    QVERIFY(c[2].second > c[1].second && c[1].second > c[0].second);
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportMultimodal)
#include "report_multimodal_test.moc"
