#pragma once
// A parser for the Prometheus text exposition format (version 0.0.4) as served on /metrics:
// comments, # HELP / # TYPE, labels with escapes (\\ \" \n), counters, gauges, histograms,
// summaries and untyped samples, NaN / +Inf / -Inf, optional timestamps, blank lines.
// A bad line is reported with its line number and skipped; the rest is kept.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::metrics {

enum class MetricType { Counter, Gauge, Histogram, Summary, Untyped };
const char* to_string(MetricType type);

struct PromSample {
  std::string name;    // full sample name, e.g. "vllm:prefix_cache_hits_total"
  std::string family;  // the # TYPE family it belongs to, e.g. "vllm:prefix_cache_hits"
  std::vector<std::pair<std::string, std::string>> labels;  // in exposition order, unescaped
  double value = 0;
  std::optional<int64_t> timestamp_ms;

  // Value of a label, or nullptr when absent.
  const std::string* label(std::string_view key) const;
};

struct PromFamilyInfo {
  MetricType type = MetricType::Untyped;
  std::string help;  // unescaped
};

struct PromParseIssue {
  int line = 0;  // 1-based
  std::string message;
};

struct PrometheusSnapshot {
  std::vector<PromSample> samples;                 // in file order
  std::map<std::string, PromFamilyInfo> families;  // every family seen by TYPE/HELP or sample
  std::vector<PromParseIssue> issues;

  // Samples whose full name equals `name`.
  std::vector<const PromSample*> find(std::string_view name) const;
  // Sum of the values of all samples named `name` (across label sets); nullopt when none.
  std::optional<double> sum(std::string_view name) const;
  MetricType type_of_family(std::string_view family) const;
};

PrometheusSnapshot parse_prometheus_text(std::string_view text);

}  // namespace lb::metrics
