#pragma once
// Where a lane's requests go and what they carry. Built from the plan's base_url; the API key
// header lives here in memory only and is never serialised.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/net/http_types.h"

namespace lb::run {

struct LaneEndpoint {
  std::string id;
  std::string api_base;     // ".../v1" (OpenAI routes hang off it)
  std::string server_root;  // api_base without "/v1" (/version, /health, /metrics live here)
  std::string model;        // resolved model id ("auto" is replaced after probing)
  std::vector<std::pair<std::string, std::string>> auth_headers;  // secret: memory only
  net::TlsOptions tls;
  net::HttpVersion http_version = net::HttpVersion::Auto;

  std::string api_url(std::string_view path) const;   // api_url("/chat/completions")
  std::string root_url(std::string_view path) const;  // root_url("/metrics")
  // A request with the lane's headers, TLS options and URL filled in.
  net::HttpRequest make_request(std::string url, std::string method = "POST") const;
};

// "http://h:8000/v1/" and "http://h:8000" both give api_base "http://h:8000/v1".
LaneEndpoint endpoint_from_base_url(std::string id, std::string_view base_url);

// Adds "Authorization: Bearer <key>" when key is non-empty.
void set_api_key(LaneEndpoint& lane, const std::string& key);
// The key set_api_key added; empty when the lane has none.
std::string api_key_of(const LaneEndpoint& lane);

}  // namespace lb::run
