#include "core/net/data_url.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>
#include <cctype>

namespace lb::net {
namespace {

bool is_mime_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '.' || c == '+' || c == '-' || c == '_';
}

bool is_payload_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '+' || c == '/' || c == '=' || c == '-' || c == '_' || c == '%';
}

// The data: URL starting at `at` ("data:" already matched): [mime_end, payload_begin, end).
struct UrlSpan {
  size_t mime_end = 0;
  size_t payload_begin = 0;
  size_t end = 0;
};

std::optional<UrlSpan> data_url_at(std::string_view text, size_t at) {
  size_t i = at + 5;
  const size_t type_begin = i;
  while (i < text.size() && is_mime_char(text[i])) ++i;
  if (i == type_begin || i >= text.size() || text[i] != '/') return std::nullopt;
  ++i;
  const size_t subtype_begin = i;
  while (i < text.size() && is_mime_char(text[i])) ++i;
  if (i == subtype_begin) return std::nullopt;
  UrlSpan span;
  span.mime_end = i;
  // Parameters (";base64", ";charset=utf-8") up to the comma that starts the payload.
  while (i < text.size() && text[i] == ';') {
    ++i;
    while (i < text.size() && (is_mime_char(text[i]) || text[i] == '=')) ++i;
  }
  if (i >= text.size() || text[i] != ',') return std::nullopt;
  span.payload_begin = ++i;
  while (i < text.size() && is_payload_char(text[i])) ++i;
  // An empty payload carries nothing, and is what a redacted URL leaves ("base64,[redacted...").
  if (i == span.payload_begin) return std::nullopt;
  span.end = i;
  return span;
}

std::string redacted_payload(std::string_view payload) {
  if (auto bytes = base64_decode(payload))
    return "[redacted: " + std::to_string(bytes->size()) + " bytes, sha256 " + sha256_hex(*bytes) +
           "]";
  return "[redacted: " + std::to_string(payload.size()) + " characters, sha256 " +
         sha256_hex(payload) + "]";
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '+' && c != '/' && c != '=') return std::nullopt;
  }
  std::string out(text.size() / 4 * 3 + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return std::nullopt;
  size_t size = static_cast<size_t>(n);
  // EVP_DecodeBlock counts padding as zero bytes.
  for (size_t i = text.size(); i > 0 && text[i - 1] == '=' && size > 0; --i) --size;
  out.resize(size);
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest.data(), &length, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out += hex[digest[i] >> 4];
    out += hex[digest[i] & 0xf];
  }
  return out;
}

std::string data_url(std::string_view mime, std::string_view bytes) {
  std::string out = "data:";
  out.append(mime);
  out += ";base64,";
  out += base64_encode(bytes);
  return out;
}

bool contains_data_url(std::string_view text) {
  for (size_t at = text.find("data:"); at != std::string_view::npos;
       at = text.find("data:", at + 5))
    if (data_url_at(text, at)) return true;
  return false;
}

std::string redact_data_urls(std::string text) {
  if (text.find("data:") == std::string::npos) return text;
  std::string out;
  size_t copied = 0;
  for (size_t at = text.find("data:"); at != std::string::npos;) {
    const auto span = data_url_at(text, at);
    if (!span) {
      at = text.find("data:", at + 5);
      continue;
    }
    out.append(text, copied, span->mime_end - copied);
    out += ";base64,";
    out += redacted_payload(
        std::string_view(text).substr(span->payload_begin, span->end - span->payload_begin));
    copied = span->end;
    at = text.find("data:", span->end);
  }
  out.append(text, copied, std::string::npos);
  return out;
}

}  // namespace lb::net
