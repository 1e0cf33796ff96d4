// A lane's "launch" block: the server command LaneBench starts and stops (plan/launch_spec.h).
#include <cctype>

#include "core/plan/plan_validation.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

bool is_env_name(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool is_http_url(const std::string& url) {
  return (url.rfind("http://", 0) == 0 && url.size() > 7) ||
         (url.rfind("https://", 0) == 0 && url.size() > 8);
}

void read_command(const json& launch, ObjectReader& r, LaunchSpec& out) {
  r.allow("command");
  const auto it = launch.find("command");
  if (it == launch.end()) {
    r.error("command", "is required: the server's argument list, e.g. [\"vllm\", \"serve\", ...]");
    return;
  }
  if (it->is_string()) {
    r.error("command",
            "must be an argument list such as [\"vllm\", \"serve\", \"MODEL\", \"--port\", "
            "\"{port}\"], not a string: LaneBench runs the command without a shell");
    return;
  }
  if (!it->is_array() || it->empty()) {
    r.error("command", "must be a non-empty list of strings (the program, then its arguments)");
    return;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const json& arg = (*it)[i];
    if (!arg.is_string()) {
      r.error("command", "argument " + std::to_string(i) + " must be a string");
      return;
    }
    out.command.push_back(arg.get<std::string>());
  }
  if (out.command.front().empty()) r.error("command", "names no program (first argument empty)");
}

void read_env(ObjectReader& r, LaunchSpec& out, ErrorList& errors) {
  const json* env = r.member("env", json::value_t::object);
  if (env == nullptr) return;
  for (const auto& [name, value] : env->items()) {
    const std::string path = key_path(key_path(r.path(), "env"), name);
    if (!is_env_name(name))
      errors.add(path, "'" + name + "' is not an environment variable name");
    else if (!value.is_string())
      errors.add(path, "must be a string");
    else
      out.env[name] = value.get<std::string>();
  }
}

void read_ready(ObjectReader& r, LaunchSpec& out, ErrorList& errors) {
  const json* ready = r.member("ready", json::value_t::object, true);
  if (ready == nullptr) return;
  ObjectReader rr(*ready, key_path(r.path(), "ready"), errors);
  if (rr.string("url", out.ready_url, true) && !is_http_url(out.ready_url))
    rr.error("url", "'" + out.ready_url + "' must be an http:// or https:// URL");
  rr.number("timeout_s", out.ready_timeout_s, 0, 86'400, true);
  rr.finish();
}

void read_stop(ObjectReader& r, LaunchSpec& out, ErrorList& errors) {
  const json* stop = r.member("stop", json::value_t::object);
  if (stop == nullptr) return;
  ObjectReader sr(*stop, key_path(r.path(), "stop"), errors);
  if (sr.string("signal", out.stop_signal) && stop_signal_number(out.stop_signal) == 0)
    sr.error("signal", "'" + out.stop_signal +
                           "' must be SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1 or SIGUSR2");
  sr.number("grace_s", out.stop_grace_s, 0, 3'600, false);
  sr.finish();
}

}  // namespace

void read_launch(ObjectReader& lane_reader, Lane& lane, ErrorList& errors) {
  const json* v = lane_reader.member("launch", json::value_t::object);
  if (v == nullptr) {
    if (lane.base_url.find(kPortPlaceholder) != std::string::npos)
      lane_reader.error("base_url", "uses {port}, which only a lane with a launch block can");
    return;
  }
  ObjectReader r(*v, key_path(lane_reader.path(), "launch"), errors);
  LaunchSpec launch;
  read_command(*v, r, launch);
  read_env(r, launch, errors);
  read_ready(r, launch, errors);
  read_stop(r, launch, errors);
  r.boolean("log", launch.log);
  r.finish();
  if (lane.base_url.rfind("sim:", 0) == 0)
    lane_reader.error("launch", "a sim: lane runs in process and takes no launch block");
  lane.launch = std::move(launch);
}

}  // namespace lb::plan::detail

namespace lb::plan {

std::vector<PlanError> read_lane_launch(const nlohmann::json& lane_json, Lane& lane) {
  detail::ErrorList errors;
  detail::ObjectReader reader(lane_json, "", errors);
  lane.launch.reset();
  if (reader.is_object()) detail::read_launch(reader, lane, errors);
  return errors.errors();
}

}  // namespace lb::plan
