#pragma once
// A scripted walk through the workbench for documentation: runs a short regression on the
// window's lanes, and saves the window at each stage (lanes, live run, finished run, review,
// runs), then the prompt sets and a short context sweep's charts, the demo qualification plan,
// a managed lane's launch editor and the demo sweep plan (its servers and tuning curve), the
// review's token strips close up, a sampled review and a review of builtin:multimodal-30 with
// its images and video frames, into a folder with
// QWidget::grab(). Emits done(0) on success, done(1) with a message on
// stderr otherwise. Driven by signals and timers only (no processEvents, no sleeps).
#include <QObject>
#include <QString>
#include <QTemporaryDir>
#include <QTimer>
#include <memory>

namespace lb::ui {

class MainWindow;

class ScreenshotTour : public QObject {
  Q_OBJECT
 public:
  static constexpr int kTimeoutMs = 600'000;
  ScreenshotTour(MainWindow& window, QString out_dir, QObject* parent = nullptr);
  void start();

 signals:
  void done(int exit_code);

 private:
  bool grab(const QString& name);
  void fail(const QString& why);
  void on_run_finished(const QString& run_dir);
  void on_review_ready();
  void show_prompt_sets();
  void start_context_sweep();
  void show_decision();
  void decide_and_grab();
  void show_verify();
  void finish();
  // The demo qualification plan into one run: live, then its Effects and its Decision page.
  void start_plan(const QString& path, const QString& what, bool say_yes);
  void run_demo_plan();
  void show_plan_run(const QString& run_dir);
  // A managed lane's Launch tab in the lane dialog, then the demo sweep plan: its servers'
  // states on the Run page while it runs, and its tuning curve on the Runs page's Effects tab.
  void show_launch_editor();
  void run_demo_sweep();
  void show_sweep_run(const QString& run_dir);
  // A sampled review on the window's lanes, shown on the Review page's Sampled review tab with
  // the first shifted prompt (or the least similar one) open.
  void start_sampled_review();
  void show_sampled_run();
  // A regression on builtin:multimodal-30 on the demo's bf16 (multimodal) and fp8 (text-only)
  // lanes, reviewed with a prompt's image thumbnails and video frame strip above the answers.
  void run_media_review();
  void show_media_review();

  MainWindow& window_;
  QString out_dir_;
  QString regression_dir_;  // the tour's first run, the one the Decision shot is about
  QTimer timeout_;
  QTimer live_shot_;
  bool review_shot_ = false;
  bool sweep_started_ = false;
  bool finished_ = false;
  bool qualification_shown_ = false;
  bool plan_started_ = false;
  bool sweep_plan_started_ = false;
  bool servers_shot_ = false;
  bool sampled_started_ = false;
  bool media_started_ = false;
  std::unique_ptr<QTemporaryDir> checkpoint_dir_;
  std::unique_ptr<QTemporaryDir> media_plan_dir_;
};

}  // namespace lb::ui
