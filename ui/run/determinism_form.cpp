#include "ui/run/determinism_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

#include "core/plan/plan.h"
#include "ui/run/prompt_set_combo.h"

namespace lb::ui {
namespace {

QSpinBox* spin_box(int min, int max, int64_t value, QWidget* parent) {
  auto* s = new QSpinBox(parent);
  s->setRange(min, max);
  s->setValue(static_cast<int>(value));
  return s;
}

}  // namespace

DeterminismForm::DeterminismForm(QWidget* parent) : QWidget(parent) {
  const plan::DeterminismExperiment d;
  prompts_ = prompt_set_combo(tr("Determinism prompt set"), this);
  repeats_ = spin_box(2, 100, d.repeats, this);
  repeats_->setToolTip(
      tr("Passes of the prompt set at concurrency 1; a prompt whose answer "
         "changes between them is not repeatable"));
  batch_ = spin_box(0, 100'000, d.batch_concurrency, this);
  batch_->setSpecialValueText(tr("off"));
  batch_->setToolTip(
      tr("One more pass at this concurrency, against the first pass alone; "
         "off skips the batch check"));
  decode_load_ = spin_box(0, 100'000, d.decode_load_streams, this);
  decode_load_->setSpecialValueText(tr("off"));
  decode_load_->setToolTip(
      tr("One more pass at concurrency 1 while this many long decodes run in the background, "
         "against the first pass alone; off skips the decode-load check"));
  cache_ = new QCheckBox(tr("Cold pass, then a warm one (prefix cache reset first)"), this);
  cache_->setChecked(d.cache);
  cache_->setToolTip(
      tr("Needs a server that can empty its prefix cache: vLLM with "
         "VLLM_SERVER_DEV_MODE=1, or SGLang"));
  max_tokens_ = spin_box(1, 32768, d.max_tokens, this);
  logprobs_ = spin_box(0, 20, d.logprobs, this);
  logprobs_->setSpecialValueText(tr("off"));
  logprobs_->setToolTip(
      tr("Alternatives per token, for the margin at each flip's first "
         "divergent token"));
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 4, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("Prompts:"), prompts_);
  form->addRow(tr("Repeated passes:"), repeats_);
  form->addRow(tr("Batch concurrency:"), batch_);
  form->addRow(tr("Decode load (streams):"), decode_load_);
  form->addRow(tr("Cache check:"), cache_);
  form->addRow(tr("Max tokens:"), max_tokens_);
  form->addRow(tr("Logprobs (top-K):"), logprobs_);
  // 1 would be a prompt alone, as in the repeated passes: the box steps over it.
  connect(batch_, &QSpinBox::valueChanged, this, [this](int v) {
    if (v == 1) batch_->setValue(batch_last_ > 1 ? 0 : 2);
    batch_last_ = batch_->value();
  });
  for (QSpinBox* s : {repeats_, batch_, decode_load_, max_tokens_, logprobs_})
    connect(s, &QSpinBox::valueChanged, this, &DeterminismForm::changed);
  connect(cache_, &QCheckBox::toggled, this, &DeterminismForm::changed);
}

nlohmann::json DeterminismForm::experiment_json(const QString& prompt_set) const {
  return {{"kind", "determinism"},
          {"prompts", prompt_set.toStdString()},
          {"repeats", repeats_->value()},
          {"batch_concurrency", batch_->value()},
          {"decode_load_streams", decode_load_->value()},
          {"cache", cache_->isChecked()},
          {"max_tokens", max_tokens_->value()},
          {"logprobs", logprobs_->value()}};
}

void DeterminismForm::set_quick(int repeats, int max_tokens) {
  repeats_->setValue(repeats);
  max_tokens_->setValue(max_tokens);
}

}  // namespace lb::ui
