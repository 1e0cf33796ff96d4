#include "core/metrics/spooled_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace lb::metrics {
namespace {

constexpr int kKeyBits = 64;
constexpr int kBinBits = 20;    // sign, 11 of exponent, 8 of mantissa
constexpr int kSplitBits = 16;  // a crowded bin is split this much finer per read

// Unsigned keys in the order of the doubles they come from (not NaN).
uint64_t ordered_key(double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

double from_key(uint64_t key) {
  const uint64_t bits = (key >> 63) != 0 ? key & ~(uint64_t{1} << 63) : ~key;
  double v = 0;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

uint64_t prefix_of(uint64_t key, int bits) { return bits == 0 ? 0 : key >> (kKeyBits - bits); }

}  // namespace

// The values whose keys start with `prefix` (its `bits` leading bits), and the ranks among them
// that are wanted, each with where its value goes.
struct SpooledStatistics::Group {
  uint64_t prefix = 0;
  int bits = 0;
  int64_t count = 0;
  std::vector<std::pair<size_t, size_t>> wanted;  // (rank within the group, slot in out)
};

void SpooledStatistics::insert(double value) {
  const double n = static_cast<double>(spool_.size() + 1);
  const double delta = value - mean_;  // Welford, as OrderStatistics
  mean_ += delta / n;
  m2_ += delta * (value - mean_);
  min_ = spool_.size() == 0 ? value : std::min(min_, value);
  max_ = spool_.size() == 0 ? value : std::max(max_, value);
  ++bins_[static_cast<uint32_t>(prefix_of(ordered_key(value), kBinBits))];
  spool_.append(value);
}

void SpooledStatistics::collect(std::vector<Group*>& groups, std::vector<double>& out) const {
  std::vector<std::vector<double>> values(groups.size());
  for (size_t g = 0; g < groups.size(); ++g)
    values[g].reserve(static_cast<size_t>(groups[g]->count));
  spool_.for_each([&](double v) {
    const uint64_t key = ordered_key(v);
    for (size_t g = 0; g < groups.size(); ++g)
      if (prefix_of(key, groups[g]->bits) == groups[g]->prefix) values[g].push_back(v);
  });
  for (size_t g = 0; g < groups.size(); ++g) {
    std::sort(values[g].begin(), values[g].end());
    for (const auto& [rank, slot] : groups[g]->wanted) out[slot] = values[g][rank];
  }
}

// Splits GROUP by its next bits (one read) into the narrower groups holding its wanted ranks.
std::vector<SpooledStatistics::Group> SpooledStatistics::split(const Group& group,
                                                               const ValueSpool<double>& spool) {
  const int next = std::min(kSplitBits, kKeyBits - group.bits);
  std::vector<int64_t> counts(size_t{1} << next, 0);
  const uint64_t mask = (uint64_t{1} << next) - 1;
  spool.for_each([&](double v) {
    const uint64_t key = ordered_key(v);
    if (prefix_of(key, group.bits) == group.prefix)
      ++counts[(key >> (kKeyBits - group.bits - next)) & mask];
  });
  std::vector<Group> narrower;
  int64_t before = 0;
  size_t sub = 0;
  for (const auto& [rank, slot] : group.wanted) {  // ranks ascending
    while (before + counts[sub] <= static_cast<int64_t>(rank)) before += counts[sub++];
    if (narrower.empty() || narrower.back().prefix != ((group.prefix << next) | sub))
      narrower.push_back({(group.prefix << next) | sub, group.bits + next, counts[sub], {}});
    narrower.back().wanted.emplace_back(rank - static_cast<size_t>(before), slot);
  }
  return narrower;
}

std::vector<double> SpooledStatistics::at_ranks(const std::vector<size_t>& ranks) const {
  std::vector<double> out(ranks.size(), 0.0);
  std::vector<std::pair<size_t, size_t>> order;  // (rank, slot), ascending
  for (size_t i = 0; i < ranks.size(); ++i) order.emplace_back(ranks[i], i);
  std::sort(order.begin(), order.end());
  std::vector<Group> pending;
  int64_t before = 0;
  auto next = order.begin();
  for (const auto& [bin, count] : bins_) {
    for (; next != order.end() && static_cast<int64_t>(next->first) < before + count; ++next) {
      if (pending.empty() || pending.back().prefix != bin)
        pending.push_back({bin, kBinBits, count, {}});
      pending.back().wanted.emplace_back(next->first - static_cast<size_t>(before), next->second);
    }
    before += count;
  }
  while (!pending.empty()) {
    std::vector<Group> later;
    std::vector<Group*> batch;
    size_t batched = 0;
    for (Group& g : pending) {
      const auto count = static_cast<size_t>(g.count);
      if (g.bits == kKeyBits) {  // one key: every value in it is the same
        for (const auto& wanted : g.wanted) out[wanted.second] = from_key(g.prefix);
      } else if (count > collect_cap_) {
        for (Group& narrower : split(g, spool_)) later.push_back(std::move(narrower));
      } else if (batched + count <= collect_cap_) {
        batch.push_back(&g);
        batched += count;
      } else {
        later.push_back(std::move(g));
      }
    }
    if (!batch.empty()) collect(batch, out);
    pending = std::move(later);
  }
  return out;
}

Distribution SpooledStatistics::describe() const {
  if (empty()) return metrics::describe({});
  const size_t n = size();
  const double qs[] = {50, 90, 95, 99};
  std::vector<size_t> ranks;
  std::vector<PercentileIndex> indices;
  for (double q : qs) {
    indices.push_back(percentile_index(n, q));
    ranks.push_back(indices.back().lo);
    ranks.push_back(indices.back().hi);
  }
  const std::vector<double> v = at_ranks(ranks);
  auto at = [&](size_t i) {
    return interpolate_percentile(v[2 * i], v[2 * i + 1], indices[i].gamma);
  };
  Distribution d;
  d.count = n;
  d.mean = mean_;
  d.std = std::sqrt(m2_ / static_cast<double>(n));
  d.median = d.p50 = at(0);
  d.p90 = at(1);
  d.p95 = at(2);
  d.p99 = at(3);
  d.min = min_;
  d.max = max_;
  return d;
}

}  // namespace lb::metrics
