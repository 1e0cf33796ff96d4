#include "ui/run/experiment_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>
#include <cmath>

#include "core/plan/plan.h"
#include "core/run/experiments/experiment.h"
#include "ui/run/determinism_form.h"
#include "ui/run/prompt_set_combo.h"
#include "ui/run/traffic_forms.h"

namespace lb::ui {
namespace {

struct KindInfo {
  const char* key;
  const char* label;
};
constexpr KindInfo kKinds[] = {{"regression", "Regression (outputs compared)"},
                               {"throughput", "Throughput (concurrency sweep)"},
                               {"context_sweep", "Context sweep"},
                               {"prefix_cache", "Prefix cache"},
                               {"speculative", "Speculative decoding"},
                               {"gates", "Functional gates"},
                               {"sampled_regression", "Sampled review (sampled outputs compared)"},
                               {"trace", "Trace replay"},
                               {"sessions", "Multi-turn sessions"},
                               {"capacity", "SLO capacity"},
                               {"determinism", "Determinism floor (answers against themselves)"}};

QSpinBox* spin(int min, int max, int value, QWidget* parent, const QString& suffix = {}) {
  auto* s = new QSpinBox(parent);
  s->setRange(min, max);
  s->setValue(value);
  s->setSuffix(suffix);
  s->setGroupSeparatorShown(true);
  return s;
}

// Asks core whether it can run this kind (make_experiment returns nullptr when it cannot).
bool core_supports(const char* kind) {
  plan::Experiment spec;
  spec.kind = kind;
  return run::make_experiment(spec) != nullptr;
}

QWidget* form_page(QFormLayout*& form, QWidget* parent) {
  auto* page = new QWidget(parent);
  form = new QFormLayout(page);
  form->setContentsMargins(0, 4, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  return page;
}

}  // namespace

bool parse_int_list(const QString& text, std::vector<int64_t>* out) {
  out->clear();
  for (const QString& part : text.split(QRegularExpression("[,\\s]+"), Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong v = part.toLongLong(&ok);
    if (!ok || v <= 0) return false;
    out->push_back(v);
  }
  return !out->empty();
}

ExperimentForm::ExperimentForm(QWidget* parent) : QWidget(parent) {
  kind_ = new QComboBox(this);
  kind_->setAccessibleName(tr("Experiment"));
  stack_ = new QStackedWidget(this);
  auto* items = qobject_cast<QStandardItemModel*>(kind_->model());
  for (const KindInfo& k : kKinds) {
    kind_->addItem(tr(k.label), QString::fromLatin1(k.key));
    if (!core_supports(k.key)) {
      QStandardItem* item = items->item(kind_->count() - 1);
      item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
      item->setText(item->text() + tr(" — not available in this build"));
    }
  }
  stack_->addWidget(regression_form());
  stack_->addWidget(throughput_form());
  stack_->addWidget(context_form());
  stack_->addWidget(prefix_form());
  stack_->addWidget(speculative_form());
  stack_->addWidget(gates_form());
  stack_->addWidget(sampled_form());
  trace_ = new TraceForm(this);
  sessions_ = new SessionsForm(this);
  capacity_ = new CapacityForm(this);
  determinism_ = new DeterminismForm(this);
  for (QWidget* page : std::initializer_list<QWidget*>{trace_, sessions_, capacity_, determinism_})
    stack_->addWidget(page);
  connect(trace_, &TraceForm::changed, this, &ExperimentForm::check_experiment);
  connect(sessions_, &SessionsForm::changed, this, &ExperimentForm::check_experiment);
  connect(capacity_, &CapacityForm::changed, this, &ExperimentForm::check_experiment);
  connect(determinism_, &DeterminismForm::changed, this, &ExperimentForm::check_experiment);
  problems_ = new QLabel(this);
  problems_->setWordWrap(true);
  problems_->setStyleSheet("color: #b00020");
  problems_->setAccessibleName(tr("Problems with these settings"));
  problems_->hide();
  unavailable_ = new QLabel(this);
  unavailable_->setWordWrap(true);
  unavailable_->setStyleSheet("color: #8a5a00");
  connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) {
    stack_->setCurrentIndex(i);
    unavailable_->setText(kind_available(kind()) ? QString()
                                                 : tr("This experiment kind is not available in "
                                                      "this build of the engine."));
    check_experiment();
    emit kind_changed(kind());
  });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(kind_);
  layout->addWidget(stack_);
  layout->addWidget(problems_);
  layout->addWidget(unavailable_);
}

// The traffic kinds' settings as the plan parser reads them: its messages (path stripped to
// the field) under the form while they are edited, so a bad value shows before Start.
void ExperimentForm::check_experiment() {
  using K = record::ExperimentKind;
  const std::optional<K> k = typed_kind();
  const bool traffic = k == K::Trace || k == K::Sessions || k == K::Capacity;
  problems_->setText(traffic ? problems() : QString());
  problems_->setVisible(!problems_->text().isEmpty());
}

QString ExperimentForm::problems() const {
  QString error;
  nlohmann::json e = experiment_json(&error);
  if (e.is_null()) return error;
  const nlohmann::json lane = {{"id", "lane"}, {"base_url", "sim:fp8"}};
  const nlohmann::json plan = {{"name", "form"}, {"lanes", {lane}}, {"experiments", {e}}};
  const plan::PlanParseResult parsed = plan::parse_plan(plan.dump(), "form");
  QStringList lines;
  const std::string prefix = "experiments[0]";
  for (const plan::PlanError& err : parsed.errors) {
    std::string field = err.path.rfind(prefix, 0) == 0 ? err.path.substr(prefix.size()) : err.path;
    if (!field.empty() && field.front() == '.') field.erase(0, 1);
    lines << QString::fromStdString(field.empty() ? err.message : field + ": " + err.message);
  }
  return lines.join('\n');
}

QWidget* ExperimentForm::regression_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  prompts_ = prompt_set_combo(tr("Prompt set"), page);
  prompts_->setToolTip(
      tr("A built-in set, a set of this workspace (Prompt sets page), or the "
         "path of a JSONL / ShareGPT / JSON-array file"));
  reg_max_tokens_ = spin(1, 32768, 256, page);
  threshold_ = new QDoubleSpinBox(page);
  threshold_->setRange(0.5, 1.0);
  threshold_->setDecimals(2);
  threshold_->setSingleStep(0.01);
  threshold_->setValue(plan::RegressionExperiment{}.similarity_threshold);
  form->addRow(tr("Prompts:"), prompts_);
  form->addRow(tr("Max tokens:"), reg_max_tokens_);
  form->addRow(tr("Similar at ratio ≥"), threshold_);
  return page;
}

