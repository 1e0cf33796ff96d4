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

LoadPhase lane_phase(const ExperimentContext& ctx, const LaneRuntime& lane, std::string phase) {
  LoadPhase p;
  p.experiment = ctx.spec().name_or_kind();
  p.phase = std::move(phase);
  p.lane = &lane.endpoint;
  p.url = lane.endpoint.api_url("/chat/completions");
  p.concurrency = 1;
  return p;
}

std::optional<record::KvCapacityRecord> kv_capacity(const LaneRuntime& lane) {
  if (lane.probe.metrics_text.empty()) return std::nullopt;
  const auto counters =
      metrics::extract_server_counters(metrics::parse_prometheus_text(lane.probe.metrics_text));
  if (!counters.kv_capacity_tokens) return std::nullopt;
  record::KvCapacityRecord kv;
  kv.tokens = static_cast<double>(*counters.kv_capacity_tokens);
  kv.provenance = metrics::to_string(metrics::Provenance::Server);
  kv.cache_dtype = counters.cache_dtype;
  const int64_t max_len = lane.probe.max_context_tokens();
  if (auto windows = metrics::kv_windows(counters, max_len)) {
    kv.full_context_windows = *windows;
    kv.max_model_len = static_cast<double>(max_len);
  }
  return kv;
}

uint64_t name_seed(const std::string& name, uint64_t seed) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : name) h = (h ^ ch) * 1099511628211ULL;
  return seed ^ h;
}

}  // namespace lb::run
