#pragma once
// Shared helpers of the simulator's server tests: start a lane from a spec, read fixtures,
// parse SSE bodies, fetch /metrics values.
#include <QtTest>

#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/server.h"
#include "sim/sim_config.h"
#include "sim_http_client.h"
#include "test_paths.h"

namespace lb::sim::test {

inline std::unique_ptr<Server> start_server(const std::string& spec,
                                            std::function<void(SimConfig&)> tweak = nullptr,
                                            const EnvLookup& env = process_env_lookup) {
  auto parsed = parse_lane_spec(spec, env);
  if (!std::holds_alternative<SimConfig>(parsed)) return nullptr;
  SimConfig config = std::get<SimConfig>(parsed);
  if (tweak) tweak(config);
  auto server = std::make_unique<Server>(std::move(config));
  server->start(0);
  return server;
}

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(lb::test::fixtures_dir() + "/wire/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// JSON objects of the "data: {...}" lines of a fixture or body (ordered, to compare key order).
inline std::vector<nlohmann::ordered_json> data_objects(const std::string& text) {
  std::vector<nlohmann::ordered_json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("data: {", 0) != 0) continue;
    auto j = nlohmann::ordered_json::parse(line.substr(6), nullptr, false);
    if (!j.is_discarded()) out.push_back(j);
  }
  return out;
}

inline std::vector<std::string> keys(const nlohmann::ordered_json& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

inline std::string chat_body(const std::string& user,
                             nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json body = {{"messages", {{{"role", "user"}, {"content", user}}}}};
  for (auto& [k, v] : extra.items()) body[k] = v;
  return body.dump();
}

// The value of one Prometheus sample (exact name+labels prefix match), -1 when absent.
inline double metric_value(const std::string& text, const std::string& name_and_labels) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name_and_labels, 0) != 0) continue;
    const std::string rest = line.substr(name_and_labels.size());
    if (rest.empty() || (rest[0] != ' ' && rest[0] != '{')) continue;
    return std::stod(line.substr(line.rfind(' ') + 1));
  }
  return -1;
}

inline bool trace_has(std::mutex& mutex, const std::vector<TraceRecord>& trace,
                      const std::string& request_id, const std::string& kind) {
  std::lock_guard<std::mutex> lock(mutex);
  for (const auto& t : trace) {
    if (t.request_id == request_id && t.kind == kind) return true;
  }
  return false;
}

}  // namespace lb::sim::test
