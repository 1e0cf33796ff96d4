#include "core/compare/similarity_significance.h"

#include <algorithm>
#include <numeric>

#include "core/metrics/bootstrap_random.h"

namespace lb::compare {

double within_minus_cross(const SimilarityMatrix& m, const std::vector<uint8_t>& group) {
  double within = 0, cross = 0;
  size_t n_within = 0, n_cross = 0;
  for (size_t i = 0; i < m.n; ++i) {
    const double* row = m.values.data() + i * m.n;
    for (size_t j = i + 1; j < m.n; ++j) {
      if (group[i] == group[j]) {
        within += row[j];
        ++n_within;
      } else {
        cross += row[j];
        ++n_cross;
      }
    }
  }
  if (n_within == 0 || n_cross == 0) return 0;
  return within / double(n_within) - cross / double(n_cross);
}

PermutationResult permutation_test(const SimilarityMatrix& m, size_t n_a, int permutations,
                                   uint64_t seed) {
  PermutationResult out;
  if (n_a < 2 || m.n < n_a + 2) return out;
  std::vector<uint8_t> group(m.n, 1);
  std::fill(group.begin(), group.begin() + static_cast<long>(n_a), uint8_t{0});
  out.statistic = within_minus_cross(m, group);
  // Ties with the observed value count as at least as large; the tolerance absorbs the
  // different summation orders of equal sets of pairs.
  const double bar = out.statistic - 1e-12;
  metrics::BootstrapRng rng(seed);
  int as_large = 0;
  for (int k = 0; k < permutations; ++k) {
    for (size_t i = m.n - 1; i > 0; --i) std::swap(group[i], group[rng.index(i + 1)]);
    as_large += within_minus_cross(m, group) >= bar ? 1 : 0;
  }
  out.permutations = permutations;
  out.p_value = double(1 + as_large) / double(1 + permutations);
  return out;
}

std::vector<double> benjamini_hochberg(const std::vector<double>& p_values) {
  const size_t n = p_values.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return p_values[a] < p_values[b]; });
  std::vector<double> q(n, 1.0);
  double running = 1.0;
  for (size_t r = n; r-- > 0;) {
    const size_t i = order[r];
    running = std::min(running, p_values[i] * double(n) / double(r + 1));
    q[i] = std::min(1.0, running);
  }
  return q;
}

}  // namespace lb::compare
