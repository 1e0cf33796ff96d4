// RawLogprobs' storage: blocks of kept values and the process-wide pool of written blocks.
#include <algorithm>
#include <mutex>

#include "core/logprobs/raw_logprobs.h"

namespace lb::logprobs {
namespace {

using Block = RawLogprobs::Block;

// Free blocks of kBlockBytes, each written once. Taken by the thread that keeps values (the I/O
// thread), given back by whichever thread drops a result.
class BlockPool {
 public:
  BlockPool() { free_.reserve(kMaxBlocks); }  // give() never allocates

  // A block of at least `bytes`: a pooled one when kBlockBytes is enough.
  Block take(size_t bytes) {
    if (bytes <= RawLogprobs::kBlockBytes) {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        Block block = std::move(free_.back());
        free_.pop_back();
        return block;
      }
    }
    const size_t capacity = std::max(bytes, RawLogprobs::kBlockBytes);
    return Block{std::make_unique_for_overwrite<char[]>(capacity), capacity};
  }

  void give(std::vector<Block>& blocks) noexcept {
    if (blocks.empty()) return;
    std::lock_guard lock(mutex_);
    for (Block& block : blocks) {
      if (block.capacity != RawLogprobs::kBlockBytes || full()) continue;
      free_.push_back(std::move(block));
    }
    blocks.clear();
  }

  size_t reserve(size_t bytes) {
    const size_t want = (std::min(bytes, kMaxPooledRawBytes) + RawLogprobs::kBlockBytes - 1) /
                        RawLogprobs::kBlockBytes;
    std::vector<Block> fresh;
    {
      std::lock_guard lock(mutex_);
      if (free_.size() < want) fresh.resize(want - free_.size());
    }
    for (Block& block : fresh) {
      block.bytes = std::make_unique<char[]>(RawLogprobs::kBlockBytes);  // zeroed: written
      block.capacity = RawLogprobs::kBlockBytes;
    }
    give(fresh);
    std::lock_guard lock(mutex_);
    return free_.size() * RawLogprobs::kBlockBytes;
  }

 private:
  static constexpr size_t kMaxBlocks = kMaxPooledRawBytes / RawLogprobs::kBlockBytes;
  bool full() const { return free_.size() >= kMaxBlocks; }
  std::mutex mutex_;
  std::vector<Block> free_;
};

BlockPool& pool() {
  static BlockPool* p = new BlockPool;  // never destroyed: results may outlive static objects
  return *p;
}

}  // namespace

size_t reserve_raw_blocks(size_t bytes) { return pool().reserve(bytes); }

RawLogprobs::RawLogprobs(const RawLogprobs& other) : RawLogprobs() { *this = other; }

RawLogprobs::RawLogprobs(RawLogprobs&& other) noexcept { *this = std::move(other); }

RawLogprobs& RawLogprobs::operator=(const RawLogprobs& other) {
  if (this != &other) {
    release();
    other.visit([this](std::string_view value, RawShape shape) { add(value, shape); });
  }
  return *this;
}

RawLogprobs& RawLogprobs::operator=(RawLogprobs&& other) noexcept {
  if (this != &other) {
    release();
    blocks_ = std::move(other.blocks_);
    tail_ = other.tail_;
    end_ = other.end_;
    count_ = other.count_;
    other.blocks_.clear();
    other.tail_ = other.end_ = nullptr;
    other.count_ = 0;
  }
  return *this;
}

RawLogprobs::~RawLogprobs() { release(); }

void RawLogprobs::release() noexcept {
  pool().give(blocks_);
  tail_ = end_ = nullptr;
  count_ = 0;
}

bool RawLogprobs::add(std::string_view value, RawShape shape) {
  if (value.size() > kMaxValueBytes) return false;
  const size_t need = 4 + value.size();
  // Room for this value and the end mark behind it; else the block ends here.
  if (tail_ == nullptr || static_cast<size_t>(end_ - tail_) < need + 4) {
    if (tail_ != nullptr) std::memcpy(tail_, &kEnd, 4);
    blocks_.push_back(pool().take(need + 4));
    tail_ = blocks_.back().bytes.get();
    end_ = tail_ + blocks_.back().capacity;
  }
  const uint32_t header = static_cast<uint32_t>(value.size()) | static_cast<uint32_t>(shape) << 30;
  std::memcpy(tail_, &header, 4);
  std::memcpy(tail_ + 4, value.data(), value.size());
  tail_ += need;
  ++count_;
  return true;
}

}  // namespace lb::logprobs
