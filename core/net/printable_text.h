#pragma once
// Text from a plan, a run folder or a server, made safe to show on a terminal or in a dialog:
// control characters (C0 but the allowed line breaks, DEL, and the C1 range U+0080..U+009F) each
// become "?". Raw, an escape sequence could redraw what the user reads (an --allow-launch listing
// showing `vllm serve ...` while another command runs), or write the clipboard (OSC 52).
#include <string>
#include <string_view>

namespace lb::net {

// Newlines and tabs are kept: for a message of several lines.
std::string printable_text(std::string_view text);
// Nothing is kept, newlines neither: for one item (a lane id, a command, a model id).
std::string printable_line(std::string_view text);

}  // namespace lb::net
