#pragma once
// A prompt's images and videos made ready for a request body: each as a data: URL (OpenAI chat,
// Responses), as bare base64 (Ollama's `images`), or as the http(s) URL it already is; with the
// record of what was sent (requests.jsonl) and, when the request must not be sent, why. Runs on
// the thread that builds the request, never on the network I/O thread.
#include <cstdint>
#include <string>
#include <vector>

#include "core/metrics/request_media.h"
#include "core/plan/prompt_set.h"

namespace lb::run {

enum class MediaWire {
  DataUrl,     // "data:MIME;base64,..." (http(s) URLs sent as they are)
  BareBase64,  // base64 without the data: prefix; images only, no URLs (Ollama)
  ImagesOnly,  // data: URLs of images; a video is refused (the Responses API has no video input)
};

struct EncodedMedia {
  std::vector<std::string> payloads;  // one per item, in order
  metrics::RequestMedia record;       // filled even when refused
  std::string refused;                // non-empty: why the request is not sent
};

// max_media_bytes: the lane's limit on the encoded files of one request together; <= 0 = none.
EncodedMedia encode_media(const std::vector<plan::MediaRef>& media, MediaWire wire,
                          int64_t max_media_bytes);

// Why `wire` cannot carry these media (a video over the Responses API or Ollama, a URL over
// Ollama); empty when it can. Nothing is encoded.
std::string wire_refusal(const std::vector<plan::MediaRef>& media, MediaWire wire);

// The record of one item, without encoding it.
metrics::MediaItemStats media_item_stats(const plan::MediaRef& item);

}  // namespace lb::run
