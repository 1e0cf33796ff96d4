#include "ui/prompts/prompt_set_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "core/plan/builtin_prompt_sets.h"
#include "core/plan/prompt_set_export.h"

namespace lb::ui {
namespace {

constexpr qint64 kMaxImportBytes = 256LL * 1024 * 1024;

QString unique_set_path(const QString& workspace_dir, const QString& base_name) {
  QString base = base_name;
  base.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
  if (base.isEmpty()) base = "prompts";
  const QDir dir(prompts_dir(workspace_dir));
  QString path = dir.filePath(base + ".jsonl");
  for (int n = 2; QFileInfo::exists(path); ++n)
    path = dir.filePath(QString("%1-%2.jsonl").arg(base).arg(n));
  return path;
}

}  // namespace

QString prompts_dir(const QString& workspace_dir) {
  return QDir(workspace_dir).filePath("prompts");
}

std::vector<PromptSetEntry> list_prompt_sets(const QString& workspace_dir) {
  std::vector<PromptSetEntry> out;
  for (const std::string& name : plan::builtin_prompt_set_names()) {
    const QString n = QString::fromStdString(name);
    out.push_back({"builtin:" + n, QObject::tr("%1 (built-in)").arg(n), true});
  }
  if (workspace_dir.isEmpty()) return out;
  const QDir dir(prompts_dir(workspace_dir));
  for (const QFileInfo& file : dir.entryInfoList({"*.jsonl"}, QDir::Files, QDir::Name))
    out.push_back({file.absoluteFilePath(), file.completeBaseName(), false});
  return out;
}

bool load_prompt_set_ref(const QString& ref, plan::PromptSet* out, QString* error) {
  plan::PromptSetResult result = plan::load_prompt_set(ref.toStdString());
  if (!result.ok()) {
    *error = QString::fromStdString(result.error_text());
    return false;
  }
  *out = std::move(*result.set);
  return true;
}

std::string prompt_to_jsonl(const plan::PromptSpec& prompt) {
  nlohmann::ordered_json j;
  j["id"] = prompt.id;
  if (!prompt.category.empty()) j["category"] = prompt.category;
  if (prompt.messages.empty()) {
    j["prompt"] = prompt.prompt;
  } else {
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    for (const plan::ChatMessage& m : prompt.messages)
      messages.push_back({{"role", m.role}, {"content", m.content}});
    j["messages"] = std::move(messages);
  }
  j["max_tokens"] = prompt.max_tokens;
  if (!prompt.checks.empty()) {
    nlohmann::ordered_json checks = nlohmann::ordered_json::array();
    for (const plan::FactCheck& c : prompt.checks)
      checks.push_back(nlohmann::ordered_json(plan::check_to_json(c)));
    j["checks"] = std::move(checks);
  }
  return j.dump();
}

namespace {

using MediaFiles = std::vector<std::pair<QString, std::shared_ptr<const std::string>>>;

// The prompt's media as the set at PATH names them: a medium read from a file of the set's own
// folder keeps its path; any other (a built-in set's generated items, a set read from elsewhere)
// goes to FILES, to be written under "<set>.media/" beside the set.
nlohmann::ordered_json media_json(const QString& path, const plan::PromptSpec& prompt,
                                  std::map<std::string, const std::string*>& taken,
                                  MediaFiles& files) {
  const QDir folder = QFileInfo(path).absoluteDir();
  const std::string media_dir = QFileInfo(path).completeBaseName().toStdString() + ".media";
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const plan::MediaRef& m : prompt.media) {
    const std::string kind(plan::media_kind_name(m.kind));
    if (!m.bytes) {
      list.push_back({{kind + "_url", m.url}});
      continue;
    }
    const QString source = QString::fromStdString(m.source);
    if (QDir::isRelativePath(source) && !source.startsWith("..") &&
        QFileInfo(folder.filePath(source)).isFile()) {
      list.push_back({{kind, m.source}});
      continue;
    }
    const std::string name = plan::media_file_name(m, taken);
    if (!taken.count(name))
      files.emplace_back(QString::fromStdString(media_dir + "/" + name), m.bytes);
    taken[name] = m.bytes.get();
    list.push_back({{kind, media_dir + "/" + name}});
  }
  return list;
}

bool write_file(const QString& path, const std::string& bytes, QString* error) {
  if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
    *error = QObject::tr("Cannot create the folder of %1").arg(path);
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(bytes.data(), static_cast<qint64>(bytes.size())) !=
          static_cast<qint64>(bytes.size()) ||
      !file.commit()) {
    *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace

bool save_prompt_set(const QString& path, const std::vector<plan::PromptSpec>& prompts,
                     QString* error) {
  std::string text;
  std::set<std::string> ids;
  std::map<std::string, const std::string*> taken;
  MediaFiles media_files;
  for (const plan::PromptSpec& p : prompts) {
    if (p.id.empty() || !ids.insert(p.id).second) {
      *error = p.id.empty() ? QObject::tr("A prompt has an empty id: every prompt needs one.")
                            : QObject::tr("The id \"%1\" is used twice: ids must be unique.")
                                  .arg(QString::fromStdString(p.id));
      return false;
    }
    if (p.media.empty()) {
      text += prompt_to_jsonl(p) + "\n";
      continue;
    }
    nlohmann::ordered_json line = nlohmann::ordered_json::parse(prompt_to_jsonl(p));
    line["media"] = media_json(path, p, taken, media_files);
    text += line.dump() + "\n";
  }
  // Images and videos first: the check below reads them as a run would.
  const QDir folder = QFileInfo(path).absoluteDir();
  for (const auto& [file, bytes] : media_files)
    if (!write_file(folder.filePath(file), *bytes, error)) return false;
  // What core will read back must load: the same parser checks the regexes and fields.
  const plan::PromptSetResult check = plan::parse_prompt_set_jsonl(text, path.toStdString());
  if (!check.ok()) {
    *error = QString::fromStdString(check.error_text());
    return false;
  }
  return write_file(path, text, error);
}

QString add_workspace_set(const QString& workspace_dir, const QString& base_name,
                          const std::vector<plan::PromptSpec>& prompts, QString* error) {
  const QString path = unique_set_path(workspace_dir, base_name);
  return save_prompt_set(path, prompts, error) ? path : QString();
}

QString import_prompt_file(const QString& source_path, const QString& workspace_dir,
                           QString* error) {
  QFile file(source_path);
  if (!file.open(QIODevice::ReadOnly)) {
    *error = QObject::tr("Cannot read %1: %2").arg(source_path, file.errorString());
    return {};
  }
  if (file.size() > kMaxImportBytes) {
    *error = QObject::tr("%1 is larger than 256 MiB: not a prompt set.").arg(source_path);
    return {};
  }
  const QByteArray bytes = file.readAll();
  const std::string name = QFileInfo(source_path).fileName().toStdString();
  plan::PromptSetResult parsed =
      plan::parse_prompt_set(std::string_view(bytes.constData(), bytes.size()), name);
  if (!parsed.ok()) {
    *error = QString::fromStdString(parsed.error_text());
    return {};
  }
  return add_workspace_set(workspace_dir, QFileInfo(source_path).completeBaseName(),
                           parsed.set->prompts, error);
}

QString check_set_name(const QString& name) {
  if (name.isEmpty()) return QObject::tr("Give the set a name.");
  if (name.size() > 100) return QObject::tr("A set name has at most 100 characters.");
  if (!QRegularExpression("^[A-Za-z0-9][A-Za-z0-9._-]*$").match(name).hasMatch())
    return QObject::tr(
        "A set name may use letters, digits, '.', '_' and '-' only, and starts "
        "with a letter or digit (it names the file).");
  return {};
}

QString create_workspace_set(const QString& workspace_dir, const QString& name,
                             const std::vector<plan::PromptSpec>& prompts, QString* error) {
  if (*error = check_set_name(name); !error->isEmpty()) return {};
  const QString path = QDir(prompts_dir(workspace_dir)).filePath(name + ".jsonl");
  if (QFileInfo::exists(path)) {
    *error = QObject::tr("A set called \"%1\" exists already.").arg(name);
    return {};
  }
  return save_prompt_set(path, prompts, error) ? path : QString();
}

QString rename_workspace_set(const QString& path, const QString& new_name, QString* error) {
  if (path.startsWith("builtin:")) {
    *error = QObject::tr("Built-in sets cannot be renamed: Duplicate the set first.");
    return {};
  }
  if (*error = check_set_name(new_name); !error->isEmpty()) return {};
  const QString target = QFileInfo(path).dir().filePath(new_name + ".jsonl");
  if (QFileInfo(target) == QFileInfo(path)) return path;
  if (QFileInfo::exists(target)) {
    *error = QObject::tr("A set called \"%1\" exists already.").arg(new_name);
    return {};
  }
  QFile file(path);
  if (!file.rename(target)) {
    *error = QObject::tr("Cannot rename %1: %2").arg(path, file.errorString());
    return {};
  }
  return target;
}

bool remove_workspace_set(const QString& path, QString* error) {
  if (path.startsWith("builtin:")) {
    *error = QObject::tr("Built-in sets cannot be deleted.");
    return false;
  }
  QFile file(path);
  if (!file.remove()) {
    *error = QObject::tr("Cannot delete %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace lb::ui
