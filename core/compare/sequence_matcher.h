#pragma once
// SequenceMatcher with the semantics of CPython's difflib.SequenceMatcher (Lib/difflib.py):
// the same b2j index, junk predicate, "autojunk" popularity rule (for len(b) >= 200, elements
// occurring more than len(b) // 100 + 1 times are dropped from the index), the same
// find_longest_match tie-breaking and junk extension, the same matching-block recursion order and
// adjacent-block merge, and ratio() = 2.0 * M / T (1.0 when both are empty). Given the same
// elements it returns the same blocks, opcodes and the bit-identical ratio double as Python.
//
// All work happens in the constructor; afterwards the object is immutable and safe to read from
// several threads. Element type T needs operator== and a hash.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/compare/element_id_map.h"

namespace lb::compare {

// a[a_begin, a_begin + size) == b[b_begin, b_begin + size); indices are element (code point or
// token) indices.
struct Match {
  std::size_t a_begin = 0;
  std::size_t b_begin = 0;
  std::size_t size = 0;
  friend bool operator==(const Match&, const Match&) = default;
};

enum class OpTag { Equal, Replace, Delete, Insert };
const char* op_tag_name(OpTag tag);  // "equal", "replace", "delete", "insert" (as difflib)

// Turn a[a_begin, a_end) into b[b_begin, b_end).
struct Opcode {
  OpTag tag = OpTag::Equal;
  std::size_t a_begin = 0;
  std::size_t a_end = 0;
  std::size_t b_begin = 0;
  std::size_t b_end = 0;
  friend bool operator==(const Opcode&, const Opcode&) = default;
};

// difflib's _calculate_ratio: same operation order, so the same double.
inline double difflib_ratio(std::size_t matches, std::size_t total_length) {
  if (total_length == 0) return 1.0;
  return 2.0 * static_cast<double>(matches) / static_cast<double>(total_length);
}

// Opcodes from matching blocks ending with difflib's (len(a), len(b), 0) sentinel.
std::vector<Opcode> opcodes_from_blocks(const std::vector<Match>& blocks);

template <typename T, typename Hash = std::hash<T>>
class SequenceMatcher {
 public:
  using JunkPredicate = std::function<bool(const T&)>;

  SequenceMatcher(std::vector<T> a, std::vector<T> b, JunkPredicate is_junk = nullptr,
                  bool autojunk = true)
      : a_(std::move(a)), b_(std::move(b)) {
    chain_b(is_junk, autojunk);
    index_a();
    compute_matching_blocks();
  }

  const std::vector<T>& a() const { return a_; }
  const std::vector<T>& b() const { return b_; }

  // Longest matching block in a[alo, ahi) x b[blo, bhi), exactly as difflib picks it.
  Match find_longest_match(std::size_t alo, std::size_t ahi, std::size_t blo,
                           std::size_t bhi) const {
    Scratch scratch(b_.size());
    return longest_match(alo, ahi, blo, bhi, scratch);
  }

  // Sorted, non-adjacent, ending with the sentinel {len(a), len(b), 0}.
  const std::vector<Match>& matching_blocks() const { return blocks_; }
  std::vector<Opcode> opcodes() const { return opcodes_from_blocks(blocks_); }
  std::size_t matched_elements() const { return matched_; }
  double ratio() const { return difflib_ratio(matched_, a_.size() + b_.size()); }
  // Upper bounds on ratio(), as difflib's quick_ratio() and real_quick_ratio().
  double quick_ratio() const;
  double real_quick_ratio() const {
    return difflib_ratio(std::min(a_.size(), b_.size()), a_.size() + b_.size());
  }
  // Elements of b removed from the index by the autojunk rule (difflib's bpopular).
  std::size_t popular_count() const { return popular_count_; }

 private:
  static constexpr int32_t kNotIndexed = -1;

  // difflib's j2len / newj2len dicts as two stamped arrays indexed by j: an entry is valid for
  // row i only when its stamp is i's row number, so nothing is ever cleared.
  struct Scratch {
    explicit Scratch(std::size_t lb) : len{std::vector<Cell>(lb), std::vector<Cell>(lb)} {}
    struct Cell {  // 8 bytes, so both rows of a 150 K-element b stay cache-friendly
      uint32_t row = 0;
      uint32_t len = 0;
    };
    std::vector<Cell> len[2];
    uint32_t row = 0;
    // Row numbers only need to be unique while a cell may still be read; on wrap-around the
    // arrays are cleared and numbering restarts.
    void reserve_rows(std::size_t rows) {
      if (static_cast<uint64_t>(row) + rows + 2 >= UINT32_MAX) {
        for (auto& cells : len) std::fill(cells.begin(), cells.end(), Cell{});
        row = 0;
      }
    }
  };

