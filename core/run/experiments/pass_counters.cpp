#include "core/run/experiments/pass_counters.h"

#include "core/metrics/prometheus_text.h"

namespace lb::run {

PassCounters::PassCounters(ExperimentContext& ctx, const LaneRuntime& lane)
    : ctx_(ctx), lane_(lane), before_(scrape()) {}

std::optional<metrics::ServerCounters> PassCounters::scrape() {
  if (!lane_.probe.metrics_available) return std::nullopt;
  std::string text;
  if (!LaneProbe(ctx_.client()).scrape_metrics(lane_.endpoint, text)) return std::nullopt;
  return metrics::extract_server_counters(metrics::parse_prometheus_text(text));
}

std::optional<metrics::CounterDelta> PassCounters::finish() {
  if (!before_) return std::nullopt;
  auto after = scrape();
  if (!after) return std::nullopt;
  return metrics::delta(*before_, *after);
}

nlohmann::json labelled(const nlohmann::json& value, metrics::Provenance provenance) {
  return {{"value", value}, {"provenance", metrics::to_string(provenance)}};
}

LoadPhase lane_phase(const ExperimentContext& ctx, const LaneRuntime& lane, std::string phase) {
  LoadPhase p;
  p.experiment = ctx.spec().name_or_kind();
  p.phase = std::move(phase);
  p.lane = &lane.endpoint;
  p.url = lane.endpoint.api_url("/chat/completions");
  p.concurrency = 1;
  return p;
}

nlohmann::json kv_capacity_json(const LaneRuntime& lane) {
  if (lane.probe.metrics_text.empty()) return nullptr;
  const auto counters =
      metrics::extract_server_counters(metrics::parse_prometheus_text(lane.probe.metrics_text));
  if (!counters.kv_capacity_tokens) return nullptr;
  nlohmann::json j = {{"tokens", *counters.kv_capacity_tokens}, {"provenance", "server"}};
  if (!counters.cache_dtype.empty()) j["cache_dtype"] = counters.cache_dtype;
  const int64_t max_len = lane.probe.max_context_tokens();
  if (auto windows = metrics::kv_windows(counters, max_len)) {
    j["full_context_windows"] = *windows;
    j["max_model_len"] = max_len;
  }
  return j;
}

uint64_t name_seed(const std::string& name, uint64_t seed) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
  return seed ^ h;
}

}  // namespace lb::run
