#include "ui/decision/gate_rows.h"

#include <algorithm>

#include <QObject>
#include <QString>
#include <cmath>
#include <optional>

#include "core/metrics/trial_intervals.h"

namespace lb::ui {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// Fixed decimals for speeds and latencies; three significant digits for figures that span
// magnitudes (joules per token, dollars per million tokens).
QString format(double v, bool significant = false) {
  if (!std::isfinite(v)) return QStringLiteral("–");
  if (significant) return QString::number(v, 'g', 3);
  return QString::number(v, 'f', std::abs(v) >= 100 ? 0 : 1);
}

// One figure of a phase, NaN when the phase is missing or could not measure it.
using Figure = double (*)(const metrics::LaneSummary&);

// "412.7 [410.2, 415.0]" when the phase has the figure's bootstrap interval, the bounds in the
// figure's decimals.
QString format_with_interval(const record::PhaseRecord* phase, Figure figure,
                             const char* interval_key, bool significant) {
  double v = phase ? figure(phase->figures) : NAN;
  if (v < 0) v = NAN;  // a figure the phase could not measure
  const QString text = format(v, significant);
  const record::Interval* interval = phase ? phase->interval(interval_key) : nullptr;
  if (!std::isfinite(v) || !interval || !interval->known()) return text;
  if (significant)
    return text +
           QStringLiteral(" [%1, %2]").arg(format(interval->lo, true), format(interval->hi, true));
  const int decimals = std::abs(v) >= 100 ? 0 : 1;
  return text + QStringLiteral(" [%1, %2]")
                    .arg(QString::number(interval->lo, 'f', decimals),
                         QString::number(interval->hi, 'f', decimals));
}

// "faster" / "slower", or what the figure says instead ("less energy", "cheaper").
QString verdict_text(const record::Comparison& c) {
  return QString::fromLatin1(metrics::verdict_text(c.figure, c.verdict));
}

// "×1.79 [1.77, 1.80] faster": the candidate-to-baseline ratio, its interval and the verdict;
// "×0.96, no interval" when a side had too few values for one (no verdict then).
QString ratio_text(const record::Comparison& c) {
  if (!std::isfinite(c.ratio)) return {};
  QString text = QStringLiteral("\u00d7%1").arg(QString::number(c.ratio, 'f', 2));
  if (!c.interval_known()) return text + QObject::tr(", no interval");
  text +=
      QStringLiteral(" [%1, %2]").arg(QString::number(c.lo, 'f', 2), QString::number(c.hi, 'f', 2));
  if (c.verdict != metrics::Verdict::Unknown) text += " " + verdict_text(c);
  return text;
}

// A figure of one phase per lane, with its interval; a candidate's cell adds its ratio to the
// first lane with that ratio's interval and verdict on a second line (the full statement is the
// tooltip).
models::GateRowView figure_row(const QString& label, const record::ExperimentSection& e,
                               const std::vector<std::string>& lanes, const std::string& phase,
                               Figure figure, const char* interval_key, bool significant = false) {
  models::GateRowView row{label, true, {}, q(e.name)};
  for (const std::string& lane : lanes) {
    models::GateCellView cell{
        QString(), format_with_interval(e.phase(lane, phase), figure, interval_key, significant),
        QString(), QString()};
    if (const record::Comparison* c = e.comparison(lane, phase, interval_key)) {
      if (const QString ratio = ratio_text(*c); !ratio.isEmpty()) cell.text += "\n" + ratio;
      cell.detail = q(c->statement);
      // The tint follows the verdict; the text words it for the figure.
      if (c->verdict != metrics::Verdict::Unknown)
        cell.verdict = QString::fromLatin1(metrics::to_string(c->verdict));
    }
    row.cells.push_back(std::move(cell));
  }
  return row;
}

// The phases to set side by side: with several lanes, those that at least two of them ran (a
// regression's determinism floor runs passes on its baseline alone, with nothing to compare).
std::vector<std::string> compared_phases(const record::ExperimentSection& e,
                                         const std::vector<std::string>& lanes) {
  size_t lanes_run = 0;
  for (const std::string& lane : lanes) lanes_run += e.lane(lane) != nullptr ? 1 : 0;
  std::vector<std::string> out;
  for (const std::string& phase : e.phase_order(lanes)) {
    size_t ran = 0;
    for (const std::string& lane : lanes) ran += e.phase(lane, phase) != nullptr ? 1 : 0;
    if (ran >= std::min<size_t>(2, lanes_run)) out.push_back(phase);
  }
  return out;
}

// Best output throughput over the compared phases of each lane, with the phase it was reached
// at.
models::GateRowView peak_row(const QString& label, const record::ExperimentSection& e,
                             const std::vector<std::string>& lanes,
                             const std::vector<std::string>& phases) {
  models::GateRowView row{label, true, {}, q(e.name)};
  for (const std::string& lane : lanes) {
    double best = NAN;
    std::string at;
    if (const record::LaneRecord* l = e.lane(lane))
      for (const record::PhaseRecord& p : l->phases) {
        if (std::find(phases.begin(), phases.end(), p.name) == phases.end()) continue;
        const double v = p.figures.output_throughput;
        if (std::isfinite(v) && (std::isnan(best) || v > best)) {
          best = v;
          at = p.name;
        }
      }
    row.cells.push_back(
        {QString(), format(best), at.empty() ? QString() : QObject::tr("at %1").arg(q(at))});
  }
  return row;
}

// A cell's text in the table: a pending cell's detail up to its first clause ("review pending: 10
// pair(s)"), so that one long statement does not widen its lane's column; the whole detail is the
// cell's tooltip.
QString short_cell_text(const report::GateCell& cell) {
  const QString text = q(report::cell_text(cell));
  if (cell.status != report::GateStatus::NotRun) return text;
  const qsizetype clause = text.indexOf("; ");
  return clause > 0 && text.size() > 60 ? text.left(clause) + QString::fromUtf8(" …") : text;
}

bool any_lane_has(const record::ExperimentSection& e, const std::vector<std::string>& lanes,
                  const std::string& phase, const metrics::TrialFigure& figure) {
  return std::any_of(lanes.begin(), lanes.end(), [&](const std::string& lane) {
    const record::PhaseRecord* p = e.phase(lane, phase);
    return p && figure.of(p->figures) >= 0;
  });
}

// Energy per output token and cost per million output tokens, where a lane of the phase
// measured them (docs/metrics.md, "Energy", "Cost").
void add_energy_and_cost_rows(std::vector<models::GateRowView>& rows,
                              const record::ExperimentSection& e,
                              const std::vector<std::string>& lanes, const std::string& phase,
                              const QString& at) {
  const metrics::TrialFigure* energy = metrics::find_trial_figure("joules_per_output_token");
  if (energy && any_lane_has(e, lanes, phase, *energy)) {
    models::GateRowView row = figure_row(QObject::tr("Energy per output token (J)%1").arg(at), e,
                                         lanes, phase, energy->of, energy->key, true);
    // A lane without an energy source, or whose readings gave no total, says so and why.
    for (size_t i = 0; i < lanes.size() && i < row.cells.size(); ++i) {
      const record::PhaseRecord* p = e.phase(lanes[i], phase);
      if (const auto gap = p ? p->energy_gap() : std::nullopt) {
        row.cells[i].text = q(gap->status);
        row.cells[i].detail = q(gap->why);
      }
    }
    rows.push_back(std::move(row));
  }
  const metrics::TrialFigure* cost = metrics::find_trial_figure("usd_per_million_output_tokens");
  if (cost && any_lane_has(e, lanes, phase, *cost))
    rows.push_back(figure_row(QObject::tr("Cost per 1M output tokens ($)%1").arg(at), e, lanes,
                              phase, cost->of, cost->key, true));
}

}  // namespace

