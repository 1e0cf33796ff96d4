// ChartPanel: downsampling to the pixel width, coalesced flushes (<= 30 Hz), histograms binned
// per lane, and exports that carry the title, axis units and legend.
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChartView>
#include <QElapsedTimer>
#include <QFile>
#include <QGraphicsTextItem>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <cmath>

#include "test_main.h"
#include "widgets/chart/chart_panel.h"
#include "widgets/chart/downsample.h"
#include "widgets/chart/histogram_bins.h"
#include "widgets/lane_palette.h"

using namespace lb::widgets;

class ChartPanelTest : public QObject {
  Q_OBJECT
 private:
  std::vector<QPointF> sine(int n) {
    std::vector<QPointF> pts;
    for (int i = 0; i < n; ++i) pts.emplace_back(i * 0.01, std::sin(i * 0.05) * 100);
    return pts;
  }

 private slots:
  void downsample_keeps_extremes_and_bounds_count() {
    std::vector<QPointF> pts = sine(100'000);
    pts[54'321].setY(1e6);  // a spike must survive
    const auto out = downsample_min_max(pts, 500);
    QVERIFY(out.size() <= 1000);
    QVERIFY(out.size() >= 900);
    bool spike = false;
    for (size_t i = 1; i < out.size(); ++i) {
      QVERIFY(out[i].x() >= out[i - 1].x());
      spike = spike || out[i].y() == 1e6;
    }
    QVERIFY(spike);
    QCOMPARE(downsample_min_max(sine(50), 500).size(), size_t(50));
  }

  void histogram_bins_are_shared_and_normalised() {
    std::map<QString, std::vector<double>> samples{{"bf16", {1, 1, 1, 1}},
                                                   {"mtp", {1, 2, 3, 4, 9}}};
    HistogramSpec spec{HistogramSpec::Mode::Integer, 4, 0.99};
    const BarData bars = bin_histogram(samples, {"mtp", "bf16"}, spec);
    QCOMPARE(bars.categories, QStringList({"1", "2", "3", "4+"}));
    QCOMPARE(bars.sets.size(), size_t(2));
    QCOMPARE(bars.sets[0].name, QString("mtp"));
    QCOMPARE(bars.sets[0].values[3], 40.0);  // 4 and 9 both land in "4+"
    QCOMPARE(bars.sets[1].values[0], 100.0);
  }

  // A lane with few, slow gaps next to lanes with many fast ones: the range still reaches the
  // slow lane's p99, so its distribution is drawn, not piled into the last bin; edges are round.
  void histogram_range_covers_every_lanes_p99() {
    std::vector<double> fast, slow;
    for (int i = 0; i < 20'000; ++i) fast.push_back(5 + (i % 100) * 0.05);  // 5-10 ms
    for (int i = 0; i < 500; ++i) slow.push_back(18 + (i % 100) * 0.1);     // 18-28 ms
    const std::map<QString, std::vector<double>> samples{{"fp8", fast}, {"bf16", slow}};
    const BarData bars =
        bin_histogram(samples, {"bf16", "fp8"}, {HistogramSpec::Mode::Linear, 10, 0.99});
    QCOMPARE(bars.sets[0].name, QString("bf16"));
    const int last = static_cast<int>(bars.categories.size()) - 1;
    QVERIFY2(bars.sets[0].values[static_cast<size_t>(last)] <= 1.0,
             qPrintable(bars.categories.join(' ')));
    int bf16_bins = 0;
    for (double share : bars.sets[0].values) bf16_bins += share > 0 ? 1 : 0;
    QVERIFY2(bf16_bins >= 3, qPrintable(QString::number(bf16_bins)));
    QVERIFY(bars.categories.size() >= 6 && bars.categories.size() <= 12);
    QCOMPARE(bars.categories.front(), QString("0"));
    const double step = bars.categories[1].toDouble() - bars.categories[0].toDouble();
    QVERIFY2(step == 1 || step == 2 || step == 5 || step == 10,
             qPrintable(bars.categories.join(' ')));
    QVERIFY(bars.categories.back().startsWith(QString::fromUtf8("≥")));
  }

  void series_are_downsampled_to_plot_width() {
    ChartPanel panel(ChartKind::Line, std::make_shared<LanePalette>());
    panel.set_title("Output throughput");
    panel.set_axes({"Time", "s"}, {"Output", "tok/s"});
    panel.resize(800, 500);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.set_series("fp8", sine(50'000));
    panel.set_series("bf16", sine(300));
    panel.flush();
    const int fp8 = panel.drawn_point_count("fp8");
    QVERIFY2(fp8 > 100 && fp8 <= 2 * 800, qPrintable(QString::number(fp8)));
    QCOMPARE(panel.drawn_point_count("bf16"), 300);
    QCOMPARE(panel.drawn_point_count("nope"), -1);
  }

  void updates_are_coalesced_to_30_hz() {
    ChartPanel panel(ChartKind::Scatter, std::make_shared<LanePalette>());
    panel.resize(600, 400);
    panel.show();
    QElapsedTimer clock;
    clock.start();
    int sets = 0;
    // Feed far faster than the screen refresh: at least 200 data sets and at least ~400 ms, so a
    // loaded machine stretches the feed rather than thinning it.
    while (sets < 200 || clock.elapsed() < 400) {
      panel.set_series("lane", sine(10 + sets % 50));
      ++sets;
      QTest::qWait(1);
    }
    QTest::qWait(60);
    const double seconds = clock.elapsed() / 1000.0;
    QVERIFY2(panel.flush_count() >= 3, qPrintable(QString::number(panel.flush_count())));
    // Coalesced: many data sets per drawing, however long the feed took.
    QVERIFY2(panel.flush_count() * 3 < sets,
             qPrintable(QString("%1 flushes for %2 sets").arg(panel.flush_count()).arg(sets)));
    QVERIFY2(panel.flush_count() <= std::ceil(seconds * 30) + 1,
             qPrintable(QString("%1 flushes in %2 s").arg(panel.flush_count()).arg(seconds)));
    QCOMPARE(panel.drawn_point_count("lane"), 10 + (sets - 1) % 50);  // the last data set won
  }

  void exports_carry_title_units_and_legend() {
    auto palette = std::make_shared<LanePalette>();
    ChartPanel panel(ChartKind::Line, palette);
    panel.set_title("TTFT per request");
    panel.set_axes({"Time", "s"}, {"TTFT", "ms"});
    panel.set_series("bf16-lane", sine(400));
    panel.set_series("fp8-lane", sine(200));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const char* suffix : {"png", "svg", "pdf"}) {
      const QString path = dir.filePath(QString("chart.") + suffix);
      QString error;
      QVERIFY2(panel.export_to_file(path, &error), qPrintable(error));
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      QVERIFY2(f.size() > 2000, suffix);
    }
    QFile svg(dir.filePath("chart.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("TTFT per request"));
    QVERIFY(text.contains("TTFT (ms)"));
    QVERIFY(text.contains("Time (s)"));
    QVERIFY(text.contains("bf16-lane"));  // legend
    QVERIFY(text.contains("fp8-lane"));
    QImage png(dir.filePath("chart.png"));
    QCOMPARE(png.size(), panel.export_size() * 2);
    // The lane colour appears in the image (the series was drawn, not just the frame).
    const QRgb lane = palette->colorFor("bf16-lane").rgb();
    bool found = false;
    for (int y = 0; y < png.height() && !found; y += 2)
      for (int x = 0; x < png.width() && !found; x += 2)
        found = (png.pixel(x, y) | 0xff000000) == lane;
    QVERIFY(found);
    QString error;
    QVERIFY(!panel.export_to_file(dir.filePath("chart.bmp"), &error));
    QVERIFY(error.contains("bmp"));
  }

  void histogram_panel_draws_bars_per_lane() {
    ChartPanel panel(ChartKind::Histogram, std::make_shared<LanePalette>());
    panel.set_histogram_spec({HistogramSpec::Mode::Linear, 10, 0.99});
    panel.set_samples("a", {1, 2, 3, 4, 5});
    panel.set_samples("b", {10, 20});
    panel.flush();
    // One bar per bin for every lane: 0-20 in steps of 5 (b's p99 is 19.9), then "≥20".
    QCOMPARE(panel.drawn_point_count("a"), 5);
    QCOMPARE(panel.drawn_point_count("b"), 5);
    panel.clear();
    QCOMPARE(panel.drawn_point_count("a"), -1);
  }

  // A live histogram redrawn with the same bins keeps its bar sets and gives them the new shares
  // (Qt Charts keeps part of each cleared set's bar items for good, so making new sets on every
  // drain grew the workbench's memory for as long as a run went).
  void histogram_redrawn_on_the_same_bins_keeps_its_sets() {
    ChartPanel panel(ChartKind::Histogram, std::make_shared<LanePalette>());
    panel.set_histogram_spec({HistogramSpec::Mode::Linear, 10, 1.0});
    panel.set_samples("a", {0, 1, 2, 3, 9});
    panel.set_samples("b", {0, 9});
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    auto* bars = qobject_cast<QBarSeries*>(view->chart()->series().first());
    QVERIFY(bars);
    const QList<QBarSet*> sets = bars->barSets();
    QCOMPARE(sets.size(), 2);
    const QStringList bins =
        qobject_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Horizontal).first())->categories();
    // The same range, other shares: every sample of a in the first bin now.
    panel.set_samples("a", {0, 0, 0, 0, 9});
    panel.flush();
    auto* axis = qobject_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Horizontal).first());
    QCOMPARE(axis->categories(), bins);
    QCOMPARE(bars->barSets(), sets);
    QBarSet* a = sets[0]->label() == "a" ? sets[0] : sets[1];
    QCOMPARE(a->at(0), 80.0);
    // Other bins (a wider range): the sets are made anew for them.
    panel.set_samples("a", {0, 100});
    panel.flush();
    QVERIFY(axis->categories() != bins);
    QCOMPARE(bars->barSets().size(), 2);
    QCOMPARE(panel.drawn_point_count("a"), static_cast<int>(axis->categories().size()));
  }

  // A shaded span (a steady window up to its level's throughput) is in view whole, even when it
  // rises above every point of the lane's line.
  void value_axis_takes_in_the_spans_tops() {
    ChartPanel panel(ChartKind::Line, std::make_shared<LanePalette>());
    panel.set_series("fp8", {{0.0, 100.0}, {1.0, 120.0}});
    panel.set_spans("fp8", {{0.2, 0.8, 500.0}});
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    auto* y = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Vertical).first());
    QVERIFY(y);
    QVERIFY2(y->max() >= 500.0, qPrintable(QString::number(y->max())));
  }