QWidget* ExperimentForm::throughput_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  tp_mode_ = new QComboBox(page);
  tp_mode_->setAccessibleName(tr("Concurrency levels"));
  tp_mode_->addItem(tr("List of levels"), "list");
  tp_mode_->addItem(tr("Doubling until gains stop"), "doubling");
  tp_concurrency_ = new QLineEdit("1, 4, 16", page);
  tp_doubling_max_ = spin(1, 100000, 1024, page);
  tp_doubling_max_->setToolTip(tr("Levels 1, 2, 4, ... up to this one"));
  tp_min_gain_ = new QDoubleSpinBox(page);
  tp_min_gain_->setRange(0, 100);
  tp_min_gain_->setDecimals(1);
  tp_min_gain_->setValue(plan::ConcurrencyDoubling{}.min_gain * 100);
  tp_min_gain_->setSuffix(tr(" %"));
  tp_min_gain_->setToolTip(
      tr("Stop when aggregate output tok/s gains less than this over the previous level, or a "
         "level has errors"));
  form->addRow(tr("Levels:"), tp_mode_);
  form->addRow(tr("Concurrency:"), tp_concurrency_);
  form->addRow(tr("Up to:"), tp_doubling_max_);
  form->addRow(tr("Stop below gain:"), tp_min_gain_);
  add_throughput_fields(form, page);
  tp_lanes_ = new QComboBox(page);
  tp_lanes_->setAccessibleName(tr("Lane order"));
  tp_lanes_->addItem(tr("One after another"), "sequential");
  tp_lanes_->addItem(tr("Side by side"), "parallel");
  tp_lanes_->setToolTip(
      tr("Side by side: every lane's level runs at the same time, each against its own server"));
  tp_time_limit_ = spin(0, 7 * 24 * 3600, 0, page, tr(" s"));
  tp_time_limit_->setSpecialValueText(tr("none"));
  tp_time_limit_->setToolTip(
      tr("End each level after this long even if requests remain (for a soak: many requests "
         "and a time limit)"));
  form->addRow(tr("Lanes:"), tp_lanes_);
  form->addRow(tr("Time limit per level:"), tp_time_limit_);
  auto show_mode = [this, form] {
    const bool doubling = tp_mode_->currentData().toString() == "doubling";
    form->setRowVisible(tp_concurrency_, !doubling);
    form->setRowVisible(tp_doubling_max_, doubling);
    form->setRowVisible(tp_min_gain_, doubling);
  };
  connect(tp_mode_, &QComboBox::currentIndexChanged, this, show_mode);
  show_mode();
  return page;
}

