// Per-token logprobs of the performance kinds' requests (an experiment's "logprobs": K), kept
// per lane as the regression keeps its own: logprobs/<lane>.jsonl, one line per request. A
// second experiment's file carries its name, which a plan from elsewhere may aim at a path.
#include <filesystem>

#include "core/files/safe_file_name.h"
#include "core/logprobs/logprob_lines.h"
#include "core/net/secret_text.h"
#include "core/net/stream_parser.h"
#include "core/run/experiments/experiment.h"

namespace lb::run {
namespace {

logprobs::PromptLogprobs request_line(const metrics::RequestRecord& r, const std::string& phase,
                                      int top_k, const LaneEndpoint& lane) {
  logprobs::PromptLogprobs p;
  p.index = r.index;
  p.prompt_id = phase;
  p.top_k = top_k;
  if (r.result.error != net::ErrorKind::None) {
    p.status = "failed";
    // Server messages may quote the key they refused.
    p.note = net::redact_secret_text(
        std::string(net::to_string(r.result.error)) + ": " + r.result.error_message,
        {api_key_of(lane)});
  } else if (!r.result.logprobs_seen) {
    p.status = "unsupported";
    p.note = "the server answered without logprobs";
  } else {
    // The I/O thread keeps the logprobs' bytes; they are read here, off that thread.
    std::string error;
    p.tokens = net::resolved_logprobs(r.result, &error);
    if (!error.empty()) {
      p.status = "failed";
      p.note = "unreadable logprobs: " + error;
      p.tokens.clear();
    } else {
      logprobs::normalize(p.tokens, top_k);
    }
  }
  return p;
}

}  // namespace

void ExperimentContext::keep_logprobs(const LoadPhase& phase, const PhaseOutcome& outcome) {
  const int top_k = static_cast<int>(spec_.logprobs);
  if (top_k <= 0 || kind_of(spec_) == record::ExperimentKind::Regression || phase.lane == nullptr)
    return;
  const std::string& lane = phase.lane->id;
  LogprobFile& file = logprob_files_[lane];
  if (file.path.empty()) {
    file.path = "logprobs/" + lane + ".jsonl";
    if (std::filesystem::exists(writer_.path(file.path)))
      file.path = "logprobs/" + lane + "." + files::safe_file_name(spec_.name) + ".jsonl";
  }
  for (const auto& r : outcome.records) {
    const auto line = request_line(r, phase.phase, top_k, *phase.lane);
    file.lines += logprobs::to_line(line) + "\n";
    ++file.requests;
    file.with_logprobs += line.status == "ok" ? 1 : 0;
    file.tokens += static_cast<int64_t>(line.tokens.size());
    if (line.status == "unsupported" && file.note.empty()) file.note = line.note;
  }
  writer_.write_file(file.path, file.lines);
  nlohmann::json j = {{"file", file.path},
                      {"top_k", top_k},
                      {"status", file.with_logprobs > 0 ? "ok" : "logprobs unsupported"},
                      {"requests", file.requests},
                      {"requests_with_logprobs", file.with_logprobs},
                      {"tokens", file.tokens},
                      {"bytes", file.lines.size()}};
  if (file.with_logprobs == 0) j["note"] = file.note;
  section_["lanes"][lane]["logprobs"] = std::move(j);
}

}  // namespace lb::run
