#pragma once
// Where a lane's API key may travel. A key goes as a Bearer header to the lane's base_url, so
// over plain http anyone on the path reads it. A key is sent over http only to a loopback host
// (127.0.0.0/8, ::1, localhost), or when the lane says "allow_key_over_http": true; the run then
// records it and the report's caveats say so.
#include <string>
#include <string_view>

#include "core/plan/plan.h"

namespace lb::plan {

// The host of an http(s) URL, without brackets, port or credentials; "" when there is none.
std::string url_host(std::string_view url);
// Host names compare without case: "GPU.example.com" is "gpu.example.com".
std::string lowercase_host(std::string_view host);
bool is_loopback_host(std::string_view host);

// True when the lane's key would cross the network unencrypted: plain http to a host other than
// loopback (simulator lanes never do).
bool key_goes_over_plain_http(const Lane& lane);
// Empty when the lane's key may be sent; otherwise why not and what to do (no lane prefix).
std::string key_transport_refusal(const Lane& lane);

}  // namespace lb::plan
