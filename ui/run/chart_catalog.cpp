#include "ui/run/chart_catalog.h"

#include <QCheckBox>
#include <QObject>

#include "widgets/chart/chart_panel.h"
#include "widgets/lane_palette.h"

namespace lb::ui {

using widgets::AxisSpec;
using widgets::ChartKind;
using widgets::ChartPanel;
using widgets::HistogramSpec;

namespace {

struct ChartDefinition {
  ChartKind kind;
  QString title;
  AxisSpec x;
  AxisSpec y;
};

// Value-axis titles stay short: in a quarter of a 1440 x 900 window the plot is about 110 pixels
// high, and a longer title is cut to "Share of eve…".
ChartDefinition definition(RunChart chart) {
  const AxisSpec share{QObject::tr("Events"), "%"};
  const AxisSpec prompt{QObject::tr("Prompt length"), "tokens"};
  const AxisSpec concurrency{QObject::tr("Concurrency"), "streams"};
  const AxisSpec ttft_ms{QObject::tr("TTFT"), "ms"};
  const AxisSpec decode{QObject::tr("Decode"), "tok/s"};
  const AxisSpec output{QObject::tr("Output"), "tok/s"};
  switch (chart) {
    case RunChart::OutputRate:
      return {ChartKind::Line,
              QObject::tr("Aggregate output throughput"),
              {QObject::tr("Time since start"), "s"},
              output};
    case RunChart::TtftPerRequest:
      return {ChartKind::Scatter,
              QObject::tr("TTFT per request"),
              {QObject::tr("Sent at"), "s"},
              ttft_ms};
    case RunChart::Itl:
      return {ChartKind::Histogram,
              QObject::tr("Inter-token latency distribution"),
              {QObject::tr("ITL per event"), "ms"},
              share};
    case RunChart::TokensPerEvent:
      return {ChartKind::Histogram,
              QObject::tr("Tokens per event (MTP signature)"),
              {QObject::tr("Tokens in one streamed event"), ""},
              share};
    case RunChart::DecodeVsContext:
      return {ChartKind::Line, QObject::tr("Decode rate vs context length"), prompt, decode};
    case RunChart::TtftVsContext:
      return {ChartKind::Line,
              QObject::tr("TTFT vs context length"),
              prompt,
              {QObject::tr("TTFT"), "s"}};
    case RunChart::TtftPerPass:
      return {ChartKind::Scatter,
              QObject::tr("TTFT per pass (prefix cache)"),
              {QObject::tr("Pass: 1 cold · 2 warm · 3 control"), ""},
              ttft_ms};
    case RunChart::DecodeVsConcurrency:
      return {ChartKind::Line, QObject::tr("Decode rate per concurrency (median)"), concurrency,
              decode};
    case RunChart::OutputVsConcurrency:
      return {ChartKind::Line, QObject::tr("Aggregate output per concurrency"), concurrency,
              output};
    case RunChart::Pareto:
      return {ChartKind::Line,
              QObject::tr("Pareto: per-user decode vs total output"),
              {QObject::tr("Total output"), "tok/s"},
              {QObject::tr("Per user, p50"), "tok/s"}};
    case RunChart::TraceLateness:
      return {ChartKind::Scatter,
              QObject::tr("Send lateness against the trace schedule"),
              {QObject::tr("Scheduled at, since the lane started"), "s"},
              {QObject::tr("Sent − scheduled"), "ms"}};
    case RunChart::TtftByTurn:
      return {ChartKind::Line,
              QObject::tr("TTFT by turn (median)"),
              {QObject::tr("Turn of the session"), ""},
              ttft_ms};
    case RunChart::CapacityProbes:
      return {ChartKind::Line,
              QObject::tr("Capacity search: load of each probe"),
              {QObject::tr("Probe"), ""},
              {QObject::tr("Load"), "streams"}};
    case RunChart::CapacityTtft:
      return {ChartKind::Line,
              QObject::tr("Capacity search: TTFT p99 by load"),
              {QObject::tr("Probe load"), "streams"},
              {QObject::tr("TTFT p99"), "ms"}};
    case RunChart::CapacityTpot:
      return {ChartKind::Line,
              QObject::tr("Capacity search: TPOT p99 by load"),
              {QObject::tr("Probe load"), "streams"},
              {QObject::tr("TPOT p99"), "ms"}};
  }
  return {ChartKind::Line, QString(), {}, {}};
}

}  // namespace

ChartPanel* make_run_chart(RunChart chart, std::shared_ptr<widgets::LanePalette> palette,
                           const QString& empty_text, QWidget* parent) {
  const ChartDefinition d = definition(chart);
  auto* panel = new ChartPanel(d.kind, std::move(palette), parent);
  panel->set_title(d.title);
  panel->set_axes(d.x, d.y);
  panel->set_empty_text(empty_text);
  panel->setFocusPolicy(Qt::ClickFocus);
  if (chart == RunChart::Itl) panel->set_histogram_spec({HistogramSpec::Mode::Linear, 16, 0.99});
  if (chart == RunChart::TokensPerEvent)
    panel->set_histogram_spec({HistogramSpec::Mode::Integer, 5, 1.0});
  return panel;
}

void name_time_axes(widgets::ChartPanel* output_rate, widgets::ChartPanel* ttft, bool lane_time) {
  output_rate->set_axes(
      {lane_time ? QObject::tr("Time since the lane started") : QObject::tr("Time since start"),
       "s"},
      output_rate->y_axis());
  ttft->set_axes(
      {lane_time ? QObject::tr("Sent at, since the lane started") : QObject::tr("Sent at"), "s"},
      ttft->y_axis());
}

std::vector<QPointF> since_lane_start(std::vector<QPointF> points, double lane_start_s) {
  for (QPointF& p : points) p.setX(p.x() - lane_start_s);
  return points;
}

std::vector<widgets::XSpan> since_lane_start(std::vector<widgets::XSpan> spans,
                                             double lane_start_s) {
  for (widgets::XSpan& s : spans) {
    s.x0 -= lane_start_s;
    s.x1 -= lane_start_s;
  }
  return spans;
}

std::map<QString, std::vector<widgets::XSpan>> steady_windows(
    const record::ExperimentSection& section, const PhaseStart& phase_start) {
  std::map<QString, std::vector<widgets::XSpan>> out;
  for (const record::LaneRecord& lane : section.lanes) {
    const QString id = QString::fromStdString(lane.id);
    for (const record::PhaseRecord& phase : lane.phases) {
      const auto window = phase.steady_window();
      const auto start = window ? phase_start(id, phase.name) : std::nullopt;
      if (!start) continue;
      out[id].push_back(
          {*start + window->start_s, *start + window->end_s, window->output_throughput});
    }
  }
  return out;
}

// "Aggregate output throughput" with its windows: short enough not to be cut off in a quarter
// of a 1440-pixel window.
QString output_rate_title(const QString& base, bool steady_windows) {
  if (!steady_windows) return base;
  QString shorter = base;
  shorter.remove(QStringLiteral("Aggregate "));
  if (!shorter.isEmpty()) shorter[0] = shorter[0].toUpper();
  return QObject::tr("%1, steady windows shaded").arg(shorter);
}

QCheckBox* make_lane_time_box(QWidget* parent) {
  auto* box = new QCheckBox(QObject::tr("Overlay &lanes: time since each lane started"), parent);
  box->setToolTip(
      QObject::tr("Lanes that ran one after another are drawn over each other, each on its own "
                  "clock. Clear it for wall time since the run started."));
  box->setChecked(true);
  return box;
}

}  // namespace lb::ui
