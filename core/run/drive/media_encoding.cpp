#include "core/run/drive/media_encoding.h"

#include "core/net/data_url.h"

namespace lb::run {
namespace {

// A URL's query may hold a signature or token: only its scheme, host and path are written down.
std::string recorded_source(const plan::MediaRef& item) {
  return item.bytes ? item.source : item.source.substr(0, item.source.find_first_of("?#"));
}

std::string media_name(const plan::MediaRef& item) {
  std::string name(plan::media_kind_name(item.kind));
  return item.source.empty() ? name : name + " " + recorded_source(item);
}

// Why this wire cannot carry the item; empty when it can.
std::string wire_problem(const plan::MediaRef& item, MediaWire wire) {
  if (!item.bytes && item.url.empty()) return media_name(item) + " has neither bytes nor a URL";
  if (wire == MediaWire::DataUrl) return "";
  if (item.kind == plan::MediaKind::Video)
    return wire == MediaWire::BareBase64
               ? "Ollama's chat API takes images only, not " + media_name(item)
               : "the Responses API has no video input (" + media_name(item) + ")";
  if (wire == MediaWire::BareBase64 && !item.bytes)
    return "Ollama's chat API takes images as base64 only; " + media_name(item) + " is a URL";
  return "";
}

std::string limit_problem(const metrics::RequestMedia& record, int64_t max_media_bytes) {
  if (max_media_bytes <= 0 || record.bytes() <= max_media_bytes) return "";
  const metrics::MediaItemStats* largest = &record.items.front();
  for (const auto& item : record.items)
    if (item.bytes > largest->bytes) largest = &item;
  std::string name = largest->kind + (largest->source.empty() ? "" : " " + largest->source);
  return "media of " + std::to_string(record.bytes()) +
         " bytes exceed the lane's max_media_bytes (" + std::to_string(max_media_bytes) +
         "); the largest is " + name + " (" + std::to_string(largest->bytes) + " bytes)";
}

}  // namespace

metrics::MediaItemStats media_item_stats(const plan::MediaRef& item) {
  metrics::MediaItemStats s;
  s.kind = std::string(plan::media_kind_name(item.kind));
  s.mime = item.mime;
  s.by_url = !item.bytes;
  s.source = recorded_source(item);
  if (item.bytes) {
    s.bytes = static_cast<int64_t>(item.bytes->size());
    s.sha256 = net::sha256_hex(*item.bytes);
  }
  s.width_px = item.width_px;
  s.height_px = item.height_px;
  s.frames = item.frames;
  return s;
}

std::string wire_refusal(const std::vector<plan::MediaRef>& media, MediaWire wire) {
  for (const auto& item : media)
    if (std::string why = wire_problem(item, wire); !why.empty()) return why;
  return {};
}

EncodedMedia encode_media(const std::vector<plan::MediaRef>& media, MediaWire wire,
                          int64_t max_media_bytes) {
  EncodedMedia out;
  for (const auto& item : media) {
    out.record.items.push_back(media_item_stats(item));
    if (out.refused.empty()) out.refused = wire_problem(item, wire);
  }
  if (out.refused.empty()) out.refused = limit_problem(out.record, max_media_bytes);
  if (!out.refused.empty()) return out;
  for (const auto& item : media) {
    if (!item.bytes)
      out.payloads.push_back(item.url);
    else if (wire == MediaWire::BareBase64)
      out.payloads.push_back(net::base64_encode(*item.bytes));
    else
      out.payloads.push_back(net::data_url(item.mime, *item.bytes));
  }
  return out;
}

}  // namespace lb::run
