#include "core/metrics/summary_accumulator.h"

#include <algorithm>

#include "core/metrics/request_metrics.h"

namespace lb::metrics {
namespace {

constexpr double kAccumulatorNsPerS = 1e9;

bool meets_slo(const RequestMetrics& m, const SloSpec& slo) {
  if (slo.ttft_ms > 0 && (m.ttft_ms < 0 || m.ttft_ms > slo.ttft_ms)) return false;
  // TPOT is undefined for a single-token answer: the objective does not apply to it.
  if (slo.tpot_ms > 0 && m.tpot_ms >= 0 && m.tpot_ms > slo.tpot_ms) return false;
  if (slo.e2el_ms > 0 && (m.e2el_ms < 0 || m.e2el_ms > slo.e2el_ms)) return false;
  return true;
}

void add_usage(int64_t& total, int64_t v) {
  if (v >= 0) total = (total < 0 ? 0 : total) + v;
}

// Missing values (-1) are absent from a distribution, never a sample.
void add_if_known(FigureStatistics& stats, double v) {
  if (v >= 0) stats.insert(v);
}

// Timings are measured; anything divided by token counts inherits their provenance.
void assign_provenance(LaneSummary& out, Provenance input_tokens, Provenance output_tokens) {
  const Provenance derived =
      output_tokens == Provenance::Estimated ? Provenance::Estimated : Provenance::Measured;
  const Provenance total = input_tokens == Provenance::Estimated ? Provenance::Estimated : derived;
  out.provenance = {
      {"duration", Provenance::Measured},
      {"input_tokens", input_tokens},
      {"output_tokens", output_tokens},
      {"request_throughput", Provenance::Measured},
      {"output_throughput", derived},
      {"total_token_throughput", total},
      {"ttft", Provenance::Measured},
      {"ttft_sched", Provenance::Measured},
      {"e2el", Provenance::Measured},
      {"itl", Provenance::Measured},
      {"queue_delay", Provenance::Measured},
      {"tpot", derived},
      {"decode_tok_s", derived},
      {"tokens_per_event", out.tokens_per_event.count > 0 ? Provenance::Server : Provenance::None},
      {"request_goodput", out.slo.any() ? derived : Provenance::None},
      {"max_output_tokens_per_s", derived},
      {"max_concurrent_requests", Provenance::Measured},
      {"prefix_cache_hit_rate",
       out.prefix_cache_hit_rate >= 0 ? Provenance::Server : Provenance::None},
      {"spec_acceptance", out.spec_acceptance_rate >= 0 ? Provenance::Server : Provenance::None},
  };
}

}  // namespace

SummaryAccumulator::SummaryAccumulator(SloSpec slo, size_t event_sample, ValueStorage storage,
                                       size_t request_sample)
    : slo_(slo),
      ttft_(storage, request_sample),
      ttft_content_(storage, request_sample),
      ttft_sched_(storage, request_sample),
      tpot_(storage, request_sample),
      e2el_(storage, request_sample),
      e2el_sched_(storage, request_sample),
      queue_(storage, request_sample),
      decode_(storage, request_sample),
      itl_(storage, event_sample),
      tokens_per_event_(storage, event_sample) {}

void SummaryAccumulator::ProvenanceMix::add(Provenance p) {
  if (p == Provenance::None) return;
  if (result == Provenance::None) {
    result = p;
  } else if (p == Provenance::Estimated || result == Provenance::Estimated) {
    result = Provenance::Estimated;
  } else if (p != result) {
    result = Provenance::Measured;
  }
}

void SummaryAccumulator::UsageTotals::add(const RequestRecord& r, const RequestMetrics& m) {
  if (m.cached_tokens >= 0 && m.prompt_tokens_provenance == Provenance::Server) {
    add_usage(cached, m.cached_tokens);
    prompt_with_cached += m.prompt_tokens;
  }
  add_usage(drafts, r.result.spec.num_drafts);
  add_usage(draft_tokens, r.result.spec.num_draft_tokens);
  add_usage(accepted, r.result.spec.num_accepted_tokens);
}

void SummaryAccumulator::UsageTotals::write(LaneSummary& out) const {
  out.total_cached_tokens = cached;
  if (cached >= 0 && prompt_with_cached > 0)
    out.prefix_cache_hit_rate = double(cached) / double(prompt_with_cached);
  out.spec_num_drafts = drafts;
  out.spec_num_draft_tokens = draft_tokens;
  out.spec_num_accepted_tokens = accepted;
  if (accepted >= 0 && draft_tokens > 0)
    out.spec_acceptance_rate = double(accepted) / double(draft_tokens);
  if (accepted >= 0 && drafts > 0) out.spec_acceptance_length = 1.0 + double(accepted) / drafts;
}

void SummaryAccumulator::keep_common(std::string& field, const std::string& value) const {
  // The first measured request names the summary; a later one that differs clears the name.
  if (measured_ == 1) {
    field = value;
  } else if (field != value) {
    field.clear();
  }
}

void SummaryAccumulator::add(const RequestRecord& record) {
  add(record, compute_request_metrics(record));
}

void SummaryAccumulator::add(const RequestRecord& record, const RequestMetrics& m) {
  if (record.warmup) {
    ++warmups_;
    return;
  }
  ++measured_;
  keep_common(lane_id_, record.lane_id);
  keep_common(experiment_, record.experiment);
  keep_common(phase_, record.phase);
  const net::StreamResult& r = record.result;
  if (r.t_sent_ns > 0 && (first_sent_ns_ == 0 || r.t_sent_ns < first_sent_ns_))
    first_sent_ns_ = r.t_sent_ns;
  last_done_ns_ = std::max(last_done_ns_, r.t_done_ns);
  if (!m.ok) {
    ++failed_;
    ++errors_by_kind_[error_kind_key(r.error)];
    return;
  }
  add_completed(record, m);
}

void SummaryAccumulator::add_completed(const RequestRecord& record, const RequestMetrics& m) {
  ++completed_;
  if (m.prompt_tokens >= 0) input_tokens_ += m.prompt_tokens;
  if (m.output_tokens >= 0) output_tokens_ += m.output_tokens;
  input_provenance_.add(m.prompt_tokens_provenance);
  output_provenance_.add(m.output_tokens_provenance);
  if (slo_.any() && meets_slo(m, slo_)) ++good_;
  add_if_known(ttft_, m.ttft_ms);
  add_if_known(ttft_content_, m.ttft_content_ms);
  add_if_known(ttft_sched_, m.ttft_sched_ms);
  add_if_known(tpot_, m.tpot_ms);
  add_if_known(e2el_, m.e2el_ms);
  add_if_known(e2el_sched_, m.e2el_sched_ms);
  add_if_known(queue_, m.queue_delay_ms);
  add_if_known(decode_, m.decode_tok_s);
  for (double gap : m.itl_ms) itl_.insert(gap);
  for (int32_t tokens : m.tokens_per_event) tokens_per_event_.insert(tokens);
  coalesced_ += m.coalesced_events;
  usage_.add(record, m);
}

LaneSummary SummaryAccumulator::summary() const {
  LaneSummary out;
  out.slo = slo_;
  out.lane_id = lane_id_;
  out.experiment = experiment_;
  out.phase = phase_;
  out.completed = completed_;
  out.failed = failed_;
  out.warmups_excluded = warmups_;
  out.errors_by_kind = errors_by_kind_;
  out.duration_s = first_sent_ns_ > 0 && last_done_ns_ > first_sent_ns_
                       ? double(last_done_ns_ - first_sent_ns_) / kAccumulatorNsPerS
                       : 0.0;
  out.total_input_tokens = input_tokens_;
  out.total_output_tokens = output_tokens_;
  if (out.duration_s > 0) {
    out.request_throughput = double(completed_) / out.duration_s;
    out.output_throughput = double(output_tokens_) / out.duration_s;
    out.total_token_throughput = double(input_tokens_ + output_tokens_) / out.duration_s;
  }
  if (slo_.any()) {
    out.good_requests = good_;
    out.request_goodput = out.duration_s > 0 ? double(good_) / out.duration_s : 0.0;
  }
  out.ttft_ms = ttft_.describe();
  out.ttft_content_ms = ttft_content_.describe();
  out.ttft_sched_ms = ttft_sched_.describe();
  out.tpot_ms = tpot_.describe();
  out.itl_ms = itl_.describe();
  out.coalesced_events = coalesced_;
  if (itl_.size() > 0)
    out.coalesced_event_share = static_cast<double>(coalesced_) / static_cast<double>(itl_.size());
  out.e2el_ms = e2el_.describe();
  out.e2el_sched_ms = e2el_sched_.describe();
  out.queue_delay_ms = queue_.describe();
  out.decode_tok_s = decode_.describe();
  out.tokens_per_event = tokens_per_event_.describe();
  usage_.write(out);
  assign_provenance(out, input_provenance_.result, output_provenance_.result);
  if (itl_.estimated()) out.provenance["itl"] = Provenance::Estimated;
  const std::pair<const char*, const FigureStatistics*> per_request[] = {
      {"ttft", &ttft_},
      {"ttft_content", &ttft_content_},
      {"ttft_sched", &ttft_sched_},
      {"tpot", &tpot_},
      {"e2el", &e2el_},
      {"e2el_sched", &e2el_sched_},
      {"queue_delay", &queue_},
      {"decode_tok_s", &decode_}};
  for (const auto& [key, figure] : per_request)
    if (figure->estimated()) out.provenance[key] = Provenance::Estimated;
  if (tokens_per_event_.estimated()) out.provenance["tokens_per_event"] = Provenance::Estimated;
  return out;
}

std::string SummaryAccumulator::spool_fallback_reason() const {
  for (const FigureStatistics* f : {&ttft_, &ttft_content_, &ttft_sched_, &tpot_, &e2el_,
                                    &e2el_sched_, &queue_, &decode_, &itl_, &tokens_per_event_})
    if (std::string why = f->spool_fallback_reason(); !why.empty()) return why;
  return {};
}

}  // namespace lb::metrics
