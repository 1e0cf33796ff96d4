#pragma once
// Logprobs kept as the bytes the server sent, to be read later and elsewhere. A stream client's
// I/O thread stamps every event of every stream; building a JSON tree for top-K alternatives
// there (about 60 bytes per alternative, every token) delays the stamps of all other streams.
// So the OpenAI dialects cut each choice's `logprobs` value out of the message before parsing
// it (cut_logprobs, a single byte scan), keep the value's bytes (RawLogprobs), and the reader
// of the result turns them into a TokenSeries with the same readers as before (append_raw).
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/logprobs/token_logprobs.h"

namespace lb::logprobs {

struct CutValue {
  size_t begin = 0;  // offset of the value's '{' or '[' in the message
  size_t end = 0;    // one past its closing bracket
  // Elements of its "content" array (chat) or "tokens" array (completions); -1 when it has
  // neither as an array.
  int32_t entries = -1;
};

// Finds every member named "logprobs" whose value is an object or array and writes to `out` the
// message with each such value replaced by its number in `cuts` (0, 1, ...), so a JSON parser
// sees a small integer there. Returns false, leaving `out` and `cuts` empty, when the message has
// no such value or is not well-formed enough to cut (a string or bracket left open): the caller
// then parses the message as it is, and reports its errors as before.
bool cut_logprobs(std::string_view message, std::string& out, std::vector<CutValue>& cuts);

enum class RawShape : uint8_t { OpenAiChat, OpenAiCompletions };

// The cut values of one response in arrival order, each to be read with its shape's reader.
// They are kept in blocks of kBlockBytes that are filled and never grown, so keeping a value
// never copies the ones before it (a single growing string did, on the I/O thread, once per
// doubling) and a long answer's bytes do not need one large allocation. Each value sits in its
// block behind a 4-byte header (its length and shape), so keeping one writes to a single place:
// the block, reached through the write position this object holds.
//
// Blocks come from, and go back to, a process-wide pool. A fresh block costs the thread that
// first writes it a page fault per 4 KiB, and on a virtual machine each fault takes several
// microseconds: on the I/O thread that delays every other stream's stamp. Recycled blocks were
// written before, so keeping a value in one costs only the copy (docs/client-engine.md,
// "Logprobs").
class RawLogprobs {
 public:
  static constexpr size_t kBlockBytes = 32 * 1024;
  RawLogprobs() = default;
  RawLogprobs(const RawLogprobs& other);
  RawLogprobs(RawLogprobs&& other) noexcept;
  RawLogprobs& operator=(const RawLogprobs& other);
  RawLogprobs& operator=(RawLogprobs&& other) noexcept;
  ~RawLogprobs();

  // Keeps a copy of `value` (at most kMaxValueBytes; a longer one is not kept and returns false).
  bool add(std::string_view value, RawShape shape);
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  // Calls f(value, shape) for every kept value in the order they were added.
  template <typename F>
  void visit(F&& f) const;

  static constexpr size_t kMaxValueBytes = (size_t{1} << 30) - 1;

  struct Block {
    std::unique_ptr<char[]> bytes;
    size_t capacity = 0;
  };

 private:
  static constexpr uint32_t kEnd = 0xFFFFFFFFu;  // header after a block's last value
  void release() noexcept;
  std::vector<Block> blocks_;
  char* tail_ = nullptr;  // where the next header goes in the last block
  char* end_ = nullptr;   // the last block's end
  size_t count_ = 0;
};

template <typename F>
void RawLogprobs::visit(F&& f) const {
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const char* p = blocks_[b].bytes.get();
    const char* limit = b + 1 == blocks_.size() ? tail_ : p + blocks_[b].capacity;
    while (limit - p >= 4) {
      uint32_t header = 0;
      std::memcpy(&header, p, 4);
      if (header == kEnd) break;
      const size_t bytes = header & kMaxValueBytes;
      f(std::string_view(p + 4, bytes), static_cast<RawShape>(header >> 30));
      p += 4 + bytes;
    }
  }
}

// Makes sure the pool holds at least `bytes` of blocks that were written once, writing new ones
// on the calling thread. A caller about to stream many answers with logprobs calls it before
// starting them, so the I/O thread finds written blocks. The pool keeps at most
// kMaxPooledRawBytes of free blocks; `bytes` is capped to that. Returns the free bytes pooled.
constexpr size_t kMaxPooledRawBytes = 64 * 1024 * 1024;
size_t reserve_raw_blocks(size_t bytes);

// Reads every kept value (bare NaN/Infinity quoted, as for whole messages) and appends its tokens
// to `out`. A value that is not JSON is skipped and described in `error` (the first such one);
// the other values are still read. Never throws.
void append_raw(const RawLogprobs& raw, TokenSeries& out, std::string& error);

}  // namespace lb::logprobs
