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

QString format_edge(double v) {
  // Short labels: category axes have little room per bar group.
  if (v >= 10 || v == 0) return QString::number(v, 'f', 0);
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

  const int bins = std::max(spec.bins, 2);
  double lo = 0, width = 1;
  if (spec.mode == HistogramSpec::Mode::Integer) {
    lo = 1;
    for (int b = 0; b < bins; ++b)
      out.categories << (b == bins - 1 ? QString::number(b + 1) + "+" : QString::number(b + 1));
  } else {
    const double hi = std::max(quantile(all, spec.clamp_quantile), 1e-9);
    lo = std::max(0.0, *std::min_element(all.begin(), all.end()));
    lo = lo < hi * 0.25 ? 0.0 : lo;  // anchor at 0 unless the data sits far from it
    width = (hi - lo) / (bins - 1);  // the last bin collects everything above hi
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
