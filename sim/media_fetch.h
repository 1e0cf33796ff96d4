#pragma once
// Media given by http(s) URL, fetched as vLLM fetches them: a GET with vLLM's User-Agent,
// redirects followed, a timeout per medium (VLLM_IMAGE_FETCH_TIMEOUT 5 s, VLLM_VIDEO_FETCH_TIMEOUT
// 30 s) and a size limit (VLLM_MAX_MEDIA_DOWNLOAD_SIZE_MB, 256), failures worded as vLLM words
// them. Transfers run on the fetcher's own threads (libcurl, blocking), never on the server's
// Asio I/O thread; the caller posts the result back to it.
#include <atomic>
#include <boost/asio/thread_pool.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "request_media.h"
#include "sim_config.h"

namespace lb::sim {

struct FetchedMedia {
  std::shared_ptr<const std::string> bytes;
  std::string content_type;  // as the server sent it, without parameters
};

// "Failed to fetch media from URL: HTTP 404 error (parameter=image_url, value=URL)".
std::string fetch_error_message(const std::string& what, const std::string& url);

// One blocking GET; `cancel` aborts the transfer (checked while it runs).
std::variant<FetchedMedia, MediaError> fetch_media_url(const std::string& url, bool video,
                                                       const FetchLimits& limits,
                                                       const std::atomic<bool>& cancel);

// Whether a part's URL is fetched (http:// or https://, any case) rather than decoded in place.
bool is_remote_url(const std::string& url);

class MediaFetcher {
 public:
  explicit MediaFetcher(FetchLimits limits, int threads = 2);
  ~MediaFetcher();  // aborts transfers in flight and joins the threads
  MediaFetcher(const MediaFetcher&) = delete;
  MediaFetcher& operator=(const MediaFetcher&) = delete;

  // Fetches the remote parts of `parts` in order on a worker thread and fills their `fetched`
  // bytes; `done` runs on that worker with the parts and the first error (if any), and is not
  // run at all when the fetcher is destroyed first.
  using Done = std::function<void(std::vector<MediaPart> parts, std::optional<MediaError> error)>;
  void fetch(std::vector<MediaPart> parts, Done done);

 private:
  FetchLimits limits_;
  std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
  boost::asio::thread_pool pool_;
};

}  // namespace lb::sim
