#include "ui/run/plan_progress_view.h"

#include <algorithm>

#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QVBoxLayout>
#include <type_traits>
#include <variant>

namespace lb::ui {

QIcon lane_swatch(const QColor& color) {
  QPixmap pixmap(12, 12);
  pixmap.fill(Qt::transparent);
  QPainter p(&pixmap);
  p.setRenderHint(QPainter::Antialiasing);
  p.setBrush(color);
  p.setPen(color.darker(130));
  p.drawRoundedRect(QRectF(0.5, 0.5, 11, 11), 3, 3);
  return QIcon(pixmap);
}

namespace {

QString mark(PlanProgressView::State state) {
  switch (state) {
    case PlanProgressView::State::Running:
      return QStringLiteral("\u25b6");  // ▶
    case PlanProgressView::State::Done:
      return QStringLiteral("\u2713");  // ✓
    case PlanProgressView::State::Stopped:
      return QStringLiteral("\u25a0");  // ■
    case PlanProgressView::State::Waiting:
      break;
  }
  return QStringLiteral("\u25cb");  // ○
}

QString state_name(PlanProgressView::State state) {
  switch (state) {
    case PlanProgressView::State::Running:
      return QObject::tr("running");
    case PlanProgressView::State::Done:
      return QObject::tr("done");
    case PlanProgressView::State::Stopped:
      return QObject::tr("stopped");
    case PlanProgressView::State::Waiting:
      break;
  }
  return QObject::tr("waiting");
}

QString counted(int n, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString value_text(const nlohmann::json& v) {
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  if (v.is_number_float()) return QString::number(v.get<double>(), 'g', 6);
  return QString::fromStdString(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace

QString experiment_settings_text(const nlohmann::json& e, const nlohmann::json& defaults) {
  if (!e.is_object()) return {};
  QStringList parts;
  for (const auto& [key, value] : e.items()) {
    if (key == "kind" || key == "name" || key == "lanes") continue;
    if (defaults.is_object() && defaults.contains(key) && defaults[key] == value) continue;
    QString text = value_text(value);
    if (text.size() > 60) text = text.left(57) + "...";
    parts << QStringLiteral("%1 %2").arg(QString::fromStdString(key), text);
  }
  return parts.isEmpty() ? QObject::tr("defaults") : parts.join(", ");
}

QString section_result_text(const record::ExperimentSection& section) {
  QStringList parts;
  parts << counted(static_cast<int>(section.lanes.size()), QObject::tr("lane"),
                   QObject::tr("lanes"));
  int gates = 0;
  int passed = 0;
  for (const record::LaneRecord& lane : section.lanes)
    for (const record::GateResult& gate : lane.gates) {
      ++gates;
      passed += gate.status == record::GateStatus::Pass ? 1 : 0;
    }
  if (gates > 0) parts << QObject::tr("gates %1 of %2 pass").arg(passed).arg(gates);
  // Verdicts are "faster" / "slower" for every figure; energy and cost improve without being
  // faster, so the count speaks of better and worse.
  int slower = 0;
  int faster = 0;
  for (const record::Comparison& c : section.comparisons) {
    slower += c.verdict == metrics::Verdict::Slower ? 1 : 0;
    faster += c.verdict == metrics::Verdict::Faster ? 1 : 0;
  }
  if (slower > 0)
    parts << counted(slower, QObject::tr("figure"), QObject::tr("figures")) + " " +
                 QObject::tr("worse than the baseline");
  if (faster > 0) parts << QObject::tr("%1 better").arg(faster);
  if (!section.comparisons.empty() && slower == 0 && faster == 0)
    parts << QObject::tr("no figure clear of noise");
  if (!section.blockers.empty())
    parts << counted(static_cast<int>(section.blockers.size()), QObject::tr("blocker"),
                     QObject::tr("blockers"));
  return parts.join(QStringLiteral(" \u00b7 "));
}

PlanProgressView::PlanProgressView(QWidget* parent) : QWidget(parent) {
  title_ = new QLabel(this);
  title_->setWordWrap(true);
  title_->setTextFormat(Qt::PlainText);
  lanes_ = new QListWidget(this);
  lanes_->setAccessibleName(tr("Lanes of the running plan"));
  lanes_->setSelectionMode(QAbstractItemView::NoSelection);
  lanes_->setMaximumHeight(90);
  experiments_ = new QListWidget(this);
  experiments_->setAccessibleName(tr("Experiments of the running plan"));
  experiments_->setWordWrap(true);
  experiments_->setSelectionMode(QAbstractItemView::NoSelection);
  time_left_ = new QLabel(this);
  time_left_->setAccessibleName(tr("Time left of the plan"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(new QLabel(tr("Lanes"), this));
  layout->addWidget(lanes_);
  layout->addWidget(new QLabel(tr("Experiments (as the plan runs them)"), this));
  layout->addWidget(experiments_, 1);
  layout->addWidget(time_left_);
}

void PlanProgressView::set_plan(const plan::Plan& plan,
                                const std::vector<std::pair<QString, QColor>>& lanes) {
  title_->setText(tr("Running plan: %1").arg(QString::fromStdString(plan.name)));
  lanes_->clear();
  for (const auto& [id, color] : lanes) new QListWidgetItem(lane_swatch(color), id, lanes_);
  experiments_->clear();
  states_.assign(plan.experiments.size(), State::Waiting);
  descriptions_.clear();
  results_.assign(plan.experiments.size(), QString());
  const nlohmann::json resolved = plan::resolved_plan_json(plan)["experiments"];
  // Each experiment's kind with every setting at its default, to show only what the plan set.
  plan::Plan plain = plan;
  for (plan::Experiment& e : plain.experiments) {
    plan::Experiment d;
    d.kind = e.kind;
    d.name = e.name;
    d.params = std::visit(
        [](const auto& p) { return plan::ExperimentParams(std::decay_t<decltype(p)>{}); },
        e.params);
    d.request_timeout_s = plan.request_timeout_s;
    e = std::move(d);
  }
  const nlohmann::json defaults = plan::resolved_plan_json(plain)["experiments"];
  for (size_t i = 0; i < plan.experiments.size(); ++i) {
    const plan::Experiment& e = plan.experiments[i];
    const QString name = QString::fromStdString(e.name_or_kind());
    QString text = name;
    if (name != QString::fromStdString(e.kind)) text += " (" + QString::fromStdString(e.kind) + ")";
    if (!e.lanes.empty()) {
      QStringList only;
      for (const std::string& l : e.lanes) only << QString::fromStdString(l);
      text += tr(" on %1").arg(only.join(", "));
    }
    const QString settings = experiment_settings_text(resolved[i], defaults[i]);
    if (!settings.isEmpty()) text += QStringLiteral(" \u2014 ") + settings;
    descriptions_.push_back(text);
    auto* item = new QListWidgetItem(experiments_);
    item->setToolTip(QString::fromStdString(resolved[i].dump(2)));
    show_state(static_cast<int>(i));
  }
  set_time_left({});
}

void PlanProgressView::set_current(int index) {
  for (int i = 0; i < experiment_count(); ++i) {
    const State want = i < index ? State::Done : i == index ? State::Running : State::Waiting;
    if (states_[static_cast<size_t>(i)] == want) continue;
    states_[static_cast<size_t>(i)] = want;
    show_state(i);
  }
  if (index >= 0 && index < experiment_count())
    experiments_->scrollToItem(experiments_->item(index));
}

void PlanProgressView::set_result(int index, const record::ExperimentSection& section) {
  if (index < 0 || index >= experiment_count()) return;
  const auto at = static_cast<size_t>(index);
  const bool stopped = std::any_of(section.lanes.begin(), section.lanes.end(), [](const auto& l) {
    return std::any_of(l.phases.begin(), l.phases.end(),
                       [](const record::PhaseRecord& p) { return p.interrupted(); });
  });
  states_[at] = stopped ? State::Stopped : State::Done;
  results_[at] = section_result_text(section);
  QListWidgetItem* item = experiments_->item(index);
  if (item && !section.blockers.empty()) {
    QStringList lines;
    for (const std::string& b : section.blockers) lines << QString::fromStdString(b);
    item->setToolTip(lines.join("\n"));
  }
  show_state(index);
}

void PlanProgressView::set_finished(bool interrupted) {
  for (int i = 0; i < experiment_count(); ++i) {
    if (states_[static_cast<size_t>(i)] != State::Running) continue;
    states_[static_cast<size_t>(i)] = interrupted ? State::Stopped : State::Done;
    show_state(i);
  }
  set_time_left({});
}

void PlanProgressView::set_time_left(const QString& text) {
  time_left_->setText(text);
  time_left_->setVisible(!text.isEmpty());
}

int PlanProgressView::experiment_count() const { return static_cast<int>(states_.size()); }

PlanProgressView::State PlanProgressView::state(int index) const {
  return index >= 0 && index < experiment_count() ? states_[static_cast<size_t>(index)]
                                                  : State::Waiting;
}

QString PlanProgressView::experiment_text(int index) const {
  QListWidgetItem* item = experiments_->item(index);
  return item ? item->text() : QString();
}

QStringList PlanProgressView::lane_ids() const {
  QStringList ids;
  for (int i = 0; i < lanes_->count(); ++i) ids << lanes_->item(i)->text();
  return ids;
}

QString PlanProgressView::time_left() const { return time_left_->text(); }

void PlanProgressView::show_state(int index) {
  QListWidgetItem* item = experiments_->item(index);
  if (!item) return;
  const State s = states_[static_cast<size_t>(index)];
  QString text = mark(s) + " " + descriptions_[static_cast<size_t>(index)];
  if (const QString& result = results_[static_cast<size_t>(index)]; !result.isEmpty())
    text += "\n    " + result;
  item->setText(text);
  item->setData(Qt::AccessibleDescriptionRole, state_name(s));
  QFont font = item->font();
  font.setBold(s == State::Running);
  item->setFont(font);
}

}  // namespace lb::ui