  void chain_b(const JunkPredicate& is_junk, bool autojunk);
  void index_a();
  void compute_matching_blocks();
  Match longest_match(std::size_t alo, std::size_t ahi, std::size_t blo, std::size_t bhi,
                      Scratch& scratch) const;
  Match extend(Match m, std::size_t alo, std::size_t ahi, std::size_t blo, std::size_t bhi,
               bool junk_pass) const;

  std::vector<T> a_;
  std::vector<T> b_;
  // difflib's b2j in one allocation: positions of id k are b2j_[b2j_start_[k], b2j_start_[k+1]),
  // ascending; junk and popular ids have an empty range.
  std::vector<uint32_t> b2j_;
  std::vector<uint32_t> b2j_start_;
  std::vector<int32_t> a_ids_;   // a[i]'s index id, or kNotIndexed
  std::vector<uint8_t> b_junk_;  // b[j] satisfies the junk predicate (bjunk)
  detail::ElementIdMap<T, Hash> ids_;
  std::vector<Match> blocks_;
  std::size_t matched_ = 0;
  std::size_t popular_count_ = 0;
};

template <typename T, typename Hash>
void SequenceMatcher<T, Hash>::chain_b(const JunkPredicate& is_junk, bool autojunk) {
  const std::size_t n = b_.size();
  std::vector<T> keys;  // id -> element, in first-occurrence order
  std::vector<uint32_t> counts;
  std::vector<int32_t> b_ids(n);
  ids_.reserve(std::min<std::size_t>(n, 4096));
  for (std::size_t j = 0; j < n; ++j) {
    const int32_t id = ids_.get_or_insert(b_[j], static_cast<int32_t>(keys.size()));
    if (static_cast<std::size_t>(id) == keys.size()) {
      keys.push_back(b_[j]);
      counts.push_back(0);
    }
    b_ids[j] = id;
    ++counts[static_cast<std::size_t>(id)];
  }
  std::vector<uint8_t> drop(keys.size(), 0);
  std::vector<uint8_t> junk_key(keys.size(), 0);
  if (is_junk) {
    for (std::size_t id = 0; id < keys.size(); ++id) junk_key[id] = drop[id] = is_junk(keys[id]);
  }
  if (autojunk && n >= 200) {
    const std::size_t ntest = n / 100 + 1;
    for (std::size_t id = 0; id < keys.size(); ++id) {
      if (!junk_key[id] && counts[id] > ntest) {
        drop[id] = 1;
        ++popular_count_;
      }
    }
  }
  b2j_start_.assign(keys.size() + 1, 0);
  for (std::size_t id = 0; id < keys.size(); ++id) {
    b2j_start_[id + 1] = b2j_start_[id] + (drop[id] ? 0 : counts[id]);
  }
  b2j_.resize(b2j_start_.back());
  std::vector<uint32_t> fill(b2j_start_.begin(), b2j_start_.end() - 1);
  b_junk_.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const auto id = static_cast<std::size_t>(b_ids[j]);
    b_junk_[j] = junk_key[id];
    if (!drop[id]) b2j_[fill[id]++] = static_cast<uint32_t>(j);
  }
  for (std::size_t id = 0; id < keys.size(); ++id) {
    if (drop[id]) ids_.assign(keys[id], kNotIndexed);
  }
}

template <typename T, typename Hash>
void SequenceMatcher<T, Hash>::index_a() {
  a_ids_.resize(a_.size());
  for (std::size_t i = 0; i < a_.size(); ++i) {
    const int32_t id = ids_.find(a_[i]);
    a_ids_[i] = id == detail::kAbsentId ? kNotIndexed : id;
  }
}

