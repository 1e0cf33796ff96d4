#include "core/metrics/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "core/metrics/bootstrap_random.h"
#include "core/metrics/percentile.h"

namespace lb::metrics {
namespace {

constexpr double kBootstrapNaN = std::numeric_limits<double>::quiet_NaN();

// The sample in the form its statistic needs: sorted for a percentile, as given for a mean.
struct PreparedSample {
  std::vector<double> values;
  BootstrapStatistic statistic;
  PercentileIndex at;  // percentile only
  double sum = 0;      // mean only
  double estimate = kBootstrapNaN;
};

PreparedSample prepare(std::vector<double> values, BootstrapStatistic statistic) {
  PreparedSample s;
  s.values = std::move(values);
  s.statistic = statistic;
  if (s.values.empty()) return s;
  if (statistic.kind == BootstrapStatistic::Kind::Percentile) {
    std::sort(s.values.begin(), s.values.end());
    s.at = percentile_index(s.values.size(), statistic.q);
    s.estimate = interpolate_percentile(s.values[s.at.lo], s.values[s.at.hi], s.at.gamma);
  } else {
    for (double v : s.values) s.sum += v;
    s.estimate = s.sum / double(s.values.size());
  }
  return s;
}

// Percentile q of n values drawn with replacement from `sorted`, without drawing them: the
// resample's k-th smallest is sorted[floor(n * U_(k))] with U_(k) ~ Beta(k, n - k + 1), and given
// U_(k) = u the (k+1)-th is u plus (1 - u) times the minimum of n - k uniforms.
double resampled_percentile(const PreparedSample& s, BootstrapRng& rng) {
  const size_t n = s.values.size();
  const double n_d = double(n);
  const double k = double(s.at.lo + 1);  // 1-based rank of the lower neighbour
  const double u = rng.beta(k, n_d - k + 1);
  const size_t i_lo = std::min(n - 1, size_t(u * n_d));
  if (s.at.hi == s.at.lo || s.at.gamma == 0) return s.values[i_lo];
  const double min_above = -std::expm1(std::log(rng.uniform_nonzero()) / (n_d - k));
  const size_t i_hi = std::min(n - 1, size_t((u + (1 - u) * min_above) * n_d));
  return interpolate_percentile(s.values[i_lo], s.values[i_hi], s.at.gamma);
}

double resampled_mean(const PreparedSample& s, BootstrapRng& rng) {
  const size_t n = s.values.size();
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += s.values[rng.index(n)];
  return sum / double(n);
}

std::vector<double> replicates(const PreparedSample& s, int resamples, BootstrapRng& rng) {
  std::vector<double> out(static_cast<size_t>(resamples));
  const bool percentile = s.statistic.kind == BootstrapStatistic::Kind::Percentile;
  for (double& r : out) r = percentile ? resampled_percentile(s, rng) : resampled_mean(s, rng);
  return out;
}

// The statistic with each value left out in turn. For a percentile of sorted values, leaving out
// the i-th shifts every rank at or above i up by one, so each is O(1).
std::vector<double> jackknife(const PreparedSample& s) {
  const size_t n = s.values.size();
  std::vector<double> out(n);
  if (s.statistic.kind == BootstrapStatistic::Kind::Mean) {
    for (size_t i = 0; i < n; ++i) out[i] = (s.sum - s.values[i]) / double(n - 1);
    return out;
  }
  const PercentileIndex at = percentile_index(n - 1, s.statistic.q);
  for (size_t i = 0; i < n; ++i) {
    const double lo = s.values[at.lo < i ? at.lo : at.lo + 1];
    const double hi = s.values[at.hi < i ? at.hi : at.hi + 1];
    out[i] = interpolate_percentile(lo, hi, at.gamma);
  }
  return out;
}

// BCa's acceleration from leave-one-out statistics of one or more independent samples (Efron and
// Tibshirani, An Introduction to the Bootstrap, 14.3 and its two-sample form): with
// U_i = (n - 1)(mean - theta_(i)) per sample, a = sum U^3 / n^3 / (6 (sum U^2 / n^2)^1.5).
double acceleration(const std::vector<const std::vector<double>*>& groups) {
  double num = 0, den = 0;
  for (const std::vector<double>* g : groups) {
    const double n = double(g->size());
    double mean = 0;
    for (double t : *g) mean += t;
    mean /= n;
    for (double t : *g) {
      const double u = (n - 1) * (mean - t);
      num += u * u * u / (n * n * n);
      den += u * u / (n * n);
    }
  }
  return den > 0 ? num / (6 * std::pow(den, 1.5)) : 0.0;
}

// The replicates' quantile where BCa moves the nominal tail probability `tail`.
double bca_tail(double tail, double z0, double accel) {
  const double z = z0 + normal_quantile(tail);
  const double denom = 1 - accel * z;
  if (denom <= 0) return z > 0 ? 1.0 : 0.0;
  return normal_cdf(z0 + z / denom);
}

// lo and hi from the replicates (sorted here). BCa's bias correction counts replicates equal to
// the estimate as half below it: a resampled median often lands exactly on the sample's.
std::pair<double, double> interval_of(std::vector<double>& reps, double estimate, double accel,
                                      const BootstrapOptions& o) {
  std::sort(reps.begin(), reps.end());
  const double alpha = (1 - o.level) / 2;
  double p_lo = alpha, p_hi = 1 - alpha;
  if (o.method == BootstrapMethod::Bca) {
    const double b = double(reps.size());
    const auto below = std::lower_bound(reps.begin(), reps.end(), estimate) - reps.begin();
    const auto upto = std::upper_bound(reps.begin(), reps.end(), estimate) - reps.begin();
    const double share =
        std::clamp((double(below) + 0.5 * double(upto - below)) / b, 0.5 / b, 1 - 0.5 / b);
    const double z0 = normal_quantile(share);
    p_lo = bca_tail(alpha, z0, accel);
    p_hi = bca_tail(1 - alpha, z0, accel);
  }
  return {percentile_sorted(reps, 100 * p_lo), percentile_sorted(reps, 100 * p_hi)};
}

BootstrapOptions checked(BootstrapOptions o) {
  o.resamples = std::max(o.resamples, 1);
  if (!(o.level > 0 && o.level < 1)) o.level = kDefaultConfidenceLevel;
  return o;
}

// A second, independent stream for the candidate side of a ratio.
uint64_t candidate_seed(uint64_t seed) { return seed ^ 0x6a09e667f3bcc909ULL; }

}  // namespace

size_t bootstrap_min_values(BootstrapStatistic statistic) {
  if (statistic.kind == BootstrapStatistic::Kind::Mean) return 2;
  const double tail = std::min(statistic.q, 100 - statistic.q);
  if (!(tail > 0)) return std::numeric_limits<size_t>::max();
  return std::max<size_t>(2, static_cast<size_t>(std::ceil(100 / tail - 1e-9)));
}

const char* to_string(BootstrapMethod method) {
  return method == BootstrapMethod::Bca ? "bca" : "percentile";
}

std::vector<double> bootstrap_replicates(std::vector<double> values, BootstrapStatistic statistic,
                                         int resamples, uint64_t seed) {
  const PreparedSample s = prepare(std::move(values), statistic);
  if (s.values.empty()) return {};
  BootstrapRng rng(seed);
  return replicates(s, std::max(resamples, 1), rng);
}

BootstrapInterval bootstrap_interval(std::vector<double> values, BootstrapStatistic statistic,
                                     const BootstrapOptions& options) {
  const BootstrapOptions o = checked(options);
  const PreparedSample s = prepare(std::move(values), statistic);
  BootstrapInterval out;
  out.estimate = s.estimate;
  out.level = o.level;
  out.method = o.method;
  out.n = s.values.size();
  if (s.values.size() < bootstrap_min_values(statistic)) return out;
  BootstrapRng rng(o.seed);
  std::vector<double> reps = replicates(s, o.resamples, rng);
  double accel = 0;
  if (o.method == BootstrapMethod::Bca) {
    const std::vector<double> jack = jackknife(s);
    accel = acceleration({&jack});
  }
  std::tie(out.lo, out.hi) = interval_of(reps, s.estimate, accel, o);
  out.resamples = o.resamples;
  return out;
}

RatioInterval bootstrap_ratio(std::vector<double> baseline, std::vector<double> candidate,
                              BootstrapStatistic statistic, const BootstrapOptions& options) {
  const BootstrapOptions o = checked(options);
  const PreparedSample a = prepare(std::move(baseline), statistic);
  const PreparedSample b = prepare(std::move(candidate), statistic);
  RatioInterval out;
  out.level = o.level;
  out.method = o.method;
  out.n_baseline = a.values.size();
  out.n_candidate = b.values.size();
  if (a.values.empty() || b.values.empty() || !(a.estimate > 0)) return out;
  out.ratio = b.estimate / a.estimate;
  const size_t min_values = bootstrap_min_values(statistic);
  if (a.values.size() < min_values || b.values.size() < min_values) return out;
  BootstrapRng rng_a(o.seed), rng_b(candidate_seed(o.seed));
  std::vector<double> reps = replicates(a, o.resamples, rng_a);
  const std::vector<double> reps_b = replicates(b, o.resamples, rng_b);
  for (size_t i = 0; i < reps.size(); ++i) {
    if (!(reps[i] > 0)) return out;  // a replicate with a zero baseline has no ratio
    reps[i] = reps_b[i] / reps[i];
  }
  double accel = 0;
  if (o.method == BootstrapMethod::Bca) {
    std::vector<double> jack_a = jackknife(a), jack_b = jackknife(b);
    for (double& t : jack_a) t = t > 0 ? b.estimate / t : out.ratio;
    for (double& t : jack_b) t /= a.estimate;
    accel = acceleration({&jack_a, &jack_b});
  }
  std::tie(out.lo, out.hi) = interval_of(reps, out.ratio, accel, o);
  out.resamples = o.resamples;
  return out;
}

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Faster:
      return "faster";
    case Verdict::Slower:
      return "slower";
    case Verdict::WithinNoise:
      return "within noise";
    case Verdict::Unknown:
      break;
  }
  return "n/a";
}

Verdict verdict_of(const RatioInterval& r, Better better) {
  if (!r.valid()) return Verdict::Unknown;
  const bool higher = r.lo > 1, lower = r.hi < 1;
  if (!higher && !lower) return Verdict::WithinNoise;
  return higher == (better == Better::Higher) ? Verdict::Faster : Verdict::Slower;
}

int64_t samples_needed(const RatioInterval& r) {
  if (!r.valid() || !(r.ratio > 0) || !(r.lo > 0)) return -1;
  if (r.lo > 1 || r.hi < 1) return 0;
  const double effect = std::abs(std::log(r.ratio));
  if (effect < 1e-12) return -1;
  const double half = r.ratio > 1 ? std::log(r.ratio / r.lo) : std::log(r.hi / r.ratio);
  const double n = double(std::max(r.n_baseline, r.n_candidate));
  return static_cast<int64_t>(std::ceil(n * (half / effect) * (half / effect)));
}

}  // namespace lb::metrics
