#pragma once
// A comparison of two lanes' figure as the record keeps it (record::Comparison, an experiment's
// "comparisons" entry or a performance gate's "comparison"), from the figure comparison the
// metrics made: the ratio, interval and verdict typed, how the interval was made in `more`.
#include <vector>

#include <nlohmann/json.hpp>

#include "core/metrics/summary_intervals.h"
#include "core/record/run_summary.h"

namespace lb::record {

Comparison comparison_of(const metrics::FigureComparison& comparison);
// Each as summary.json's "comparisons" list has it.
nlohmann::json comparisons_json(const std::vector<metrics::FigureComparison>& comparisons);

}  // namespace lb::record
