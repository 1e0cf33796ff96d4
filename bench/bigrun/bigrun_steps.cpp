#include "bigrun_steps.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QGuiApplication>
#include <QTemporaryDir>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "core/report/report_writer.h"
#include "report_pdf/gui_application.h"
#include "ui/history/run_folder_job.h"
#include "ui/report/report_export_job.h"
#include "ui/review/review_session.h"

namespace lb::bench {
namespace {

using nlohmann::json;
using WallClock = std::chrono::steady_clock;

double seconds_since(WallClock::time_point t0) {
  return std::chrono::duration<double>(WallClock::now() - t0).count();
}

json reopen(const std::string& dir) {
  const auto t0 = WallClock::now();
  const auto run = ui::load_run(QString::fromStdString(dir));
  const double s = seconds_since(t0);
  if (!run->folder) return {{"ok", false}, {"error", run->error.toStdString()}};
  int64_t ttft_points = 0, itl_samples = 0;
  for (const auto& [id, lane] : run->series.by_lane) {
    ttft_points += static_cast<int64_t>(lane.ttft_ms.size());
    itl_samples += lane.itl_gaps_seen;
  }
  return {{"ok", true},
          {"seconds", s},
          {"detail",
           {{"requests", run->folder->request_count},
            {"torn_lines", run->folder->torn_lines},
            {"lanes", run->series.lanes.size()},
            {"ttft_points", ttft_points},
            {"itl_samples", itl_samples},
            {"complete", run->folder->complete}}}};
}

json report(const std::string& dir) {
  const auto app = report_pdf::ensure_gui_application();  // the workbench has one already
  QTemporaryDir out;
  if (!out.isValid()) return {{"ok", false}, {"error", "cannot make a temporary output folder"}};
  const auto t0 = WallClock::now();
  const ui::ReportExportResult r =
      ui::export_report(QString::fromStdString(dir), out.path(), report::report_format_names());
  const double s = seconds_since(t0);
  if (!r.errors.isEmpty()) return {{"ok", false}, {"error", r.errors.join("; ").toStdString()}};
  return {{"ok", true}, {"seconds", s}, {"detail", {{"files_written", r.written.size()}}}};
}

json review(const std::string& dir) {
  const auto t0 = WallClock::now();
  ui::ReviewSource source;
  QString error;
  if (!ui::open_review_source(QString::fromStdString(dir), &source, &error))
    return {{"ok", false}, {"error", error.toStdString()}};
  ui::LoadedPair pair;
  if (!ui::load_pair(source, source.lanes.at(0), source.lanes.at(1), &pair, &error))
    return {{"ok", false}, {"error", error.toStdString()}};
  const auto rows = ui::review_rows(pair, source);
  const double s = seconds_since(t0);
  int64_t reviewed = 0;
  for (const auto& row : rows) reviewed += row.verdict.isEmpty() ? 0 : 1;
  return {{"ok", true},
          {"seconds", s},
          {"detail",
           {{"pairs", rows.size()},
            {"with_verdict", reviewed},
            {"prompt_set_loaded", source.prompts.has_value()}}}};
}

// Everything the child wrote on its stdout.
std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  return out;
}

}  // namespace

const std::vector<std::string>& step_names() {
  static const std::vector<std::string> names = {"reopen", "report", "review"};
  return names;
}

int run_step_here(const std::string& step, const std::string& dir) {
  json result;
  try {
    result = step == "reopen"   ? reopen(dir)
             : step == "report" ? report(dir)
             : step == "review" ? review(dir)
                                : json{{"ok", false}, {"error", "unknown step " + step}};
  } catch (const std::exception& e) {
    result = {{"ok", false}, {"error", std::string("the step threw: ") + e.what()}};
  }
  std::cout << result.dump() << std::endl;
  return result.value("ok", false) ? 0 : 1;
}

namespace {

// The last line of a child's output as JSON (discarded when it is none).
json last_line_json(const std::string& text) {
  const size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return json::value_t::discarded;
  const size_t newline = text.rfind('\n', end);
  const size_t begin = newline == std::string::npos ? 0 : newline + 1;
  return json::parse(text.substr(begin, end + 1 - begin), nullptr, false);
}

struct ChildOutput {
  std::string text;
  int status = -1;
  rusage usage{};
  bool waited = false;
};

// Forks; the child runs CHILD with its stdout on a pipe and never returns.
ChildOutput run_child(const std::function<void()>& child) {
  ChildOutput out;
  int fds[2];
  if (::pipe(fds) != 0) return out;
  std::cout.flush();
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    child();
    std::_Exit(127);
  }
  ::close(fds[1]);
  if (pid > 0) out.text = read_all(fds[0]);
  ::close(fds[0]);
  out.waited = pid > 0 && ::wait4(pid, &out.status, 0, &out.usage) == pid;
  return out;
}

}  // namespace

json run_in_fork(const std::function<json()>& fn) {
  const ChildOutput out = run_child([&fn] {
    std::cout << fn().dump() << std::endl;
    std::_Exit(0);
  });
  const json j = last_line_json(out.text);
  if (out.waited && j.is_object()) return j;
  return {{"ok", false}, {"error", "the child ended without a result"}};
}

StepRun run_step_in_child(const std::string& step, const std::string& dir) {
  StepRun out;
  const ChildOutput child = run_child([&] {
    const char* argv[] = {"lanebench-bench-bigrun", "step", step.c_str(), dir.c_str(), nullptr};
    ::execv("/proc/self/exe", const_cast<char* const*>(argv));
  });
  if (!child.waited) {
    out.error = "cannot run the step in a child process";
    return out;
  }
  out.peak_rss_mb = static_cast<double>(child.usage.ru_maxrss) * 1024.0 / 1e6;  // KiB
  const json j = last_line_json(child.text);
  if (!j.is_object()) {
    out.error = "the child ended without a result (status " + std::to_string(child.status) + ")";
    return out;
  }
  out.ok = j.value("ok", false) && WIFEXITED(child.status) && WEXITSTATUS(child.status) == 0;
  out.error = j.value("error", std::string());
  out.seconds = j.value("seconds", 0.0);
  out.detail = j.value("detail", json::object());
  return out;
}

}  // namespace lb::bench