template <typename T, typename Hash>
Match SequenceMatcher<T, Hash>::longest_match(std::size_t alo, std::size_t ahi, std::size_t blo,
                                              std::size_t bhi, Scratch& scratch) const {
  Match best{alo, blo, 0};
  scratch.reserve_rows(ahi - alo);
  ++scratch.row;  // a gap, so the first row never reads the previous call's last row
  for (std::size_t i = alo; i < ahi; ++i) {
    const uint32_t row = ++scratch.row;
    const int32_t id = a_ids_[i];
    if (id == kNotIndexed) continue;
    auto& cur = scratch.len[row & 1];
    const auto& prev = scratch.len[(row - 1) & 1];
    const uint32_t* first = b2j_.data() + b2j_start_[static_cast<std::size_t>(id)];
    const uint32_t* last = b2j_.data() + b2j_start_[static_cast<std::size_t>(id) + 1];
    // difflib skips j < blo one by one; a binary search finds the same first j.
    for (const uint32_t* it = std::lower_bound(first, last, static_cast<uint32_t>(blo));
         it != last && *it < bhi; ++it) {
      const std::size_t j = *it;
      uint32_t k = 1;
      if (j > 0 && prev[j - 1].row == row - 1) k = prev[j - 1].len + 1;
      cur[j] = {row, k};
      if (k > best.size) best = {i - k + 1, j - k + 1, k};
    }
  }
  best = extend(best, alo, ahi, blo, bhi, /*junk_pass=*/false);
  return extend(best, alo, ahi, blo, bhi, /*junk_pass=*/true);
}

// difflib first extends the junk-free match by equal non-junk elements (popular ones included),
// then sucks up equal junk elements on both ends.
template <typename T, typename Hash>
Match SequenceMatcher<T, Hash>::extend(Match m, std::size_t alo, std::size_t ahi, std::size_t blo,
                                       std::size_t bhi, bool junk_pass) const {
  const uint8_t want = junk_pass ? 1 : 0;
  while (m.a_begin > alo && m.b_begin > blo && b_junk_[m.b_begin - 1] == want &&
         a_[m.a_begin - 1] == b_[m.b_begin - 1]) {
    --m.a_begin;
    --m.b_begin;
    ++m.size;
  }
  while (m.a_begin + m.size < ahi && m.b_begin + m.size < bhi &&
         b_junk_[m.b_begin + m.size] == want && a_[m.a_begin + m.size] == b_[m.b_begin + m.size]) {
    ++m.size;
  }
  return m;
}

template <typename T, typename Hash>
void SequenceMatcher<T, Hash>::compute_matching_blocks() {
  struct Range {
    std::size_t alo, ahi, blo, bhi;
  };
  Scratch scratch(b_.size());
  std::vector<Range> queue{{0, a_.size(), 0, b_.size()}};
  std::vector<Match> found;
  while (!queue.empty()) {  // LIFO, as difflib's list.pop()
    const Range r = queue.back();
    queue.pop_back();
    const Match m = longest_match(r.alo, r.ahi, r.blo, r.bhi, scratch);
    if (m.size == 0) continue;
    found.push_back(m);
    if (r.alo < m.a_begin && r.blo < m.b_begin)
      queue.push_back({r.alo, m.a_begin, r.blo, m.b_begin});
    if (m.a_begin + m.size < r.ahi && m.b_begin + m.size < r.bhi) {
      queue.push_back({m.a_begin + m.size, r.ahi, m.b_begin + m.size, r.bhi});
    }
  }
  std::sort(found.begin(), found.end(), [](const Match& x, const Match& y) {
    return std::tie(x.a_begin, x.b_begin, x.size) < std::tie(y.a_begin, y.b_begin, y.size);
  });
  Match run{0, 0, 0};
  for (const Match& m : found) {
    if (run.a_begin + run.size == m.a_begin && run.b_begin + run.size == m.b_begin) {
      run.size += m.size;
    } else {
      if (run.size) blocks_.push_back(run);
      run = m;
    }
  }
  if (run.size) blocks_.push_back(run);
  for (const Match& m : blocks_) matched_ += m.size;
  blocks_.push_back({a_.size(), b_.size(), 0});
}

template <typename T, typename Hash>
double SequenceMatcher<T, Hash>::quick_ratio() const {
  std::unordered_map<T, std::ptrdiff_t, Hash> avail;
  for (const T& x : b_) ++avail[x];
  std::size_t matches = 0;
  for (const T& x : a_) {
    auto it = avail.find(x);
    if (it != avail.end() && it->second > 0) {
      --it->second;
      ++matches;
    }
  }
  return difflib_ratio(matches, a_.size() + b_.size());
}

}  // namespace lb::compare
