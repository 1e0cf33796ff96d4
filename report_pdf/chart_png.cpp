#include "report_pdf/chart_png.h"

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>

#include "report/svg_chart.h"

namespace lb::report_pdf {
namespace {

// The chart on white at kChartPngScale times its SVG size; a null image when the SVG is unusable.
QImage render_chart(const report::ChartSpec& chart) {
  QSvgRenderer renderer(QByteArray::fromStdString(report::render_svg_chart(chart)));
  const QSize size = renderer.defaultSize() * kChartPngScale;
  if (!renderer.isValid() || size.isEmpty()) return {};
  QImage image(size, QImage::Format_RGB32);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  renderer.render(&painter);
  return image;
}

}  // namespace

void write_chart_pngs(const report::ReportModel& model, const std::string& out_dir,
                      report::ReportWriteResult& result) {
  if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) {
    result.errors.push_back("cannot draw chart PNGs without a QGuiApplication");
    return;
  }
  const QDir dir(QString::fromStdString(out_dir));
  if (!model.charts.empty() && !dir.mkpath("charts")) {
    result.errors.push_back("cannot create " + dir.filePath("charts").toStdString());
    return;
  }
  for (const auto& chart : model.charts) {
    const std::string name = "charts/" + chart.id + ".png";
    const QString path = dir.filePath(QString::fromStdString(name));
    const QImage image = render_chart(chart);
    QSaveFile file(path);
    if (image.isNull() || !file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") ||
        !file.commit()) {
      result.errors.push_back("cannot write " + path.toStdString() +
                              (image.isNull() ? ": the chart did not render"
                                              : ": " + file.errorString().toStdString()));
      continue;
    }
    result.written.push_back(name);
  }
}

}  // namespace lb::report_pdf
