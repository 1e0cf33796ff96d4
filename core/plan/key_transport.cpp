#include "core/plan/key_transport.h"

namespace lb::plan {

std::string url_host(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) rest.remove_prefix(at + 1);
  if (!rest.empty() && rest.front() == '[') {
    const size_t close = rest.find(']');
    return close == std::string_view::npos ? std::string() : std::string(rest.substr(1, close - 1));
  }
  return std::string(rest.substr(0, rest.find(':')));
}

std::string lowercase_host(std::string_view host) {
  std::string lower(host);
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower;
}

bool is_loopback_host(std::string_view host) {
  const std::string lower = lowercase_host(host);
  if (lower == "localhost" || lower == "::1" || lower == "0:0:0:0:0:0:0:1") return true;
  // 127.0.0.0/8 written as a dotted quad.
  if (lower.rfind("127.", 0) != 0) return false;
  int dots = 0;
  for (char c : lower) {
    if (c == '.')
      ++dots;
    else if (c < '0' || c > '9')
      return false;
  }
  return dots == 3;
}

bool key_goes_over_plain_http(const Lane& lane) {
  if (lane.is_sim() || lane.base_url.rfind("http://", 0) != 0) return false;
  return !is_loopback_host(url_host(lane.base_url));
}

std::string key_transport_refusal(const Lane& lane) {
  if (lane.api_key_env.empty() || lane.allow_key_over_http || !key_goes_over_plain_http(lane))
    return {};
  return "its API key would go over plain http to " + url_host(lane.base_url) +
         ", where anyone on the network path can read it; use https, or set "
         "\"allow_key_over_http\": true on the lane if that network is yours";
}

}  // namespace lb::plan
