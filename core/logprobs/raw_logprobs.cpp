#include "logprobs/raw_logprobs.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include <nlohmann/json.hpp>

#include "logprobs/wire_logprobs.h"

namespace lb::logprobs {
namespace {

constexpr size_t kNone = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_space(std::string_view d, size_t i) {
  while (i < d.size() && is_space(d[i])) ++i;
  return i;
}

// `i` is at an opening quote; returns the offset of the closing quote, or kNone.
size_t string_end(std::string_view d, size_t i) {
  for (++i; i < d.size(); ++i) {
    const void* q = std::memchr(d.data() + i, '"', d.size() - i);
    if (!q) return kNone;
    size_t end = static_cast<size_t>(static_cast<const char*>(q) - d.data());
    size_t backslashes = 0;
    while (end - backslashes > i && d[end - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return end;
    i = end;  // an escaped quote: look on after it
  }
  return kNone;
}

// A string at [open, close] followed by ':' is a member name; returns where its value starts.
size_t member_value(std::string_view d, size_t close) {
  const size_t colon = skip_space(d, close + 1);
  if (colon >= d.size() || d[colon] != ':') return kNone;
  return skip_space(d, colon + 1);
}

bool names(std::string_view d, size_t open, size_t close, std::string_view name) {
  return d.substr(open + 1, close - open - 1) == name;
}

// `i` is at '{' or '['; returns one past the matching bracket (kNone when it is left open) and
// counts the elements of a "content"/"tokens" array member of the outermost object.
size_t container_end(std::string_view d, size_t i, int32_t& entries) {
  int depth = 0;
  size_t counted = kNone;  // offset of the array being counted
  int32_t commas = 0;
  bool any = false;
  for (; i < d.size(); ++i) {
    const char c = d[i];
    if (c == '"') {
      const size_t close = string_end(d, i);
      if (close == kNone) return kNone;
      if (counted != kNone && depth == 2) any = true;
      if (depth == 1 && (names(d, i, close, "content") || names(d, i, close, "tokens"))) {
        const size_t v = member_value(d, close);
        if (v != kNone && v < d.size() && d[v] == '[') counted = v, commas = 0, any = false;
      }
      i = close;
    } else if (c == '{' || c == '[') {
      if (counted != kNone && depth == 2) any = true;
      ++depth;
    } else if (c == '}' || c == ']') {
      if (counted != kNone && depth == 2) {
        entries = any ? commas + 1 : 0;
        counted = kNone;
      }
      if (--depth == 0) return i + 1;
    } else if (counted != kNone && depth == 2) {
      if (c == ',') {
        ++commas;
      } else if (!is_space(c)) {
        any = true;
      }
    }
  }
  return kNone;
}

// Free blocks, each with a capacity of at least kBlockBytes that was written once. Taken by the
// thread that keeps values (the I/O thread), given back by whichever thread drops a result.
class BlockPool {
 public:
  BlockPool() { free_.reserve(kMaxBlocks); }  // give() never allocates

  std::string take() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        std::string block = std::move(free_.back());
        free_.pop_back();
        return block;
      }
    }
    std::string block;
    block.reserve(RawLogprobs::kBlockBytes);
    return block;
  }

  void give(std::vector<std::string>& blocks) noexcept {
    if (blocks.empty()) return;
    std::lock_guard lock(mutex_);
    for (std::string& block : blocks) {
      if (block.capacity() < RawLogprobs::kBlockBytes || full()) continue;
      block.clear();
      free_.push_back(std::move(block));
    }
    blocks.clear();
  }

  size_t reserve(size_t bytes) {
    const size_t want = (std::min(bytes, kMaxPooledRawBytes) + RawLogprobs::kBlockBytes - 1) /
                        RawLogprobs::kBlockBytes;
    std::vector<std::string> fresh;
    {
      std::lock_guard lock(mutex_);
      if (free_.size() < want) fresh.resize(want - free_.size());
    }
    for (std::string& block : fresh) block.assign(RawLogprobs::kBlockBytes, '\0');  // written
    give(fresh);
    std::lock_guard lock(mutex_);
    return free_.size() * RawLogprobs::kBlockBytes;
  }

