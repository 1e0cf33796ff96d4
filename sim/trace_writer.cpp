#include "trace_writer.h"

#include <nlohmann/json.hpp>

namespace lb::sim {

std::string trace_line(const TraceRecord& r) {
  nlohmann::ordered_json j;
  j["request_id"] = r.request_id;
  j["event"] = r.event_index;
  j["sched_ns"] = r.sched_ns;
  j["sent_ns"] = r.sent_ns;
  j["tokens"] = r.tokens;
  j["kind"] = r.kind;
  if (!r.detail.empty()) j["detail"] = nlohmann::ordered_json::parse(r.detail, nullptr, false);
  return j.dump() + "\n";
}

TraceWriter::TraceWriter(const std::string& path, std::function<void(const TraceRecord&)> sink)
    : path_(path), sink_(std::move(sink)) {
  if (!path_.empty()) {
    file_ = std::fopen(path_.c_str(), "w");
    if (file_) std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  }
}

TraceWriter::~TraceWriter() {
  if (file_) std::fclose(file_);
}

void TraceWriter::write(const TraceRecord& record) {
  if (file_) {
    const std::string line = trace_line(record);
    std::fwrite(line.data(), 1, line.size(), file_);
  }
  if (sink_) sink_(record);
}

void TraceWriter::flush() {
  if (file_) std::fflush(file_);
}

}  // namespace lb::sim