void ExperimentForm::add_throughput_fields(QFormLayout* form, QWidget* page) {
  tp_requests_ = spin(1, 10'000'000, 32, page);  // the plan's bound
  tp_input_ = spin(1, 262144, 1024, page, tr(" tok"));
  tp_output_ = spin(1, 32768, 128, page, tr(" tok"));
  form->addRow(tr("Requests per level:"), tp_requests_);
  form->addRow(tr("Input:"), tp_input_);
  form->addRow(tr("Output:"), tp_output_);
}

QWidget* ExperimentForm::context_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  ctx_sizes_ = new QLineEdit("4096, 16384, 31225, 65536", page);
  ctx_output_ = spin(1, 4096, 64, page, tr(" tok"));
  ctx_needle_ = new QCheckBox(tr("Retrieval check"), page);
  ctx_needle_->setToolTip(tr("Hide a random fact in the filler and ask for it"));
  ctx_needle_->setChecked(true);
  ctx_depth_ = new QDoubleSpinBox(page);
  ctx_depth_->setRange(0, 100);
  ctx_depth_->setDecimals(0);
  ctx_depth_->setSuffix(tr(" %"));
  ctx_depth_->setValue(plan::ContextSweepExperiment{}.needle_depth * 100);
  ctx_depth_->setToolTip(tr("Where the fact sits in the filler: 0 % = start, 100 % = end"));
  ctx_repeat_ = spin(1, 1000, 1, page);
  connect(ctx_needle_, &QCheckBox::toggled, ctx_depth_, &QWidget::setEnabled);
  form->addRow(tr("Prompt sizes (tok):"), ctx_sizes_);
  form->addRow(tr("Output:"), ctx_output_);
  form->addRow(tr("Needle:"), ctx_needle_);
  form->addRow(tr("Needle depth:"), ctx_depth_);
  form->addRow(tr("Repeats per size:"), ctx_repeat_);
  return page;
}

QWidget* ExperimentForm::prefix_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  pc_burst_ = spin(1, 256, 5, page);
  pc_prefix_ = spin(1, 262144, 30000, page, tr(" tok"));
  form->addRow(tr("Burst:"), pc_burst_);
  pc_output_ = spin(1, 32768, plan::PrefixCacheExperiment{}.output_tokens, page, tr(" tok"));
  pc_control_ = new QCheckBox(tr("Salted-prefix control pass"), page);
  pc_control_->setChecked(true);
  form->addRow(tr("Shared prefix:"), pc_prefix_);
  form->addRow(tr("Output:"), pc_output_);
  form->addRow(tr("Control:"), pc_control_);
  return page;
}

