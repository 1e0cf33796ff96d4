#pragma once
// Bootstrap confidence intervals of one sample's statistic (mean, median, any percentile) and of
// the ratio of two independent samples' statistics, with a verdict on the ratio.
//
// Reproducible: a fixed seed drives a generator defined here (xoshiro256**, normal and gamma
// variates by fixed algorithms), so the same values, statistic and options give the same interval
// with any standard library; only the math library's last-bit rounding of log, exp and erfc could
// tell two platforms apart.
//
// Percentiles are resampled exactly and in constant time per resample: the k-th smallest of n
// values drawn with replacement from the sorted sample is sorted[floor(n * U_(k))], where U_(k),
// the k-th smallest of n uniforms, follows Beta(k, n - k + 1); the next order statistic follows
// from U_(k) and the minimum of the n - k uniforms above it. Means draw n indices per resample.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace lb::metrics {

struct BootstrapStatistic {
  enum class Kind { Mean, Percentile };
  Kind kind = Kind::Percentile;
  double q = 50;  // percentile in [0, 100] (numpy's linear interpolation); unused for Mean

  static BootstrapStatistic mean() { return {Kind::Mean, 0}; }
  static BootstrapStatistic median() { return {Kind::Percentile, 50}; }
  static BootstrapStatistic percentile(double q) { return {Kind::Percentile, q}; }
};

// BCa: bias-corrected and accelerated (acceleration from the jackknife); Percentile: the
// replicates' quantiles as they are.
enum class BootstrapMethod { Bca, Percentile };
const char* to_string(BootstrapMethod method);  // "bca", "percentile"

constexpr uint64_t kDefaultBootstrapSeed = 0x1b5eedb0075eedULL;
constexpr int kDefaultBootstrapResamples = 2000;
constexpr double kDefaultConfidenceLevel = 0.95;

struct BootstrapOptions {
  int resamples = kDefaultBootstrapResamples;
  double level = kDefaultConfidenceLevel;  // two-sided, in (0, 1)
  uint64_t seed = kDefaultBootstrapSeed;
  BootstrapMethod method = BootstrapMethod::Bca;
};

struct BootstrapInterval {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double estimate = kNaN;  // the statistic of the sample itself
  double lo = kNaN, hi = kNaN;
  double level = kDefaultConfidenceLevel;
  BootstrapMethod method = BootstrapMethod::Bca;
  int resamples = 0;
  size_t n = 0;
  // With fewer than bootstrap_min_values() values, lo and hi are NaN.
  bool valid() const { return lo == lo && hi == hi; }
};

// The fewest values an interval of the statistic needs: two, and for a percentile q at least one
// value expected beyond it on each side, n >= 100 / min(q, 100 - q) (100 for p99). With fewer,
// no resample can reach past the sample's extreme, and the interval would look narrower than the
// uncertainty is. The minimum and maximum (q = 0 or 100) never get one.
size_t bootstrap_min_values(BootstrapStatistic statistic);

// The interval of the statistic over `values` (any order). NaN values are not allowed.
BootstrapInterval bootstrap_interval(std::vector<double> values, BootstrapStatistic statistic,
                                     const BootstrapOptions& options = {});

// The statistic of each of `resamples` resamples of `values`, in draw order (for error bars and
// histograms, and to check the resampling itself).
std::vector<double> bootstrap_replicates(std::vector<double> values, BootstrapStatistic statistic,
                                         int resamples = kDefaultBootstrapResamples,
                                         uint64_t seed = kDefaultBootstrapSeed);

// candidate statistic / baseline statistic, each sample resampled independently (two streams
// from the seed), replicate b of the ratio being replicate b of the candidate over replicate b of
// the baseline. BCa's acceleration comes from the two-sample jackknife.
struct RatioInterval {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double ratio = kNaN;
  double lo = kNaN, hi = kNaN;
  double level = kDefaultConfidenceLevel;
  BootstrapMethod method = BootstrapMethod::Bca;
  int resamples = 0;
  size_t n_baseline = 0, n_candidate = 0;
  // Needs bootstrap_min_values() on each side and a positive baseline statistic in every
  // replicate; otherwise lo and hi are NaN (the ratio itself is set when both sides have values).
  bool valid() const { return lo == lo && hi == hi; }
};

RatioInterval bootstrap_ratio(std::vector<double> baseline, std::vector<double> candidate,
                              BootstrapStatistic statistic, const BootstrapOptions& options = {});

// Which way a figure improves: decode tok/s is better higher, latencies lower.
enum class Better { Higher, Lower };

// faster / slower when the ratio's interval lies wholly on one side of 1 (read through `better`),
// within noise when it contains 1; Unknown when the interval is not valid.
enum class Verdict { Faster, Slower, WithinNoise, Unknown };
const char* to_string(Verdict verdict);  // "faster", "slower", "within noise", "n/a"
Verdict verdict_of(const RatioInterval& ratio, Better better);

// When the verdict is within noise: about how many values per side would make the interval clear
// 1 if the observed ratio held. The half of the interval between the ratio and 1 (in log space)
// shrinks as 1 / sqrt(n), so n grows by (half-width / |log ratio|)^2, applied to the larger side.
// -1 when the interval is not valid or the ratio is exactly 1 (no difference to resolve); 0 when
// the interval already clears 1.
int64_t samples_needed(const RatioInterval& ratio);

}  // namespace lb::metrics
