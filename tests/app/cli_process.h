#pragma once
// Running lanebench-cli (and lanebench-sim) as child processes in the app tests, and reading
// what they leave behind.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace lb::test {

struct CliOutcome {
  int exit_code = -1;  // -1 = crashed or timed out
  std::string out;
  std::string err;
};

inline CliOutcome run_program(
    const QString& program, const QStringList& args,
    const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
    int timeout_ms = 60'000) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(program, args);
  if (!p.waitForFinished(timeout_ms)) {
    p.kill();
    p.waitForFinished();
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

inline std::string write_plan_file(const std::filesystem::path& path, const nlohmann::json& plan) {
  std::ofstream(path) << plan.dump(2);
  return path.string();
}

inline QString qstr(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

// Every regular file under `dir`, recursively.
inline std::vector<std::filesystem::path> files_under(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) out.push_back(it->path());
  }
  return out;
}

}  // namespace lb::test
