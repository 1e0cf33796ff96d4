#pragma once
// Helpers to read the byte-faithful server streams in tests/fixtures/wire and cut them into the
// pieces a ReplayServer writes. Fixtures are replayed verbatim: their leading ':' lines are valid
// SSE comments, so a correct client ignores them exactly as it would a server's keep-alives.
#include <string>
#include <vector>

#include "test_paths.h"

namespace lb::test {

// Raw bytes of a fixture; `relative` is relative to fixtures_dir(), e.g. "wire/vllm_chat.sse".
// Absolute paths are used as given. Throws std::runtime_error when the file cannot be read.
std::string load_fixture(const std::string& relative);

// Cuts an SSE byte stream into pieces that each end right after a blank line terminating an
// event or comment block (LF, CRLF or CR line endings). Concatenating the pieces gives the input
// back exactly; trailing bytes without a terminator form the last piece.
std::vector<std::string> split_sse_events(const std::string& bytes);

// Cuts a byte stream after every '\n' (NDJSON). Concatenation gives the input back.
std::vector<std::string> split_lines(const std::string& bytes);

// Drops leading lines that start with `comment_prefix` (e.g. ':' lines documenting an NDJSON
// fixture, which are not valid NDJSON on the wire).
std::string strip_leading_comment_lines(const std::string& bytes, char comment_prefix);

// A single SSE event of about `payload_bytes` (a `data:` line carrying a JSON chat chunk whose
// content is 'x' repeated), terminated by a blank line. Used for the huge-event test.
std::string huge_sse_event(size_t payload_bytes);

}  // namespace lb::test
