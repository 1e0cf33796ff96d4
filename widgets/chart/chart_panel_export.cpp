// ChartPanel's exports: everything goes through the backend's render() so a file shows the title,
// axis units and legend exactly as the screen does.
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgGenerator>

#include "widgets/chart/chart_backend.h"
#include "widgets/chart/chart_panel.h"

namespace lb::widgets {
namespace {

QString safe_file_stem(QString title) {
  title = title.toLower();
  title.replace(QRegularExpression("[^a-z0-9]+"), "-");
  title.remove(QRegularExpression("^-+|-+$"));
  return title.isEmpty() ? QStringLiteral("chart") : title;
}

}  // namespace

QSize ChartPanel::export_size() const {
  // The on-screen size when it is a sensible report size, else a standard one.
  const QSize on_screen = backend_->widget()->size();
  if (isVisible() && on_screen.width() >= 480 && on_screen.height() >= 300) return on_screen;
  return QSize(960, 600);
}

QImage ChartPanel::render_image(qreal scale) {
  flush();
  const QSize logical = export_size();
  QImage image(logical * scale, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(scale);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  backend_->render(&painter, QRectF(QPointF(0, 0), QSizeF(logical)), QSizeF(logical));
  painter.end();
  return image;
}

bool ChartPanel::export_to_file(const QString& path, QString* error) {
  flush();
  const QString suffix = QFileInfo(path).suffix().toLower();
  const QSize logical = export_size();
  const QRectF target(QPointF(0, 0), QSizeF(logical));
  auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  if (suffix == "png") {
    if (!render_image(2.0).save(path, "PNG")) return fail(tr("Could not write %1").arg(path));
    return true;
  }
  if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(logical);
    svg.setViewBox(target);
    svg.setTitle(title_);
    svg.setDescription(x_.label() + " / " + y_.label());
    QPainter painter;
    if (!painter.begin(&svg)) return fail(tr("Could not write %1").arg(path));
    backend_->render(&painter, target, QSizeF(logical));
    painter.end();
    return QFileInfo(path).size() > 0 ? true : fail(tr("Could not write %1").arg(path));
  }
  if (suffix == "pdf") {
    QPdfWriter pdf(path);
    pdf.setTitle(title_);
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QSizeF(logical), QPageSize::Point));  // 1 logical px = 1 pt
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&pdf)) return fail(tr("Could not write %1").arg(path));
    const QRect page = pdf.pageLayout().paintRectPixels(pdf.resolution());
    backend_->render(&painter, QRectF(page), QSizeF(logical));
    painter.end();
    return QFileInfo(path).size() > 0 ? true : fail(tr("Could not write %1").arg(path));
  }
  return fail(tr("Unknown export format \"%1\": use .png, .svg or .pdf").arg(suffix));
}

void ChartPanel::copy_to_clipboard() { QGuiApplication::clipboard()->setImage(render_image(2.0)); }

void ChartPanel::export_with_dialog(const QString& suffix) {
  const QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  const QString suggested = QDir(dir).filePath(safe_file_stem(title_) + "." + suffix);
  const QString filter = suffix.toUpper() + " (*." + suffix + ")";
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), suggested, filter);
  if (path.isEmpty()) return;
  QString error;
  if (!export_to_file(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace lb::widgets
