#pragma once
// What a running experiment tells its observer (the CLI's progress line, the GUI's controller).
// Every call may come from the engine's threads: implementations copy or move the values into
// their own staging and return at once. The GUI drains its staging at <= 30 Hz.
#include <cstdint>
#include <string>

#include "metrics/request_record.h"

namespace lb::run {

struct RunProgress {
  std::string lane_id;
  std::string experiment;
  std::string phase;
  int64_t done = 0;
  int64_t total = 0;  // 0 when bounded by duration only
  int64_t errors = 0;
  double output_tok_s = 0;  // recent aggregate, counting tokens not events
  double eta_s = -1;
};

enum class MessageLevel { Info, Warning, Error };

class RunSink {
 public:
  virtual ~RunSink() = default;
  virtual void on_request_done(const metrics::RequestRecord& record) = 0;
  // Optional live view of each generated event (lane, request index, arrival).
  virtual void on_event(const std::string& /*lane_id*/, int64_t /*index*/,
                        const net::EventArrival& /*event*/) {}
  virtual void on_progress(const RunProgress& progress) = 0;
  virtual void on_message(MessageLevel level, const std::string& text) = 0;
};

}  // namespace lb::run
