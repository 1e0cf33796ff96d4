#pragma once
// Element -> dense id for SequenceMatcher's b2j index. Code points and token ids (integral
// elements) get an open-addressing table: the index is built and probed once per element of
// both sequences, and std::unordered_map's node allocations dominated that cost.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace lb::compare::detail {

inline constexpr int32_t kAbsentId = -2;

template <typename T, typename Hash>
class NodeIdMap {
 public:
  void reserve(std::size_t n) { map_.reserve(n); }
  // The id of key, inserting next_id when key is new.
  int32_t get_or_insert(const T& key, int32_t next_id) {
    return map_.try_emplace(key, next_id).first->second;
  }
  int32_t find(const T& key) const {
    auto it = map_.find(key);
    return it == map_.end() ? kAbsentId : it->second;
  }
  void assign(const T& key, int32_t id) { map_[key] = id; }

 private:
  std::unordered_map<T, int32_t, Hash> map_;
};

template <typename T>
class FlatIdMap {
 public:
  void reserve(std::size_t n) {
    if (2 * n > slots_.size()) rehash(std::bit_ceil(std::max<std::size_t>(16, 2 * n)));
  }
  int32_t get_or_insert(const T& key, int32_t next_id) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<std::size_t>(16, 2 * slots_.size()));
    std::size_t i = slot_of(key);
    if (slots_[i].id == kAbsentId) {
      slots_[i] = {key, next_id};
      ++size_;
    }
    return slots_[i].id;
  }
  int32_t find(const T& key) const { return slots_.empty() ? kAbsentId : slots_[slot_of(key)].id; }
  void assign(const T& key, int32_t id) { slots_[slot_of(key)].id = id; }  // key must exist

 private:
  struct Slot {
    T key{};
    int32_t id = kAbsentId;
  };
  std::size_t slot_of(const T& key) const {  // the key's slot, or the empty slot it would take
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = (static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ULL) >> shift_;
    while (slots_[i].id != kAbsentId && slots_[i].key != key) i = (i + 1) & mask;
    return i;
  }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(capacity, Slot{});
    shift_ = 64 - std::countr_zero(capacity);
    for (const Slot& s : old) {
      if (s.id != kAbsentId) slots_[slot_of(s.key)] = s;
    }
  }
  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

template <typename T, typename Hash>
using ElementIdMap = std::conditional_t<std::is_integral_v<T>, FlatIdMap<T>, NodeIdMap<T, Hash>>;

}  // namespace lb::compare::detail