QWidget* ExperimentForm::speculative_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  sp_concurrency_ = new QLineEdit("1, 5", page);
  sp_requests_ = spin(1, 10000, 16, page);
  sp_output_ = spin(1, 32768, 256, page, tr(" tok"));
  form->addRow(tr("Concurrency:"), sp_concurrency_);
  form->addRow(tr("Requests per level:"), sp_requests_);
  form->addRow(tr("Output:"), sp_output_);
  return page;
}

QWidget* ExperimentForm::gates_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  gate_checks_ = new QListWidget(page);
  gate_checks_->setAccessibleName(tr("Gates to run"));
  for (const std::string& check : plan::all_gate_checks()) {
    auto* item = new QListWidgetItem(QString::fromStdString(check), gate_checks_);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
  }
  gate_checks_->setMaximumHeight(gate_checks_->sizeHintForRow(0) * 7 + 6);
  gate_repeat_ = spin(1, 100, static_cast<int>(plan::GatesExperiment{}.repeat), page);
  gate_repeat_->setToolTip(tr("Each gate is asked this many times and scored n/N"));
  form->addRow(tr("Gates:"), gate_checks_);
  form->addRow(tr("Repetitions:"), gate_repeat_);
  return page;
}

QWidget* ExperimentForm::sampled_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  const plan::SampledRegressionExperiment d;
  sm_prompts_ = prompt_set_combo(tr("Sampled prompt set"), page);
  sm_samples_ = spin(2, 1000, static_cast<int>(d.samples), page);
  sm_samples_->setToolTip(tr("Sampled answers per prompt and lane"));
  sm_temperature_ = new QDoubleSpinBox(page);
  sm_temperature_->setRange(0.05, 2.0);
  sm_temperature_->setSingleStep(0.05);
  sm_temperature_->setValue(d.temperature);
  sm_top_p_ = new QDoubleSpinBox(page);
  sm_top_p_->setRange(0.01, 1.0);
  sm_top_p_->setSingleStep(0.05);
  sm_top_p_->setValue(d.top_p);
  sm_seed_ = spin(0, 1'000'000, static_cast<int>(d.seed), page);
  sm_seed_->setToolTip(tr("Sample k is sent with seed + k where the server takes a seed"));
  sm_max_tokens_ = spin(1, 32768, static_cast<int>(d.max_tokens), page);
  form->addRow(tr("Prompts:"), sm_prompts_);
  form->addRow(tr("Samples per prompt:"), sm_samples_);
  form->addRow(tr("Temperature:"), sm_temperature_);
  form->addRow(tr("top_p:"), sm_top_p_);
  form->addRow(tr("Seed:"), sm_seed_);
  form->addRow(tr("Max tokens:"), sm_max_tokens_);
  return page;
}

QComboBox* ExperimentForm::prompt_combo() const {
  switch (typed_kind().value_or(record::ExperimentKind::Regression)) {
    case record::ExperimentKind::SampledRegression:
      return sm_prompts_;
    case record::ExperimentKind::Determinism:
      return determinism_->prompts();
    default:
      return prompts_;
  }
}

QString ExperimentForm::kind() const { return kind_->currentData().toString(); }

bool ExperimentForm::kind_available(const QString& kind) const {
  const int i = kind_->findData(kind);
  auto* items = qobject_cast<QStandardItemModel*>(kind_->model());
  return i >= 0 && (items->item(i)->flags() & Qt::ItemIsEnabled);
}

void ExperimentForm::set_kind(const QString& kind) {
  const int i = kind_->findData(kind);
  if (i >= 0) kind_->setCurrentIndex(i);
}

