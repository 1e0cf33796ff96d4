#pragma once
// Reads a wire fixture (tests/fixtures/wire/NAME) as bytes; empty when missing.
#include <fstream>
#include <sstream>
#include <string>

inline std::string read_wire_fixture(const std::string& name) {
  std::ifstream in(std::string(LANEBENCH_FIXTURES_DIR) + "/wire/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}
