// Lanes of a plan: ids, endpoints (http(s) or sim:PROFILE), TLS and key settings, notes.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "core/plan/api_key_source.h"
#include "core/plan/plan_validation.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

// Lane ids name files in the run folder (texts/<lane>.texts.json), so they stay path-safe.
bool is_valid_lane_id(const std::string& id) {
  if (id.empty() || id.size() > 64 || id == "." || id == "..") {
    return false;
  }
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

bool is_valid_env_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      return false;
    }
  }
  return true;
}

// A URL as it may be echoed in a message: user:password@ (a secret) becomes ***@.
std::string without_credentials(const std::string& url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return url;
  const size_t authority_start = scheme_end + 3;
  const size_t authority_end = std::min(url.find_first_of("/?#", authority_start), url.size());
  const size_t at = url.rfind('@', authority_end - 1);
  if (at == std::string::npos || at < authority_start) return url;
  return url.substr(0, authority_start) + "***" + url.substr(at);
}

std::string check_http_url(const std::string& url) {
  const size_t scheme_end = url.find("://");
  const std::string rest = url.substr(scheme_end + 3);
  const size_t path_start = rest.find('/');
  const std::string authority = rest.substr(0, path_start);
  if (authority.find('@') != std::string::npos) {
    return "must not contain credentials (user:password@); name an environment variable in "
           "'api_key_env' instead";
  }
  std::string host = authority;
  std::string port;
  if (!authority.empty() && authority[0] == '[') {  // IPv6 literal
    const size_t close = authority.find(']');
    if (close == std::string::npos) {
      return "has an unterminated IPv6 address";
    }
    host = authority.substr(0, close + 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') {
        return "has text after the IPv6 address";
      }
      port = authority.substr(close + 2);
    }
  } else if (const size_t colon = authority.rfind(':'); colon != std::string::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty() || host == "[]") {
    return "has no host";
  }
  if (authority.find_first_of(" \t\r\n") != std::string::npos) {
    return "contains whitespace";
  }
  if (!port.empty() || authority.back() == ':') {
    int value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535) {
      return "has an invalid port '" + port + "' (1-65535)";
    }
  }
  return {};
}

// "sim:PROFILE[?key=value&...]"
std::string check_sim_url(Lane& lane) {
  const std::string spec = lane.base_url.substr(4);
  const size_t q = spec.find('?');
  const std::string profile = spec.substr(0, q);
  if (profile.empty()) {
    return "names no simulator profile (e.g. 'sim:fp8')";
  }
  for (char c : profile) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '+' &&
        c != '.') {
      return "has an invalid simulator profile '" + profile + "'";
    }
  }
  std::map<std::string, std::string> options;
  if (q != std::string::npos) {
    const std::string query = spec.substr(q + 1);
    size_t start = 0;
    while (start <= query.size()) {
      const size_t amp = std::min(query.find('&', start), query.size());
      const std::string item = query.substr(start, amp - start);
      const size_t eq = item.find('=');
      if (item.empty() || eq == 0 || eq == std::string::npos || eq + 1 == item.size()) {
        return "has a malformed simulator option '" + item + "' (expected key=value)";
      }
      options[item.substr(0, eq)] = item.substr(eq + 1);
      start = amp + 1;
    }
  }
  if (const auto it = options.find("time_scale"); it != options.end()) {
    double v = 0;
    const auto& s = it->second;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !(v > 0)) {
      return "has an invalid time_scale '" + s + "' (a number > 0)";
    }
  }
  lane.sim_profile = profile;
  lane.sim_options = std::move(options);
  return {};
}

void read_notes(ObjectReader& lane_reader, LaneNotes& notes, ErrorList& errors) {
  const json* v = lane_reader.member("notes", json::value_t::object);
  if (v == nullptr) {
    return;
  }
  ObjectReader r(*v, key_path(lane_reader.path(), "notes"), errors);
  r.string("weights", notes.weights);
  r.string("kv_cache", notes.kv_cache);
  r.string("spec", notes.spec);
  bool prefix = false;
  if (r.boolean("prefix_caching", prefix)) {
    notes.prefix_caching = prefix;
  }
  r.string("engine_version", notes.engine_version);
  r.string("text", notes.text);
  r.finish();
}

void read_energy(ObjectReader& lane_reader, Lane& lane, ErrorList& errors) {
  const json* v = lane_reader.member("energy", json::value_t::object);
  if (v == nullptr) return;
  ObjectReader r(*v, key_path(lane_reader.path(), "energy"), errors);
  EnergySource source;
  if (r.string("metrics_url", source.metrics_url, true) && source.metrics_url != kEnergyFromLane) {
    const std::string& url = source.metrics_url;
    const bool http = url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0;
    const std::string problem =
        http ? check_http_url(url) : "must be \"lane\" or start with http:// or https://";
    if (!problem.empty()) r.error("metrics_url", "'" + without_credentials(url) + "' " + problem);
  }
  if (r.string_list("gpus", source.gpus)) {
    if (source.gpus.size() > 1024) r.error("gpus", "names more than 1024 GPUs");
    for (const std::string& gpu : source.gpus)
      if (gpu.empty() || gpu.size() > 128) r.error("gpus", "holds an empty or overlong GPU id");
  }
  r.finish();
  lane.energy = std::move(source);
}

