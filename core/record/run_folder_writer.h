#pragma once
// RunFolderWriter owns a run folder's files and the thread that writes them, so neither the I/O
// thread nor the load scheduler ever waits for a disk. requests.jsonl gets one line per finished
// request, each handed to the kernel with a single write() as soon as it is dequeued: a run
// killed at any moment leaves every finished request readable. Other files are replaced
// atomically (temp + rename).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/request_record.h"

namespace lb::record {

class RunFolderWriter {
 public:
  // Creates `dir` (and parents) and opens requests.jsonl for appending; check ok(). Every file
  // is written inside `dir` (files/confined_write.h): a link in the folder is refused.
  explicit RunFolderWriter(std::string dir);
  ~RunFolderWriter();  // writes everything queued, then joins
  RunFolderWriter(const RunFolderWriter&) = delete;
  RunFolderWriter& operator=(const RunFolderWriter&) = delete;

  bool ok() const { return open_error_.empty(); }
  const std::string& open_error() const { return open_error_; }
  const std::string& dir() const { return dir_; }
  std::string path(const std::string& relative) const;

  // The lanes' API keys: a server's error message that quotes one is written with it redacted
  // (net/secret_text.h). Call before the first append_request.
  void set_secrets(std::vector<std::string> keys);
  void append_request(metrics::RequestRecord record);
  void write_file(std::string relative_path, std::string content);
  void write_json(std::string relative_path, const nlohmann::json& value);
  // Runs `fn` on the writer thread once everything queued before it has been written, so an
  // observer told through it never hears of a request that a kill could still lose. `fn` must
  // be quick: request lines queued after it wait for it.
  void after_written(std::function<void()> fn);
  // Blocks until everything queued so far is written.
  void flush();
  // Write failures so far (each once), for the caller to report.
  std::vector<std::string> take_errors();
  int64_t requests_written() const { return requests_written_.load(); }

 private:
  struct FileJob {
    std::string relative_path;
    std::string content;
  };
  using Job = std::variant<metrics::RequestRecord, FileJob, std::function<void()>>;

  std::vector<std::string> secrets_;
  void loop();
  void write_request_line(const metrics::RequestRecord& record);
  void note_error(std::string message);

  std::string dir_;
  std::string open_error_;
  int jsonl_fd_ = -1;
  int64_t lines_lost_ = 0;  // request lines that could not be appended (writer thread only)
  std::atomic<int64_t> requests_written_{0};

  std::mutex mutex_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<Job> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::vector<std::string> errors_;
  std::thread thread_;
};

}  // namespace lb::record