void ExperimentForm::use_quick_defaults() {
  reg_max_tokens_->setValue(96);
  tp_concurrency_->setText("1, 4");
  tp_requests_->setValue(8);
  tp_output_->setValue(48);
  ctx_sizes_->setText("1024, 4096, 16384");
  ctx_output_->setValue(32);
  pc_burst_->setValue(3);
  pc_prefix_->setValue(4096);
  pc_output_->setValue(32);
  sp_requests_->setValue(6);
  sp_output_->setValue(64);
  gate_repeat_->setValue(1);
  sm_samples_->setValue(8);
  sm_max_tokens_->setValue(96);
  trace_->set_trace(QString(), 1.0, 200);
  sessions_->set_synthetic(2, 3, 512, 24);
  capacity_->set_probe(8, 1, 256, 24);
  capacity_->set_bounds(6, 120);
  determinism_->set_quick(2, 96);
}

void ExperimentForm::set_prompt_sets(const std::vector<std::pair<QString, QString>>& sets) {
  for (QComboBox* combo : {prompts_, sm_prompts_, determinism_->prompts()}) {
    const int i = combo->currentIndex();
    const QString keep = i >= 0 && combo->itemText(i) == combo->currentText()
                             ? combo->itemData(i).toString()
                             : combo->currentText().trimmed();
    combo->clear();
    for (const auto& [ref, label] : sets) combo->addItem(label, ref);
    const int found = combo->findData(keep);
    if (found >= 0) {
      combo->setCurrentIndex(found);
    } else if (!keep.isEmpty()) {
      combo->setEditText(keep);
    }
  }
}

QString ExperimentForm::prompt_set_ref() const {
  const QComboBox* combo = prompt_combo();
  const int i = combo->currentIndex();
  // A typed path is used as typed; a listed set by its ref.
  if (i >= 0 && combo->itemText(i) == combo->currentText()) return combo->itemData(i).toString();
  return combo->currentText().trimmed();
}

void ExperimentForm::set_prompt_set_ref(const QString& ref) {
  QComboBox* combo = prompt_combo();
  const int i = combo->findData(ref);
  if (i >= 0) {
    combo->setCurrentIndex(i);
  } else if (!ref.isEmpty()) {
    combo->setEditText(ref);
  }
}

void ExperimentForm::set_context_sizes(const QString& sizes, int output_tokens, int repeat) {
  ctx_sizes_->setText(sizes);
  ctx_output_->setValue(output_tokens);
  ctx_repeat_->setValue(repeat);
}

void ExperimentForm::set_throughput(const QString& concurrency, int requests, int output_tokens) {
  tp_mode_->setCurrentIndex(tp_mode_->findData("list"));
  tp_concurrency_->setText(concurrency);
  tp_requests_->setValue(requests);
  tp_output_->setValue(output_tokens);
}

void ExperimentForm::set_throughput_lanes(bool side_by_side, int time_limit_s) {
  tp_lanes_->setCurrentIndex(tp_lanes_->findData(side_by_side ? "parallel" : "sequential"));
  tp_time_limit_->setValue(time_limit_s);
}

void ExperimentForm::set_throughput_doubling(int max_concurrency, double min_gain_percent) {
  tp_mode_->setCurrentIndex(tp_mode_->findData("doubling"));
  tp_doubling_max_->setValue(max_concurrency);
  tp_min_gain_->setValue(min_gain_percent);
}

std::optional<record::ExperimentKind> ExperimentForm::typed_kind() const {
  return record::experiment_kind_from(kind().toStdString());
}

bool ExperimentForm::put_throughput(nlohmann::json& j, QString* error) const {
  std::vector<int64_t> list;
  if (tp_mode_->currentData().toString() == "doubling") {
    j["concurrency_doubling"] = {{"start", 1},
                                 {"max", tp_doubling_max_->value()},
                                 {"min_gain", tp_min_gain_->value() / 100.0}};
  } else if (!parse_int_list(tp_concurrency_->text(), &list)) {
    *error = tr("Concurrency must be a list of positive whole numbers, e.g. 1, 4, 16");
    return false;
  } else {
    j["concurrency"] = list;
  }
  j["requests"] = tp_requests_->value();
  j["input_tokens"] = tp_input_->value();
  j["output_tokens"] = tp_output_->value();
  // Left out at their defaults, so a plan saved from the form reads as before.
  if (tp_lanes_->currentData().toString() == "parallel") j["lane_order"] = "parallel";
  if (tp_time_limit_->value() > 0) j["duration_s"] = tp_time_limit_->value();
  return true;
}

