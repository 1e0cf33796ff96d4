#pragma once
// The prompt-set picker of the experiment forms: editable (a typed path is taken as typed), the
// built-in set listed first. A listed set shows from the start of its name, which a narrow form
// would otherwise cut at the left ("egression-20 (built-in)").
#include <QComboBox>
#include <QString>

namespace lb::ui {

QComboBox* prompt_set_combo(const QString& accessible_name, QWidget* parent);

}  // namespace lb::ui
