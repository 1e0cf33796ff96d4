#pragma once
// The one way a string from data (an experiment or lane name, a sweep figure, a prompt id, a
// media reference) becomes a file name. Plans, summaries and servers are written by others, so
// such a string may hold separators, "..", NUL or control characters meant to steer a write out
// of its folder.
#include <cstddef>
#include <string>
#include <string_view>

namespace lb::files {

inline constexpr size_t kSafeFileNameMaxBytes = 80;

// A single path component that is safe to create inside a folder: non-empty, at most
// kSafeFileNameMaxBytes bytes of valid UTF-8, no '/', '\\', NUL or control character, never
// "." or ".." and never starting with '.'. A name that already is safe comes back unchanged;
// any other is cut, its unsafe characters replaced, and "~" and a 48-bit hash of the original
// appended. A safe name holds no "~", so a changed name never meets an unchanged one, and two
// changed names meet only when their hashes do.
std::string safe_file_name(std::string_view name);

// True when safe_file_name(name) == name.
bool is_safe_file_name(std::string_view name);

// True when NAME is one that safe_file_name returns (unchanged or changed): the names a run
// writes, and nothing else.
bool is_confined_file_name(std::string_view name);

}  // namespace lb::files
