#include "ui/run/experiment_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include "plan/plan.h"
#include "run/experiment.h"

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
                               {"speculative", "Speculative decoding"}};

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
  unavailable_ = new QLabel(this);
  unavailable_->setWordWrap(true);
  unavailable_->setStyleSheet("color: #8a5a00");
  connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) {
    stack_->setCurrentIndex(i);
    unavailable_->setText(kind_available(kind()) ? QString()
                                                 : tr("This experiment kind is not available in "
                                                      "this build of the engine."));
  });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(kind_);
  layout->addWidget(stack_);
  layout->addWidget(unavailable_);
}

QWidget* ExperimentForm::regression_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  prompts_ = new QComboBox(page);
  prompts_->setEditable(true);
  prompts_->addItem("builtin:regression-20");
  prompts_->setToolTip(tr("A built-in set or the path of a JSONL / ShareGPT / JSON-array file"));
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
  tp_concurrency_ = new QLineEdit("1, 4, 16", page);
  tp_requests_ = spin(1, 100000, 32, page);
  tp_input_ = spin(1, 262144, 1024, page, tr(" tok"));
  tp_output_ = spin(1, 32768, 128, page, tr(" tok"));
  form->addRow(tr("Concurrency:"), tp_concurrency_);
  form->addRow(tr("Requests per level:"), tp_requests_);
  form->addRow(tr("Input:"), tp_input_);
  form->addRow(tr("Output:"), tp_output_);
  return page;
}

QWidget* ExperimentForm::context_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  ctx_sizes_ = new QLineEdit("4096, 16384, 31225, 65536", page);
  ctx_output_ = spin(1, 4096, 64, page, tr(" tok"));
  form->addRow(tr("Prompt sizes (tok):"), ctx_sizes_);
  form->addRow(tr("Output:"), ctx_output_);
  return page;
}

QWidget* ExperimentForm::prefix_form() {
  QFormLayout* form = nullptr;
  QWidget* page = form_page(form, this);
  pc_burst_ = spin(1, 256, 5, page);
  pc_prefix_ = spin(1, 262144, 30000, page, tr(" tok"));
  form->addRow(tr("Burst:"), pc_burst_);
  form->addRow(tr("Shared prefix:"), pc_prefix_);
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
}

nlohmann::json ExperimentForm::experiment_json(QString* error) const {
  const QString k = kind();
  nlohmann::json j = {{"kind", k.toStdString()}};
  std::vector<int64_t> list;
  if (k == "regression") {
    j["prompts"] = prompts_->currentText().trimmed().toStdString();
    j["max_tokens"] = reg_max_tokens_->value();
    j["similarity_threshold"] = threshold_->value();
  } else if (k == "throughput") {
    if (!parse_int_list(tp_concurrency_->text(), &list)) {
      *error = tr("Concurrency must be a list of positive whole numbers, e.g. 1, 4, 16");
      return nullptr;
    }
    j["concurrency"] = list;
    j["requests"] = tp_requests_->value();
    j["input_tokens"] = tp_input_->value();
    j["output_tokens"] = tp_output_->value();
  } else if (k == "context_sweep") {
    if (!parse_int_list(ctx_sizes_->text(), &list)) {
      *error = tr("Prompt sizes must be a list of positive token counts");
      return nullptr;
    }
    j["prompt_tokens"] = list;
    j["output_tokens"] = ctx_output_->value();
  } else if (k == "prefix_cache") {
    j["burst"] = pc_burst_->value();
    j["shared_prefix_tokens"] = pc_prefix_->value();
  } else if (k == "speculative") {
    if (!parse_int_list(sp_concurrency_->text(), &list)) {
      *error = tr("Concurrency must be a list of positive whole numbers, e.g. 1, 5");
      return nullptr;
    }
    j["concurrency"] = list;
    j["requests"] = sp_requests_->value();
    j["output_tokens"] = sp_output_->value();
  }
  return j;
}

}  // namespace lb::ui
