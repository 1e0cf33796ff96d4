#include "core/record/phase_name.h"

#include <charconv>

namespace lb::record {

long long concurrency_of(std::string_view phase) {
  if (phase.size() < 2 || phase[0] != 'c') return -1;
  for (size_t i = 1; i < phase.size(); ++i)
    if (phase[i] < '0' || phase[i] > '9') return -1;
  // std::from_chars, not std::stoll: "c" + 20 digits from a summary must not throw.
  long long value = -1;
  const auto [end, ec] = std::from_chars(phase.data() + 1, phase.data() + phase.size(), value);
  return ec == std::errc() && end == phase.data() + phase.size() ? value : -1;
}

}  // namespace lb::record
