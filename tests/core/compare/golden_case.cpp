#include "golden_case.h"

#include <bit>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "core/compare/code_point_text.h"
#include "core/compare/similarity.h"
#include "core/compare/word_tokens.h"

namespace lb::compare::testing {
namespace {

using nlohmann::json;

json blocks_json(const std::vector<Match>& blocks) {
  json out = json::array();
  for (const auto& m : blocks) out.push_back({m.a_begin, m.b_begin, m.size});
  return out;
}

json opcodes_json(const std::vector<Opcode>& ops) {
  json out = json::array();
  for (const auto& op : ops) {
    out.push_back({op_tag_name(op.tag), op.a_begin, op.a_end, op.b_begin, op.b_end});
  }
  return out;
}

template <typename Matcher>
std::string compare_results(const json& golden, const Matcher& matcher) {
  const std::string id = golden.value("id", std::string("?"));
  if (matcher.a().size() != golden.at("len_a").get<std::size_t>() ||
      matcher.b().size() != golden.at("len_b").get<std::size_t>()) {
    return id + ": lengths " + std::to_string(matcher.a().size()) + "/" +
           std::to_string(matcher.b().size()) + " vs python " + golden.at("len_a").dump() + "/" +
           golden.at("len_b").dump();
  }
  const std::string python_ratio = golden.at("ratio").get<std::string>();
  const double expected = std::strtod(python_ratio.c_str(), nullptr);
  if (std::bit_cast<uint64_t>(expected) != std::bit_cast<uint64_t>(matcher.ratio())) {
    char ours[64];
    std::snprintf(ours, sizeof ours, "%.17g", matcher.ratio());
    return id + ": ratio " + ours + " vs python " + python_ratio;
  }
  const json blocks = blocks_json(matcher.matching_blocks());
  if (blocks != golden.at("blocks")) return id + ": matching blocks differ";
  if (opcodes_json(matcher.opcodes()) != golden.at("opcodes")) return id + ": opcodes differ";
  return {};
}

}  // namespace

std::string check_golden_case(const json& golden, const std::string& a, const std::string& b) {
  const bool autojunk = golden.value("autojunk", true);
  if (golden.value("mode", std::string("char")) == "word") {
    TokenizedPair tokens = tokenize_pair(decode_utf8(a), decode_utf8(b));
    return compare_results(golden, TokenMatcher(tokens.a_ids, tokens.b_ids, nullptr, autojunk));
  }
  const std::u32string ua = decode_utf8(a);
  const std::u32string ub = decode_utf8(b);
  CharMatcher::JunkPredicate is_junk;
  if (golden.contains("junk")) {
    const std::u32string junk = decode_utf8(golden.at("junk").get<std::string>());
    is_junk = [junk](const char32_t& c) { return junk.find(c) != std::u32string::npos; };
  }
  return compare_results(
      golden, CharMatcher(std::vector<char32_t>(ua.begin(), ua.end()),
                          std::vector<char32_t>(ub.begin(), ub.end()), is_junk, autojunk));
}

json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return json::parse(in);
}

}  // namespace lb::compare::testing
