#include "core/record/run_folder_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/files/background_thread.h"
#include "core/files/confined_write.h"
#include "core/metrics/request_metrics.h"
#include "core/metrics/summary.h"
#include "core/net/secret_text.h"

namespace lb::record {

RunFolderWriter::RunFolderWriter(std::string dir) : dir_(std::move(dir)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    open_error_ = "cannot create run folder " + dir_ + ": " + ec.message();
  } else {
    // `run --into` appends to a folder from elsewhere: its requests.jsonl may be a link.
    jsonl_fd_ = files::open_confined_append(dir_, "requests.jsonl", &open_error_);
  }
  thread_ = std::thread([this] {
    files::become_background_thread("lb-run-writer");
    loop();
  });
}

RunFolderWriter::~RunFolderWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (jsonl_fd_ >= 0) ::close(jsonl_fd_);
}

std::string RunFolderWriter::path(const std::string& relative) const {
  return (std::filesystem::path(dir_) / relative).string();
}

void RunFolderWriter::append_request(metrics::RequestRecord record) {
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(std::move(record));
  }
  cv_.notify_one();
}

void RunFolderWriter::write_file(std::string relative_path, std::string content) {
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(FileJob{std::move(relative_path), std::move(content)});
  }
  cv_.notify_one();
}

void RunFolderWriter::write_json(std::string relative_path, const nlohmann::json& value) {
  std::vector<std::string> keys;
  {
    std::lock_guard lock(mutex_);
    keys = secrets_;
  }
  // A server's error quoting the key it refused reaches summary.json too (prompt_errors).
  nlohmann::json redacted;
  const nlohmann::json* out = &value;
  if (!keys.empty()) {
    redacted = value;
    if (net::redact_secret_values(redacted, keys)) out = &redacted;
  }
  // Invalid UTF-8 from a server must not abort the run: replace it rather than throw.
  write_file(std::move(relative_path),
             out->dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

void RunFolderWriter::after_written(std::function<void()> fn) {
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(std::move(fn));
  }
  cv_.notify_one();
}

void RunFolderWriter::flush() {
  std::unique_lock lock(mutex_);
  idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

std::vector<std::string> RunFolderWriter::take_errors() {
  std::lock_guard lock(mutex_);
  return std::exchange(errors_, {});
}

void RunFolderWriter::note_error(std::string message) {
  std::lock_guard lock(mutex_);
  errors_.push_back(std::move(message));
}

void RunFolderWriter::loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() && stopping_) break;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    if (auto* record = std::get_if<metrics::RequestRecord>(&job)) {
      write_request_line(*record);
    } else if (auto* file = std::get_if<FileJob>(&job)) {
      std::string error;
      if (!files::write_confined(dir_, file->relative_path, file->content, &error))
        note_error(error);
    } else if (auto& fn = std::get<std::function<void()>>(job)) {
      fn();
    }
    lock.lock();
    busy_ = false;
    if (queue_.empty()) idle_cv_.notify_all();
  }
  idle_cv_.notify_all();
}

void RunFolderWriter::set_secrets(std::vector<std::string> keys) {
  std::lock_guard lock(mutex_);
  secrets_ = std::move(keys);
}

void RunFolderWriter::write_request_line(const metrics::RequestRecord& record) {
  if (jsonl_fd_ < 0) return;
  const auto m = metrics::compute_request_metrics(record);
  nlohmann::json j = metrics::to_json(record, m);
  // A server's error text may quote the key it refused: it is written with keys redacted.
  if (j["error"].is_object() && j["error"]["message"].is_string())
    j["error"]["message"] =
        net::redact_secret_text(j["error"]["message"].get<std::string>(), secrets_);
  std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // One write() per line: O_APPEND makes it land whole, and the kernel keeps it if we are killed.
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(jsonl_fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      // Said once: a full disk would otherwise give one message per request.
      if (lines_lost_++ == 0)
        note_error(std::string("cannot append to requests.jsonl: ") + std::strerror(errno) +
                   "; request lines from here on are lost");
      return;
    }
    written += static_cast<size_t>(n);
  }
  requests_written_.fetch_add(1);
}

}  // namespace lb::record
