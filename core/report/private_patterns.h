#pragma once
// The patterns of what identifies a machine or a person in text for the shareable summary: URLs,
// e-mail addresses, IPv4 and IPv6 addresses, host names and filesystem paths. They run on RE2,
// in time linear in the text: std::regex recursed per character and overflowed the stack on a
// 300 KB lane note.
#include <string>
#include <vector>

namespace lb::report {

// Each occurrence replaced by "[redacted]" (a leading delimiter the pattern needs is kept).
std::string redact_private_patterns(std::string text);
// One line per kind still in `text` ("URL", "IPv4 address", ...), each kind once.
std::vector<std::string> private_pattern_findings(const std::string& text);

}  // namespace lb::report
