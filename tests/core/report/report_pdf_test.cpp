// The PDF report of a real run: a PDF file with several A4 pages, the charts drawn as vector
// paths (the SVG object handler paints through QSvgRenderer, no image is embedded), and a clear
// error instead of a file when the target cannot be written. The page layout keeps every line,
// table and chart inside the margins, and no figure is broken across lines. The charts as PNG:
// twice the SVG size, every lane drawn.
#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QImage>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextLayout>
#include <QTextTable>
#include <QtTest>

#include <filesystem>
#include "test_main.h"

#include "core/report/report_writer.h"
#include "core/report/svg_chart.h"
#include "report_pdf/chart_png.h"
#include "report_pdf/pdf_layout.h"
#include "report_pdf/pdf_report.h"
#include "report_run_fixture.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;

namespace {

size_t pdf_count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Lines a table cell's block must take: one per explicit line break (headers set a word per
// line); any more means a word was broken to fit a column.
int expected_lines(const QString& text) { return 1 + int(text.count(QChar::LineSeparator)); }

}  // namespace

class TestReportPdf : public QObject {
  Q_OBJECT
  fs::path run_;
  lb::report::ReportModel model_;

 private slots:
  void initTestCase() {
    run_ = lb::test::run_plan_into(lb::test::report_test_plan(), "lb-report-pdf");
    const auto folder = lb::report::load_run_folder(run_.string(), nullptr);
    QVERIFY(folder);
    model_ = lb::report::build_report_model(*folder);
  }
  void cleanupTestCase() { fs::remove_all(run_); }

  void writesPagesWithVectorCharts() {
    QVERIFY(model_.charts.size() >= 4);
    const auto path = run_ / "report.pdf";
    std::string error;
    QVERIFY2(lb::report_pdf::write_pdf_report(model_, path.string(), &error), error.c_str());
    const std::string pdf = lb::test::read_text(path);
    QVERIFY(pdf.rfind("%PDF-", 0) == 0);
    QVERIFY(pdf.find("%%EOF") != std::string::npos);
    const size_t pages = pdf_count_of(pdf, "/Type /Page\n") + pdf_count_of(pdf, "/Type /Page ") +
                         pdf_count_of(pdf, "/Type /Page/") + pdf_count_of(pdf, "/Type /Page>");
    qInfo("report.pdf: %zu bytes, %zu pages", pdf.size(), pages);
    QVERIFY(pages >= 3);
    QCOMPARE(pdf_count_of(pdf, "/Subtype /Image"), size_t(0));  // charts are paths, not pictures
    QVERIFY(!fs::exists(path.string() + ".tmp"));
  }

  void layoutKeepsFiguresWholeAndInsideTheMargins() {
    QBuffer sink;
    QVERIFY(sink.open(QIODevice::WriteOnly));
    QPdfWriter writer(&sink);
    writer.setResolution(300);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
    const auto layout = lb::report_pdf::lay_out_pdf(model_, writer);
    QTextDocument& doc = layout->doc;
    const double width = doc.pageSize().width();
    QVERIFY(width > 0 && width < writer.width());
    QVERIFY(doc.pageCount() >= 3);
    int cells_checked = 0;
    int widest_table_columns = 0;
    int charts = 0;
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
      if (block.text().isEmpty()) continue;  // Qt parks the empty block after a table anywhere
      const QRectF rect = doc.documentLayout()->blockBoundingRect(block);
      QVERIFY2(rect.right() <= width + 0.5,
               qPrintable(QStringLiteral("'%1' box ends at %2 of %3 px")
                              .arg(block.text().left(40))
                              .arg(rect.right())
                              .arg(width)));
      const QTextLayout* lines = block.layout();
      for (int i = 0; i < lines->lineCount(); ++i) {
        const QTextLine line = lines->lineAt(i);
        const double right = rect.left() + line.x() + line.naturalTextWidth();
        QVERIFY2(right <= width + 0.5, qPrintable(QStringLiteral("'%1' ends at %2 of %3 px")
                                                      .arg(block.text().left(40))
                                                      .arg(right)
                                                      .arg(width)));
      }
      for (auto it = block.begin(); !it.atEnd(); ++it) {
        if (it.fragment().charFormat().objectType() == lb::report_pdf::SvgTextObject::kObjectType)
          ++charts;
      }
      QTextTable* table = QTextCursor(block).currentTable();
      if (table == nullptr) continue;
      widest_table_columns = std::max(widest_table_columns, table->columns());
      const QString text = block.text().trimmed();
      if (text.isEmpty() || text.contains(' ')) continue;
      ++cells_checked;
      QVERIFY2(lines->lineCount() == expected_lines(text),
               qPrintable(QStringLiteral("'%1' takes %2 lines").arg(text).arg(lines->lineCount())));
    }
    qInfo("%d single-word table cells checked; widest table %d columns; %d charts", cells_checked,
          widest_table_columns, charts);
    QVERIFY(widest_table_columns >= 11);  // the throughput table, the widest the report has
    QVERIFY(cells_checked > 100);
    QCOMPARE(charts, int(model_.charts.size()));
  }

  void chartPngsShowEveryLaneAtTwiceTheSvgSize() {
    const fs::path out = run_ / "png";
    lb::report::ReportWriteResult result;
    lb::report_pdf::write_chart_pngs(model_, out.string(), result);
    QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
    QCOMPARE(result.written.size(), model_.charts.size());
    for (const auto& chart : model_.charts) {
      const QString path = QString::fromStdString((out / "charts" / (chart.id + ".png")).string());
      QImage image(path);
      QVERIFY2(!image.isNull(), qPrintable(path));
      QSvgRenderer svg(QByteArray::fromStdString(lb::report::render_svg_chart(chart)));
      QCOMPARE(image.size(), svg.defaultSize() * lb::report_pdf::kChartPngScale);
      // Every lane with points is drawn in its colour (lines and markers: many pixels).
      for (const auto& series : chart.series) {
        if (series.points.empty()) continue;
        const QRgb lane = QColor(QString::fromStdString(series.color)).rgb();
        int pixels = 0;
        for (int y = 0; y < image.height(); ++y) {
          const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
          for (int x = 0; x < image.width(); ++x)
            pixels += (row[x] & 0xffffff) == (lane & 0xffffff);
        }
        QVERIFY2(pixels > 100, qPrintable(QStringLiteral("%1: %2 has %3 pixels")
                                              .arg(path, QString::fromStdString(series.name))
                                              .arg(pixels)));
      }
    }
  }

  void unwritableTargetIsAnError() {
    std::string error;
    QVERIFY(!lb::report_pdf::write_pdf_report(model_, "/nonexistent/dir/report.pdf", &error));
    QVERIFY2(error.find("/nonexistent/dir/report.pdf") != std::string::npos, error.c_str());
  }
};

LANEBENCH_TEST_MAIN(TestReportPdf)
#include "report_pdf_test.moc"
