#include "ui/history/folder_damage.h"

#include <QDir>
#include <QRegularExpression>

namespace lb::ui {
namespace {

// core/report's warnings (run_folder.cpp, decision_record.cpp) that say a file is damaged.
QString damage_of(const QString& warning, const QString& dir) {
  static const QRegularExpression not_json(R"(^(\S+\.json) is not valid JSON(; ignored)?$)");
  static const QRegularExpression unreadable(R"(^(\S+\.json) cannot be read: (.*)$)");
  static const QRegularExpression decision(R"(^(decision\.json): (.*)$)");
  if (const auto m = not_json.match(warning); m.hasMatch())
    return QString("damaged: %1: not valid JSON (cut short?)").arg(m.captured(1));
  if (const auto m = unreadable.match(warning); m.hasMatch()) {
    QString what = m.captured(2);
    const QString path = QDir(dir).filePath(m.captured(1));
    if (what.startsWith(path + ": ")) what = what.mid(path.size() + 2);
    return QString("damaged: %1: %2").arg(m.captured(1), what);
  }
  if (const auto m = decision.match(warning); m.hasMatch())
    return QString("damaged: %1: %2").arg(m.captured(1), m.captured(2));
  return {};
}

}  // namespace

QStringList folder_damage(const report::RunFolder& folder) {
  QStringList out;
  // core/report reads these files as JSON of any shape and takes nothing from one that is not
  // an object: say so, for that file's figures are then missing.
  const std::pair<const char*, const nlohmann::json*> documents[] = {
      {"plan.json", &folder.plan},
      {"environment.json", &folder.environment},
      {"summary.json", &folder.summary}};
  for (const auto& [name, doc] : documents)
    if (!doc->is_null() && !doc->is_object())
      out << QString("damaged: %1: the file is %2, not an object").arg(name, doc->type_name());
  const QString dir = QString::fromStdString(folder.dir);
  for (const std::string& warning : folder.warnings) {
    const QString line = damage_of(QString::fromStdString(warning), dir);
    if (!line.isEmpty()) out << line;
  }
  return out;
}

}  // namespace lb::ui
