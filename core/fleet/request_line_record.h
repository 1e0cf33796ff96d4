#pragma once
// A requests.jsonl line read back as the record it was written from (metrics::to_json), as far as
// a summary needs it: stamps, event arrivals and tokens, usage, speculative-decoding counts and
// the error. compute_request_metrics() of the result gives the figures the line holds, so a
// merge can summarise the requests of a lane that several clients loaded (docs/fleet.md).
#include <optional>

#include <nlohmann/json.hpp>

#include "core/metrics/request_record.h"

namespace lb::fleet {

// nullopt when LINE lacks what a record needs (a lane, phase, a send stamp of the right kind).
std::optional<metrics::RequestRecord> record_from_line(const nlohmann::json& line);

}  // namespace lb::fleet
