// Every model passes QAbstractItemModelTester while it is filled, updated and reset, and shows
// the values (and provenance) it was given.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

#include "models/item_roles.h"
#include "models/lane_stats_model.h"
#include "models/lane_table_model.h"
#include "models/review_filter_proxy.h"
#include "models/review_pairs_model.h"
#include "models/run_history_model.h"
#include "test_main.h"

using namespace lb;
using namespace lb::models;

namespace {

plan::Lane lane(const std::string& id, const std::string& url) {
  plan::Lane l;
  l.id = id;
  l.base_url = url;
  return l;
}

metrics::Distribution dist(double median, double p99) {
  metrics::Distribution d;
  d.count = 10;
  d.median = d.p50 = median;
  d.p99 = p99;
  return d;
}

LaneStatsRow stats_row(const QString& id, double ttft_median) {
  LaneStatsRow row;
  row.lane_id = id;
  row.summary.completed = 10;
  row.summary.failed = 2;
  row.summary.errors_by_kind = {{"http_status", 2}};
  row.summary.ttft_ms = dist(ttft_median, ttft_median * 3);
  row.summary.output_throughput = 47.94;
  row.summary.provenance = {{"ttft", metrics::Provenance::Measured},
                            {"output_throughput", metrics::Provenance::Estimated}};
  return row;
}

std::vector<ReviewPair> pairs() {
  std::vector<ReviewPair> out;
  const char* cats[] = {"math", "code", "math", "summarization"};
  const char* triage[] = {"identical", "similar", "divergent", "similar"};
  for (int i = 0; i < 4; ++i) {
    ReviewPair p;
    p.index = i;
    p.prompt_id = QString("p-%1").arg(i);
    p.category = cats[i];
    p.triage = triage[i];
    p.ratio = 1.0 - i * 0.1;
    out.push_back(p);
  }
  out[2].flipped_fact = true;
  out[2].failed_checks = {"fp8: must contain \"42\""};
  return out;
}

}  // namespace

// The colour a lane's swatch paints, and the swatch's identity: a view redrawn every drain must
// get the same icon each time (a QColor made it paint and cache a new pixmap for every cell).
QColor swatch_color(const QModelIndex& index) {
  const QIcon icon = index.data(Qt::DecorationRole).value<QIcon>();
  if (icon.isNull()) return {};
  QImage image(16, 16, QImage::Format_ARGB32);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  icon.paint(&painter, image.rect());
  painter.end();
  return image.pixelColor(8, 8);
}

