#pragma once
// A phase's serving cost (docs/metrics.md, "Cost"): at a lane's hourly cost, what a million
// output tokens cost at the phase's output throughput.
#include <nlohmann/json.hpp>

namespace lb::metrics {

// usd_per_hour / 3600 / output_tok_per_s x 1e6; null when the phase produced no tokens.
nlohmann::json cost_json(double usd_per_hour, double output_tok_per_s);

}  // namespace lb::metrics
