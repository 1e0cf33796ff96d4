#pragma once
// Plain descriptions of a chart, independent of the drawing backend.
#include <QString>
#include <QStringList>
#include <vector>

namespace lb::widgets {

enum class ChartKind {
  Line,       // x sorted (time, context length): one polyline per lane
  Scatter,    // one marker per sample (TTFT per request)
  Histogram,  // distribution per lane as grouped bars, in % of that lane's samples
};

struct AxisSpec {
  QString title;          // "Time"
  QString unit;           // "s"; shown as "Time (s)"
  bool from_zero = true;  // value axes start at 0 unless the data goes below
  QString label() const { return unit.isEmpty() ? title : title + " (" + unit + ")"; }
};

// How a series that belongs to no lane is drawn (ChartPanel::set_marks): a guide line (an SLO, a
// threshold) or markers over the lanes' points (pass or fail of a probe).
enum class MarkShape { DashedLine, Dot, Diamond };

// A point's 95 % interval on a line chart: drawn as a translucent band along the lane's line.
struct PointInterval {
  double x = 0;
  double lo = 0;
  double hi = 0;
};

// A stretch of the x axis shaded from 0 up to a level in a lane's colour: a phase's steady-state
// window at its steady throughput.
struct XSpan {
  double x0 = 0;
  double x1 = 0;
  double level = 0;
};

// How a histogram chart bins its raw samples (shared bins across lanes so bars line up).
struct HistogramSpec {
  enum class Mode { Integer, Linear };
  Mode mode = Mode::Linear;
  int bins = 16;  // Linear: number of bins; Integer: last bin is "N+"
  double clamp_quantile =
      0.99;  // Linear: the upper edge is this quantile; above goes to the last bin
};

// A histogram as the backend draws it: one value per category per lane.
struct BarData {
  QStringList categories;
  struct Set {
    QString name;
    std::vector<double> values;  // % of the lane's samples, one per category
  };
  std::vector<Set> sets;
};

}  // namespace lb::widgets
