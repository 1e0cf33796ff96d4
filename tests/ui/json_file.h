#pragma once
// A JSON file the workbench wrote, as the GUI tests read it: null when it cannot be opened, a
// discarded value when it does not parse.
#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

namespace lb::test {

inline nlohmann::json read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return nullptr;
  return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

}  // namespace lb::test
