// The Review page's token evidence, offscreen, on a real run folder: a regression on two
// in-process simulator lanes whose candidate flips facts, run by the engine with logprobs. The
// strips hold each lane's tokens with the divergence marked where tokens.json says, a click shows
// both lanes' top-K at that token, the cause filter hides rows, the margin column sorts, the
// cross-scores show when tokens.json has them, and the verdict keys still save verdicts.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/compare/review_record.h"
#include "core/logprobs/logprob_lines.h"
#include "core/plan/plan.h"
#include "core/run/plan_runner.h"
#include "json_file.h"
#include "models/item_roles.h"
#include "sim_lane_starter.h"
#include "test_main.h"
#include "ui/pages/review_page.h"
#include "ui/review/token_strip.h"
#include "ui/run/staging_sink.h"
#include "widgets/diff/diff_view.h"

using namespace lb;
using namespace lb::ui;
using nlohmann::json;

// Named apart: the test folder is one unity build.
namespace review_tokens_test {

using lb::test::read_json;

void write_json(const QString& path, const json& j) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write");
  file.write(QByteArray::fromStdString(j.dump()));
}

std::vector<logprobs::PromptLogprobs> read_logprobs(const QString& run, const char* lane) {
  QFile file(QDir(run).filePath(QString("logprobs/%1.jsonl").arg(lane)));
  if (!file.open(QIODevice::ReadOnly)) return {};
  std::string error;
  return logprobs::parse_lines(file.readAll().toStdString(), error);
}

void run_regression(const QString& run_dir) {
  const json plan = {
      {"name", "review tokens test"},
      {"lanes",
       {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.001"}},
        {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.001&flip_facts=1"}}}},
      {"experiments",
       {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"concurrency", 4}}}}};
  auto parsed = plan::parse_plan(plan.dump(), "review-tokens-test.json");
  if (!parsed.ok()) qFatal("plan rejected: %s", parsed.error_text().c_str());
  StagingSink sink;
  std::atomic<bool> stop{false};
  run::PlanRunner runner(*parsed.plan, {run_dir.toStdString(), "test", false}, sink);
  const run::RunResult result = runner.run(stop);
  if (result.exit_code == run::kExitInput) qFatal("run did not start");
}

int proxy_row_of_prompt(ReviewPage& page, int prompt_index) {
  for (int r = 0; r < page.proxy()->rowCount(); ++r)
    if (page.proxy()->index(r, 0).data(models::PromptIndexRole).toInt() == prompt_index) return r;
  return -1;
}

// The first pair of `cls` in tokens.json with a divergent token, or null.
json first_pair(const json& report, const char* cls) {
  for (const json& p : report["pairs"])
    if (p.value("class", "") == cls && p.value("token_index", -1) >= 0) return p;
  return nullptr;
}

}  // namespace review_tokens_test

using namespace review_tokens_test;

