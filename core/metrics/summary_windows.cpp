#include "core/metrics/summary_windows.h"

#include <algorithm>

#include "core/metrics/steady_state.h"

namespace lb::metrics {

void PeakWindow::add(int64_t arrival_ns, double tokens) {
  constexpr int64_t kNsPerS = 1'000'000'000;
  const int64_t offset_ns = std::max<int64_t>(0, arrival_ns - t0_ns_);
  const auto bin = static_cast<size_t>(offset_ns / kNsPerS);
  if (bins_.size() <= bin) bins_.resize(bin + 1, 0.0);
  bins_[bin] += tokens;
}

double PeakWindow::peak() const {
  return bins_.empty() ? 0.0 : *std::max_element(bins_.begin(), bins_.end());
}

int64_t max_overlap(const std::vector<RequestRow>& rows) {
  int64_t now = 0;
  int64_t peak = 0;
  for (const auto& [t, d] : in_flight_steps(rows)) {
    now += d;
    peak = std::max(peak, now);
  }
  return peak;
}

void keep_samples(const RequestRow& row, RequestSamples& out) {
  auto keep = [](std::vector<double>& to, double v) {
    if (v >= 0) to.push_back(v);
  };
  keep(out.ttft_ms, row.ttft_ms);
  keep(out.tpot_ms, row.tpot_ms);
  keep(out.e2el_ms, row.e2el_ms);
  keep(out.decode_tok_s, row.decode_tok_s);
}

}  // namespace lb::metrics
