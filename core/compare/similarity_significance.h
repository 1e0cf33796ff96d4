#pragma once
// The sampled review's statistics: a permutation test on a matrix of pairwise similarities, and
// the Benjamini–Hochberg step-up procedure that keeps the false discovery rate across prompts.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lb::compare {

// Similarities of every pair of n samples (symmetric, diagonal unused), row-major n × n.
struct SimilarityMatrix {
  size_t n = 0;
  std::vector<double> values;
  double at(size_t i, size_t j) const { return values[i * n + j]; }
};

// Mean within-group similarity (pairs of group A and pairs of group B pooled) minus mean
// cross-group similarity; group[i] is 0 (A) or 1 (B). Positive when the groups differ.
double within_minus_cross(const SimilarityMatrix& m, const std::vector<uint8_t>& group);

struct PermutationResult {
  double statistic = 0;  // within_minus_cross of the observed labels
  double p_value = 1;    // (1 + permutations at least as large) / (1 + permutations)
  int permutations = 0;
};

// One-sided test that cross-group similarity is lower than within-group: the first n_a samples
// are group A, the rest group B; labels are shuffled `permutations` times with a fixed seed.
// Fewer than 2 samples in a group gives p = 1 and 0 permutations.
PermutationResult permutation_test(const SimilarityMatrix& m, size_t n_a, int permutations,
                                   uint64_t seed);

// Benjamini–Hochberg adjusted p-values (q-values), in input order; a hypothesis is rejected at
// false discovery rate q when its adjusted value is <= q.
std::vector<double> benjamini_hochberg(const std::vector<double>& p_values);

}  // namespace lb::compare
