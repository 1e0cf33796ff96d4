#include "ui/workspace/lane_json.h"

#include "core/plan/api_key_source.h"

namespace lb::ui {

void fill_sim_fields(plan::Lane& lane) {
  lane.sim_profile.clear();
  lane.sim_options.clear();
  const std::string prefix = "sim:";
  if (lane.base_url.rfind(prefix, 0) != 0) return;
  const std::string spec = lane.base_url.substr(prefix.size());
  const size_t q = spec.find('?');
  lane.sim_profile = spec.substr(0, q);
  if (q == std::string::npos) return;
  std::string rest = spec.substr(q + 1);
  size_t pos = 0;
  while (pos <= rest.size()) {
    const size_t amp = std::min(rest.find('&', pos), rest.size());
    const std::string kv = rest.substr(pos, amp - pos);
    const size_t eq = kv.find('=');
    if (!kv.empty())
      lane.sim_options[kv.substr(0, eq)] = eq == std::string::npos ? "" : kv.substr(eq + 1);
    pos = amp + 1;
  }
}

nlohmann::json lane_to_json(const plan::Lane& lane) {
  return plan::lane_to_json(lane, plan::SecretEnvValues::KeyringReferencesOnly);
}

bool lane_from_json(const nlohmann::json& value, plan::Lane* lane, std::string* error) {
  if (!value.is_object()) {
    *error = "a lane must be an object";
    return false;
  }
  auto text = [&](const nlohmann::json& obj, const char* key) -> std::string {
    auto it = obj.find(key);
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  plan::Lane out;
  out.id = text(value, "id");
  out.base_url = text(value, "base_url");
  if (out.id.empty() || out.base_url.empty()) {
    *error = out.id.empty() ? "a lane is missing \"id\""
                            : "lane \"" + out.id + "\" is missing \"base_url\"";
    return false;
  }
  const std::string model = text(value, "model");
  out.model = model.empty() ? "auto" : model;
  out.api_key_env = text(value, "api_key_env");
  if (auto it = value.find("allow_key_over_http"); it != value.end() && it->is_boolean())
    out.allow_key_over_http = it->get<bool>();
  if (auto it = value.find("notes"); it != value.end() && it->is_object()) {
    out.notes.weights = text(*it, "weights");
    out.notes.kv_cache = text(*it, "kv_cache");
    out.notes.spec = text(*it, "spec");
    out.notes.engine_version = text(*it, "engine_version");
    out.notes.text = text(*it, "text");
    if (auto pc = it->find("prefix_caching"); pc != it->end() && pc->is_boolean())
      out.notes.prefix_caching = pc->get<bool>();
  }
  out.ca_bundle = text(value, "ca_bundle");
  if (auto it = value.find("insecure"); it != value.end() && it->is_boolean())
    out.insecure = it->get<bool>();
  if (auto it = value.find("max_media_bytes"); it != value.end() && it->is_number_integer())
    out.max_media_bytes = it->get<int64_t>();
  if (auto it = value.find("cost_per_hour");
      it != value.end() && it->is_number() && it->get<double>() > 0)
    out.cost_per_hour = it->get<double>();
  if (auto it = value.find("energy"); it != value.end() && it->is_object()) {
    plan::EnergySource energy;
    energy.metrics_url = text(*it, "metrics_url");
    if (auto gpus = it->find("gpus"); gpus != it->end() && gpus->is_array())
      for (const auto& gpu : *gpus)
        if (gpu.is_string()) energy.gpus.push_back(gpu.get<std::string>());
    if (!energy.metrics_url.empty()) out.energy = std::move(energy);
  }
  const std::string http = text(value, "http_version");
  if (http == "1.1") out.http_version = net::HttpVersion::Http1_1;
  if (http == "2") out.http_version = net::HttpVersion::Http2;
  fill_sim_fields(out);
  if (const auto errors = plan::read_lane_launch(value, out); !errors.empty()) {
    *error = "lane \"" + out.id + "\": " + errors.front().path + ": " + errors.front().message;
    return false;
  }
  *lane = std::move(out);
  return true;
}

}  // namespace lb::ui
