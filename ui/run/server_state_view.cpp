#include "ui/run/server_state_view.h"

#include <QFontDatabase>
#include <QFrame>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QVBoxLayout>
#include <cmath>

namespace lb::ui {
namespace {

QString seconds_text(double s) { return QString::number(s, 'f', s < 10 ? 1 : 0) + " s"; }

QString lane_text(const run::ServerState& s) { return QString::fromStdString(s.lane_id); }

}  // namespace

ServerStateView::ServerStateView(QWidget* parent) : QWidget(parent) {
  auto* inner = new QWidget;
  rows_layout_ = new QVBoxLayout(inner);
  rows_layout_->setContentsMargins(6, 6, 6, 6);
  empty_ = new QLabel(
      tr("No managed servers in this run. Lanes with a launch block start their server here, "
         "and its state shows while the plan runs."),
      inner);
  empty_->setWordWrap(true);
  rows_layout_->addWidget(empty_);
  rows_layout_->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(inner);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
  setAccessibleName(tr("Managed servers"));
}

QString ServerStateView::headline(const run::ServerState& s) {
  const QString lane = lane_text(s);
  switch (s.phase) {
    case run::ServerState::Phase::Starting:
      return tr("%1: starting, waiting for it to be ready (%2 of %3)")
          .arg(lane, seconds_text(s.waited_s), seconds_text(s.timeout_s));
    case run::ServerState::Phase::Ready:
      return s.port > 0 ? tr("%1: ready on port %2 (pid %3), after %4")
                              .arg(lane)
                              .arg(s.port)
                              .arg(s.pid)
                              .arg(seconds_text(s.waited_s))
                        : tr("%1: ready (pid %2), after %3")
                              .arg(lane)
                              .arg(s.pid)
                              .arg(seconds_text(s.waited_s));
    case run::ServerState::Phase::Failed:
      return s.exit.empty() ? tr("%1: failed").arg(lane)
                            : tr("%1: failed (%2)").arg(lane, QString::fromStdString(s.exit));
    case run::ServerState::Phase::Stopped:
      break;
  }
  return tr("%1: stopped (%2)")
      .arg(lane, s.exit.empty() ? tr("exit unknown") : QString::fromStdString(s.exit));
}

ServerStateView::Row& ServerStateView::row_for(const QString& lane) {
  auto it = rows_.find(lane);
  if (it != rows_.end()) return it->second;
  Row row;
  row.box = new QFrame(empty_->parentWidget());
  static_cast<QFrame*>(row.box)->setFrameShape(QFrame::StyledPanel);
  row.title = new QLabel(row.box);
  row.title->setObjectName("serverState_" + lane);
  row.title->setWordWrap(true);
  row.title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row.wait = new QProgressBar(row.box);
  row.wait->setRange(0, 1000);
  row.wait->setTextVisible(false);
  row.wait->setMaximumHeight(10);
  row.failure = new QPlainTextEdit(row.box);
  row.failure->setReadOnly(true);
  row.failure->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  row.failure->setMinimumHeight(90);
  row.failure->setAccessibleName(tr("Why %1's server failed, with its log's last lines").arg(lane));
  auto* layout = new QVBoxLayout(row.box);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(row.title);
  layout->addWidget(row.wait);
  layout->addWidget(row.failure);
  rows_layout_->insertWidget(rows_layout_->count() - 1, row.box);
  return rows_.emplace(lane, row).first->second;
}

void ServerStateView::show_state(Row& row, const run::ServerState& s) {
  row.title->setText(headline(s));
  QString tip = QString::fromStdString(s.command);
  if (!s.log_path.empty()) tip += "\n" + tr("log: %1").arg(QString::fromStdString(s.log_path));
  row.title->setToolTip(tip);
  const bool starting = s.phase == run::ServerState::Phase::Starting;
  row.wait->setVisible(starting);
  if (starting && s.timeout_s > 0)
    row.wait->setValue(
        static_cast<int>(std::lround(1000 * std::min(1.0, s.waited_s / s.timeout_s))));
  const bool failed = s.phase == run::ServerState::Phase::Failed;
  row.failure->setVisible(failed);
  if (failed && row.failure->toPlainText() != QString::fromStdString(s.error))
    row.failure->setPlainText(QString::fromStdString(s.error));
  const char* color = failed                                      ? "#b00020"
                      : s.phase == run::ServerState::Phase::Ready ? "#1b5e20"
                                                                  : "";
  row.title->setStyleSheet(*color ? QString("color: %1; font-weight: 600").arg(color)
                                  : QString("font-weight: 600"));
}

void ServerStateView::set_servers(const std::map<std::string, run::ServerState>& servers) {
  for (auto it = rows_.begin(); it != rows_.end();) {
    if (servers.count(it->first.toStdString())) {
      ++it;
      continue;
    }
    it->second.box->deleteLater();
    it = rows_.erase(it);
  }
  for (const auto& [lane, state] : servers)
    show_state(row_for(QString::fromStdString(lane)), state);
  empty_->setVisible(servers.empty());
}

QString ServerStateView::headline_of(const QString& lane) const {
  auto it = rows_.find(lane);
  return it == rows_.end() ? QString() : it->second.title->text();
}

QString ServerStateView::failure_text_of(const QString& lane) const {
  auto it = rows_.find(lane);
  return it == rows_.end() || it->second.failure->isHidden() ? QString()
                                                             : it->second.failure->toPlainText();
}

}  // namespace lb::ui
