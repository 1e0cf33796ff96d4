#pragma once
// The Run page's view of a run's managed servers (lanes with a launch block): one row per server
// with its state as the run reports it. Starting shows how long the ready URL has been awaited
// of its timeout, ready shows the port and pid, failed shows why with the last lines of the
// server's log (selectable, to copy), stopped shows how the server exited.
#include <QWidget>
#include <map>
#include <string>

#include "core/run/run_sink.h"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QVBoxLayout;

namespace lb::ui {

class ServerStateView : public QWidget {
  Q_OBJECT
 public:
  explicit ServerStateView(QWidget* parent = nullptr);

  // Shows these servers (by lane id), replacing what was shown.
  void set_servers(const std::map<std::string, run::ServerState>& servers);

  // The one-line state of a server as shown, e.g. "fp8: ready on port 41234 (pid 812)".
  static QString headline(const run::ServerState& state);
  int row_count() const { return static_cast<int>(rows_.size()); }
  // For tests: the headline and failure text shown for LANE ("" when it has no row).
  QString headline_of(const QString& lane) const;
  QString failure_text_of(const QString& lane) const;

 private:
  struct Row {
    QWidget* box = nullptr;
    QLabel* title = nullptr;
    QProgressBar* wait = nullptr;
    QPlainTextEdit* failure = nullptr;
  };
  Row& row_for(const QString& lane);
  void show_state(Row& row, const run::ServerState& state);

  QVBoxLayout* rows_layout_ = nullptr;
  QLabel* empty_ = nullptr;
  std::map<QString, Row> rows_;
};

}  // namespace lb::ui