void read_http_version(ObjectReader& r, Lane& lane) {
  std::string text;
  if (!r.string("http_version", text)) {
    return;
  }
  if (text == "1.1") {
    lane.http_version = net::HttpVersion::Http1_1;
  } else if (text == "2") {
    lane.http_version = net::HttpVersion::Http2;
  } else if (text == "auto") {
    lane.http_version = net::HttpVersion::Auto;
  } else {
    r.error("http_version", "must be \"1.1\", \"2\" or \"auto\" (got \"" + text + "\")");
  }
}

// api_key_env names an environment variable or, as "keyring:<lane-id>", the lane's own key in
// the OS keyring.
void check_api_key_source(ObjectReader& r, const std::string& source, const std::string& lane_id) {
  if (source.rfind("keyring:", 0) == 0) {
    const auto key_lane = keyring_lane_of(source);
    if (!key_lane || !is_valid_lane_id(*key_lane))
      r.error("api_key_env", "'" + source + "' must be keyring:<lane-id> with a valid lane id");
    else if (!lane_id.empty() && *key_lane != lane_id)
      r.error("api_key_env", "'" + source +
                                 "' names another lane's key; a lane reads only its "
                                 "own (keyring:" +
                                 lane_id + ")");
    return;
  }
  if (!is_valid_env_name(source))
    r.error("api_key_env",
            "'" + source + "' is not an environment variable name (or keyring:<lane-id>)");
}

Lane read_lane(const json& value, const std::string& path, ErrorList& errors) {
  Lane lane;
  ObjectReader r(value, path, errors);
  if (!r.is_object()) {
    return lane;
  }
  if (r.string("id", lane.id, true) && !is_valid_lane_id(lane.id)) {
    r.error("id", "'" + lane.id + "' must be 1-64 letters, digits, '-', '_' or '.'");
  }
  if (r.string("base_url", lane.base_url, true)) {
    // "{port}" (a port LaneBench picks for a launched server) is checked as a real port.
    Lane checked = lane;
    checked.base_url = with_port(lane.base_url, 8000);
    const std::string problem = check_base_url(checked);
    lane.sim_profile = std::move(checked.sim_profile);
    lane.sim_options = std::move(checked.sim_options);
    if (!problem.empty()) {
      r.error("base_url", "'" + without_credentials(lane.base_url) + "' " + problem);
    }
  }
  if (r.string("model", lane.model) && lane.model.empty()) {
    r.error("model", "must not be empty (use \"auto\" for the server's first model)");
  }
  if (r.string("api_key_env", lane.api_key_env)) check_api_key_source(r, lane.api_key_env, lane.id);
  if (r.has("api_key")) {
    r.allow("api_key");  // reported here, with advice, and the value never echoed
    r.error("api_key",
            "API keys are not accepted in plan files; put the key in an environment variable "
            "and name it in 'api_key_env'");
  }
  r.string("ca_bundle", lane.ca_bundle);
  r.boolean("insecure", lane.insecure);
  r.boolean("allow_key_over_http", lane.allow_key_over_http);
  r.integer("max_media_bytes", lane.max_media_bytes, {0, int64_t{1} << 40});
  r.number("cost_per_hour", lane.cost_per_hour, 0, 1e7, true);
  read_http_version(r, lane);
  read_energy(r, lane, errors);
  read_notes(r, lane.notes, errors);
  read_launch(r, lane, errors);
  r.finish();
  return lane;
}

}  // namespace

std::string check_base_url(Lane& lane) {
  const std::string& url = lane.base_url;
  if (url.rfind("sim:", 0) == 0) {
    return check_sim_url(lane);
  }
  if (url.rfind("http://", 0) == 0 || url.rfind("https://", 0) == 0) {
    return check_http_url(url);
  }
  return "must start with http://, https:// or sim:";
}

std::vector<Lane> read_lanes(const json& lanes, ErrorList& errors) {
  std::vector<Lane> out;
  if (!lanes.is_array()) {
    errors.add("lanes", "must be an array of lanes");
    return out;
  }
  if (lanes.empty()) {
    errors.add("lanes", "must name at least one lane");
  }
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < lanes.size(); ++i) {
    const std::string path = index_path("lanes", i);
    Lane lane = read_lane(lanes[i], path, errors);
    if (!lane.id.empty()) {
      const auto [it, inserted] = seen.emplace(lane.id, i);
      if (!inserted) {
        errors.add(key_path(path, "id"), "duplicate lane id '" + lane.id + "' (also lanes[" +
                                             std::to_string(it->second) + "])");
      }
    }
    out.push_back(std::move(lane));
  }
  return out;
}

}  // namespace lb::plan::detail
