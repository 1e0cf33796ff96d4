// The SVG chart writer on awkward data: one point, one lane, equal values, zeros, a log axis over
// a single size, and names that need escaping. Every chart stays well-formed with its title,
// axis titles, legend and a finite coordinate for every point.
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <set>

#include "test_main.h"

#include "core/report/svg_chart.h"

using lb::report::ChartSeries;
using lb::report::ChartSpec;

namespace {

ChartSpec chart(bool log_x, std::vector<std::pair<double, double>> points) {
  ChartSpec c{"c", "TTFT <vs> \"context\"", "prompt tokens", "TTFT (s)", log_x, {}};
  c.series.push_back(ChartSeries{"lane & <b>", "#0072B2", std::move(points), {}});
  return c;
}

// Well-formed, with the elements a reader needs; returns the polyline's coordinates.
QStringList check(const std::string& svg) {
  QXmlStreamReader xml(QByteArray::fromStdString(svg));
  QStringList texts, coords;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement() && xml.name() == QLatin1String("text")) texts << xml.readElementText();
    if (xml.isStartElement() && xml.name() == QLatin1String("polyline"))
      coords = xml.attributes().value("points").toString().split(' ', Qt::SkipEmptyParts);
  }
  if (xml.hasError()) qWarning("%s", qPrintable(xml.errorString()));
  if (xml.hasError() || !texts.contains("TTFT <vs> \"context\"") || !texts.contains("TTFT (s)") ||
      !texts.contains("lane & <b>"))
    return {};
  return coords;
}

}  // namespace

class TestReportSvg : public QObject {
  Q_OBJECT

 private slots:
  void degenerateDataStaysDrawable() {
    const std::vector<ChartSpec> charts = {chart(false, {{1, 5}}),
                                           chart(true, {{4096, 0.5}}),
                                           chart(false, {{1, 0}, {2, 0}, {3, 0}}),
                                           chart(false, {{1, 7}, {1, 7}}),
                                           chart(true, {{2048, 1}, {262144, 120}}),
                                           chart(false, {{0, 0.001}, {1e6, 1e5}})};
    for (const auto& c : charts) {
      const std::string svg = lb::report::render_svg_chart(c);
      const QStringList coords = check(svg);
      QCOMPARE(coords.size(), static_cast<qsizetype>(c.series[0].points.size()));
      for (const auto& xy : coords) {
        const auto parts = xy.split(',');
        QCOMPARE(parts.size(), 2);
        bool okx = false, oky = false;
        const double x = parts[0].toDouble(&okx), y = parts[1].toDouble(&oky);
        QVERIFY2(okx && oky && std::isfinite(x) && std::isfinite(y), qPrintable(xy));
        QVERIFY2(x >= 0 && x <= 720 && y >= 0 && y <= 400, qPrintable(xy));  // inside the canvas
      }
    }
  }

