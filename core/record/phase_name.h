#pragma once
// What a phase's name says: "c32" is a closed-loop level of 32 streams.
#include <string_view>

namespace lb::record {

// "c32" -> 32; -1 when the name is not a concurrency level.
long long concurrency_of(std::string_view phase);

}  // namespace lb::record
