#include "core/report/request_lines_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <future>
#include <iterator>
#include <memory>
#include <thread>

#include "core/files/regular_file.h"
#include "core/report/request_line.h"

namespace lb::report {
namespace {

constexpr size_t kBlockBytes = size_t{8} << 20;         // read and parsed per round
constexpr size_t kParallelFromBytes = size_t{1} << 20;  // smaller rounds parse on one thread
// A longer line is no request record: reading stops there rather than grow a buffer for it.
constexpr size_t kMaxLineBytes = size_t{256} << 20;
// Bad lines are counted; only the first ones are described (a folder of a million junk lines
// must not become a million warnings).
constexpr size_t kDescribedBadLines = 10;

// The lines of one slice of a block, parsed by one thread.
struct LinesPart {
  std::vector<RequestPoint> points;
  std::vector<std::pair<int64_t, std::string>> problems;  // line number within the part
  int64_t lines = 0;
};

// [begin, end) holds whole lines; bytes up to `readable` may be read past any of them.
LinesPart parse_part(RequestLineParser& parser, const char* begin, const char* end,
                     const char* readable) {
  LinesPart part;
  for (const char* p = begin; p < end;) {
    const auto* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* line_end = nl ? nl : end;
    ++part.lines;
    if (line_end > p) {
      std::string problem;
      if (auto point = parser.parse(p, static_cast<size_t>(line_end - p),
                                    static_cast<size_t>(readable - p), &problem))
        part.points.push_back(std::move(*point));
      else
        part.problems.emplace_back(part.lines, std::move(problem));
    }
    p = nl ? nl + 1 : end;
  }
  return part;
}

// Cut [0, size) into `count` slices that start at line starts.
std::vector<size_t> slice_starts(const char* data, size_t size, size_t count) {
  std::vector<size_t> starts{0};
  for (size_t k = 1; k < count; ++k) {
    size_t at = std::max(starts.back(), size * k / count);
    const void* nl = at < size ? std::memchr(data + at, '\n', size - at) : nullptr;
    at = nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) + 1 : size;
    starts.push_back(at);
  }
  starts.push_back(size);
  return starts;
}

// Reading and folding overlap parsing: while block N is parsed on every core, the caller's sink
// folds block N-1 and block N+1 is read. Each of the two buffers (and its parsers) belongs to
// every other block.
class LinesReader {
 public:
  LinesReader(const RequestBlockSink& sink, RequestLineCounts& counts)
      : sink_(sink), counts_(counts) {
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1U, 4U);
    for (auto& set : parsers_)
      for (unsigned i = 0; i < threads; ++i) set.push_back(std::make_unique<RequestLineParser>());
  }

  // Starts parsing [data, data + size) (whole lines) with the parsers of buffer `parity`.
  void start(int parity, const char* data, size_t size, const char* readable, double share_read) {
    auto& parsers = parsers_[parity];
    const size_t count = size < kParallelFromBytes ? 1 : parsers.size();
    const std::vector<size_t> at = slice_starts(data, size, count);
    Round round;
    round.share_read = share_read;
    for (size_t k = 0; k < count; ++k)
      round.parts.push_back(std::async(std::launch::async, parse_part, std::ref(*parsers[k]),
                                       data + at[k], data + at[k + 1], readable));
    pending_.push_back(std::move(round));
  }

  // Waits for the oldest block still parsing and hands its points on; false when none is.
  bool finish_oldest() {
    if (pending_.empty()) return false;
    Round round = std::move(pending_.front());
    pending_.erase(pending_.begin());
    for (auto& f : round.parts) {
      LinesPart part = f.get();
      note_problems(part);
      counts_.records += static_cast<int64_t>(part.points.size());
      sink_(part.points, round.share_read);
    }
    return true;
  }

  size_t parsing() const { return pending_.size(); }

 private:
  struct Round {
    std::vector<std::future<LinesPart>> parts;
    double share_read = 0;
  };

  void note_problems(LinesPart& part) {
    for (auto& [line, problem] : part.problems) {
      if (static_cast<size_t>(++counts_.torn_lines) > kDescribedBadLines) continue;
      counts_.warnings.push_back("requests.jsonl line " + std::to_string(lines_ + line) + " " +
                                 problem + "; skipped");
    }
    lines_ += part.lines;
  }

  const RequestBlockSink& sink_;
  RequestLineCounts& counts_;
  int64_t lines_ = 0;
  std::vector<std::unique_ptr<RequestLineParser>> parsers_[2];
  std::vector<Round> pending_;
};

}  // namespace

