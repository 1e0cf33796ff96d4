#include "core/metrics/phase_cost.h"

#include <cmath>

namespace lb::metrics {

nlohmann::json cost_json(double usd_per_hour, double output_tok_per_s) {
  nlohmann::json j = {{"usd_per_hour", usd_per_hour},
                      {"basis", "the phase's output throughput (first send to last completion)"}};
  j["usd_per_million_output_tokens"] =
      std::isfinite(output_tok_per_s) && output_tok_per_s > 0
          ? nlohmann::json(usd_per_hour / 3600.0 / output_tok_per_s * 1e6)
          : nlohmann::json(nullptr);
  return j;
}

}  // namespace lb::metrics
