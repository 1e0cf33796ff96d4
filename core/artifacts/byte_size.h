#pragma once
// Byte counts for people: "512 B", "97.7 KiB", "15.2 GiB" (binary units, one decimal above bytes).
#include <string>

namespace lb::artifacts {

std::string human_bytes(double bytes);

}  // namespace lb::artifacts