 private:
  static constexpr size_t kMaxBlocks = kMaxPooledRawBytes / RawLogprobs::kBlockBytes;
  bool full() const { return free_.size() >= kMaxBlocks; }
  std::mutex mutex_;
  std::vector<std::string> free_;
};

BlockPool& pool() {
  static BlockPool* p = new BlockPool;  // never destroyed: results may outlive static objects
  return *p;
}

}  // namespace

size_t reserve_raw_blocks(size_t bytes) { return pool().reserve(bytes); }

RawLogprobs& RawLogprobs::operator=(const RawLogprobs& other) {
  if (this != &other) {
    pool().give(blocks_);
    blocks_ = other.blocks_;
    values_ = other.values_;
  }
  return *this;
}

RawLogprobs& RawLogprobs::operator=(RawLogprobs&& other) noexcept {
  if (this != &other) {
    pool().give(blocks_);
    blocks_ = std::move(other.blocks_);
    values_ = std::move(other.values_);
    other.blocks_.clear();
    other.values_.clear();
  }
  return *this;
}

RawLogprobs::~RawLogprobs() { pool().give(blocks_); }

bool cut_logprobs(std::string_view message, std::string& out, std::vector<CutValue>& cuts) {
  out.clear();
  cuts.clear();
  constexpr std::string_view kName = "\"logprobs\"";
  size_t next = message.find(kName);  // the next candidate member name
  if (next == kNone) return false;
  size_t i = 0;  // always outside any string
  while (i < message.size()) {
    if (next != kNone && next < i) next = message.find(kName, i);
    if (next == kNone) break;
    // Outside a string, an unescaped "logprobs" can only open a string: jump to it instead of
    // walking every string before it. One preceded by a backslash may sit inside a string, so
    // the walk goes on from `i` string by string until it is past it.
    if (next > 0 && message[next - 1] != '\\') i = next;
    const void* q = std::memchr(message.data() + i, '"', message.size() - i);
    if (!q) break;
    const size_t open = static_cast<size_t>(static_cast<const char*>(q) - message.data());
    const size_t close = string_end(message, open);
    if (close == kNone) break;
    i = close + 1;
    if (!names(message, open, close, "logprobs")) continue;
    const size_t v = member_value(message, close);
    if (v == kNone || v >= message.size() || (message[v] != '{' && message[v] != '[')) continue;
    CutValue cut;
    cut.begin = v;
    cut.end = container_end(message, v, cut.entries);
    if (cut.end == kNone) {
      cuts.clear();
      return false;
    }
    cuts.push_back(cut);
    i = cut.end;
  }
  if (cuts.empty()) return false;
  out.reserve(message.size());
  size_t from = 0;
  for (size_t k = 0; k < cuts.size(); ++k) {
    out.append(message.substr(from, cuts[k].begin - from));
    out += std::to_string(k);
    from = cuts[k].end;
  }
  out.append(message.substr(from));
  return true;
}

void RawLogprobs::add(std::string_view value, RawShape shape) {
  if (blocks_.empty() || blocks_.back().size() + value.size() > blocks_.back().capacity()) {
    blocks_.push_back(pool().take());
    if (value.size() > blocks_.back().capacity()) blocks_.back().reserve(value.size());
  }
  std::string& block = blocks_.back();
  const auto begin = static_cast<uint32_t>(block.size());
  block.append(value);
  values_.push_back({static_cast<uint32_t>(blocks_.size() - 1), begin,
                     static_cast<uint32_t>(block.size()), shape});
}

std::string_view RawLogprobs::value(size_t k) const {
  const Value& v = values_[k];
  return std::string_view(blocks_[v.block]).substr(v.begin, v.end - v.begin);
}

void append_raw(const RawLogprobs& raw, TokenSeries& out, std::string& error) {
  for (size_t k = 0; k < raw.size(); ++k) {
    const std::string_view value = raw.value(k);
    nlohmann::json j = nlohmann::json::parse(value.begin(), value.end(), nullptr, false);
    if (std::string quoted; j.is_discarded() && quote_nonfinite_literals(value, quoted))
      j = nlohmann::json::parse(quoted, nullptr, false);
    if (j.is_discarded()) {
      if (error.empty())
        error = "the logprobs of output event " + std::to_string(k + 1) +
                " are not valid JSON (or not valid UTF-8)";
      continue;
    }
    if (raw.shape(k) == RawShape::OpenAiCompletions) {
      append_openai_completions(j, out);
    } else {
      append_openai_chat(j, out);
    }
  }
}

}  // namespace lb::logprobs
