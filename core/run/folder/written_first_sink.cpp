#include "core/run/folder/written_first_sink.h"

namespace lb::run {

void WrittenFirstSink::record(const metrics::RequestRecord& record) {
  writer_.append_request(record);
  on_request_done(record);
}

void WrittenFirstSink::on_request_done(const metrics::RequestRecord& record) {
  writer_.after_written([&inner = inner_, record] { inner.on_request_done(record); });
}

void WrittenFirstSink::on_progress(const RunProgress& progress) {
  writer_.after_written([&inner = inner_, progress] { inner.on_progress(progress); });
}

}  // namespace lb::run