  // Grouped bars: one rect per point, inside the plot, tallest for the largest value, the
  // category names on the x axis, each value above its bar, the note under the legend.
  void barChartsDrawOneBarPerPoint() {
    ChartSpec c{"bars",
                "Prefix cache: TTFT per pass",
                "pass",
                "TTFT median (s)",
                false,
                {},
                {"cold", "warm", "control"},
                "warm pass cached"};
    c.series.push_back(ChartSeries{"bf16", "#0072B2", {{0, 4.8}, {1, 0.4}, {2, 8.9}}, {}});
    c.series.push_back(ChartSeries{"fp8", "#E69F00", {{0, 3.2}, {2, 6.8}}, {}});
    const std::string svg = lb::report::render_svg_chart(c);
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    QStringList texts;
    std::vector<std::pair<double, double>> bars;  // (x, height) of every data bar
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement()) continue;
      if (xml.name() == QLatin1String("text")) texts << xml.readElementText();
      if (xml.name() == QLatin1String("rect") && xml.attributes().value("width").toDouble() > 14)
        bars.emplace_back(xml.attributes().value("x").toDouble(),
                          xml.attributes().value("height").toDouble());
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    bars.erase(bars.begin());  // the white background
    QCOMPARE(bars.size(), size_t{5});
    for (const char* t : {"cold", "warm", "control", "warm pass cached", "8.9", "0.4", "6.8"})
      QVERIFY2(texts.contains(t), t);
    const auto tallest = std::max_element(bars.begin(), bars.end(),
                                          [](auto a, auto b) { return a.second < b.second; });
    QCOMPARE(tallest - bars.begin(), 2);  // bf16 control, the third bar drawn
    QVERIFY(bars[3].first < bars[4].first && bars[0].first < bars[3].first);
  }

  // Legend entries that do not fit in one row wrap onto the next, inside the chart, and the plot
  // moves down to make room; nothing is cut off.
  void longLegendsWrapInsideTheChart() {
    ChartSpec c{"pareto", "Pareto", "total output (tok/s)", "per-user decode (tok/s)", false, {}};
    for (int i = 0; i < 6; ++i)
      c.series.push_back(
          ChartSeries{"fp8-mtp3[max_num_batched_tokens=" + std::to_string(1024 << i) + "]",
                      "#0072B2",
                      {{1000.0 + i, 400.0 + i}},
                      {}});
    const lb::report::SvgSize size;
    const std::string svg = lb::report::render_svg_chart(c, size);
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    std::set<double> legend_rows;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement() || xml.name() != QLatin1String("rect")) continue;
      const auto a = xml.attributes();
      if (a.value("width").toDouble() != 14) continue;  // a legend swatch
      legend_rows.insert(a.value("y").toDouble());
      // The swatch, its gap and its name (about 7 px a character) end inside the chart.
      QVERIFY(a.value("x").toDouble() + 18 + 7 * 38 <= size.width);
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(legend_rows.size() >= 2);
  }

  // A bar's value keeps three significant digits below 10: a warm pass's TTFT of 2.3 ms reads
  // "0.0023", not "0"; from 10 up one decimal.
  void smallBarValuesKeepTheirDigits() {
    ChartSpec c{"small",
                "Prefix cache: TTFT per pass",
                "pass",
                "TTFT median (s)",
                false,
                {},
                {"cold", "warm"},
                ""};
    c.series.push_back(ChartSeries{"bf16", "#0072B2", {{0, 0.0102}, {1, 0.0023}}, {}});
    c.series.push_back(ChartSeries{"fp8", "#E69F00", {{0, 9516.64}, {1, 2.754}}, {}});
    const QString svg = QString::fromStdString(lb::report::render_svg_chart(c));
    for (const char* t : {">0.0102<", ">0.0023<", ">9516.6<", ">2.75<"})
      QVERIFY2(svg.contains(t), t);
  }

  // Intervals are error bars: one per point that has one, spanning lo to hi in the plot's y
  // scale, a band between consecutive ones on a line, and nothing when a series has none.
  void intervalsAreErrorBarsAndBands() {
    ChartSpec c = chart(false, {{1, 10}, {2, 20}, {4, 30}, {8, 35}});
    c.series[0].intervals = {{8, 12}, {15, 26}, {std::nan(""), std::nan("")}, {30, 50}};
    const std::string svg = lb::report::render_svg_chart(c);
    const QStringList coords = check(svg);
    QCOMPARE(coords.size(), 4);
    QXmlStreamReader xml(QByteArray::fromStdString(svg));
    std::vector<std::vector<double>> bars;  // every error bar's path numbers
    int bands = 0;
    while (!xml.atEnd()) {
      xml.readNext();
      if (!xml.isStartElement() || xml.name() != QLatin1String("path")) continue;
      const QString cls = xml.attributes().value("class").toString();
      bands += cls == "error-band" ? 1 : 0;
      if (cls != "error-bar") continue;
      std::vector<double> v;
      static const QRegularExpression number("-?[0-9.]+");
      for (auto m = number.globalMatch(xml.attributes().value("d").toString()); m.hasNext();)
        v.push_back(m.next().captured().toDouble());
      bars.push_back(v);
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(bars.size(), size_t{3});  // the third point has no interval
    QCOMPARE(bands, 1);                // only the first two are consecutive
    // Each bar is vertical at its point's x and brackets its point's y; the widest interval
    // (30-50) is the longest bar, and the top of the axis reaches its hi of 50.
    const int with[] = {0, 1, 3};
    for (size_t b = 0; b < bars.size(); ++b) {
      const QStringList xy = coords[with[b]].split(',');
      QCOMPARE(bars[b][0], xy[0].toDouble());
      QCOMPARE(bars[b][2], xy[0].toDouble());
      QVERIFY(bars[b][1] > xy[1].toDouble() && bars[b][3] < xy[1].toDouble());
    }
    QVERIFY(bars[2][1] - bars[2][3] > bars[1][1] - bars[1][3]);
    QVERIFY(bars[1][1] - bars[1][3] > bars[0][1] - bars[0][3]);
    QVERIFY(svg.find(">50<") != std::string::npos);
    // A series without intervals draws none.
    QVERIFY(lb::report::render_svg_chart(chart(false, {{1, 10}, {2, 20}})).find("error-") ==
            std::string::npos);
    // Bars of a bar chart carry theirs too.
    ChartSpec b{"b", "Decode per level", "level", "tok/s", false, {}, {"c1", "c5"}, ""};
    b.series.push_back(ChartSeries{"fp8", "#E69F00", {{0, 40}, {1, 30}}, {}});
    b.series[0].intervals = {{38, 42}, {27, 33}};
    const std::string bar_svg = lb::report::render_svg_chart(b);
    size_t n = 0;
    for (size_t at = bar_svg.find("class=\"error-bar\""); at != std::string::npos;
         at = bar_svg.find("class=\"error-bar\"", at + 1))
      ++n;
    QCOMPARE(n, size_t{2});
  }

  // A failed point (a needle not retrieved) is a cross; a passed one a filled dot.
  void failedPointsAreCrossed() {
    ChartSpec c = chart(true, {{1024, 0.1}, {8192, 0.7}, {32768, 2.5}});
    c.series[0].marks = {lb::report::PointMark::Pass, lb::report::PointMark::Fail,
                         lb::report::PointMark::Pass};
    const std::string svg = lb::report::render_svg_chart(c);
    QVERIFY(!check(svg).isEmpty());
    size_t circles = 0, pos = 0;
    while ((pos = svg.find("<circle", pos)) != std::string::npos) ++circles, ++pos;
    QCOMPARE(circles, size_t{2});
    QVERIFY(svg.find("<path d=\"M") != std::string::npos);
  }

  void logAxisLabelsPowersOfTwoAsK() {
    const std::string svg = lb::report::render_svg_chart(chart(true, {{4096, 1}, {131072, 9}}));
    for (const char* label : {">4K<", ">32K<", ">128K<"})
      QVERIFY2(svg.find(label) != std::string::npos, label);
    QVERIFY(svg.find("(log scale)") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportSvg)
#include "report_svg_test.moc"