class UiReviewTokensTest : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QString run_;

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    app::register_sim_lane_starter();
    run_ = dir_.filePath("run");
    run_regression(run_);
    QVERIFY(QFileInfo::exists(QDir(run_).filePath("tokens.json")));
  }

  void strips_mark_the_divergence_and_a_click_shows_top_k() {
    const json report = read_json(QDir(run_).filePath("tokens.json"));
    const json change = first_pair(report, "confident_change");
    QVERIFY2(!change.is_null(), "the flipped facts give confident changes");
    const auto bf16 = read_logprobs(run_, "bf16");
    const auto fp8 = read_logprobs(run_, "fp8");
    QCOMPARE(bf16.size(), size_t(20));

    ReviewPage page;
    page.resize(1500, 1000);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSignalSpy loaded(&page, &ReviewPage::pair_loaded);
    QVERIFY(page.open_run(run_));
    QVERIFY(loaded.wait(20'000));

    const int prompt = change["index"].get<int>();
    const int token = change["token_index"].get<int>();
    const int row = proxy_row_of_prompt(page, prompt);
    QVERIFY(row >= 0);
    page.table()->setCurrentIndex(page.proxy()->index(row, 0));
    QCOMPARE(page.proxy()->index(row, models::ReviewPairsModel::Cause).data().toString(),
             QString("confident change"));

    TokenStrip* a = page.strip(0);
    TokenStrip* b = page.strip(1);
    QCOMPARE(a->token_count(), static_cast<int>(bf16[static_cast<size_t>(prompt)].tokens.size()));
    QCOMPARE(b->token_count(), static_cast<int>(fp8[static_cast<size_t>(prompt)].tokens.size()));
    QCOMPARE(a->divergence_index(), int64_t(token));
    QCOMPARE(b->divergence_index(), int64_t(token));
    QVERIFY(page.token_header()->text().contains(QString("at token %1").arg(token)));
    QVERIFY(!page.token_header()->text().contains("Cross-scores"));  // none in this run

    // Painted: a token before the divergence in its shade, the divergent one framed in red.
    QTRY_VERIFY(a->isVisible() && a->token_rect(token).isValid());
    // Each strip sits inside its lane's pane: under its text, its first token where the text's
    // first character is, and no wider than the text.
    for (const auto& [strip, side] : {std::pair{a, widgets::DiffView::Side::Left},
                                      std::pair{b, widgets::DiffView::Side::Right}}) {
      QPlainTextEdit* text = page.diff_view()->pane(side);
      QVERIFY(page.diff_view()->pane_footer(side)->isAncestorOf(strip));
      const QRect text_rect(text->mapTo(&page, QPoint(0, 0)), text->size());
      const QPoint strip_at = strip->mapTo(&page, QPoint(0, 0));
      const int indent = text->frameWidth() + static_cast<int>(text->document()->documentMargin());
      QCOMPARE(strip_at.x() + strip->token_rect(0).left(), text_rect.left() + indent);
      QVERIFY(strip_at.y() >= text_rect.bottom());
      QVERIFY(strip_at.x() + strip->width() <= text_rect.right() + 1);
    }
    QVERIFY(a->mapTo(&page, QPoint(0, 0)).x() < b->mapTo(&page, QPoint(0, 0)).x());
    const QImage image = a->grab().toImage();
    const int plain = token > 0 ? 0 : 1;
    const QRect pr = a->token_rect(plain);
    QCOMPARE(image.pixelColor(pr.left() + 1, pr.top() + 1).rgb(),
             TokenStrip::shade_for(bf16[static_cast<size_t>(prompt)].tokens[plain].logprob).rgb());
    const QRect dr = a->token_rect(token);
    const QColor frame = image.pixelColor(dr.left() + 1, dr.center().y());
    QVERIFY2(frame.red() > 150 && frame.green() < 80, qPrintable(frame.name()));
    QVERIFY(TokenStrip::shade_for(std::log(0.1)) != TokenStrip::shade_for(0.0));

    // The divergence's top-K shows at once; a click on another token shows that one's.
    QVERIFY(page.top_k_table()->isVisible());
    QTest::mouseClick(b, Qt::LeftButton, {}, b->token_rect(plain).center());
    QCOMPARE(a->selected(), plain);
    QTableWidget* table = page.top_k_table();
    const auto& ta = bf16[static_cast<size_t>(prompt)].tokens[static_cast<size_t>(plain)];
    const auto& tb = fp8[static_cast<size_t>(prompt)].tokens[static_cast<size_t>(plain)];
    QCOMPARE(table->rowCount(), static_cast<int>(std::max(ta.top.size(), tb.top.size())));
    QCOMPARE(table->rowCount(), 5);
    QCOMPARE(table->item(0, 1)->text(), "\"" + QString::fromStdString(ta.top[0].token) + "\"");
    QCOMPARE(table->item(0, 3)->text(), "\"" + QString::fromStdString(tb.top[0].token) + "\"");
    QCOMPARE(table->item(1, 2)->text().toDouble(), std::round(ta.top[1].logprob * 1e4) / 1e4);
  }

  void cause_filter_hides_rows_and_margin_sorts() {
    ReviewPage page;
    QSignalSpy loaded(&page, &ReviewPage::pair_loaded);
    QVERIFY(page.open_run(run_));
    QVERIFY(loaded.wait(20'000));
    QComboBox* causes = page.cause_filter();
    QVERIFY(causes->isEnabled());
    const int confident = causes->findData("confident_change");
    QVERIFY(confident > 0);
    int expected = 0, listed = page.proxy()->rowCount();
    for (const models::ReviewPair& p : page.model()->pairs())
      expected += p.triage != "identical" && p.cause == "confident_change";
    QVERIFY(expected > 0 && expected < listed);
    causes->setCurrentIndex(confident);
    emit causes->activated(confident);
    QCOMPARE(page.proxy()->rowCount(), expected);
    for (int r = 0; r < page.proxy()->rowCount(); ++r)
      QCOMPARE(page.proxy()->index(r, 0).data(models::CauseRole).toString(),
               QString("confident_change"));
    causes->setCurrentIndex(0);
    emit causes->activated(0);
    QCOMPARE(page.proxy()->rowCount(), listed);

    page.table()->sortByColumn(models::ReviewPairsModel::Margin, Qt::AscendingOrder);
    double last = -1e9;
    int with_margin = 0;
    for (int r = 0; r < page.proxy()->rowCount(); ++r) {
      const double m = page.proxy()
                           ->index(r, models::ReviewPairsModel::Margin)
                           .data(models::SortRole)
                           .toDouble();
      QVERIFY2(m >= last, qPrintable(QString("row %1: %2 after %3").arg(r).arg(m).arg(last)));
      last = m;
      with_margin += m < 1e300;
    }
    QVERIFY(with_margin > 0);
  }

  void cross_scores_show_when_tokens_json_has_them() {
    QTemporaryDir copy_dir;
    const QString copy = copy_dir.filePath("run");
    QVERIFY(QDir().mkpath(copy));
    for (const QString& sub : QStringList{"", "texts", "logprobs"}) {
      QDir(copy).mkpath(sub.isEmpty() ? "." : sub);
      const QDir from(QDir(run_).filePath(sub));
      for (const QString& f : from.entryList(QDir::Files))
        QVERIFY(
            QFile::copy(from.filePath(f), QDir(copy).filePath(sub.isEmpty() ? f : sub + "/" + f)));
    }
    json report = read_json(QDir(copy).filePath("tokens.json"));
    const json change = first_pair(report, "confident_change");
    const int prompt = change["index"].get<int>();
    report["pairs"][static_cast<size_t>(prompt)]["cross_score"] = {
        {"candidate_under_baseline",
         {{"status", "ok"}, {"top1_agreement", 0.9876}, {"mean_kl_nats", 0.0123}}},
        {"baseline_under_candidate", {{"status", "unsupported"}, {"reason", "no /tokenize"}}}};
    write_json(QDir(copy).filePath("tokens.json"), report);

    ReviewPage page;
    QSignalSpy loaded(&page, &ReviewPage::pair_loaded);
    QVERIFY(page.open_run(copy));
    QVERIFY(loaded.wait(20'000));
    page.table()->setCurrentIndex(page.proxy()->index(proxy_row_of_prompt(page, prompt), 0));
    const QString header = page.token_header()->text();
    QVERIFY2(header.contains("top-1 agreement 0.9876"), qPrintable(header));
    QVERIFY2(header.contains("KL 0.0123 nats"), qPrintable(header));
    QVERIFY2(header.contains("no /tokenize"), qPrintable(header));
  }

  void verdict_keys_still_save() {
    ReviewPage page;
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSignalSpy loaded(&page, &ReviewPage::pair_loaded);
    QVERIFY(page.open_run(run_));
    QVERIFY(loaded.wait(20'000));
    page.activateWindow();
    const int before = page.table()->currentIndex().row();
    QTest::keyClick(page.table(), Qt::Key_J);
    QCOMPARE(page.table()->currentIndex().row(), before + 1);
    QTest::keyClick(page.table(), Qt::Key_2);
    std::string why;
    const auto saved = compare::load_review(page.review_path().toStdString(), &why);
    QVERIFY2(saved.has_value(), why.c_str());
    int benign = 0;
    for (const auto& p : saved->pairs) benign += p.verdict == compare::Verdict::BenignDrift;
    QCOMPARE(benign, 1);
  }
};

LANEBENCH_TEST_MAIN(UiReviewTokensTest)
#include "ui_review_tokens_test.moc"
