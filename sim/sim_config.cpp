#include "sim_config.h"

#include <charconv>
#include <cstdlib>

namespace lb::sim {
namespace {

bool to_double(std::string_view v, double& out, double min_value) {
  try {
    size_t used = 0;
    out = std::stod(std::string(v), &used);
    return used == v.size() && out >= min_value;
  } catch (...) {
    return false;
  }
}

template <typename T>
bool to_int(std::string_view v, T& out) {
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && ptr == v.data() + v.size();
}

std::string invalid(std::string_view key, std::string_view value) {
  return "invalid value \"" + std::string(value) + "\" for option \"" + std::string(key) + "\"";
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The key comes from the environment so that specs, command lines and traces never hold it.
std::string read_api_key(std::string_view env_name, const EnvLookup& env, std::string& key) {
  std::optional<std::string> value;
  if (!env_name.empty()) value = env(env_name);
  if (!value || value->empty()) {
    return "option \"api_key_env\": environment variable \"" + std::string(env_name) +
           "\" is not set or empty";
  }
  key = std::move(*value);
  return {};
}

}  // namespace

const char* to_string(FaultKind kind) {
  switch (kind) {
    case FaultKind::None:
      return "none";
    case FaultKind::RateLimit:
      return "429";
    case FaultKind::ServerError:
      return "500";
    case FaultKind::MidstreamError:
      return "midstream_error";
    case FaultKind::Drop:
      return "drop";
    case FaultKind::Stall:
      return "stall";
    case FaultKind::Malformed:
      return "malformed";
    case FaultKind::SlowFirstByte:
      return "slow_first_byte";
  }
  return "none";
}

const char* to_string(ServeAs api) { return api == ServeAs::Ollama ? "ollama" : "vllm"; }

bool parse_fault_kind(std::string_view name, FaultKind& out) {
  for (FaultKind k :
       {FaultKind::None, FaultKind::RateLimit, FaultKind::ServerError, FaultKind::MidstreamError,
        FaultKind::Drop, FaultKind::Stall, FaultKind::Malformed, FaultKind::SlowFirstByte}) {
    if (name == to_string(k)) return out = k, true;
  }
  return false;
}

std::optional<std::string> process_env_lookup(std::string_view name) {
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::string apply_sim_option(SimConfig& c, std::string_view key, std::string_view value,
                             const EnvLookup& env) {
  FaultConfig& f = c.faults;
  double d = 0;
  if (key == "api") {
    if (value != "vllm" && value != "ollama") return invalid(key, value) + " (one of vllm, ollama)";
    c.api = value == "ollama" ? ServeAs::Ollama : ServeAs::Vllm;
    return {};
  }
  if (key == "time_scale")
    return to_double(value, d, 1e-6) ? (c.time_scale = d, "") : invalid(key, value);
  if (key == "flip_facts") {
    if (value != "0" && value != "1") return invalid(key, value);
    c.flip_facts = value == "1";
    return {};
  }
  if (key == "refuse_logprobs") {
    if (value != "0" && value != "1") return invalid(key, value);
    c.refuse_logprobs = value == "1";
    return {};
  }
  if (key == "refuse_echo" || key == "refuse_prompt_logprobs") {
    if (value != "0" && value != "1") return invalid(key, value);
    (key == "refuse_echo" ? c.refuse_echo : c.refuse_prompt_logprobs) = value == "1";
    return {};
  }
  if (key == "token_id_offset")
    return to_int(value, c.token_id_offset) && c.token_id_offset >= 0 &&
                   c.token_id_offset <= 1'000'000'000'000
               ? ""
               : invalid(key, value);
  if (key == "seed") return to_int(value, c.seed) ? "" : invalid(key, value);
  if (key == "batch_variance")
    return to_double(value, d, 0) && d <= 1 ? (c.batch_variance = d, "") : invalid(key, value);
  if (key == "cache_variance")
    return to_double(value, d, 0) && d <= 1 ? (c.cache_variance = d, "") : invalid(key, value);
  if (key == "run_jitter")
    return to_double(value, d, 0) && d <= 1 ? (c.run_jitter = d, "") : invalid(key, value);
  if (key == "retrieval_window_tokens") {
    return to_int(value, c.retrieval_window_tokens) && c.retrieval_window_tokens >= 0
               ? ""
               : invalid(key, value);
  }
  if (key == "image_fetch_timeout_s" || key == "video_fetch_timeout_s") {
    if (!to_double(value, d, 0.001)) return invalid(key, value);
    (key == "image_fetch_timeout_s" ? c.media_fetch.image_timeout_s
                                    : c.media_fetch.video_timeout_s) = d;
    return {};
  }
  if (key == "max_media_download_mb") {
    if (!to_double(value, d, 0)) return invalid(key, value);
    c.media_fetch.max_download_mb = d;
    return {};
  }
  if (key == "media_ca_file")
    return value.empty() ? invalid(key, value) : (c.media_fetch.ca_file = value, "");
  if (key == "trace") return value.empty() ? invalid(key, value) : (c.trace_path = value, "");
  if (key == "api_key_env") return read_api_key(value, env, c.api_key);
  if (key == "fault") return parse_fault_kind(value, f.kind) ? "" : invalid(key, value);
  if (key == "fault_rate") {
    return to_double(value, d, 0) && d <= 1 ? (f.rate = d, "") : invalid(key, value);
  }
  if (key == "error_rate") {
    return to_double(value, d, 0) && d <= 1 ? (f.error_rate = d, "") : invalid(key, value);
  }
  if (key == "retry_after_s")
    return to_double(value, d, 0) ? (f.retry_after_s = d, "") : invalid(key, value);
  if (key == "stall_ms") return to_double(value, d, 0) ? (f.stall_ms = d, "") : invalid(key, value);
  if (key == "slow_first_byte_ms") {
    return to_double(value, d, 0) ? (f.slow_first_byte_ms = d, "") : invalid(key, value);
  }
  if (key == "fault_after_events") {
    return to_int(value, f.after_events) && f.after_events >= 0 ? "" : invalid(key, value);
  }
  std::string err = apply_option(c.profile, key, value);
  if (err.rfind("unknown option", 0) == 0) {
    std::vector<std::string> names = sim_option_names();
    return err + " (known: " + join_names(names) + ")";
  }
  return err;
}

std::vector<std::string> sim_option_names() {
  std::vector<std::string> names = {"api",
                                    "time_scale",
                                    "flip_facts",
                                    "refuse_logprobs",
                                    "refuse_echo",
                                    "refuse_prompt_logprobs",
                                    "token_id_offset",
                                    "seed",
                                    "run_jitter",
                                    "batch_variance",
                                    "cache_variance",
                                    "retrieval_window_tokens",
                                    "trace",
                                    "image_fetch_timeout_s",
                                    "video_fetch_timeout_s",
                                    "max_media_download_mb",
                                    "media_ca_file",
                                    "api_key_env",
                                    "fault",
                                    "fault_rate",
                                    "error_rate",
                                    "retry_after_s",
                                    "stall_ms",
                                    "slow_first_byte_ms",
                                    "fault_after_events"};
  for (auto& n : profile_option_names()) names.push_back(n);
  return names;
}

std::variant<SimConfig, std::string> parse_lane_spec(std::string_view spec, const EnvLookup& env) {
  const size_t q = spec.find('?');
  const std::string_view name = spec.substr(0, q);
  auto profile = builtin_profile(name);
  if (!profile) {
    return "unknown simulator profile \"" + std::string(name) +
           "\" (known: " + join_names(profile_names()) + ")";
  }
  SimConfig config;
  config.profile = *profile;
  if (q == std::string_view::npos) return config;
  std::string_view rest = spec.substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      return "option \"" + std::string(pair) + "\" in \"" + std::string(spec) +
             "\" needs a value (key=value)";
    }
    std::string err = apply_sim_option(config, pair.substr(0, eq), pair.substr(eq + 1), env);
    if (!err.empty()) return err;
  }
  return config;
}

}  // namespace lb::sim
