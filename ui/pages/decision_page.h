#pragma once
// Decision: for the open run, the gate table (gates x lanes, pass / fail / unsupported / n/N,
// plus every phase's performance figures with each candidate's ratio to the baseline, its interval
// and verdict), and the qualification decision on one candidate lane — promote, challenger (no
// promotion) or reject — with its rationale, saved into the run folder as decision.json (Ctrl+S)
// together with the lane and the gate table it was taken on. Promoting a candidate while one of
// its gates is pending or failed asks first and records the override. Reopening the run shows the
// saved decision. An unsaved edit is never dropped: opening another run keeps it as the old run's
// draft, shown again (marked unsaved) when that run is reopened, and quitting asks about it. A
// verdict given on the Review page re-judges the gates of the open run at once (apply_review).
#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "core/compare/review_record.h"
#include "core/report/decision_record.h"
#include "models/gate_table_model.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace lb::widgets {
class SpareWidth;
}

namespace lb::ui {

struct LoadedRun;

class DecisionPage : public QWidget {
  Q_OBJECT
 public:
  explicit DecisionPage(QWidget* parent = nullptr);

  void set_run(std::shared_ptr<const LoadedRun> run);
  void clear_run();
  // The review record of a lane pair of RUN_DIR as the Review page just saved it: when RUN_DIR
  // is the open run, its gates are judged again with it. An unsaved edit stays as it is.
  void apply_review(const QString& run_dir, const compare::ReviewRecord& record);
  bool has_run() const { return run_ != nullptr; }
  QString run_dir() const;

  void set_decision(report::Decision decision);
  std::optional<report::Decision> decision() const;
  // The lane the decision is about: a lane after the first (the baseline); a one-lane run's own.
  void set_candidate(const QString& lane);
  QString candidate() const;
  // The candidate's gates that are pending or failed, as "label: cell text" (the override list).
  QStringList open_gates(const QString& lane) const;
  // Asked before promoting a candidate with open gates; true = promote anyway (the override is
  // recorded). The default asks in a message box.
  using OverrideConfirmation = std::function<bool(const QString& lane, const QStringList& gates)>;
  void set_override_confirmation(OverrideConfirmation confirm) {
    confirm_override_ = std::move(confirm);
  }
  void set_rationale(const QString& text);
  QString rationale() const;
  // Writes decision.json; false with *error when no run is open, nothing is chosen or the
  // folder cannot be written, and false with an empty *error when the user declined to promote
  // over open gates.
  bool save(QString* error);
  // The open run's choice or rationale differs from what is saved for it.
  bool dirty() const;
  // Run folders with an unsaved decision: the open run when dirty, and every kept draft.
  QStringList unsaved_runs() const;
  // Before quitting: true to go on (nothing unsaved, saved now, or discarded on purpose).
  bool confirm_discard();

  models::GateTableModel* model() { return &model_; }
  QTableView* table() const { return table_; }
  QString banner_text() const;  // the incomplete-run banner; empty when hidden
  QString saved_text() const;

 signals:
  void status(const QString& text);
  void saved(const QString& path);

 private:
  QWidget* build_decision_box();
  void on_save_clicked();
  void show_saved(const report::DecisionRecord& record);
  void update_enabled();
  void show_gate_summary(bool has_gates);
  struct Draft {
    std::optional<report::Decision> choice;
    QString rationale;
    QString candidate;
    bool operator==(const Draft&) const = default;
  };
  Draft current_edit() const;
  void show_edit(const Draft& edit);
  void keep_draft();  // the open run's unsaved edit, kept before another run replaces it
  void reset_view();
  void on_edited();

  std::shared_ptr<const LoadedRun> run_;
  Draft baseline_;                   // what is saved for the open run; empty when nothing is
  std::map<QString, Draft> drafts_;  // by run folder
  QString saved_status_;             // what saved_ says when nothing is unsaved
  bool showing_ = false;             // fields being filled by the page, not edited
  models::GateTableModel model_;
  QLabel* run_label_ = nullptr;
  QLabel* banner_ = nullptr;
  QLabel* gate_summary_ = nullptr;
  QLabel* caveats_ = nullptr;  // the run's caveats the decision must weigh; hidden when none
  QTableView* table_ = nullptr;
  widgets::SpareWidth* lane_widths_ = nullptr;  // the lanes' columns share the spare width
  QButtonGroup* choices_ = nullptr;
  QComboBox* candidate_ = nullptr;
  QLabel* baseline_label_ = nullptr;
  OverrideConfirmation confirm_override_;
  QPlainTextEdit* rationale_ = nullptr;
  QPushButton* save_ = nullptr;
  QLabel* saved_ = nullptr;
  QWidget* decision_box_ = nullptr;
};

}  // namespace lb::ui
