#include "prefix_cache.h"

#include <algorithm>

namespace lb::sim {
namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  // splitmix64-style mixing: cheap, and collisions over a few million blocks are negligible.
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

}  // namespace

PrefixCache::PrefixCache(int64_t capacity_blocks, int block_size)
    : capacity_blocks_(capacity_blocks), block_size_(std::max(1, block_size)) {}

std::vector<uint64_t> PrefixCache::block_hashes(const std::vector<TokenId>& tokens) const {
  std::vector<uint64_t> out;
  const size_t n_blocks = tokens.size() / static_cast<size_t>(block_size_);
  out.reserve(n_blocks);
  uint64_t h = 0x51ed270b27d3a1c5ULL;
  for (size_t b = 0; b < n_blocks; ++b) {
    for (size_t i = 0; i < static_cast<size_t>(block_size_); ++i) {
      h = mix(h, static_cast<uint64_t>(tokens[b * block_size_ + i]));
    }
    out.push_back(h);
  }
  return out;
}

int64_t PrefixCache::peek(const std::vector<uint64_t>& hashes) const {
  int64_t reusable_blocks = 0;
  for (size_t b = 0; b < hashes.size(); ++b) {
    auto it = entries_.find(hashes[b]);
    if (it == entries_.end()) break;
    if (it->second.checkpoint) reusable_blocks = static_cast<int64_t>(b) + 1;
  }
  return reusable_blocks * block_size_;
}

void PrefixCache::clear() {
  entries_.clear();
  lru_.clear();
}

int64_t PrefixCache::lookup(const std::vector<uint64_t>& hashes) {
  int64_t reusable_blocks = 0;
  for (size_t b = 0; b < hashes.size(); ++b) {
    auto it = entries_.find(hashes[b]);
    if (it == entries_.end()) break;
    if (it->second.checkpoint) reusable_blocks = static_cast<int64_t>(b) + 1;
  }
  for (int64_t b = reusable_blocks - 1; b >= 0; --b) touch(hashes[b]);
  return reusable_blocks * block_size_;
}

void PrefixCache::commit(const std::vector<uint64_t>& hashes, int64_t n_blocks) {
  n_blocks = std::min<int64_t>(n_blocks, static_cast<int64_t>(hashes.size()));
  if (n_blocks <= 0) return;
  for (int64_t b = n_blocks - 1; b >= 0; --b) {
    auto it = entries_.find(hashes[b]);
    if (it == entries_.end()) {
      lru_.push_front(hashes[b]);
      entries_.emplace(hashes[b], Entry{lru_.begin(), false});
    } else {
      touch(hashes[b]);
    }
  }
  entries_[hashes[n_blocks - 1]].checkpoint = true;
  evict_to_capacity();
}

void PrefixCache::set_capacity_blocks(int64_t capacity_blocks) {
  capacity_blocks_ = std::max<int64_t>(0, capacity_blocks);
  evict_to_capacity();
}

void PrefixCache::touch(uint64_t hash) {
  auto it = entries_.find(hash);
  if (it == entries_.end()) return;
  lru_.splice(lru_.begin(), lru_, it->second.lru_pos);
}

void PrefixCache::evict_to_capacity() {
  while (static_cast<int64_t>(lru_.size()) > capacity_blocks_) {
    entries_.erase(lru_.back());
    lru_.pop_back();
  }
}

}  // namespace lb::sim
