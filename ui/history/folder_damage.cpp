#include "ui/history/folder_damage.h"

namespace lb::ui {

QStringList folder_damage(const report::RunFolder& folder) {
  QStringList out;
  for (const std::string& line : folder.damage) out << QString::fromStdString(line);
  return out;
}

}  // namespace lb::ui