class ModelsTest : public QObject {
  Q_OBJECT
 private slots:
  void lane_table() {
    LaneTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    plan::Lane a = lane("bf16", "sim:bf16");
    a.sim_profile = "bf16";
    a.notes.weights = "bf16";
    a.notes.prefix_caching = true;
    plan::Lane keyed = lane("keyed", "http://127.0.0.1:8002/v1");
    keyed.api_key_env = "keyring:keyed";
    plan::Lane env = lane("env", "http://127.0.0.1:8003/v1");
    env.api_key_env = "FP8_API_KEY";
    model.set_lanes({a, lane("fp8", "http://127.0.0.1:8001/v1"), keyed, env});
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(0, LaneTableModel::Serving).data().toString(),
             QString("weights bf16 · prefix cache on"));
    QCOMPARE(model.index(1, LaneTableModel::ApiKeyEnv).data().toString(), QString("—"));
    // A keyring reference reads as where the key is; editing still sees the reference.
    const QModelIndex keyring_cell = model.index(2, LaneTableModel::ApiKeyEnv);
    QCOMPARE(keyring_cell.data().toString(), QString("OS keyring"));
    QCOMPARE(keyring_cell.data(Qt::EditRole).toString(), QString("keyring:keyed"));
    QVERIFY(keyring_cell.data(Qt::ToolTipRole).toString().contains("keyring:keyed"));
    QCOMPARE(model.index(3, LaneTableModel::ApiKeyEnv).data().toString(), QString("FP8_API_KEY"));
    QVERIFY(model.index(0, LaneTableModel::BaseUrl)
                .data(Qt::ToolTipRole)
                .toString()
                .contains("simulator"));
    model.set_lane_colors({{"bf16", QColor(Qt::blue)}});
    QCOMPARE(swatch_color(model.index(0, 0)), QColor(Qt::blue));
    model.set_lanes({});
    QCOMPARE(model.rowCount(), 0);
  }

  void lane_stats_updates_in_place_and_carries_provenance() {
    LaneStatsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.set_rows({stats_row("bf16", 250), stats_row("fp8", 230)});
    model.set_lane_colors({{"bf16", QColor(Qt::red)}, {"fp8", QColor(Qt::darkGreen)}});
    const qint64 swatch = model.index(1, 0).data(Qt::DecorationRole).value<QIcon>().cacheKey();
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.set_rows({stats_row("bf16", 260), stats_row("fp8", 231.26)});
    QCOMPARE(reset.count(), 0);  // same lanes: an in-place update, selection survives
    QCOMPARE(swatch_color(model.index(1, 0)), QColor(Qt::darkGreen));
    // The same icon after the update: nothing new for a view to cache each time it redraws.
    QCOMPARE(model.index(1, 0).data(Qt::DecorationRole).value<QIcon>().cacheKey(), swatch);
    QCOMPARE(changed.count(), 1);
    const QModelIndex ttft = model.index(1, LaneStatsModel::TtftP50);
    QCOMPARE(ttft.data().toString(), QString("231"));
    QCOMPARE(model.index(1, LaneStatsModel::TtftP99).data().toString(), QString("694"));
    QCOMPARE(ttft.data(ProvenanceRole).toString(), QString("measured"));
    QCOMPARE(model.index(0, LaneStatsModel::OutputTokS).data(ProvenanceRole).toString(),
             QString("estimated"));
    QCOMPARE(model.index(0, LaneStatsModel::OutputTokS).data().toString(), QString("47.9"));
    QCOMPARE(model.index(0, LaneStatsModel::Failed).data().toString(), QString("2"));
    QVERIFY(model.index(0, LaneStatsModel::Failed)
                .data(Qt::ToolTipRole)
                .toString()
                .contains("http_status"));
    // No data: a dash and no badge.
    QCOMPARE(model.index(0, LaneStatsModel::ItlP50).data().toString(), QString("–"));
    QVERIFY(model.index(0, LaneStatsModel::ItlP50).data(ProvenanceRole).toString().isEmpty());
    model.set_rows({stats_row("fp8", 1)});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 1);
  }

  void review_pairs_and_filters() {
    ReviewPairsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ReviewFilterProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxy_tester(&proxy,
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.set_pairs(pairs());
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(proxy.rowCount(), 3);  // identical hidden by default
    proxy.set_non_identical_only(false);
    QCOMPARE(proxy.rowCount(), 4);
    proxy.set_category("math");
    QCOMPARE(proxy.rowCount(), 2);
    proxy.set_category("");
    QVERIFY(model.index(2, ReviewPairsModel::Triage).data().toString().contains("fact flipped"));
    QCOMPARE(model.index(2, ReviewPairsModel::Checks).data().toString(), QString("1 failed"));
    QCOMPARE(model.index(1, ReviewPairsModel::Ratio).data().toString(), QString("0.900"));
    // Headers name the columns they head.
    QCOMPARE(model.headerData(ReviewPairsModel::Ratio, Qt::Horizontal).toString(),
             QString("Ratio"));
    QCOMPARE(model.headerData(ReviewPairsModel::Verdict, Qt::Horizontal).toString(),
             QString("Verdict"));
    QCOMPARE(model.headerData(ReviewPairsModel::Category, Qt::Horizontal).toString(),
             QString("Category"));

    QVERIFY(model.set_verdict(2, "blocker", "42 became 43"));
    QVERIFY(!model.set_verdict(9, "blocker", ""));
    QCOMPARE(model.index(2, ReviewPairsModel::Verdict).data().toString(), QString("Blocker"));
    proxy.set_verdict("blocker");
    QCOMPARE(proxy.rowCount(), 1);
    QCOMPARE(proxy.index(0, 0).data(PromptIndexRole).toInt(), 2);
    proxy.set_verdict(ReviewFilterProxy::kUnreviewed);
    QCOMPARE(proxy.rowCount(), 3);
    proxy.set_verdict("");
    proxy.sort(ReviewPairsModel::Ratio, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data(PromptIndexRole).toInt(), 3);
    QCOMPARE(model.categories(), QStringList({"code", "math", "summarization"}));
    QCOMPARE(model.row_of_prompt(3), 3);
  }

  void run_history_newest_first() {
    RunHistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RunFolderInfo old_run{
        "/w/runs/a",    "a", "demo", QDateTime::fromSecsSinceEpoch(1000), {"bf16"},
        {"regression"}, 20,  true};
    RunFolderInfo new_run{
        "/w/runs/b",    "b", "",   QDateTime::fromSecsSinceEpoch(2000), {"bf16", "fp8"},
        {"throughput"}, 64,  false};
    model.set_runs({old_run, new_run});
    QCOMPARE(model.index(0, RunHistoryModel::Name).data().toString(), QString("b"));
    QCOMPARE(model.index(0, RunHistoryModel::Lanes).data().toString(), QString("bf16, fp8"));
    QCOMPARE(model.index(1, RunHistoryModel::Review).data().toString(), QString("yes"));
    QCOMPARE(model.run_at(1)->path, QString("/w/runs/a"));
    QVERIFY(model.run_at(2) == nullptr);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ModelsTest)
#include "models_item_models_test.moc"
