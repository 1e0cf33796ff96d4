#include "ui/run/traffic_forms.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <cmath>

#include "core/plan/plan.h"
#include "core/plan/trace_file.h"

namespace lb::ui {
namespace {

QFormLayout* page_form(QWidget* page) {
  auto* form = new QFormLayout(page);
  form->setContentsMargins(0, 4, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  return form;
}

// A spin box; SPECIAL (when given) is shown at the minimum, e.g. "whole trace" for 0.
QSpinBox* int_box(int min, int max, int value, QWidget* parent, const QString& suffix = {},
                  const QString& special = {}) {
  auto* s = new QSpinBox(parent);
  s->setRange(min, max);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setSpecialValueText(special);
  s->setGroupSeparatorShown(true);
  return s;
}

QDoubleSpinBox* number_box(double min, double max, double value, int decimals, QWidget* parent,
                           const QString& suffix = {}, const QString& special = {}) {
  auto* s = new QDoubleSpinBox(parent);
  s->setDecimals(decimals);
  s->setRange(min, max);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setSpecialValueText(special);
  s->setGroupSeparatorShown(true);
  return s;
}

// Every edit of W's spin boxes, combo boxes, check boxes and path fields emits SIGNAL.
template <typename Form>
void announce_changes(Form* form, void (Form::*signal)()) {
  for (auto* s : form->template findChildren<QSpinBox*>())
    QObject::connect(s, &QSpinBox::valueChanged, form, signal);
  for (auto* s : form->template findChildren<QDoubleSpinBox*>())
    QObject::connect(s, &QDoubleSpinBox::valueChanged, form, signal);
  for (auto* c : form->template findChildren<QComboBox*>())
    QObject::connect(c, &QComboBox::currentIndexChanged, form, signal);
  for (auto* c : form->template findChildren<QCheckBox*>())
    QObject::connect(c, &QCheckBox::toggled, form, signal);
  for (auto* p : form->template findChildren<PathField*>())
    QObject::connect(p, &PathField::changed, form, signal);
}

const QString kTraceFilter =
    QObject::tr("Traces (*.jsonl *.json *.csv);;All files (*)");  // NOLINT(cert-err58-cpp)

}  // namespace

PathField::PathField(const QString& placeholder, const QString& filter, QWidget* parent)
    : QWidget(parent), filter_(filter) {
  edit_ = new QLineEdit(this);
  edit_->setPlaceholderText(placeholder);
  edit_->setAccessibleName(placeholder);
  edit_->setClearButtonEnabled(true);
  browse_ = new QPushButton(tr("&Browse…"), this);
  browse_->setAccessibleName(tr("Browse for %1").arg(placeholder));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(edit_, 1);
  row->addWidget(browse_);
  setFocusProxy(edit_);
  connect(edit_, &QLineEdit::textChanged, this, &PathField::changed);
  connect(browse_, &QPushButton::clicked, this, [this] {
    const QString chosen = QFileDialog::getOpenFileName(this, browse_->accessibleName(),
                                                        edit_->text().trimmed(), filter_);
    if (!chosen.isEmpty()) edit_->setText(chosen);
  });
}

QString PathField::path() const { return edit_->text().trimmed(); }

void PathField::set_path(const QString& path) { edit_->setText(path); }

TraceForm::TraceForm(QWidget* parent) : QWidget(parent) {
  QFormLayout* form = page_form(this);
  const plan::TraceExperiment d;
  path_ = new PathField(tr("Trace file"), kTraceFilter, this);
  path_->setToolTip(tr("Mooncake JSONL, Azure LLM inference CSV or BurstGPT CSV"));
  format_ = new QComboBox(this);
  format_->setAccessibleName(tr("Trace format"));
  for (const std::string& name : plan::trace_format_names())
    format_->addItem(name == "auto" ? tr("Detect from the file") : QString::fromStdString(name),
                     QString::fromStdString(name));
  speedup_ = number_box(0.01, 1e6, d.speedup, 2, this, tr(" ×"));
  speedup_->setToolTip(tr("Trace offsets are divided by this: 2 replays twice as fast"));
  max_requests_ = int_box(0, 10'000'000, 0, this, {}, tr("whole trace"));
  max_duration_ = number_box(0, 7 * 24 * 3600.0, 0, 1, this, tr(" s"), tr("no bound"));
  max_duration_->setToolTip(tr("Replay time after the speed-up; no request is sent past it"));
  skip_bad_rows_ = new QCheckBox(tr("S&kip and count them"), this);
  skip_bad_rows_->setToolTip(
      tr("Skip malformed rows and count them instead of refusing the trace"));
  max_gap_ = number_box(0, 1e9, 0, 1, this, tr(" s"), tr("no check"));
  max_gap_->setToolTip(tr("A longer gap between two rows is an error naming both lines"));
  form->addRow(tr("&Trace:"), path_);
  form->addRow(tr("&Format:"), format_);
  form->addRow(tr("&Speed-up:"), speedup_);
  form->addRow(tr("Max &requests:"), max_requests_);
  form->addRow(tr("Max &duration:"), max_duration_);
  form->addRow(tr("Bad rows:"), skip_bad_rows_);
  form->addRow(tr("Max &gap:"), max_gap_);
  announce_changes(this, &TraceForm::changed);
}

void TraceForm::set_trace(const QString& path, double speedup, int max_requests) {
  path_->set_path(path);
  speedup_->setValue(speedup);
  max_requests_->setValue(max_requests);
}

nlohmann::json TraceForm::experiment_json(QString* error) const {
  if (path_->path().isEmpty()) {
    *error = tr("Pick a trace file to replay");
    return nullptr;
  }
  nlohmann::json j = {{"kind", "trace"},
                      {"path", path_->path().toStdString()},
                      {"format", format_->currentData().toString().toStdString()},
                      {"speedup", speedup_->value()},
                      {"skip_bad_rows", skip_bad_rows_->isChecked()}};
  // 0 stands for "no bound": the key is left out.
  if (max_requests_->value() > 0) j["max_requests"] = max_requests_->value();
  if (max_duration_->value() > 0) j["max_duration_s"] = max_duration_->value();
  if (max_gap_->value() > 0) j["max_gap_s"] = max_gap_->value();
  return j;
}

SessionsForm::SessionsForm(QWidget* parent) : QWidget(parent) {
  form_ = page_form(this);
  const plan::SessionsExperiment d;
  source_ = new QComboBox(this);
  source_->setAccessibleName(tr("Sessions source"));
  source_->addItem(tr("Synthetic sessions"), "synthetic");
  source_->addItem(tr("ShareGPT conversations file"), "sharegpt");
  path_ = new PathField(tr("ShareGPT file"), tr("ShareGPT (*.json);;All files (*)"), this);
  sessions_ = int_box(1, 100'000, static_cast<int>(d.sessions), this);
  sessions_->setToolTip(tr("Sessions in flight at once; when one ends the next begins"));
  total_ = int_box(0, 10'000'000, 0, this, {}, tr("default"));
  total_->setToolTip(tr("0 = as many as at once (synthetic) or the whole file (ShareGPT)"));
  turns_ = int_box(1, 1000, static_cast<int>(d.turns), this);
  max_turns_ = int_box(0, 1000, 0, this, {}, tr("no cut"));
  system_tokens_ = int_box(0, 10'000'000, static_cast<int>(d.system_prompt_tokens), this,
                           tr(" tok"), tr("none"));
  user_tokens_ = int_box(1, 10'000'000, static_cast<int>(d.user_tokens_per_turn), this, tr(" tok"));
  think_time_ = number_box(0, 24 * 3600.0, d.think_time_s, 2, this, tr(" s"));
  think_time_->setToolTip(tr("Pause between an answer's end and the next turn"));
  output_ = int_box(1, 10'000'000, static_cast<int>(d.output_tokens), this, tr(" tok"));
  form_->addRow(tr("S&ource:"), source_);
  form_->addRow(tr("&File:"), path_);
  form_->addRow(tr("Sessions &at once:"), sessions_);
  form_->addRow(tr("Sessions in &all:"), total_);
  form_->addRow(tr("&Turns:"), turns_);
  form_->addRow(tr("Max t&urns:"), max_turns_);
  form_->addRow(tr("S&ystem prompt:"), system_tokens_);
  form_->addRow(tr("&User message:"), user_tokens_);
  form_->addRow(tr("Thin&k time:"), think_time_);
  form_->addRow(tr("&Output per turn:"), output_);
  connect(source_, &QComboBox::currentIndexChanged, this, &SessionsForm::show_source);
  show_source();
  announce_changes(this, &SessionsForm::changed);
}

bool SessionsForm::synthetic() const { return source_->currentData().toString() == "synthetic"; }

void SessionsForm::show_source() {
  const bool synth = synthetic();
  form_->setRowVisible(path_, !synth);
  form_->setRowVisible(max_turns_, !synth);
  form_->setRowVisible(turns_, synth);
  form_->setRowVisible(system_tokens_, synth);
  form_->setRowVisible(user_tokens_, synth);
}

void SessionsForm::set_synthetic(int sessions, int turns, int system_prompt_tokens,
                                 int output_tokens) {
  source_->setCurrentIndex(source_->findData("synthetic"));
  sessions_->setValue(sessions);
  turns_->setValue(turns);
  system_tokens_->setValue(system_prompt_tokens);
  output_->setValue(output_tokens);
}

void SessionsForm::set_total_sessions(int total) { total_->setValue(total); }

void SessionsForm::set_sharegpt(const QString& path, int sessions, int max_turns) {
  source_->setCurrentIndex(source_->findData("sharegpt"));
  path_->set_path(path);
  sessions_->setValue(sessions);
  max_turns_->setValue(max_turns);
}

nlohmann::json SessionsForm::experiment_json(QString* error) const {
  nlohmann::json j = {{"kind", "sessions"},
                      {"sessions", sessions_->value()},
                      {"think_time_s", think_time_->value()},
                      {"output_tokens", output_->value()}};
  if (total_->value() > 0) j["total_sessions"] = total_->value();
  if (synthetic()) {
    j["turns"] = turns_->value();
    j["system_prompt_tokens"] = system_tokens_->value();
    j["user_tokens_per_turn"] = user_tokens_->value();
    return j;
  }
  if (path_->path().isEmpty()) {
    *error = tr("Pick a ShareGPT file, or choose synthetic sessions");
    return nullptr;
  }
  j["path"] = path_->path().toStdString();
  if (max_turns_->value() > 0) j["max_turns"] = max_turns_->value();
  return j;
}

CapacityForm::CapacityForm(QWidget* parent) : QWidget(parent) {
  QFormLayout* form = page_form(this);
  const plan::CapacityExperiment d;
  ttft_ = number_box(0, 1e7, 2000, 0, this, tr(" ms"), tr("not set"));
  tpot_ = number_box(0, 1e6, 100, 1, this, tr(" ms"), tr("not set"));
  load_ = new QComboBox(this);
  load_->setAccessibleName(tr("Load to search"));
  load_->addItem(tr("Concurrency"), "concurrency");
  load_->addItem(tr("Request rate"), "rate");
  load_->setToolTip(
      tr("Concurrency: requests in flight, closed loop. Request rate: req/s, open loop, Poisson "
         "arrivals."));
  start_ = number_box(0, 1e6, d.start, 0, this);
  max_load_ = number_box(0, 1e6, 0, 0, this, {}, tr("default"));
  resolution_ = number_box(0, 1e6, 0, 0, this, {}, tr("default"));
  max_probes_ = int_box(1, 1000, static_cast<int>(d.max_probes), this);
  max_duration_ = number_box(1, 7 * 24 * 3600.0, d.max_duration_s, 0, this, tr(" s"));
  max_duration_->setToolTip(tr("The whole search on one lane, warm-ups included"));
  requests_ = int_box(1, 10'000'000, static_cast<int>(d.requests), this);
  warmups_ = int_box(0, 100'000, static_cast<int>(d.warmups), this);
  input_ = int_box(1, 10'000'000, static_cast<int>(d.input_tokens), this, tr(" tok"));
  output_ = int_box(1, 10'000'000, static_cast<int>(d.output_tokens), this, tr(" tok"));
  form->addRow(tr("SLO: TTFT &p99 ≤"), ttft_);
  form->addRow(tr("SLO: TP&OT p99 ≤"), tpot_);
  form->addRow(tr("&Load:"), load_);
  form->addRow(tr("&Start at:"), start_);
  form->addRow(tr("&Highest load:"), max_load_);
  form->addRow(tr("&Resolution:"), resolution_);
  form->addRow(tr("Max p&robes:"), max_probes_);
  form->addRow(tr("Time &bound:"), max_duration_);
  form->addRow(tr("Re&quests per probe:"), requests_);
  form->addRow(tr("&Warm-ups per probe:"), warmups_);
  form->addRow(tr("&Input:"), input_);
  form->addRow(tr("O&utput:"), output_);
  connect(load_, &QComboBox::currentIndexChanged, this, &CapacityForm::show_load);
  show_load();
  announce_changes(this, &CapacityForm::changed);
}

// Concurrency takes whole numbers; a rate takes tenths of req/s.
void CapacityForm::show_load() {
  const bool rate = load_->currentData().toString() == "rate";
  const QString unit = rate ? tr(" req/s") : tr(" streams");
  for (QDoubleSpinBox* box : {start_, max_load_, resolution_}) {
    box->setDecimals(rate ? 1 : 0);
    box->setSuffix(unit);
  }
  max_load_->setToolTip(rate ? tr("0 = 1000 req/s") : tr("0 = 1024 streams"));
  resolution_->setToolTip(rate ? tr("0 = 0.5 req/s") : tr("0 = 1 stream"));
}

void CapacityForm::set_slo(double ttft_p99_ms, double tpot_p99_ms) {
  ttft_->setValue(ttft_p99_ms);
  tpot_->setValue(tpot_p99_ms);
}

void CapacityForm::set_load(const QString& load, double start, double max_load, double resolution) {
  load_->setCurrentIndex(load_->findData(load));
  start_->setValue(start);
  max_load_->setValue(max_load);
  resolution_->setValue(resolution);
}

void CapacityForm::set_probe(int requests, int warmups, int input_tokens, int output_tokens) {
  requests_->setValue(requests);
  warmups_->setValue(warmups);
  input_->setValue(input_tokens);
  output_->setValue(output_tokens);
}

void CapacityForm::set_bounds(int max_probes, double max_duration_s) {
  max_probes_->setValue(max_probes);
  max_duration_->setValue(max_duration_s);
}

nlohmann::json CapacityForm::experiment_json(QString* /*error*/) const {
  // An SLO left at 0 is not set; with neither set, the plan validator says what is missing.
  nlohmann::json slo = nlohmann::json::object();
  if (ttft_->value() > 0) slo["ttft_p99_ms"] = ttft_->value();
  if (tpot_->value() > 0) slo["tpot_p99_ms"] = tpot_->value();
  nlohmann::json j = {{"kind", "capacity"},
                      {"slo", std::move(slo)},
                      {"load", load_->currentData().toString().toStdString()},
                      {"start", start_->value()},
                      {"max_probes", max_probes_->value()},
                      {"max_duration_s", max_duration_->value()},
                      {"requests", requests_->value()},
                      {"warmups", warmups_->value()},
                      {"input_tokens", input_->value()},
                      {"output_tokens", output_->value()}};
  if (max_load_->value() > 0) j["max_load"] = max_load_->value();
  if (resolution_->value() > 0) j["resolution"] = resolution_->value();
  return j;
}

}  // namespace lb::ui