  // A point at the highest x (the one concurrency level of a merged run: 2 streams) sits inside
  // the plot, not on its right edge where half of its marker is cut off.
  void last_point_is_inside_the_plot() {
    ChartPanel panel(ChartKind::Scatter, std::make_shared<LanePalette>());
    panel.set_series("fp8", {{2.0, 1800.0}});
    panel.set_series("bf16", {{2.0, 1400.0}});
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    auto* x = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).first());
    QVERIFY(x);
    QVERIFY2(x->max() > 2.0, qPrintable(QString::number(x->max())));
  }

  // A live chart asks for a range on every drain; the axes (whose every change lays out all their
  // labels again) change only when the nice range does.
  void axes_change_only_when_their_nice_range_does() {
    ChartPanel panel(ChartKind::Line, std::make_shared<LanePalette>());
    panel.set_series("fp8", {{0.0, 100.0}, {10.5, 120.0}});
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    auto* x = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Horizontal).first());
    auto* y = qobject_cast<QValueAxis*>(view->chart()->axes(Qt::Vertical).first());
    QVERIFY(x && y);
    const double x_max = x->max();
    int changes = 0;
    for (QValueAxis* axis : {x, y}) {
      connect(axis, &QValueAxis::rangeChanged, this, [&] { ++changes; });
      connect(axis, &QValueAxis::labelFormatChanged, this, [&] { ++changes; });
      connect(axis, &QValueAxis::tickCountChanged, this, [&] { ++changes; });
    }
    // New points inside the nice range already shown: nothing on the axes moves.
    panel.set_series("fp8", {{0.0, 100.0}, {10.5, 120.0}, {5.2, 119.0}});
    panel.flush();
    panel.set_series("fp8", {{0.0, 100.0}, {10.5, 120.0}, {7.4, 101.5}, {9.0, 110.0}});
    panel.flush();
    QCOMPARE(changes, 0);
    // Past it, the axis follows.
    panel.set_series("fp8", {{0.0, 100.0}, {10.0, 120.0}, {x_max * 3, 119.0}});
    panel.flush();
    QVERIFY(changes > 0);
    QVERIFY2(x->max() >= x_max * 3, qPrintable(QString::number(x->max())));
  }

  // Twenty bins in a quarter of the window: the axis labels every few bins, and the last one
  // ("≥x") always, rather than cutting each label to "1…".
  void many_bins_get_every_kth_label() {
    ChartPanel panel(ChartKind::Histogram, std::make_shared<LanePalette>());
    panel.set_histogram_spec({HistogramSpec::Mode::Linear, 20, 1.0});
    std::vector<double> samples;
    for (int i = 0; i < 190; ++i) samples.push_back(i);
    panel.set_samples("a", samples);
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    auto* x = qobject_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Horizontal).first());
    QVERIFY(x);
    const QStringList labels = x->categories();
    QVERIFY2(labels.size() >= 20, qPrintable(labels.join(",")));
    int shown = 0;
    for (QString label : labels) shown += label.remove(QChar(0x200B)).isEmpty() ? 0 : 1;
    QVERIFY2(shown >= 5 && shown <= 11, qPrintable(QString::number(shown)));
    QVERIFY(labels.first() == "0");
    QVERIFY(labels.last().startsWith(QString::fromUtf8("≥")));
    // Drawn in a quarter of a small window, no label the axis shows is cut short.
    panel.resize(420, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCoreApplication::processEvents();
    QStringList drawn;
    for (QGraphicsItem* item : view->scene()->items())
      if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) drawn << text->toPlainText();
    QVERIFY2(drawn.contains(labels.first()), qPrintable(drawn.join("|")));
    for (const QString& text : drawn)
      QVERIFY2(!text.contains(QChar(0x2026)) && !text.contains("..."), qPrintable(text));
  }

  void histogram_share_axis_near_full_scale_is_0_to_100() {
    ChartPanel panel(ChartKind::Histogram, std::make_shared<LanePalette>());
    panel.set_histogram_spec({HistogramSpec::Mode::Linear, 10, 0.99});
    std::vector<double> samples(88, 5.0);  // 88 % of the samples in one bin
    for (int i = 0; i < 12; ++i) samples.push_back(10.0 + i);
    panel.set_samples("a", samples);
    panel.flush();
    auto* view = panel.findChild<QChartView*>();
    QVERIFY(view);
    const auto axes = view->chart()->axes(Qt::Vertical);
    QCOMPARE(axes.size(), 1);
    auto* y = qobject_cast<QValueAxis*>(axes.first());
    QVERIFY(y);
    QCOMPARE(y->max(), 100.0);
    QCOMPARE(y->tickCount(), 6);
  }
};

LANEBENCH_TEST_MAIN(ChartPanelTest)
#include "widgets_chart_panel_test.moc"
