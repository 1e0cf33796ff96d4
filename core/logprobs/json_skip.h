#pragma once
// Where a JSON object or array ends, found fast. The stream client's I/O thread cuts each
// chunk's logprobs value out of the message before parsing the rest (raw_logprobs.h); the value
// is most of the chunk's bytes (top-K alternatives, each with its token bytes), so finding its
// end is the I/O thread's cost of asking for logprobs. skip_container classifies 64 bytes at a
// time with SSE2 (quotes, brackets, backslashes as bit masks; the bytes inside strings by a
// prefix XOR of the quotes) and only looks at single bytes in a block that holds a backslash or
// the matching bracket (docs/client-engine.md, "Logprobs").
#include <cstddef>
#include <string_view>

namespace lb::logprobs {

// `i` is at '{' or '['. Returns one past its matching closing bracket, or npos when `d` ends
// first (a string or bracket left open). Brackets inside strings do not count, escapes are
// honoured, and the kinds of bracket are not matched against each other: a value that is not
// well-formed is found out by the parser that reads it later.
size_t skip_container(std::string_view d, size_t i);

// The same, one byte at a time: the path where SSE2 is missing, and the reference the tests
// hold skip_container to.
size_t skip_container_bytewise(std::string_view d, size_t i);

}  // namespace lb::logprobs