// Closes the file when the read ends, however it ends.
struct FileCloser {
  int fd;
  ~FileCloser() { ::close(fd); }
};

void note_unread_tail(RequestLineCounts& counts, bool read_failed, bool line_too_long) {
  if (read_failed) counts.warnings.push_back("requests.jsonl could not be read to its end");
  if (line_too_long)
    counts.warnings.push_back("requests.jsonl has a line longer than " +
                              std::to_string(kMaxLineBytes >> 20) +
                              " MiB; it and the rest of the file are not read");
  if (static_cast<size_t>(counts.torn_lines) > kDescribedBadLines)
    counts.warnings.push_back("requests.jsonl: " + std::to_string(counts.torn_lines) +
                              " lines are not request records; the first " +
                              std::to_string(kDescribedBadLines) + " are listed above");
}

bool read_request_lines(const std::filesystem::path& path, const RequestBlockSink& sink,
                        RequestLineCounts& counts) {
  // A FIFO or device in a run folder from elsewhere would block or never end: refused.
  std::string open_error;
  const int fd = files::open_regular_file(path.string(), &open_error);
  if (fd < 0) {
    std::error_code missing;
    if (std::filesystem::exists(path, missing)) counts.warnings.push_back(open_error);
    return false;
  }
  const FileCloser closer{fd};
  std::error_code ec;
  const auto file_bytes = static_cast<double>(std::filesystem::file_size(path, ec));
  const size_t padding = request_line_padding();
  // A small file gets a buffer of its size (the scanner opens many); a line longer than the
  // buffer doubles it.
  size_t block =
      ec ? kBlockBytes : std::clamp(static_cast<size_t>(file_bytes) + 1, size_t{4096}, kBlockBytes);
  std::vector<char> buffers[2] = {std::vector<char>(block + padding), {}};
  // After the buffers: should the sink throw, the reader's end waits for the parses still
  // reading them (a std::async future's destructor waits).
  LinesReader reader(sink, counts);
  int cur = 0;
  size_t have = 0;  // bytes in buffers[cur]; a partial last line is carried into the next block
  double consumed = 0;
  bool eof = false, read_failed = false, line_too_long = false;
  while (!eof || have > 0) {
    std::vector<char>& buffer = buffers[cur];
    if (!eof) {
      const long n = files::read_up_to(fd, buffer.data() + have, block - have);
      read_failed = n < 0;
      have += n > 0 ? static_cast<size_t>(n) : 0;
      eof = have < block;
    }
    size_t whole = have;  // at the end of the file, the last line needs no newline
    if (!eof) {
      const auto* nl = static_cast<const char*>(memrchr(buffer.data(), '\n', have));
      if (!nl && block >= kMaxLineBytes) {
        line_too_long = true;
        break;
      }
      if (!nl) {  // one line longer than the buffer: make room for it
        block *= 2;
        buffer.resize(block + padding);
        continue;
      }
      whole = static_cast<size_t>(nl - buffer.data()) + 1;
    }
    consumed += static_cast<double>(whole);
    const double share = ec || file_bytes <= 0 ? 0.0 : std::min(1.0, consumed / file_bytes);
    reader.start(cur, buffer.data(), whole, buffer.data() + buffer.size(), share);
    // The other buffer is free once the block before this one is folded.
    if (reader.parsing() > 1) reader.finish_oldest();
    std::vector<char>& next = buffers[cur ^ 1];
    if (next.size() < block + padding) next.resize(block + padding);
    std::memcpy(next.data(), buffer.data() + whole, have - whole);
    have -= whole;
    cur ^= 1;
  }
  while (reader.finish_oldest()) {
  }
  note_unread_tail(counts, read_failed, line_too_long);
  return true;
}

bool read_request_lines(const std::filesystem::path& path, RequestLines& out) {
  const RequestBlockSink keep = [&out](std::vector<RequestPoint>& points, double share_read) {
    // Room for the whole file, judged from the first block's points per byte.
    if (out.points.capacity() == 0 && share_read > 0 && !points.empty())
      out.points.reserve(
          static_cast<size_t>(static_cast<double>(points.size()) / share_read * 1.02) + 16);
    std::move(points.begin(), points.end(), std::back_inserter(out.points));
  };
  return read_request_lines(path, keep, out.counts);
}

}  // namespace lb::report
