// The PDF report of a real run: a PDF file with several A4 pages, the charts drawn as vector
// paths (the SVG object handler paints through QSvgRenderer, no image is embedded), and a clear
// error instead of a file when the target cannot be written.
#include <QtTest>
#include <filesystem>

#include "report/report_writer.h"
#include "report_pdf/pdf_report.h"
#include "report_run_fixture.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;

namespace {

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

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
    const size_t pages = count_of(pdf, "/Type /Page\n") + count_of(pdf, "/Type /Page ") +
                         count_of(pdf, "/Type /Page/") + count_of(pdf, "/Type /Page>");
    qInfo("report.pdf: %zu bytes, %zu pages", pdf.size(), pages);
    QVERIFY(pages >= 3);
    QCOMPARE(count_of(pdf, "/Subtype /Image"), size_t(0));  // charts are paths, not pictures
    QVERIFY(!fs::exists(path.string() + ".tmp"));
  }

  void unwritableTargetIsAnError() {
    std::string error;
    QVERIFY(!lb::report_pdf::write_pdf_report(model_, "/nonexistent/dir/report.pdf", &error));
    QVERIFY2(error.find("/nonexistent/dir/report.pdf") != std::string::npos, error.c_str());
  }
};

QTEST_MAIN(TestReportPdf)
#include "test_report_pdf.moc"
