#include "media_fetch.h"
#include "core/text/ascii_text.h"

#include <curl/curl.h>

#include <boost/asio/post.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace lb::sim {
namespace {

struct FetchTransfer {
  std::string body;
  int64_t max_bytes = 0;
  bool too_large = false;
  const std::atomic<bool>* cancel = nullptr;
};

size_t fetch_on_body(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<FetchTransfer*>(user);
  const size_t n = size * count;
  if (t->max_bytes > 0 && static_cast<int64_t>(t->body.size() + n) > t->max_bytes) {
    t->too_large = true;
    return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
  }
  t->body.append(data, n);
  return n;
}

int fetch_on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<FetchTransfer*>(user)->cancel->load() ? 1 : 0;
}

std::string fetch_mb_text(double mb) {
  char out[32];
  std::snprintf(out, sizeof out, "%g", mb);
  return out;
}

void fetch_init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

std::string fetch_error_message(const std::string& what, const std::string& url) {
  // vLLM names the parameter image_url for every modality.
  return "Failed to fetch media from URL: " + what + " (parameter=image_url, value=" + url + ")";
}

bool is_remote_url(const std::string& url) {
  const std::string head = text::ascii_lower(url.substr(0, 8));
  return head.rfind("http://", 0) == 0 || head.rfind("https://", 0) == 0;
}

std::variant<FetchedMedia, MediaError> fetch_media_url(const std::string& url, bool video,
                                                       const FetchLimits& limits,
                                                       const std::atomic<bool>& cancel) {
  fetch_init_curl_once();
  std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return MediaError{fetch_error_message("cannot start a transfer", url)};
  FetchTransfer t;
  t.max_bytes = static_cast<int64_t>(limits.max_download_mb * (1 << 20));
  t.cancel = &cancel;
  const double timeout_s = video ? limits.video_timeout_s : limits.image_timeout_s;
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(std::lround(timeout_s * 1000)));
  curl_easy_setopt(h, CURLOPT_USERAGENT, limits.user_agent.c_str());
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl decodes
  if (!limits.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, limits.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, fetch_on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, fetch_on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  const CURLcode rc = curl_easy_perform(h);
  if (t.too_large) {
    return MediaError{
        fetch_error_message("Remote media download exceeds VLLM_MAX_MEDIA_DOWNLOAD_SIZE_MB=" +
                                fetch_mb_text(limits.max_download_mb) + " (received at least " +
                                std::to_string(t.body.size()) + " bytes)",
                            url)};
  }
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    char s[32];
    std::snprintf(s, sizeof s, "%g", timeout_s);
    return MediaError{fetch_error_message(std::string("timed out after ") + s + " s (" +
                                              (video ? "VLLM_VIDEO" : "VLLM_IMAGE") +
                                              "_FETCH_TIMEOUT)",
                                          url)};
  }
  if (rc != CURLE_OK) return MediaError{fetch_error_message(curl_easy_strerror(rc), url)};
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (status < 200 || status >= 300)
    return MediaError{fetch_error_message("HTTP " + std::to_string(status) + " error", url)};
  FetchedMedia out;
  char* type = nullptr;
  if (curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &type) == CURLE_OK && type) {
    out.content_type = text::ascii_lower(type);
    out.content_type = out.content_type.substr(0, out.content_type.find(';'));
  }
  out.bytes = std::make_shared<const std::string>(std::move(t.body));
  return out;
}

MediaFetcher::MediaFetcher(FetchLimits limits, int threads)
    : limits_(std::move(limits)), pool_(static_cast<size_t>(std::max(1, threads))) {}

MediaFetcher::~MediaFetcher() {
  cancel_->store(true);
  pool_.join();
}

void MediaFetcher::fetch(std::vector<MediaPart> parts, Done done) {
  boost::asio::post(
      pool_, [this, parts = std::move(parts), done = std::move(done), cancel = cancel_]() mutable {
        for (auto& part : parts) {
          if (cancel->load()) return;
          if (!is_remote_url(part.url)) continue;
          auto got = fetch_media_url(part.url, part.video, limits_, *cancel);
          if (cancel->load()) return;
          if (auto* error = std::get_if<MediaError>(&got)) return done(std::move(parts), *error);
          auto& fetched = std::get<FetchedMedia>(got);
          part.fetched = std::move(fetched.bytes);
          part.fetched_mime = std::move(fetched.content_type);
        }
        done(std::move(parts), std::nullopt);
      });
}

}  // namespace lb::sim
