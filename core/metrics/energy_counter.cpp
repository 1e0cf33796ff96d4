#include "core/metrics/energy_counter.h"

#include <algorithm>
#include <cmath>

namespace lb::metrics {
namespace {

// A GPU's identity across hosts: its UUID, else its host and index (a Prometheus server's
// /federate holds gpu="0" once per node).
std::string gpu_key(const PromSample& sample) {
  if (const std::string* uuid = sample.label("UUID")) return *uuid;
  const std::string* gpu = sample.label("gpu");
  const std::string* host = sample.label("Hostname");
  if (!host) host = sample.label("instance");
  return (host ? *host + ":" : std::string()) + (gpu ? *gpu : std::string());
}

bool named(const PromSample& sample, const std::vector<std::string>& gpus) {
  if (gpus.empty()) return true;
  const std::string* gpu = sample.label("gpu");
  const std::string* uuid = sample.label("UUID");
  return std::any_of(gpus.begin(), gpus.end(), [&](const std::string& id) {
    return (gpu && *gpu == id) || (uuid && *uuid == id);
  });
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

EnergyReading read_dcgm_energy(const PrometheusSnapshot& snapshot,
                               const std::vector<std::string>& gpus, std::string& why) {
  EnergyReading reading;
  const auto samples = snapshot.find(kDcgmEnergyCounter);
  if (samples.empty()) {
    why = std::string("no ") + kDcgmEnergyCounter + " samples";
    return reading;
  }
  for (const PromSample* s : samples) {
    if (!named(*s, gpus) || !std::isfinite(s->value) || s->value < 0) continue;
    // Prometheus' /federate can hold one GPU several times (per scrape job): the first counts.
    reading.millijoules_by_gpu.emplace(gpu_key(*s), s->value);
    if (s->timestamp_ms)
      reading.sampled_ms = std::max(reading.sampled_ms.value_or(INT64_MIN), *s->timestamp_ms);
  }
  for (const std::string& id : gpus) {
    const bool found = std::any_of(samples.begin(), samples.end(), [&](const PromSample* s) {
      const std::string* gpu = s->label("gpu");
      const std::string* uuid = s->label("UUID");
      return (gpu && *gpu == id) || (uuid && *uuid == id);
    });
    if (!found) {
      why = "GPU \"" + id + "\" has no " + kDcgmEnergyCounter + " sample";
      reading.millijoules_by_gpu.clear();
      return reading;
    }
  }
  if (reading.millijoules_by_gpu.empty()) why = "no usable energy sample";
  return reading;
}

PhaseEnergy energy_between(const EnergyReading& before, const EnergyReading& after,
                           int64_t output_tokens) {
  PhaseEnergy e;
  e.output_tokens = output_tokens;
  e.window_s = static_cast<double>(after.taken_ns - before.taken_ns) / 1e9;
  for (const auto& [gpu, mj] : before.millijoules_by_gpu) e.gpus.push_back(gpu);
  if (before.millijoules_by_gpu.size() != after.millijoules_by_gpu.size()) {
    e.refused = "the GPUs reported changed between the readings";
    return e;
  }
  double mj_total = 0;
  for (const auto& [gpu, mj_before] : before.millijoules_by_gpu) {
    const auto it = after.millijoules_by_gpu.find(gpu);
    if (it == after.millijoules_by_gpu.end()) {
      e.refused = "GPU \"" + gpu + "\" was missing from the second reading";
      return e;
    }
    if (it->second < mj_before) {
      e.refused = "the counter of GPU \"" + gpu + "\" went down (" + number_text(mj_before) +
                  " to " + number_text(it->second) +
                  " mJ): it was reset between the readings, and no total spans a reset";
      return e;
    }
    mj_total += it->second - mj_before;
  }
  // An exporter serves the value it last collected (dcgm-exporter every 30 s by default), and a
  // Prometheus server the one it last scraped: with sample timestamps the window is theirs.
  if (before.sampled_ms && after.sampled_ms) {
    e.window_s = static_cast<double>(*after.sampled_ms - *before.sampled_ms) / 1000.0;
    e.window_from = "the samples' timestamps";
    if (e.window_s <= 0) {
      e.refused =
          "the counter's samples were not refreshed between the readings (the phase "
          "was shorter than the exporter's collection or scrape interval)";
      return e;
    }
  }
  if (e.window_s <= 0) {
    e.refused = "the readings span no time";
    return e;
  }
  if (mj_total == 0 && output_tokens > 0) {
    e.refused =
        "the counter did not move while the phase produced tokens (the exporter "
        "refreshes it less often than the phase lasted: dcgm-exporter collects every "
        "30 s by default)";
    return e;
  }
  e.joules = mj_total / 1000.0;
  return e;
}

PhaseEnergy pooled_energy(const std::vector<PhaseEnergy>& trials) {
  PhaseEnergy out;
  for (const PhaseEnergy& t : trials) {
    if (out.source.empty()) out.source = t.source;
    if (out.gpus.empty()) out.gpus = t.gpus;
    if (&t == &trials.front()) out.window_from = t.window_from;
    if (!t.unsupported.empty()) out.unsupported = t.unsupported;
    if (!t.refused.empty() && out.refused.empty()) out.refused = t.refused;
    out.joules += t.joules;
    out.window_s += t.window_s;
    out.output_tokens += t.output_tokens;
  }
  if (trials.empty()) out.unsupported = "no trial ran";
  return out;
}

nlohmann::json to_json(const PhaseEnergy& e) {
  nlohmann::json j = {{"source", e.source}};
  if (!e.unsupported.empty()) {
    j["unsupported"] = e.unsupported;
    return j;
  }
  if (!e.refused.empty()) {
    j["refused"] = e.refused;
    return j;
  }
  const auto ratio = [](double a, double b) {
    return b > 0 && std::isfinite(a / b) ? nlohmann::json(a / b) : nlohmann::json(nullptr);
  };
  const double tokens = static_cast<double>(e.output_tokens);
  j.update({{"counter", kDcgmEnergyCounter},
            {"gpus", e.gpus},
            {"window_s", e.window_s},
            {"window_from", e.window_from},
            {"joules", e.joules},
            {"output_tokens", e.output_tokens},
            {"joules_per_output_token", ratio(e.joules, tokens)},
            {"output_tokens_per_joule", ratio(tokens, e.joules)},
            {"mean_watts", ratio(e.joules, e.window_s)},
            {"provenance", "server"}});
  return j;
}

}  // namespace lb::metrics
