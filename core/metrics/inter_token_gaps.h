#pragma once
// Inter-token latency (ITL), computed in one place for measured, stored and exported requests:
// the gaps between consecutive streamed events, in arrival order (docs/metrics.md). An event is
// one chunk, so a speculative-decoding chunk of three tokens is one gap, not three.
#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lb::metrics {

// Gaps between consecutive stamps (steady-clock or offset ns), in ms. Two events read together
// give a 0 ms gap; request_metrics counts those as coalesced.
std::vector<double> itl_ms_from_stamps(const std::vector<int64_t>& stamps_ns);

// Gaps between consecutive event offsets (ns) of a stored request, where NaN marks an entry the
// file did not give as a number: no gap is taken on either side of it, never a made-up one.
std::vector<double> itl_ms_from_offsets(const std::vector<double>& offsets_ns);

// The same from a stored request's "event_offsets_ns" array (requests.jsonl). A gap is taken
// only between two numeric neighbours; anything else (a damaged file) yields no gap on either
// side, never a made-up one. A value that is not an array gives no gaps.
std::vector<double> itl_ms_from_offsets(const nlohmann::json& offsets_ns);

}  // namespace lb::metrics
