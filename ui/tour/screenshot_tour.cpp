#include "ui/tour/screenshot_tour.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPixmap>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <cstdio>

#include "core/plan/plan.h"
#include "core/plan/prompt_set.h"
#include "models/item_roles.h"
#include "ui/dialogs/lane_dialog.h"
#include "ui/dialogs/launch_editor.h"
#include "ui/main_window.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/prompt_sets_page.h"
#include "ui/pages/review_page.h"
#include "ui/pages/run_page.h"
#include "ui/pages/runs_page.h"
#include "ui/pages/verify_page.h"
#include "ui/review/media_strip.h"
#include "ui/review/sampled_review_view.h"
#include "ui/run/experiment_form.h"
#include "ui/run/server_state_view.h"
#include "ui/tour/demo_checkpoint.h"
#include "ui/workspace/demo_plan.h"
#include "ui/workspace/lane_json.h"
#include "widgets/diff/diff_view.h"

#include <nlohmann/json.hpp>

namespace lb::ui {

ScreenshotTour::ScreenshotTour(MainWindow& window, QString out_dir, QObject* parent)
    : QObject(parent), window_(window), out_dir_(std::move(out_dir)) {
  timeout_.setSingleShot(true);
  connect(&timeout_, &QTimer::timeout, this, [this] { fail("the tour timed out"); });
  live_shot_.setSingleShot(true);
  connect(&live_shot_, &QTimer::timeout, this, [this] { grab("02-run-live"); });
}

void ScreenshotTour::start() {
  if (!QDir().mkpath(out_dir_)) return fail("cannot create " + out_dir_);
  timeout_.start(kTimeoutMs);
  window_.show_page(MainWindow::Lanes);
  // Let the window lay out and paint once before the first grab.
  QTimer::singleShot(500, this, [this] {
    if (!grab("01-lanes")) return;
    RunPage* run = window_.run_page();
    window_.show_page(MainWindow::Run);
    run->experiment_form()->set_kind("regression");
    run->experiment_form()->use_quick_defaults();
    connect(run, &RunPage::run_finished, this,
            [this](const QString& dir, bool) { on_run_finished(dir); });
    QString error;
    if (!run->start_run(&error)) return fail("cannot start the run: " + error);
    live_shot_.start(8000);
  });
}

bool ScreenshotTour::grab(const QString& name) {
  const QString path = QDir(out_dir_).filePath(name + ".png");
  if (!window_.grab().save(path)) {
    fail("cannot write " + path);
    return false;
  }
  std::fprintf(stderr, "screenshot: %s\n", qPrintable(path));
  return true;
}

void ScreenshotTour::on_run_finished(const QString& run_dir) {
  live_shot_.stop();
  if (media_started_) return show_media_review();
  if (sampled_started_) return show_sampled_run();
  if (sweep_plan_started_) return show_sweep_run(run_dir);
  if (plan_started_) return show_plan_run(run_dir);
  if (sweep_started_) {
    QTimer::singleShot(600, this, [this] {
      if (grab("07-context-sweep")) finish();
    });
    return;
  }
  regression_dir_ = run_dir;
  QTimer::singleShot(400, this, [this, run_dir] {
    if (!grab("03-run-finished")) return;
    ReviewPage* review = window_.review_page();
    window_.show_page(MainWindow::Review);
    // The window opens a finished regression for review by itself; it may be done already.
    if (review->model()->rowCount() > 0 && !review->loading()) return on_review_ready();
    connect(review, &ReviewPage::diff_shown, this, &ScreenshotTour::on_review_ready);
    if (!review->loading() && !review->open_run(run_dir)) fail("the run has nothing to review");
  });
}

void ScreenshotTour::on_review_ready() {
  if (review_shot_) return;
  review_shot_ = true;
  ReviewPage* review = window_.review_page();
  // Show the most interesting pair: the least similar one.
  review->table()->sortByColumn(models::ReviewPairsModel::Ratio, Qt::AscendingOrder);
  // A summarization pair shows word and character highlights best; one whose lanes part at a
  // token (a cause from the logprobs) shows the strips' framed token and its top-K too.
  int row = 0, best = -1;
  for (int r = 0; r < review->proxy()->rowCount(); ++r) {
    const QModelIndex index = review->proxy()->index(r, 0);
    const bool summary = index.data(models::CategoryRole).toString() == "summarization";
    const QString cause = index.data(models::CauseRole).toString();
    const int score =
        (summary ? 1 : 0) + (cause == "near_tie" || cause == "confident_change" ? 2 : 0);
    if (score > best) best = score, row = r;
  }
  review->table()->setCurrentIndex(review->proxy()->index(row, 0));
  QTimer::singleShot(800, this, [this, review] {
    if (!grab("04-review")) return;
    // The texts with each lane's token strip under its own, and the top-K table below.
    QWidget* texts = review->diff_view()->parentWidget();
    const QString strip_shot = QDir(out_dir_).filePath("22-token-strip.png");
    if (!texts->grab().save(strip_shot)) return fail("cannot write " + strip_shot);
    std::fprintf(stderr, "screenshot: %s\n", qPrintable(strip_shot));
    // The same page in a 1280x800 window: everything on it fits.
    const QSize usual = window_.size();
    window_.resize(1280, 800);
    QTimer::singleShot(500, this, [this, usual] {
      if (!grab("25-review-1280x800")) return;
      window_.resize(usual);
      window_.show_page(MainWindow::Runs);
      connect(
          window_.runs_page(), &RunsPage::refreshed, this,
          [this] {
            QTimer::singleShot(300, this, [this] {
              if (grab("05-runs")) show_prompt_sets();
            });
          },
          Qt::SingleShotConnection);
      window_.runs_page()->refresh();
    });
  });
}

void ScreenshotTour::show_prompt_sets() {
  window_.show_page(MainWindow::PromptSets);
  PromptSetsPage* page = window_.prompt_sets_page();
  page->open_set("builtin:regression-20");
  page->select_prompt(2);
  QTimer::singleShot(400, this, [this] {
    if (grab("06-prompt-sets")) start_context_sweep();
  });
}

void ScreenshotTour::start_context_sweep() {
  RunPage* run = window_.run_page();
  window_.show_page(MainWindow::Run);
  run->experiment_form()->set_kind("context_sweep");
  run->experiment_form()->set_context_sizes("1024, 4096, 16384, 32768", 32);
  sweep_started_ = true;
  QString error;
  if (!run->start_run(&error)) fail("cannot start the context sweep: " + error);
}

void ScreenshotTour::fail(const QString& why) {
  if (finished_) return;
  finished_ = true;
  std::fprintf(stderr, "screenshot tour failed: %s\n", qPrintable(why));
  emit done(1);
}

// The regression run is reopened from the Runs page, which hands it to the Decision page; a
// decision is chosen and explained there (not saved).
void ScreenshotTour::show_decision() {
  window_.show_page(MainWindow::Decision);
  if (regression_dir_.isEmpty()) return decide_and_grab();
  connect(
      window_.runs_page(), &RunsPage::run_loaded, this, [this] { decide_and_grab(); },
      Qt::SingleShotConnection);
  window_.runs_page()->open_run(regression_dir_);
}

void ScreenshotTour::decide_and_grab() {
  DecisionPage* page = window_.decision_page();
  if (page->has_run() && !page->decision()) {
    page->set_decision(report::Decision::Challenger);
    page->set_rationale(
        "The fp8 lanes decode faster than bf16 and most of their answers match it, but the "
        "regression review still has divergent pairs to read: challenger until it is done.");
  }
  QTimer::singleShot(500, this, [this] {
    if (grab("08-decision")) show_verify();
  });
}

// A small checkpoint with a changed shard and a planted pickle, verified against its inventory.
void ScreenshotTour::show_verify() {
  checkpoint_dir_ = std::make_unique<QTemporaryDir>();
  QString error;
  const QString inventory = write_demo_checkpoint(checkpoint_dir_->path(), &error);
  if (inventory.isEmpty()) return fail(error);
  window_.show_page(MainWindow::Verify);
  VerifyPage* page = window_.verify_page();
  page->set_checkpoint_dir(QDir(checkpoint_dir_->path()).filePath("model"));
  page->set_inventory(inventory);
  connect(page, &VerifyPage::verified, this, [this] {
    QTimer::singleShot(400, this, [this] {
      if (grab("09-verify")) finish();
    });
  });
  if (!page->start_verify(&error)) fail("cannot verify: " + error);
}

void ScreenshotTour::finish() {
  if (finished_) return;
  if (!qualification_shown_) {
    qualification_shown_ = true;
    return show_decision();
  }
  if (!plan_started_) return run_demo_plan();
  if (!sampled_started_) return start_sampled_review();
  if (!media_started_) return run_media_review();
  finished_ = true;
  emit done(0);
}

// The last step: a sampled review of the window's lanes (quick defaults: 8 samples a prompt).
void ScreenshotTour::start_sampled_review() {
  sampled_started_ = true;
  RunPage* run = window_.run_page();
  window_.show_page(MainWindow::Run);
  run->experiment_form()->set_kind("sampled_regression");
  run->experiment_form()->use_quick_defaults();
  QString error;
  if (!run->start_run(&error)) fail("cannot start the sampled review: " + error);
}

void ScreenshotTour::show_sampled_run() {
  ReviewPage* review = window_.review_page();
  window_.show_page(MainWindow::Review);
  SampledReviewView* sampled = review->sampled_view();
  auto shoot = [this, review, sampled] {
    review->tabs()->setCurrentWidget(sampled);
    QTableWidget* table = sampled->prompt_table();
    int row = 0;
    for (int r = 0; r < table->rowCount(); ++r)
      if (table->item(r, 1) && table->item(r, 1)->text() == "shifted") {
        row = r;
        break;
      }
    sampled->select_prompt(row);
    // The pair's diff is computed off the GUI thread; it is in well before this.
    QTimer::singleShot(2000, this, [this] {
      if (grab("21-sampled-review")) finish();
    });
  };
  // The window opens the finished run's review by itself; wait for its data when it is not in.
  if (sampled->has_data()) return shoot();
  auto* poll = new QTimer(this);
  connect(poll, &QTimer::timeout, this, [poll, sampled, shoot] {
    if (!sampled->has_data()) return;
    poll->deleteLater();
    shoot();
  });
  poll->start(200);
}

// Opens a plan file on the Run page (checked off the GUI thread); SAY_YES answers the question
// about starting its server programs.
void ScreenshotTour::start_plan(const QString& path, const QString& what, bool say_yes) {
  QTimer* yes = nullptr;
  if (say_yes) {
    yes = new QTimer(this);
    connect(yes, &QTimer::timeout, this, [] {
      for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible())
          if (QAbstractButton* button = box->button(QMessageBox::Yes)) button->click();
    });
    yes->start(100);
  }
  connect(
      window_.run_page(), &RunPage::start_answered, this,
      [this, what, yes](bool started, const QString& error) {
        if (yes != nullptr) yes->deleteLater();
        if (!started) fail("cannot run " + what + ": " + error);
      },
      Qt::SingleShotConnection);
  window_.run_page()->open_plan_file(path);
}

