#include "widgets/chart/histogram_bins.h"

#include <algorithm>
#include <cmath>

namespace lb::widgets {
namespace {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

// The smallest 1, 2 or 5 times a power of ten that is at least `raw`.
double nice_width(double raw) {
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (double step : {1.0, 2.0, 5.0, 10.0})
    if (step * decade >= raw * (1 - 1e-12)) return step * decade;
  return 10 * decade;
}

// The highest of the lanes' own clamp quantiles: every lane's distribution up to it is drawn,
// however many more samples another lane has.
double upper_edge(const std::map<QString, std::vector<double>>& samples, double q) {
  double hi = 0;
  for (const auto& [name, values] : samples)
    if (!values.empty()) hi = std::max(hi, quantile(values, q));
  return std::max(hi, 1e-9);
}

QString format_edge(double v) {
  // Short labels (category axes have little room per bar group), with the decimals the edge has.
  for (int decimals = 0; decimals < 3; ++decimals) {
    const double scaled = v * std::pow(10.0, decimals);
    if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, std::abs(scaled)))
      return QString::number(v, 'f', decimals);
  }
  return QString::number(v, 'f', v >= 1 ? 1 : 2);
}

QStringList ordered_names(const std::map<QString, std::vector<double>>& samples,
                          const QStringList& order) {
  QStringList names;
  for (const QString& n : order)
    if (samples.count(n)) names << n;
  for (const auto& [n, v] : samples)
    if (!names.contains(n)) names << n;
  return names;
}

}  // namespace

BarData bin_histogram(const std::map<QString, std::vector<double>>& samples,
                      const QStringList& order, const HistogramSpec& spec) {
  BarData out;
  const QStringList names = ordered_names(samples, order);
  std::vector<double> all;
  for (const auto& [n, v] : samples) all.insert(all.end(), v.begin(), v.end());
  if (all.empty()) return out;

  int bins = std::max(spec.bins, 2);
  double lo = 0, width = 1;
  if (spec.mode == HistogramSpec::Mode::Integer) {
    lo = 1;
    for (int b = 0; b < bins; ++b)
      out.categories << (b == bins - 1 ? QString::number(b + 1) + "+" : QString::number(b + 1));
  } else {
    const double hi = upper_edge(samples, spec.clamp_quantile);
    lo = std::max(0.0, *std::min_element(all.begin(), all.end()));
    lo = lo < hi * 0.25 ? 0.0 : lo;  // anchor at 0 unless the data sits far from it
    // Round edges (1, 2 or 5 times a power of ten apart) from a multiple of the width; the last
    // bin starts above hi and collects the rest.
    width = nice_width(std::max((hi - lo) / (bins - 1), 1e-9));
    lo = std::floor(lo / width) * width;
    bins = static_cast<int>(std::floor((hi - lo) / width)) + 2;
    for (int b = 0; b < bins; ++b) {
      out.categories << (b == bins - 1 ? "≥" + format_edge(lo + b * width)
                                       : format_edge(lo + b * width));
    }
  }
  for (const QString& name : names) {
    const std::vector<double>& values = samples.at(name);
    BarData::Set set{name, std::vector<double>(static_cast<size_t>(bins), 0.0)};
    for (double v : values) {
      int b = static_cast<int>(std::floor((v - lo) / width));
      b = std::clamp(b, 0, bins - 1);
      set.values[static_cast<size_t>(b)] += 1;
    }
    const double n = static_cast<double>(std::max<size_t>(values.size(), 1));
    for (double& c : set.values) c = 100.0 * c / n;
    out.sets.push_back(std::move(set));
  }
  return out;
}

}  // namespace lb::widgets
