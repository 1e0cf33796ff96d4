#pragma once
// WrittenFirstSink passes a phase's news to the real sink only after the run folder holds what
// the news counts: a request is reported done, and a progress line counts it, once its line is
// in requests.jsonl. Whatever the CLI or the GUI has shown as finished therefore survives a
// kill. Live events and messages go straight through; they promise nothing about the folder.
#include "core/record/run_folder_writer.h"
#include "core/run/run_sink.h"

namespace lb::run {

class WrittenFirstSink : public RunSink {
 public:
  // `inner` must outlive the writer's queue (the writer calls it from its own thread).
  WrittenFirstSink(RunSink& inner, record::RunFolderWriter& writer)
      : inner_(inner), writer_(writer) {}

  // Queues the line, then the report of it.
  void record(const metrics::RequestRecord& record);

  void on_request_done(const metrics::RequestRecord& record) override;
  void on_progress(const RunProgress& progress) override;
  void on_message(MessageLevel level, const std::string& text) override {
    inner_.on_message(level, text);
  }
  void on_server_state(const ServerState& state) override { inner_.on_server_state(state); }
  void on_gate_result(const record::GateResult& result) override { inner_.on_gate_result(result); }
  void on_section_done(size_t experiment, const record::ExperimentSection& section) override {
    inner_.on_section_done(experiment, section);
  }

 private:
  RunSink& inner_;
  record::RunFolderWriter& writer_;
};

}  // namespace lb::run
