#pragma once
// Writes into a run or report folder that cannot leave it. The folder may come from someone else
// (a shared run folder brings its report/ with it), so any folder or file in it may be a link
// planted to send a write elsewhere (report/texts -> ~/.ssh), and a name may carry "..".
#include <functional>
#include <string>
#include <string_view>

namespace lb::files {

// Replaces ROOT/RELATIVE with CONTENT atomically (a temporary file, fsync, rename). RELATIVE is
// '/'-separated plain names (no empty, "." or ".." part, no NUL), so the file stays in ROOT.
// ROOT is created when missing and must not itself be a link (the folders above it are the
// user's path and are followed); every folder below it is created or entered without following
// a link, and the file is created with O_NOFOLLOW, so a link in the way is refused, never
// followed. Returns false and fills *error (naming the file) otherwise.
bool write_confined(const std::string& root, const std::string& relative, std::string_view content,
                    std::string* error);

// The same, for content made piece by piece: PRODUCE is called once with a function that writes
// the next piece (false when it could not; PRODUCE then stops and returns false). The file
// appears whole at the end or not at all: when PRODUCE returns false nothing is left behind and
// *error says the file could not be written.
using PieceWriter = std::function<bool(std::string_view piece)>;
bool write_confined_pieces(const std::string& root, const std::string& relative,
                           const std::function<bool(const PieceWriter& write)>& produce,
                           std::string* error);

// Opens ROOT/RELATIVE for appending, creating it when missing, under the same rules. A link, a
// FIFO, a device or anything else that is not a regular file is refused without blocking.
// Returns the descriptor (O_CLOEXEC, blocking) or -1 with *error.
int open_confined_append(const std::string& root, const std::string& relative, std::string* error);

}  // namespace lb::files
