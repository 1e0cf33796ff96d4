#pragma once
// What the report needs of requests.jsonl, folded block by block as the file is read, so that a
// report of a million requests holds a few counts and histograms, not the requests: the caveats'
// counts, each lane's inter-token gaps per experiment, and the TTFT of the requests that carried
// media. (The CSV of every request is written by a second pass over the file: requests_csv.h.)
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lb::report {

struct RequestPoint;

// Inter-token gaps in ms, counted in logarithmic bins: each power of two from kMinMs to kMaxMs
// is split into kBinsPerOctave equal bins (a gap's exponent and the top bits of its mantissa, so
// counting one costs no logarithm), and gaps outside fall in the first or last bin. A gap drawn
// from its bin's middle is within kRelativeError of every gap in the bin; the smallest and
// largest gaps are kept exactly.
class GapHistogram {
 public:
  static constexpr double kMinMs = 1.0 / 1024;       // 2^-10 ms, about 1 µs
  static constexpr double kMaxMs = 1024.0 * 1024.0;  // 2^20 ms, about 17 minutes
  static constexpr int kMantissaBits = 8;
  static constexpr int kBinsPerOctave = 1 << kMantissaBits;
  static constexpr double kRelativeError = 0.5 / kBinsPerOctave;  // 0.2 %

  void add(double gap_ms);
  void merge(const GapHistogram& other);
  int64_t count() const { return count_; }
  // The K-th smallest gap (0-based, K < count()) as the middle of its bin; the smallest and the
  // largest exactly. NaN when there are none.
  double at_rank(int64_t k) const;

 private:
  static size_t bin_of(double gap_ms);
  std::vector<int64_t> bins_;  // sized on the first gap
  int64_t count_ = 0;
  double min_ms_ = 0;
  double max_ms_ = 0;
};

// One request that carried images or videos: what the media timing charts plot.
struct MediaTtft {
  double megapixels = 0;  // width x height summed, a video's over its frames
  int64_t images = 0;
  double ttft_ms = 0;
};

class RequestDigest {
 public:
  void add_block(const std::vector<RequestPoint>& points);

  // Per lane, measured (non-warm-up) requests whose output tokens were estimated, and failed ones.
  const std::map<std::string, int64_t>& estimated_outputs() const { return estimated_; }
  const std::map<std::string, int64_t>& failed() const { return failed_; }
  // LANE's gaps over the successful measured requests of the experiments named in EXPERIMENTS.
  GapHistogram gaps(const std::string& lane, const std::set<std::string>& experiments) const;
  // Per lane, the successful measured requests that carried media and have a TTFT.
  const std::map<std::string, std::vector<MediaTtft>>& media() const { return media_; }

 private:
  std::map<std::string, int64_t> estimated_, failed_;
  std::map<std::pair<std::string, std::string>, GapHistogram> gaps_;  // by (lane, experiment)
  std::map<std::string, std::vector<MediaTtft>> media_;
};

}  // namespace lb::report
