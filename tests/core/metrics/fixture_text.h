#pragma once
// Reads a wire fixture (tests/fixtures/wire/NAME) as bytes; empty when missing.
#include <fstream>
#include <sstream>
#include <string>
#include "test_paths.h"

inline std::string read_wire_fixture(const std::string& name) {
  std::ifstream in(lb::test::fixtures_dir() + "/wire/" + name, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}
