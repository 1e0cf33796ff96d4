// The reverse of metrics::to_json(LaneSummary): a phase object of summary.json back into the
// struct it was written from.
#include <cmath>
#include <set>

#include "core/record/run_summary.h"

namespace lb::record {
namespace {

using nlohmann::json;

// The keys metrics::to_json writes for every LaneSummary, whatever its values.
const std::set<std::string>& lane_summary_keys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> out;
    const json written = metrics::to_json(metrics::LaneSummary{});
    for (auto it = written.begin(); it != written.end(); ++it) out.insert(it.key());
    return out;
  }();
  return keys;
}

class PhaseFields {
 public:
  PhaseFields(const json& phase, std::string_view path, FileFields& f)
      : phase_(phase), path_(path), f_(f) {}
  // null (a figure that could not be measured) and absence read as FALLBACK.
  double number(const char* key, double fallback) {
    return f_.number(phase_, path_, key, fallback);
  }
  int64_t count(const char* key, int64_t fallback) {
    return static_cast<int64_t>(f_.number(phase_, path_, key, static_cast<double>(fallback)));
  }
  std::string text(const char* key) { return f_.string(phase_, path_, key); }
  metrics::Distribution distribution(const std::string& stem, const std::string& unit) {
    const std::string tail = "_" + stem + (unit.empty() ? "" : "_" + unit);
    metrics::Distribution d;
    d.mean = number(("mean" + tail).c_str(), NAN);
    d.median = number(("median" + tail).c_str(), NAN);
    d.std = number(("std" + tail).c_str(), NAN);
    d.p50 = number(("p50" + tail).c_str(), NAN);
    d.p90 = number(("p90" + tail).c_str(), NAN);
    d.p95 = number(("p95" + tail).c_str(), NAN);
    d.p99 = number(("p99" + tail).c_str(), NAN);
    d.min = d.max = NAN;  // not written
    d.count = static_cast<size_t>(std::max<int64_t>(0, count(("count" + tail).c_str(), 0)));
    return d;
  }
  const json& object(const char* key) { return f_.object(phase_, path_, key); }
  std::string at(const char* key) const {
    return path_.empty() ? key : std::string(path_) + "." + key;
  }
  FileFields& fields() { return f_; }

 private:
  const json& phase_;
  std::string_view path_;
  FileFields& f_;
};

metrics::Provenance provenance_from(const std::string& text) {
  for (metrics::Provenance p : {metrics::Provenance::Measured, metrics::Provenance::Server,
                                metrics::Provenance::Estimated, metrics::Provenance::None})
    if (text == metrics::to_string(p)) return p;
  return metrics::Provenance::None;
}

void read_maps(PhaseFields& in, metrics::LaneSummary& s) {
  const json& errors = in.object("errors");
  for (const auto& [kind, n] : errors.items())
    if (n.is_number_integer())
      s.errors_by_kind[kind] = n.get<int64_t>();
    else
      in.fields().note(in.at("errors") + "." + kind, "is not a whole number");
  const json& provenance = in.object("provenance");
  for (const auto& [key, p] : provenance.items())
    if (p.is_string())
      s.provenance[key] = provenance_from(p.get<std::string>());
    else
      in.fields().note(in.at("provenance") + "." + key, "is not a string");
  const json& slo = in.object("slo");
  s.slo.ttft_ms = in.fields().number(slo, in.at("slo"), "ttft_ms", -1);
  s.slo.tpot_ms = in.fields().number(slo, in.at("slo"), "tpot_ms", -1);
  s.slo.e2el_ms = in.fields().number(slo, in.at("slo"), "e2el_ms", -1);
}

}  // namespace

metrics::LaneSummary read_lane_summary(const json& phase, std::string_view path, FileFields& f,
                                       json* rest) {
  metrics::LaneSummary s;
  PhaseFields in(phase, path, f);
  s.lane_id = in.text("lane");
  s.experiment = in.text("experiment");
  s.phase = in.text("phase");
  s.completed = in.count("completed", 0);
  s.failed = in.count("failed", 0);
  s.warmups_excluded = in.count("warmups_excluded", 0);
  s.duration_s = in.number("duration", 0);
  s.total_input_tokens = in.count("total_input_tokens", 0);
  s.total_output_tokens = in.count("total_output_tokens", 0);
  s.request_throughput = in.number("request_throughput", 0);
  s.request_goodput = in.number("request_goodput", -1);
  s.good_requests = in.count("good_requests", -1);
  s.output_throughput = in.number("output_throughput", 0);
  s.total_token_throughput = in.number("total_token_throughput", 0);
  s.max_output_tokens_per_s = in.number("max_output_tokens_per_s", 0);
  s.max_concurrent_requests = in.count("max_concurrent_requests", 0);
  s.ttft_ms = in.distribution("ttft", "ms");
  s.ttft_content_ms = in.distribution("ttft_content", "ms");
  s.tpot_ms = in.distribution("tpot", "ms");
  s.itl_ms = in.distribution("itl", "ms");
  s.coalesced_events = in.count("coalesced_events", 0);
  s.coalesced_event_share = in.number("coalesced_event_share", -1);
  s.e2el_ms = in.distribution("e2el", "ms");
  s.queue_delay_ms = in.distribution("queue_delay", "ms");
  s.ttft_sched_ms = in.distribution("ttft_sched", "ms");
  s.e2el_sched_ms = in.distribution("e2el_sched", "ms");
  s.decode_tok_s = in.distribution("decode", "tok_s");
  s.total_cached_tokens = in.count("total_cached_tokens", -1);
  s.prefix_cache_hit_rate = in.number("prefix_cache_hit_rate", -1);
  s.spec_num_drafts = in.count("spec_num_drafts", -1);
  s.spec_num_draft_tokens = in.count("spec_num_draft_tokens", -1);
  s.spec_num_accepted_tokens = in.count("spec_num_accepted_tokens", -1);
  s.spec_acceptance_rate = in.number("spec_acceptance_rate", -1);
  s.spec_acceptance_length = in.number("spec_acceptance_length", -1);
  s.tokens_per_event = in.distribution("tokens_per_event", "");
  read_maps(in, s);
  if (rest) {
    *rest = json::object();
    if (phase.is_object())
      for (const auto& [key, value] : phase.items())
        if (!lane_summary_keys().count(key)) (*rest)[key] = value;
  }
  return s;
}

}  // namespace lb::record
