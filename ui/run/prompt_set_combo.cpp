#include "ui/run/prompt_set_combo.h"

#include <QLineEdit>

namespace lb::ui {

QComboBox* prompt_set_combo(const QString& accessible_name, QWidget* parent) {
  auto* combo = new QComboBox(parent);
  combo->setEditable(true);
  combo->setAccessibleName(accessible_name);
  combo->addItem("regression-20 (built-in)", QString("builtin:regression-20"));
  const auto show_start = [combo] { combo->lineEdit()->setCursorPosition(0); };
  QObject::connect(combo, &QComboBox::currentIndexChanged, combo, show_start);
  show_start();
  return combo;
}

}  // namespace lb::ui