bool ExperimentForm::put_context_sweep(nlohmann::json& j, QString* error) const {
  std::vector<int64_t> list;
  if (!parse_int_list(ctx_sizes_->text(), &list)) {
    *error = tr("Prompt sizes must be a list of positive token counts");
    return false;
  }
  j["prompt_tokens"] = list;
  j["output_tokens"] = ctx_output_->value();
  j["needle"] = ctx_needle_->isChecked();
  j["repeat"] = ctx_repeat_->value();
  // Written only when moved off the default, so plans stay short.
  const double depth = ctx_depth_->value() / 100.0;
  if (ctx_needle_->isChecked() &&
      std::abs(depth - plan::ContextSweepExperiment{}.needle_depth) > 1e-9)
    j["needle_depth"] = depth;
  return true;
}

bool ExperimentForm::put_speculative(nlohmann::json& j, QString* error) const {
  std::vector<int64_t> list;
  if (!parse_int_list(sp_concurrency_->text(), &list)) {
    *error = tr("Concurrency must be a list of positive whole numbers, e.g. 1, 5");
    return false;
  }
  j["concurrency"] = list;
  j["requests"] = sp_requests_->value();
  j["output_tokens"] = sp_output_->value();
  return true;
}

bool ExperimentForm::put_gates(nlohmann::json& j, QString* error) const {
  std::vector<std::string> checks;
  for (int i = 0; i < gate_checks_->count(); ++i)
    if (gate_checks_->item(i)->checkState() == Qt::Checked)
      checks.push_back(gate_checks_->item(i)->text().toStdString());
  if (checks.empty()) {
    *error = tr("Pick at least one gate to run");
    return false;
  }
  j["checks"] = checks;
  j["repeat"] = gate_repeat_->value();
  return true;
}

nlohmann::json ExperimentForm::experiment_json(QString* error) const {
  using K = record::ExperimentKind;
  const std::optional<K> k = typed_kind();
  if (!k) {
    *error = tr("Pick an experiment kind");
    return nullptr;
  }
  nlohmann::json j = {{"kind", record::to_string(*k)}};
  bool ok = true;
  switch (*k) {
    case K::Regression:
      j["prompts"] = prompt_set_ref().toStdString();
      j["max_tokens"] = reg_max_tokens_->value();
      j["similarity_threshold"] = threshold_->value();
      break;
    case K::Throughput:
      ok = put_throughput(j, error);
      break;
    case K::ContextSweep:
      ok = put_context_sweep(j, error);
      break;
    case K::PrefixCache:
      j["burst"] = pc_burst_->value();
      j["shared_prefix_tokens"] = pc_prefix_->value();
      j["output_tokens"] = pc_output_->value();
      j["control"] = pc_control_->isChecked();
      break;
    case K::Speculative:
      ok = put_speculative(j, error);
      break;
    case K::SampledRegression:
      j["prompts"] = prompt_set_ref().toStdString();
      j["samples"] = sm_samples_->value();
      j["temperature"] = sm_temperature_->value();
      j["top_p"] = sm_top_p_->value();
      j["seed"] = sm_seed_->value();
      j["max_tokens"] = sm_max_tokens_->value();
      break;
    case K::Trace:
      return trace_->experiment_json(error);
    case K::Sessions:
      return sessions_->experiment_json(error);
    case K::Capacity:
      return capacity_->experiment_json(error);
    case K::Determinism:
      return determinism_->experiment_json(prompt_set_ref());
    case K::Gates:
      ok = put_gates(j, error);
      break;
  }
  return ok ? j : nlohmann::json();
}

}  // namespace lb::ui
