#pragma once
// PrefixCache: a block-hash prefix cache with LRU eviction, sized in KV blocks.
//
// Every full block of `block_size` prompt tokens gets a chained hash (the hash of the block's
// tokens and of the previous block's hash), so equal hashes mean equal prefixes. The modelled
// server is a hybrid model whose linear-attention layers carry a recurrent state: a prefix is
// reusable only up to a *checkpoint*, a block where that state was saved. Checkpoints are saved
// every `checkpoint_tokens` of prefill progress and at the end of each prefill (see README).
#include <cstdint>
#include <list>
#include <unordered_map>
#include <vector>

#include "tokenizer.h"

namespace lb::sim {

class PrefixCache {
 public:
  PrefixCache(int64_t capacity_blocks, int block_size);

  // Chained hashes of every full block of `tokens`.
  std::vector<uint64_t> block_hashes(const std::vector<TokenId>& tokens) const;

  // Number of leading tokens that can be reused: the longest checkpointed prefix whose blocks
  // are all present. Touches the reused blocks (most recent first for the first block, so that
  // eviction removes the tail of a prefix before its head).
  int64_t lookup(const std::vector<uint64_t>& hashes);

  // What lookup() would return, without touching anything.
  int64_t peek(const std::vector<uint64_t>& hashes) const;
  // Forgets every block (vLLM's POST /reset_prefix_cache).
  void clear();

  // Stores blocks [0, n_blocks) and marks block n_blocks-1 as a checkpoint.
  void commit(const std::vector<uint64_t>& hashes, int64_t n_blocks);

  // Free space shrinks while running requests hold blocks; evicts least recently used blocks.
  void set_capacity_blocks(int64_t capacity_blocks);
  int64_t size_blocks() const { return static_cast<int64_t>(lru_.size()); }
  int block_size() const { return block_size_; }

 private:
  struct Entry {
    std::list<uint64_t>::iterator lru_pos;
    bool checkpoint = false;
  };
  void touch(uint64_t hash);
  void evict_to_capacity();

  int64_t capacity_blocks_;
  int block_size_;
  std::list<uint64_t> lru_;  // front = most recently used
  std::unordered_map<uint64_t, Entry> entries_;
};

}  // namespace lb::sim