void ScreenshotTour::run_demo_plan() {
  plan_started_ = true;
  window_.show_page(MainWindow::Run);
  start_plan(QDir(window_.workspace().plans_dir()).filePath(kDemoPlanFile), "the demo plan", false);
  QTimer::singleShot(45'000, this, [this] { grab("11-plan-live"); });
}

void ScreenshotTour::show_plan_run(const QString& run_dir) {
  connect(
      window_.runs_page(), &RunsPage::run_loaded, this,
      [this] {
        window_.show_page(MainWindow::Runs);
        window_.runs_page()->show_effects();
        QTimer::singleShot(600, this, [this] {
          if (!grab("12-effects")) return;
          window_.show_page(MainWindow::Decision);
          QTimer::singleShot(500, this, [this] {
            if (grab("13-qualification")) show_launch_editor();
          });
        });
      },
      Qt::SingleShotConnection);
  window_.runs_page()->open_run(run_dir);
}

void ScreenshotTour::show_launch_editor() {
  const QString path = QDir(window_.workspace().plans_dir()).filePath(kDemoSweepFile);
  const auto parsed = plan::load_plan_file(path.toStdString());
  if (!parsed.ok())
    return fail("cannot read the demo sweep plan: " + QString::fromStdString(parsed.error_text()));
  window_.show_page(MainWindow::Lanes);
  auto* dialog = new LaneDialog(parsed.plan->lanes.back(), {}, window_.workspace().id(), &window_);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->launch_editor()->add_env_row("HF_TOKEN", "hf_not_a_real_token", true);
  dialog->tabs()->setCurrentWidget(dialog->launch_editor());
  dialog->resize(820, dialog->sizeHint().height());
  dialog->show();
  QTimer::singleShot(600, this, [this, dialog] {
    const QString out = QDir(out_dir_).filePath("14-lane-launch.png");
    if (!dialog->grab().save(out)) return fail("cannot write " + out);
    std::fprintf(stderr, "screenshot: %s\n", qPrintable(out));
    dialog->close();
    run_demo_sweep();
  });
}

// The sweep's servers start one after another; the Servers tab is grabbed once the second is
// ready (the first already stopped with its exit code).
void ScreenshotTour::run_demo_sweep() {
  sweep_plan_started_ = true;
  RunPage* run = window_.run_page();
  window_.show_page(MainWindow::Run);
  connect(run->controller(), &RunController::servers_changed, this, [this, run] {
    if (servers_shot_ || run->servers_view()->row_count() < 2) return;
    for (const auto& [lane, state] : run->controller()->servers())
      if (state.phase == run::ServerState::Phase::Ready) {
        servers_shot_ = true;
        run->show_servers_tab();
        QTimer::singleShot(300, this, [this] { grab("15-servers"); });
        return;
      }
  });
  // The page asks before it starts the servers: the tour says Yes.
  start_plan(QDir(window_.workspace().plans_dir()).filePath(kDemoSweepFile), "the demo sweep",
             true);
}

void ScreenshotTour::show_sweep_run(const QString& run_dir) {
  connect(
      window_.runs_page(), &RunsPage::run_loaded, this,
      [this] {
        window_.show_page(MainWindow::Runs);
        window_.runs_page()->show_effects();
        QTimer::singleShot(600, this, [this] {
          if (grab("16-sweep")) finish();
        });
      },
      Qt::SingleShotConnection);
  window_.runs_page()->open_run(run_dir);
}

}  // namespace lb::ui

