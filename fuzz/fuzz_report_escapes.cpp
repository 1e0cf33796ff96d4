// The escapers that put text from elsewhere into reports and onto terminals, on arbitrary bytes:
// Markdown text opens no tag, link, code span, table cell or line; a CSV field is one quoted or
// plain cell that a spreadsheet never reads as a formula; printable text holds no control
// character; the linear-time redactions never crash and never grow a text without bound.
#include <string>
#include <string_view>

#include "core/net/printable_text.h"
#include "core/net/secret_text.h"
#include "core/report/markdown_report.h"
#include "core/report/private_patterns.h"
#include "core/report/requests_csv.h"
#include "split_input.h"

namespace {

using lb::fuzz::invariant_failed;

void check_markdown(const std::string& md) {
  for (size_t i = 0; i < md.size(); ++i) {
    const char c = md[i];
    if (c == '\\') {
      ++i;  // an escaped character
      continue;
    }
    if (c == '\n' || c == '\r') invariant_failed("markdown_text: a line break");
    if (c == '<' || c == '`' || c == '|') invariant_failed("markdown_text: an unescaped < ` or |");
    if (c == ']' && i + 1 < md.size() && (md[i + 1] == '(' || md[i + 1] == '[' || md[i + 1] == ':'))
      invariant_failed("markdown_text: an unescaped ] that closes a link");
  }
}

void check_csv(const std::string& in, const std::string& cell) {
  if (cell.empty() != in.empty()) invariant_failed("csv_field: a cell appeared or vanished");
  if (cell.empty()) return;
  if (std::string_view("=+-@\t\r").find(cell[0]) != std::string_view::npos)
    invariant_failed("csv_field: a cell a spreadsheet reads as a formula");
  if (cell[0] != '"') {
    if (cell.find_first_of(",\"\r\n") != std::string::npos) invariant_failed("csv_field: unquoted");
    return;
  }
  if (cell.size() < 2 || cell.back() != '"') invariant_failed("csv_field: an open quote");
  const std::string_view inner(cell.data() + 1, cell.size() - 2);
  for (size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] != '"') continue;
    if (i + 1 >= inner.size() || inner[i + 1] != '"') invariant_failed("csv_field: a lone quote");
    ++i;
  }
}

void check_printable(const std::string& out, bool lines) {
  for (size_t i = 0; i < out.size(); ++i) {
    const auto c = static_cast<unsigned char>(out[i]);
    if ((c < 0x20 && !(lines && (c == '\n' || c == '\t'))) || c == 0x7f)
      invariant_failed("printable text: a control character");
    if (c == 0xc2 && i + 1 < out.size() && static_cast<unsigned char>(out[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(out[i + 1]) <= 0x9f)
      invariant_failed("printable text: a C1 control character");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_markdown(lb::report::markdown_text(text));
  check_csv(text, lb::report::csv_field(text));
  check_printable(lb::net::printable_text(text), true);
  check_printable(lb::net::printable_line(text), false);
  const std::string redacted = lb::net::redact_secret_text(text, {"sk-fuzz-key"});
  if (redacted.find("sk-fuzz-key") != std::string::npos)
    invariant_failed("redact_secret_text: the key value survived");
  const std::string scrubbed = lb::report::redact_private_patterns(text);
  if (scrubbed.size() > 16 * text.size() + 16) invariant_failed("redaction grew without bound");
  return 0;
}
