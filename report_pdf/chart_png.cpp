#include "report_pdf/chart_png.h"

#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include "core/files/confined_write.h"
#include "core/report/svg_chart.h"

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
  for (const auto& chart : model.charts) {
    const std::string name = "charts/" + report::chart_file_stem(chart) + ".png";
    const QImage image = render_chart(chart);
    QByteArray png;
    QBuffer buffer(&png);
    std::string error = "the chart did not render";
    // Through the report folder's one writer: a link planted in it is refused, not followed.
    if (image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG") ||
        !files::write_confined(out_dir, name,
                               std::string_view(png.constData(), static_cast<size_t>(png.size())),
                               &error)) {
      result.errors.push_back("cannot write " + out_dir + "/" + name + ": " + error);
      continue;
    }
    result.written.push_back(name);
  }
}

}  // namespace lb::report_pdf
