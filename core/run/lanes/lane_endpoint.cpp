#include "core/run/lanes/lane_endpoint.h"

namespace lb::run {
namespace {
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
}  // namespace

std::string LaneEndpoint::api_url(std::string_view path) const {
  return api_base + std::string(path);
}

std::string LaneEndpoint::root_url(std::string_view path) const {
  return server_root + std::string(path);
}

net::HttpRequest LaneEndpoint::make_request(std::string url, std::string method) const {
  net::HttpRequest req;
  req.url = std::move(url);
  req.method = std::move(method);
  req.headers = auth_headers;
  req.tls = tls;
  req.http_version = http_version;
  // Over plain http "Auto" can only mean HTTP/1.1, and asking for it outright keeps libcurl from
  // holding new requests back to wait for a multiplexing answer (PIPEWAIT), which would delay
  // open-loop sends behind slow responses.
  if (http_version == net::HttpVersion::Auto && req.url.rfind("http://", 0) == 0)
    req.http_version = net::HttpVersion::Http1_1;
  return req;
}

LaneEndpoint endpoint_from_base_url(std::string id, std::string_view base_url) {
  std::string base(base_url);
  while (!base.empty() && base.back() == '/') base.pop_back();
  LaneEndpoint lane;
  lane.id = std::move(id);
  if (ends_with(base, "/v1")) {
    lane.api_base = base;
    lane.server_root = base.substr(0, base.size() - 3);
  } else {
    lane.api_base = base + "/v1";
    lane.server_root = base;
  }
  return lane;
}

void set_api_key(LaneEndpoint& lane, const std::string& key) {
  if (key.empty()) return;
  lane.auth_headers.emplace_back("Authorization", "Bearer " + key);
}

std::string api_key_of(const LaneEndpoint& lane) {
  constexpr std::string_view kBearer = "Bearer ";
  for (const auto& [name, value] : lane.auth_headers)
    if (name == "Authorization" && value.rfind(kBearer, 0) == 0)
      return value.substr(kBearer.size());
  return {};
}

}  // namespace lb::run