std::vector<models::GateRowView> gate_rows(const report::GateTable& table) {
  std::vector<models::GateRowView> rows;
  for (const report::GateRow& row : table.rows) {
    models::GateRowView view{q(row.label), false, {}, q(row.experiment)};
    for (const report::GateCell& cell : row.cells) {
      QString status = QString::fromLatin1(report::gate_status_name(cell.status));
      if (cell.status == report::GateStatus::NotRun && cell.detail == "baseline")
        status = "baseline";
      view.cells.push_back({status, short_cell_text(cell), q(cell.detail)});
    }
    rows.push_back(std::move(view));
  }
  return rows;
}

std::vector<models::GateRowView> floor_rows(const record::RunSummary& summary,
                                            const std::vector<std::string>& lanes) {
  auto count = [](double v) {
    return std::isfinite(v) ? QString::number(static_cast<qlonglong>(v)) : QString("–");
  };
  std::vector<models::GateRowView> rows;
  for (const record::ExperimentSection* e : summary.of_kind(record::ExperimentKind::Regression)) {
    const std::optional<record::DeterminismFloor> floor = e->determinism_floor();
    if (!floor) continue;
    const std::vector<record::FloorVerdictRecord> verdicts = e->floor_verdicts();
    models::GateRowView row{
        QObject::tr("Answers against the baseline's determinism floor"), true, {}, q(e->name)};
    for (const std::string& lane : lanes) {
      models::GateCellView cell;
      if (lane == floor->lane) {
        cell.text = QObject::tr("floor %1 of %2")
                        .arg(count(floor->floor.flips))
                        .arg(count(floor->floor.prompts_compared));
        cell.detail = QObject::tr(
            "The baseline's own answers changed on this many prompts "
            "(repeated, batched, warm against cold cache)");
      }
      for (const record::FloorVerdictRecord& v : verdicts) {
        if (v.candidate != lane) continue;
        cell.text = std::isfinite(v.p_value)
                        ? QObject::tr("%1 (p = %2)").arg(q(v.verdict)).arg(v.p_value, 0, 'g', 2)
                        : q(v.verdict);
        cell.detail = q(v.text);
      }
      row.cells.push_back(std::move(cell));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<models::GateRowView> performance_rows(const record::RunSummary& summary,
                                                  const std::vector<std::string>& lanes) {
  std::vector<models::GateRowView> rows;
  for (const record::ExperimentSection& e : summary.experiments) {
    // Gates have no figures; a determinism floor's passes measure answers, not speed.
    if (e.is(record::ExperimentKind::Gates) || e.is(record::ExperimentKind::Determinism)) continue;
    const std::vector<std::string> phases = compared_phases(e, lanes);
    if (phases.empty()) continue;
    // Every phase: each context size, cold and warm, each concurrency level.
    for (const std::string& phase : phases) {
      const QString at = phases.size() > 1 ? QObject::tr(" at %1").arg(q(phase)) : QString();
      rows.push_back(figure_row(
          QObject::tr("TTFT median (ms)%1").arg(at), e, lanes, phase,
          [](const metrics::LaneSummary& s) { return s.ttft_ms.median; }, "median_ttft_ms"));
      rows.push_back(figure_row(
          QObject::tr("Decode median (tok/s)%1").arg(at), e, lanes, phase,
          [](const metrics::LaneSummary& s) { return s.decode_tok_s.median; },
          "median_decode_tok_s"));
      rows.push_back(figure_row(
          QObject::tr("E2E latency p50 (ms)%1").arg(at), e, lanes, phase,
          [](const metrics::LaneSummary& s) { return s.e2el_ms.p50; }, "median_e2el_ms"));
      add_energy_and_cost_rows(rows, e, lanes, phase, at);
    }
    rows.push_back(peak_row(QObject::tr("Best output throughput (tok/s)"), e, lanes, phases));
  }
  return rows;
}

}  // namespace lb::ui
