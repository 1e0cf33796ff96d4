#include "core/compare/sequence_matcher.h"

namespace lb::compare {

const char* op_tag_name(OpTag tag) {
  switch (tag) {
    case OpTag::Equal:
      return "equal";
    case OpTag::Replace:
      return "replace";
    case OpTag::Delete:
      return "delete";
    case OpTag::Insert:
      return "insert";
  }
  return "equal";
}

// difflib's get_opcodes(), step for step.
std::vector<Opcode> opcodes_from_blocks(const std::vector<Match>& blocks) {
  std::vector<Opcode> out;
  std::size_t i = 0;
  std::size_t j = 0;
  for (const Match& m : blocks) {
    if (i < m.a_begin && j < m.b_begin) {
      out.push_back({OpTag::Replace, i, m.a_begin, j, m.b_begin});
    } else if (i < m.a_begin) {
      out.push_back({OpTag::Delete, i, m.a_begin, j, m.b_begin});
    } else if (j < m.b_begin) {
      out.push_back({OpTag::Insert, i, m.a_begin, j, m.b_begin});
    }
    i = m.a_begin + m.size;
    j = m.b_begin + m.size;
    if (m.size) out.push_back({OpTag::Equal, m.a_begin, i, m.b_begin, j});
  }
  return out;
}

}  // namespace lb::compare
