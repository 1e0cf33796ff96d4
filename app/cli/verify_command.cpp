// `lanebench-cli verify DIR [--inventory FILE] [--json] [--threads N] [--attach RUN:LANE]`:
// artifact provenance.
// Identity (every file's SHA-256 against the pinned inventory), then the loader surface
// (refuse-list scan and safetensors headers). Progress goes to stderr, the table to stdout.
// Exit 0: everything verifies and nothing is refused; 1: a check failed; 2: usage or input
// error (folder cannot be listed, inventory malformed — each bad line named, --attach not a run
// folder's lane, or the attached file cannot be written). --attach keeps the verification in the
// run folder (artifacts/LANE.verification.json), where the report takes it up.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/artifacts/byte_size.h"
#include "core/artifacts/verification.h"
#include "core/report/artifact_attach.h"

namespace lb::cli {
namespace {

// First Ctrl-C cancels the hashing (the report still prints what finished); the handler then
// restores the default action, so a second Ctrl-C ends the process at once.
std::atomic<bool> g_cancel_hashing{false};

extern "C" void cancel_hashing_on_signal(int signal_number) {
  g_cancel_hashing.store(true);
  std::signal(signal_number, SIG_DFL);
}

struct VerifyArgs {
  std::string dir;
  std::string inventory;
  bool json = false;
  unsigned threads = 0;
  std::string attach;  // "RUN_DIR:LANE", empty when not attaching
};

// --attach RUN_DIR:LANE split in two; false with ERROR when it has no colon or an empty side.
bool split_attach(const std::string& spec, std::string& run, std::string& lane,
                  std::string* error) {
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) {
    *error = "--attach wants RUN_DIR:LANE, got '" + spec + "'";
    return false;
  }
  run = spec.substr(0, colon);
  lane = spec.substr(colon + 1);
  return true;
}

using artifacts::human_bytes;

// Rewrites one stderr line at most four times a second; silent for work under a second.
class HashProgressLine {
 public:
  HashProgressLine() : tty_(::isatty(STDERR_FILENO) == 1), start_(Clock::now()) {}
  void update(const artifacts::HashProgress& p) {
    const auto now = Clock::now();
    const double elapsed_s = seconds(now - start_);
    const bool done = p.files_done == p.files_total;
    if (elapsed_s < 1.0 || (!done && seconds(now - last_) < (tty_ ? 0.25 : 5.0))) {
      return;
    }
    last_ = now;
    const double rate = elapsed_s > 0 ? static_cast<double>(p.bytes_done) / elapsed_s : 0.0;
    const double left = p.bytes_total > p.bytes_done ? double(p.bytes_total - p.bytes_done) : 0.0;
    char line[200];
    std::snprintf(line, sizeof line, "hashing %s / %s, %zu/%zu files, %.0f MB/s, ETA %.0f s",
                  human_bytes(double(p.bytes_done)).c_str(),
                  human_bytes(double(p.bytes_total)).c_str(), p.files_done, p.files_total,
                  rate / 1e6, rate > 0 ? left / rate : 0.0);
    std::cerr << (tty_ ? "\r" : "") << line << (tty_ ? "\x1b[K" : "\n") << std::flush;
    open_ = tty_;
  }
  ~HashProgressLine() {
    if (open_) {
      std::cerr << '\n';
    }
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
  const bool tty_;
  const Clock::time_point start_;
  Clock::time_point last_{};
  bool open_ = false;
};

void print_file_rows(const artifacts::VerifyReport& r) {
  std::printf("%-10s  %-48s  %s\n", "STATUS", "FILE", "DETAIL");
  for (const auto& f : r.files) {
    std::string detail;
    if (f.status == artifacts::FileStatus::Mismatch) {
      detail = "expected " + f.expected + ", actual " + f.actual;
    } else if (!f.actual.empty()) {
      detail = f.actual + "  " + human_bytes(double(f.size_bytes));
    }
    if (!f.detail.empty()) {
      detail += (detail.empty() ? "" : "; ") + f.detail;
    }
    std::printf("%-10s  %-48s  %s\n", artifacts::file_status_name(f.status), f.path.c_str(),
                detail.c_str());
  }
}

void print_findings(const artifacts::VerifyReport& r) {
  if (r.findings.empty()) {
    return;
  }
  std::printf("\n%-10s  %-48s  %s\n", "SCAN", "FILE", "REASON");
  for (const auto& f : r.findings) {
    std::printf("%-10s  %-48s  %s\n", artifacts::severity_name(f.severity), f.path.c_str(),
                f.reason.c_str());
  }
}

void print_headers(const artifacts::VerifyReport& r) {
  bool any = false;
  for (const auto& s : r.safetensors) {
    if (s.ok()) {
      continue;
    }
    if (!any) {
      std::printf("\n%-10s  %-48s  %s\n", "HEADER", "FILE", "ISSUE");
    }
    any = true;
    for (const auto& issue : s.issues) {
      std::printf("%-10s  %-48s  %s\n", "invalid", s.path.c_str(), issue.c_str());
    }
    if (s.unlisted_issues) {
      std::printf("%-10s  %-48s  ... and %zu more\n", "invalid", s.path.c_str(), s.unlisted_issues);
    }
  }
}

void print_summary(const artifacts::VerifyReport& r) {
  const auto& t = r.totals;
  std::printf("\nfolder: %s\ninventory: %s%s%s\n", r.root.c_str(), r.inventory_format.c_str(),
              r.inventory_source.empty() ? "" : " ", r.inventory_source.c_str());
  if (!r.revision.empty()) {
    std::printf("revision: %s\n", r.revision.c_str());
  }
  std::printf(
      "files: %zu ok, %zu mismatch, %zu missing, %zu extra, %zu unreadable, %zu git-blob "
      "(not verifiable by SHA-256), %zu unpinned%s\n",
      t.ok, t.mismatch, t.missing, t.extra, t.unreadable, t.git_blob, t.unpinned,
      t.cancelled ? (", " + std::to_string(t.cancelled) + " cancelled").c_str() : "");
  std::printf("scan: %zu refused, %zu warnings; safetensors headers: %zu checked, %zu invalid\n",
              t.refused, t.warnings, t.safetensors_checked, t.safetensors_invalid);
  const double rate = r.hash_seconds > 0 ? double(t.bytes_hashed) / r.hash_seconds / 1e6 : 0.0;
  std::printf("hashed %s in %.2f s (%.0f MB/s)\n", human_bytes(double(t.bytes_hashed)).c_str(),
              r.hash_seconds, rate);
  if (t.unpinned) {
    std::printf("no inventory: identity not established (use --inventory FILE)\n");
  }
  std::printf("result: %s\n", r.passed() ? "PASS" : "FAIL");
}

void print_input_error(const artifacts::VerifyReport& r, const VerifyArgs& args) {
  if (!r.input_error.empty()) {
    std::cerr << "verify: " << r.input_error << '\n';
  }
  for (const auto& p : r.inventory_problems) {
    std::cerr << "verify: " << args.inventory;
    if (p.line > 0) {
      std::cerr << ':' << p.line;
    }
    std::cerr << ": " << p.message << '\n';
  }
}

int attach_and_exit(const VerifyArgs& args, const artifacts::VerifyReport& report) {
  if (args.attach.empty() || !report.input_ok()) return report.exit_code();
  std::string run, lane, path, error;
  if (!split_attach(args.attach, run, lane, &error) ||
      !report::attach_verification(run, lane, artifacts::verify_report_json(report), &path,
                                   &error)) {
    std::cerr << "verify: " << error << '\n';
    return 2;
  }
  std::cerr << "verify: attached as " << path << '\n';
  return report.exit_code();
}

int run_verify(const VerifyArgs& args) {
  std::string run, lane, attach_error;
  if (!args.attach.empty() && (!split_attach(args.attach, run, lane, &attach_error) ||
                               !report::check_attach_target(run, lane, &attach_error))) {
    std::cerr << "verify: " << attach_error << '\n';
    return 2;
  }
  artifacts::VerifyOptions options;
  options.inventory = args.inventory;
  options.hashing.threads = args.threads;
  std::signal(SIGINT, cancel_hashing_on_signal);
  options.hashing.cancel = &g_cancel_hashing;
  HashProgressLine progress;
  options.hashing.on_progress = [&progress](const artifacts::HashProgress& p) {
    progress.update(p);
  };
  const artifacts::VerifyReport report = artifacts::verify_checkpoint(args.dir, options);
  if (args.json) {
    std::cout << artifacts::verify_report_json(report).dump(2) << '\n';
    if (!report.input_ok()) {
      print_input_error(report, args);
    }
    return attach_and_exit(args, report);
  }
  if (!report.input_ok()) {
    print_input_error(report, args);
    return report.exit_code();
  }
  print_file_rows(report);
  print_findings(report);
  print_headers(report);
  print_summary(report);
  return attach_and_exit(args, report);
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<VerifyArgs>();
  CLI::App* cmd = app.add_subcommand(
      "verify",
      "Check a checkpoint folder: SHA-256 against a pinned inventory, refuse-list scan "
      "(pickle, code, native libraries, auto_map), safetensors headers");
  cmd->add_option("dir", args->dir, "checkpoint folder (or a Hugging Face cache models--org--name)")
      ->required();
  cmd->add_option("--inventory", args->inventory,
                  "pinned hashes: JSON {path: sha256} or sha256sum output; default: the Hugging "
                  "Face snapshot's blob names");
  cmd->add_flag("--json", args->json, "print the report as JSON");
  cmd->add_option("--threads", args->threads, "hashing threads (default: one per core)");
  cmd->add_option("--attach", args->attach,
                  "keep the verification in a run folder for its report: RUN_DIR:LANE "
                  "(writes RUN_DIR/artifacts/LANE.verification.json)");
  cmd->callback([args, &exit_code] { exit_code = run_verify(*args); });
}

}  // namespace lb::cli
