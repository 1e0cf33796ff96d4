// The SVG chart writer on awkward data: one point, one lane, equal values, zeros, a log axis over
// a single size, and names that need escaping. Every chart stays well-formed with its title,
// axis titles, legend and a finite coordinate for every point.
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>

#include "test_main.h"

#include "report/svg_chart.h"

using lb::report::ChartSeries;
using lb::report::ChartSpec;

namespace {

ChartSpec chart(bool log_x, std::vector<std::pair<double, double>> points) {
  ChartSpec c{"c", "TTFT <vs> \"context\"", "prompt tokens", "TTFT (s)", log_x, {}};
  c.series.push_back(ChartSeries{"lane & <b>", "#0072B2", std::move(points)});
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

  void logAxisLabelsPowersOfTwoAsK() {
    const std::string svg = lb::report::render_svg_chart(chart(true, {{4096, 1}, {131072, 9}}));
    for (const char* label : {">4K<", ">32K<", ">128K<"})
      QVERIFY2(svg.find(label) != std::string::npos, label);
    QVERIFY(svg.find("(log scale)") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportSvg)
#include "report_svg_test.moc"