namespace lb::ui {

void ScreenshotTour::run_media_review() {
  media_started_ = true;
  nlohmann::json lanes = nlohmann::json::array();
  for (const plan::Lane& lane : window_.workspace().lanes())
    if (lane.id == "bf16" || lane.id == "fp8") lanes.push_back(lane_to_json(lane));
  const nlohmann::json plan = {
      {"name", "multimodal review"},
      {"lanes", lanes},
      {"experiments",
       {{{"kind", "regression"}, {"prompts", "builtin:multimodal-30"}, {"max_tokens", 64}}}}};
  media_plan_dir_ = std::make_unique<QTemporaryDir>();
  const QString path = QDir(media_plan_dir_->path()).filePath("multimodal-review.json");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(QByteArray::fromStdString(plan.dump(2))) < 0)
    return fail("cannot write " + path);
  file.close();
  window_.show_page(MainWindow::Run);
  start_plan(path, "the multimodal review", false);
}

// The mixed prompt that asks about a word in an image and the last colour of a video. The window
// opens the finished run's review by itself; the tour waits until its pairs are listed.
void ScreenshotTour::show_media_review() {
  const auto set = plan::load_prompt_set("builtin:multimodal-30");
  const plan::PromptSpec* wanted = set.ok() ? set.set->find("mm-mixed-06") : nullptr;
  if (!wanted) return fail("builtin:multimodal-30 has no mm-mixed-06");
  const int index = static_cast<int>(wanted - set.set->prompts.data());
  ReviewPage* review = window_.review_page();
  window_.show_page(MainWindow::Review);
  auto* poll = new QTimer(this);
  connect(poll, &QTimer::timeout, this, [this, poll, review, index] {
    if (review->loading()) return;
    for (int r = 0; r < review->proxy()->rowCount(); ++r) {
      const QModelIndex row = review->proxy()->index(r, 0);
      if (row.data(models::PromptIndexRole).toInt() != index ||
          row.data(models::CategoryRole).toString() != "mixed")
        continue;
      poll->deleteLater();
      // Grabbed once both the media strip and the pair's highlights are painted.
      auto waiting = std::make_shared<int>(2);
      auto one_done = [this, waiting] {
        if (--*waiting == 0)
          QTimer::singleShot(500, this, [this] {
            if (grab("24-review-media")) finish();
          });
      };
      connect(review->media_strip(), &MediaStrip::media_shown, this, one_done,
              Qt::SingleShotConnection);
      connect(review, &ReviewPage::diff_shown, this, one_done, Qt::SingleShotConnection);
      review->table()->setCurrentIndex(row);
      return;
    }
  });
  poll->start(200);
}

}  // namespace lb::ui
