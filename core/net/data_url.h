#pragma once
// data: URLs carry a request's images and videos inline (base64). They can be megabytes long, and
// a server's error message may quote one back, so no data: URL is ever written down: text that
// reaches a log, a record or a report has each one replaced by its size and SHA-256.
#include <optional>
#include <string>
#include <string_view>

namespace lb::net {

std::string base64_encode(std::string_view bytes);
// nullopt when `text` is not standard, padded base64.
std::optional<std::string> base64_decode(std::string_view text);
std::string sha256_hex(std::string_view bytes);  // lowercase, 64 characters

// "data:MIME;base64,PAYLOAD"
std::string data_url(std::string_view mime, std::string_view bytes);

// Each data: URL in `text` ("data:type/subtype[;params],payload") replaced by
// "data:type/subtype;base64,[redacted: N bytes, sha256 HEX]" (the decoded bytes' size and hash,
// which match the media's record in requests.jsonl), or, when the payload is cut short or not
// base64, "[redacted: N characters, sha256 HEX]" of the payload text.
std::string redact_data_urls(std::string text);
bool contains_data_url(std::string_view text);

}  // namespace lb::net
