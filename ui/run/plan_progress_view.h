#pragma once
// What the Run page shows in place of its form while a plan runs: the plan's name, its lanes and
// its experiments as they will run (read-only: each with its own settings, so the page never
// shows values other than those running), each marked waiting, running, done or stopped, and
// the plan's time left.
#include <QColor>
#include <QIcon>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include "core/plan/plan.h"
#include "core/record/run_summary.h"

class QLabel;
class QListWidget;

namespace lb::ui {

class PlanProgressView : public QWidget {
  Q_OBJECT
 public:
  enum class State { Waiting, Running, Done, Stopped };

  explicit PlanProgressView(QWidget* parent = nullptr);

  // The plan about to run, each lane with its colour.
  void set_plan(const plan::Plan& plan, const std::vector<std::pair<QString, QColor>>& lanes);
  // Experiment INDEX started: those before it are done.
  void set_current(int index);
  // Experiment INDEX is over: done (stopped when a phase of it was cut short), with what its
  // section records in a line under it.
  void set_result(int index, const record::ExperimentSection& section);
  // The run ended: the running experiment is done, or stopped when the run was interrupted.
  void set_finished(bool interrupted);
  void set_time_left(const QString& text);  // "about 3 min 20 s left"; empty hides it

  int experiment_count() const;
  State state(int index) const;
  QString experiment_text(int index) const;  // "✓ throughput — concurrency [1, 5], ..."
  QStringList lane_ids() const;
  QString time_left() const;

 private:
  void show_state(int index);

  QLabel* title_ = nullptr;
  QListWidget* lanes_ = nullptr;
  QListWidget* experiments_ = nullptr;
  QLabel* time_left_ = nullptr;
  std::vector<State> states_;
  std::vector<QString> descriptions_;
  std::vector<QString> results_;  // section_result_text once the experiment is over
};

// "3 lanes · gates 7 of 9 pass · 2 figures slower than the baseline · 1 blocker": what an
// experiment's section records, in one line.
QString section_result_text(const record::ExperimentSection& section);

// A lane's colour as a small rounded square, for lists of lanes.
QIcon lane_swatch(const QColor& color);

// "concurrency [1,5], requests 32, output_tokens 128": the settings of an experiment (as
// resolved_plan_json writes it) that differ from its kind's defaults (DEFAULTS, written the
// same way), in one line, without kind, name and lanes; "defaults" when none differs.
QString experiment_settings_text(const nlohmann::json& resolved_experiment,
                                 const nlohmann::json& defaults);

}  // namespace lb::ui
