#include "ui/tour/traffic_tour.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

#include "ui/main_window.h"
#include "ui/pages/run_page.h"
#include "ui/pages/runs_page.h"
#include "ui/run/experiment_form.h"
#include "ui/run/live_charts.h"
#include "ui/run/traffic_forms.h"
#include "widgets/chart/chart_panel.h"

namespace lb::ui {

bool write_demo_trace(const QString& path, double span_s, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  std::mt19937_64 rng(16);
  std::exponential_distribution<double> gap_s(1.5);  // about 1.5 req/s between bursts
  std::uniform_int_distribution<int> prefix(0, 3), output(16, 32), extra(64, 600), burst(0, 7);
  double at_s = 0;
  while (at_s < span_s) {
    // One arrival in eight is a burst of requests at the same instant.
    const int copies = burst(rng) == 0 ? 4 : 1;
    for (int c = 0; c < copies; ++c) {
      const int shared = prefix(rng);  // one of four system prompts of 2 blocks each
      const int input = 1024 + extra(rng);
      const nlohmann::json row = {{"timestamp", static_cast<int64_t>(at_s * 1000)},
                                  {"input_length", input},
                                  {"output_length", output(rng)},
                                  {"hash_ids", {2 * shared, 2 * shared + 1}}};
      file.write((row.dump() + "\n").c_str());
    }
    at_s += gap_s(rng);
  }
  return file.error() == QFile::NoError;
}

TrafficTour::TrafficTour(MainWindow& window, QString out_dir, QObject* parent)
    : QObject(parent), window_(window), out_dir_(std::move(out_dir)) {
  timeout_.setSingleShot(true);
  connect(&timeout_, &QTimer::timeout, this, [this] { fail("the traffic tour timed out"); });
}

void TrafficTour::start() {
  if (!QDir().mkpath(out_dir_)) return fail("cannot create " + out_dir_);
  timeout_.start(kTimeoutMs);
  RunPage* run = window_.run_page();
  window_.show_page(MainWindow::Run);
  run->experiment_form()->use_quick_defaults();
  connect(run, &RunPage::run_finished, this, [this](const QString& run_dir) {
    static const char* const kShots[] = {"17-trace", "18-sessions", "19-capacity", "20-pareto"};
    // Let the charts take the last batch and paint before the grab.
    QTimer::singleShot(800, this, [this, run_dir] {
      // A throughput sweep fills six charts; its Pareto chart is saved as File > Export Chart
      // writes it, at a size where it can be read.
      const QImage shot = step_ == 3 ? window_.run_page()->charts()->pareto()->render_image(1.0)
                                     : window_.grab().toImage();
      if (!save(shot, kShots[step_])) return;
      // The sweep's whole page too: each level's steady window shaded on the output chart.
      if (step_ == 3 && !save(window_.grab().toImage(), "27-steady-window")) return;
      if (step_ == 2)
        reopen(run_dir);
      else
        next();
    });
  });
  // The window opens every finished run on the Runs page by itself; the shot waits for the load
  // the tour asked for, so the page's title names the run rather than "Loading".
  connect(window_.runs_page(), &RunsPage::run_loaded, this, [this] {
    if (!awaiting_reopen_) return;
    awaiting_reopen_ = false;
    QTimer::singleShot(800, this, [this] {
      if (!save(window_.grab().toImage(), "23-capacity-reopened")) return;
      window_.show_page(MainWindow::Run);
      next();
    });
  });
  QTimer::singleShot(500, this, [this] { next(); });
}

bool TrafficTour::save(const QImage& shot, const char* name) {
  const QString path = QDir(out_dir_).filePath(QString(name) + ".png");
  if (!shot.save(path)) {
    fail("cannot write " + path);
    return false;
  }
  std::fprintf(stderr, "screenshot: %s\n", qPrintable(path));
  return true;
}

// The capacity run as it comes back from its folder on the Runs page.
void TrafficTour::reopen(const QString& run_dir) {
  awaiting_reopen_ = true;
  window_.show_page(MainWindow::Runs);
  window_.runs_page()->open_run(run_dir);
}

void TrafficTour::next() {
  ExperimentForm* form = window_.run_page()->experiment_form();
  QString error;
  switch (++step_) {
    case 0: {
      const QString trace = QDir(scratch_.path()).filePath("demo-trace.jsonl");
      if (!write_demo_trace(trace, 16.0, &error)) return fail(error);
      form->set_kind("trace");
      form->trace_form()->set_trace(trace, 1.0, 0);
      break;
    }
    case 1:
      form->set_kind("sessions");
      form->sessions_form()->set_synthetic(3, 5, 4096, 24);
      form->sessions_form()->set_total_sessions(9);
      break;
    case 2:
      form->set_kind("capacity");
      form->capacity_form()->set_slo(1000, 60);
      form->capacity_form()->set_load("concurrency", 1, 64, 1);
      form->capacity_form()->set_probe(16, 2, 512, 32);
      form->capacity_form()->set_bounds(7, 120);
      break;
    case 3:
      form->set_kind("throughput");
      form->set_throughput("1, 2, 4, 8, 16", 16, 48);
      break;
    default:
      finished_ = true;
      emit done(0);
      return;
  }
  if (!window_.run_page()->start_run(&error)) fail("cannot start: " + error);
}

void TrafficTour::fail(const QString& why) {
  if (finished_) return;
  finished_ = true;
  std::fprintf(stderr, "traffic tour failed: %s\n", qPrintable(why));
  emit done(1);
}

}  // namespace lb::ui
