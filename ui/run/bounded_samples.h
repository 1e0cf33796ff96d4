#pragma once
// Chart data that stays the same size however long a run goes on, so a drain of the live charts
// costs what arrived, not what came before.
//  - ReservoirSample: a uniform random sample of at most `capacity` values (Li's Algorithm L:
//    it draws how many values to skip before the next one is taken, so a value that is not taken
//    costs a comparison, not a random number; fixed seed, so the same input draws the same
//    sample). Histograms bin it.
//  - ThinnedPoints: scatter points sorted by x, every stride-th one kept; when more than
//    `capacity` are kept, every other one goes and the stride doubles.
#include <QPointF>
#include <cstdint>
#include <random>
#include <vector>

namespace lb::ui {

class ReservoirSample {
 public:
  explicit ReservoirSample(size_t capacity = 10'000) : capacity_(capacity) {}
  void add(double value);
  const std::vector<double>& values() const { return values_; }
  int64_t seen() const { return seen_; }

 private:
  double uniform();  // in (0, 1)
  void draw_next();  // the index of the next value to take
  size_t capacity_;
  int64_t seen_ = 0;
  int64_t next_ = 0;  // once full, the value with this index (0-based) is taken next
  double w_ = 1;      // Algorithm L's running weight
  std::vector<double> values_;
  std::mt19937_64 rng_{20261201};
};

class ThinnedPoints {
 public:
  explicit ThinnedPoints(size_t capacity = 300) : capacity_(capacity) {}
  void add(QPointF point);
  const std::vector<QPointF>& points() const { return points_; }
  int64_t stride() const { return stride_; }  // 1 = every point kept

 private:
  size_t capacity_;
  int64_t seen_ = 0;
  int64_t stride_ = 1;
  std::vector<QPointF> points_;
};

// Inserts p keeping `points` sorted by x (after any equal x).
void insert_sorted(std::vector<QPointF>& points, QPointF p);

}  // namespace lb::ui
