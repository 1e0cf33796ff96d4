#pragma once
// What stands between a plan and its run, step by step, one plan at a time:
// 1. the plan and the files it names (a trace, ShareGPT or prompt-set file) are read and checked
//    off the GUI thread, with whether this workspace's keyring keeps each keyring lane's key
//    (one D-Bus round trip each; never the key itself);
// 2. the user says yes to each server program the plan starts, shown exactly as it will run;
// 3. a keyring lane whose key is not kept (the lane came from another workspace, or its host
//    changed) asks for it, and the key goes to the keyring off the GUI thread;
// 4. the user allows each api_key_env variable to go to its lane's host (ui/workspace/
//    key_allowances.h).
// Then the page's start function runs the plan. A problem is shown in a window-modal box, not a
// nested event loop, and `answered` says how it ended.
#include <QObject>
#include <QString>
#include <functional>
#include <string>
#include <vector>

#include "core/plan/plan.h"

class QWidget;

namespace lb::ui {

class Workspace;

class PlanStartGate : public QObject {
  Q_OBJECT
 public:
  struct Request {
    QString source;             // the plan file's name; empty for the page's settings
    QString run_label;          // the new run's name; empty: the plan's
    QString append_to;          // the open run it adds to; empty: a new run
    bool ask_launches = false;  // a plan file: its server programs need the user's yes
  };
  // What starts a plan that passed: PLAN into RUN_DIR (APPEND: the open run), its server
  // programs allowed or not; false with *error when it could not start.
  using Start = std::function<bool(plan::Plan plan, const QString& run_dir, bool append,
                                   bool launch_allowed, QString* error)>;
  // Why no run may start now (a run goes); empty when one may.
  using WhyNotNow = std::function<QString()>;

  PlanStartGate(Workspace& workspace, QWidget* dialog_parent, WhyNotNow why_not_now, Start start);

  // Checks the plan READ_PLAN gives (it runs in the job) and, when every step passes, starts it.
  // Refused (answered with the reason) while another plan is at the gate.
  void check(Request request, std::function<plan::PlanParseResult()> read_plan);
  bool busy() const { return busy_; }
  // Refuses a start with ERROR: shown in a window-modal box (when not empty), then answered. The
  // plan at the gate, if any, goes on.
  void refuse(const QString& error);

 signals:
  void busy_changed(bool busy);
  void status(const QString& text);
  void answered(bool started, const QString& error);

 private:
  struct KeyringState {
    std::string lane_id;
    bool stored = false;
    std::string problem;  // why the keyring could not be read; empty when it could
  };
  struct CheckedPlan {
    plan::PlanParseResult parsed;
    std::vector<KeyringState> keys;
  };
  // A plan that passed the check, on its way through the remaining steps.
  struct Passing {
    Request request;
    plan::Plan plan;
    bool launch_allowed = false;
  };

  void set_busy(bool busy);
  void fail(const QString& error);  // the plan at the gate is refused: refuse, and not busy
  void on_checked(const Request& request, CheckedPlan checked);
  bool confirm_launches(const plan::Plan& plan, QString* error);
  // Asks for each key the keyring does not keep, then keeps them (in a job) and goes on.
  void ask_missing_keys(Passing passing, const std::vector<KeyringState>& keys);
  void finish(Passing passing);

  Workspace& workspace_;
  QWidget* dialog_parent_;
  WhyNotNow why_not_now_;
  Start start_;
  bool busy_ = false;
};

}  // namespace lb::ui
