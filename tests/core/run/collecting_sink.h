#pragma once
// A RunSink that keeps what it is told, for assertions.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "core/run/run_sink.h"

namespace lb::test {

class CollectingSink : public lb::run::RunSink {
 public:
  void on_request_done(const lb::metrics::RequestRecord& r) override {
    std::lock_guard lock(mutex);
    done.push_back(r.index);
    if (r.warmup) ++warmups;
  }
  void on_progress(const lb::run::RunProgress& p) override {
    std::lock_guard lock(mutex);
    progress.push_back(p);
  }
  void on_message(lb::run::MessageLevel level, const std::string& text) override {
    std::lock_guard lock(mutex);
    messages.push_back({level, text});
  }
  void on_experiments_named(const std::vector<std::string>& names) override {
    std::lock_guard lock(mutex);
    experiment_names = names;
  }
  void on_gate_result(const lb::record::GateResult& result) override {
    std::lock_guard lock(mutex);
    gates.push_back(result);
  }
  // With summary_path set, also whether summary.json already held each section when told.
  void on_section_done(size_t experiment, const lb::record::ExperimentSection& section) override {
    std::lock_guard lock(mutex);
    sections.emplace_back(experiment, section);
    if (summary_path.empty()) return;
    std::ifstream in(summary_path);
    const auto summary = nlohmann::json::parse(in, nullptr, false);
    const bool held = summary.is_object() && summary["experiments"].size() > experiment &&
                      summary["experiments"][experiment] == lb::record::to_json(section);
    if (!held) ++sections_told_before_written;
  }
  bool has_message_containing(const std::string& needle) {
    std::lock_guard lock(mutex);
    for (const auto& m : messages)
      if (m.second.find(needle) != std::string::npos) return true;
    return false;
  }

  std::mutex mutex;
  std::vector<int64_t> done;
  int warmups = 0;
  std::vector<lb::run::RunProgress> progress;
  std::vector<std::pair<lb::run::MessageLevel, std::string>> messages;
  std::vector<lb::record::GateResult> gates;
  std::vector<std::pair<size_t, lb::record::ExperimentSection>> sections;
  std::vector<std::string> experiment_names;  // as the run last named them
  std::filesystem::path summary_path;
  int sections_told_before_written = 0;
};

}  // namespace lb::test
