#pragma once
// One definition of each run chart: its kind, title, axes with units and histogram binning. The
// Run page's live charts and a reopened run's stored charts both build their panels here, so a
// stored run always looks like the live one did.
#include <QPointF>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/record/run_summary.h"
#include "widgets/chart/chart_types.h"

class QCheckBox;
class QWidget;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

enum class RunChart {
  OutputRate,           // aggregate output tok/s over time
  TtftPerRequest,       // TTFT of each request by send time
  Itl,                  // inter-token latency distribution
  TokensPerEvent,       // tokens per streamed event, the MTP signature
  DecodeVsContext,      // decode rate by prompt length (context sweep)
  TtftVsContext,        // TTFT by prompt length (context sweep)
  TtftPerPass,          // TTFT per prefix-cache pass
  DecodeVsConcurrency,  // median decode rate per concurrency
  OutputVsConcurrency,  // aggregate output per concurrency
  Pareto,               // per-user decode rate against aggregate output, one point per level
  TraceLateness,        // send lateness of each trace request against its scheduled time
  TtftByTurn,           // median TTFT per turn of multi-turn sessions
  CapacityProbes,       // the load of each capacity probe in turn: the search narrowing
  CapacityTtft,         // p99 TTFT of each capacity probe against its load, with the SLO
  CapacityTpot,         // p99 TPOT of each capacity probe against its load, with the SLO
};

// A panel for `chart`, showing `empty_text` until it has data; focus by click only, so Tab
// moves between the page's controls rather than through every chart.
widgets::ChartPanel* make_run_chart(RunChart chart, std::shared_ptr<widgets::LanePalette> palette,
                                    const QString& empty_text, QWidget* parent);

// The time axes of the output-rate and TTFT-per-request charts: since each lane started (lanes
// that ran one after another overlay), or since the run started.
void name_time_axes(widgets::ChartPanel* output_rate, widgets::ChartPanel* ttft, bool lane_time);
// The check box that switches between the two, checked (lane time) by default.
QCheckBox* make_lane_time_box(QWidget* parent);
// A lane's time series on lane time: every x moved back by the lane's start (s since the run's).
std::vector<QPointF> since_lane_start(std::vector<QPointF> points, double lane_start_s);
std::vector<widgets::XSpan> since_lane_start(std::vector<widgets::XSpan> spans,
                                             double lane_start_s);

// The steady-state windows a throughput SECTION records, by lane, on the run's clock: each at its
// level's first send (PHASE_START: s since the run started, nullopt when the level sent nothing)
// and its steady output throughput. Live and reopened runs draw them the same way.
using PhaseStart =
    std::function<std::optional<double>(const QString& lane, const std::string& phase)>;
std::map<QString, std::vector<widgets::XSpan>> steady_windows(
    const record::ExperimentSection& section, const PhaseStart& phase_start);
// The output chart's title BASE, with what its shading is when it shows steady windows.
QString output_rate_title(const QString& base, bool steady_windows);

}  // namespace lb::ui
