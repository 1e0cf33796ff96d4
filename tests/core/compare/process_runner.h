#pragma once
// Runs a program to completion for the tests that drive lanebench-cli and python3.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace lb::compare::testing {

struct ProcessResult {
  int exit_code = -1;
  QString out;
  QString err;
};

inline ProcessResult run_process(const QString& program, const QStringList& args,
                                 int timeout_ms = 60000) {
  QProcess process;
  process.start(program, args);
  ProcessResult result;
  if (!process.waitForStarted(timeout_ms) || !process.waitForFinished(timeout_ms)) {
    result.err = "could not run " + program + ": " + process.errorString();
    return result;
  }
  result.exit_code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

}  // namespace lb::compare::testing
