#include "core/report/request_digest.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/report/run_folder.h"

namespace lb::report {
namespace {

// A positive double's exponent and top mantissa bits, which grow with it: its bin number.
constexpr int kDropBits = 52 - GapHistogram::kMantissaBits;
constexpr uint64_t kFirstKey = std::bit_cast<uint64_t>(GapHistogram::kMinMs) >> kDropBits;
constexpr uint64_t kEndKey = std::bit_cast<uint64_t>(GapHistogram::kMaxMs) >> kDropBits;
constexpr size_t kBins = kEndKey - kFirstKey;

// The middle of bin I: its key with the first dropped bit set.
double middle_of(size_t i) {
  return std::bit_cast<double>(((kFirstKey + i) << kDropBits) | (uint64_t{1} << (kDropBits - 1)));
}

}  // namespace

size_t GapHistogram::bin_of(double gap_ms) {
  if (!(gap_ms > kMinMs)) return 0;
  if (gap_ms >= kMaxMs) return kBins - 1;
  return static_cast<size_t>((std::bit_cast<uint64_t>(gap_ms) >> kDropBits) - kFirstKey);
}

void GapHistogram::add(double gap_ms) {
  if (std::isnan(gap_ms)) return;
  if (bins_.empty()) bins_.assign(kBins, 0);
  ++bins_[bin_of(gap_ms)];
  min_ms_ = count_ == 0 ? gap_ms : std::min(min_ms_, gap_ms);
  max_ms_ = count_ == 0 ? gap_ms : std::max(max_ms_, gap_ms);
  ++count_;
}

void GapHistogram::merge(const GapHistogram& other) {
  if (other.count_ == 0) return;
  if (bins_.empty()) bins_.assign(kBins, 0);
  for (size_t i = 0; i < kBins; ++i) bins_[i] += other.bins_[i];
  min_ms_ = count_ == 0 ? other.min_ms_ : std::min(min_ms_, other.min_ms_);
  max_ms_ = count_ == 0 ? other.max_ms_ : std::max(max_ms_, other.max_ms_);
  count_ += other.count_;
}

double GapHistogram::at_rank(int64_t k) const {
  if (count_ == 0) return NAN;
  if (k <= 0) return min_ms_;
  if (k >= count_ - 1) return max_ms_;
  int64_t seen = 0;
  for (size_t i = 0; i < kBins; ++i) {
    seen += bins_[i];
    if (seen > k) return std::clamp(middle_of(i), min_ms_, max_ms_);
  }
  return max_ms_;
}

void RequestDigest::add_block(const std::vector<RequestPoint>& points) {
  for (const RequestPoint& r : points) {
    if (r.warmup) continue;
    if (!r.ok) {
      ++failed_[r.lane];
      continue;
    }
    if (r.output_tokens_provenance == "estimated") ++estimated_[r.lane];
    if (r.event_offsets_ns.size() > 1) {
      GapHistogram& h = gaps_[{r.lane, r.experiment}];
      for (double gap : r.itl_ms()) h.add(gap);
    }
    if (r.ttft_ms >= 0 && r.media_images + r.media_videos > 0)
      media_[r.lane].push_back(
          {static_cast<double>(r.media_pixels) / 1e6, r.media_images, r.ttft_ms});
  }
}

GapHistogram RequestDigest::gaps(const std::string& lane,
                                 const std::set<std::string>& experiments) const {
  GapHistogram out;
  for (const auto& [key, h] : gaps_)
    if (key.first == lane && experiments.count(key.second)) out.merge(h);
  return out;
}

}  // namespace lb::report
