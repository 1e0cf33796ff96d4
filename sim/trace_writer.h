#pragma once
// TraceWriter: ground truth, one JSON line per event written to a client:
// {"request_id":..., "event":i, "sched_ns":..., "sent_ns":..., "tokens":n, "kind":...}
// Used only on the server's I/O thread; lines are buffered and flushed on close.
#include <cstdio>
#include <functional>
#include <string>

#include "sim_config.h"

namespace lb::sim {

class TraceWriter {
 public:
  TraceWriter(const std::string& path, std::function<void(const TraceRecord&)> sink);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  bool enabled() const { return file_ != nullptr || static_cast<bool>(sink_); }
  bool ok() const { return path_.empty() || file_ != nullptr; }
  void write(const TraceRecord& record);
  void flush();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::function<void(const TraceRecord&)> sink_;
};

std::string trace_line(const TraceRecord& record);

}  // namespace lb::sim
