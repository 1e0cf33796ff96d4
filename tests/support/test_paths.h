#pragma once
// Where tests find the checkout's files and the built programs.
//
// The paths are compiled into one small generated source (tests/support/CMakeLists.txt), not
// into every test source as compile definitions: an object that embeds the checkout's absolute
// path cannot be reused by ccache for a clone elsewhere, and CI builds a fresh clone each time.
#include <string>

namespace lb::test {

std::string source_dir();    // the checkout
std::string fixtures_dir();  // tests/fixtures
// fixtures_dir() + "/" + relative, e.g. fixture_path("wire/vllm_chat.sse").
std::string fixture_path(const std::string& relative);
// The built lanebench-cli and lanebench-sim, or "" when the build has no such program.
const char* cli_path();
const char* sim_path();

}  // namespace lb::test
