#include "ui/decision/gate_rows.h"

#include <QObject>
#include <QString>
#include <cmath>

namespace lb::ui {
namespace {

using nlohmann::json;

QString q(const std::string& s) { return QString::fromStdString(s); }

const json* phase_of(const json& experiment, const std::string& lane, const std::string& phase) {
  if (!experiment.contains("lanes") || !experiment["lanes"].is_object()) return nullptr;
  const auto l = experiment["lanes"].find(lane);
  if (l == experiment["lanes"].end() || !l->contains("phases") || !(*l)["phases"].is_object())
    return nullptr;
  const auto p = (*l)["phases"].find(phase);
  return p == (*l)["phases"].end() || !p->is_object() ? nullptr : &*p;
}

// The experiment's phases in run order, from the first lane that lists them.
std::vector<std::string> phase_order(const json& experiment,
                                     const std::vector<std::string>& lanes) {
  for (const std::string& lane : lanes) {
    if (!experiment.contains("lanes") || !experiment["lanes"].contains(lane)) continue;
    const json& section = experiment["lanes"][lane];
    if (!section.contains("phase_order") || !section["phase_order"].is_array()) continue;
    std::vector<std::string> order;
    for (const json& p : section["phase_order"])
      if (p.is_string()) order.push_back(p.get<std::string>());
    if (!order.empty()) return order;
  }
  return {};
}

// A string field of a hand-editable file: a field of the wrong type reads as empty.
std::string text_at(const json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_at(const json* phase, const char* key) {
  if (!phase) return NAN;
  const auto it = phase->find(key);
  return it != phase->end() && it->is_number() ? it->get<double>() : NAN;
}

QString format(double v) {
  if (std::isnan(v)) return QStringLiteral("–");
  return QString::number(v, 'f', std::abs(v) >= 100 ? 0 : 1);
}

// "412.7 [410.2, 415.0]" when the phase has the figure's bootstrap interval (its "intervals"),
// the bounds in the figure's decimals.
QString format_with_interval(const json* phase, const char* key, const char* interval_key) {
  const double v = number_at(phase, key);
  const QString text = format(v);
  if (std::isnan(v) || !phase->contains("intervals") || !(*phase)["intervals"].is_object())
    return text;
  const json& intervals = (*phase)["intervals"];
  const auto it = intervals.find(interval_key);
  if (it == intervals.end() || !it->is_object()) return text;
  const double lo = number_at(&*it, "lo"), hi = number_at(&*it, "hi");
  if (std::isnan(lo) || std::isnan(hi)) return text;
  const int decimals = std::abs(v) >= 100 ? 0 : 1;
  return text + QStringLiteral(" [%1, %2]")
                    .arg(QString::number(lo, 'f', decimals), QString::number(hi, 'f', decimals));
}

// This lane's comparison with the first lane on the figure (an entry of the experiment's
// "comparisons"); nullptr for the first lane or when there is none.
const json* comparison_of(const json& experiment, const std::string& lane, const std::string& phase,
                          const char* interval_key) {
  const auto c = experiment.find("comparisons");
  if (c == experiment.end() || !c->is_array()) return nullptr;
  for (const json& entry : *c) {
    if (!entry.is_object() || text_at(entry, "candidate") != lane ||
        text_at(entry, "phase") != phase || text_at(entry, "figure") != interval_key)
      continue;
    return &entry;
  }
  return nullptr;
}

// "×1.79 [1.77, 1.80] faster": the candidate-to-baseline ratio, its interval and the verdict;
// "×0.96, no interval" when a side had too few values for one (no verdict then).
QString ratio_text(const json& comparison) {
  const double ratio = number_at(&comparison, "ratio");
  if (std::isnan(ratio)) return {};
  QString text = QStringLiteral("\u00d7%1").arg(QString::number(ratio, 'f', 2));
  const double lo = number_at(&comparison, "lo"), hi = number_at(&comparison, "hi");
  if (std::isnan(lo) || std::isnan(hi)) return text + QObject::tr(", no interval");
  text += QStringLiteral(" [%1, %2]").arg(QString::number(lo, 'f', 2), QString::number(hi, 'f', 2));
  const std::string verdict = text_at(comparison, "verdict");
  if (!verdict.empty() && verdict != "n/a") text += " " + q(verdict);
  return text;
}

// A figure of one phase per lane, with its interval; a candidate's cell adds its ratio to the
// first lane with that ratio's interval and verdict on a second line (the full statement is the
// tooltip).
models::GateRowView figure_row(const QString& label, const QString& name, const json& experiment,
                               const std::vector<std::string>& lanes, const std::string& phase,
                               const char* key, const char* interval_key) {
  models::GateRowView row{label, true, {}, name};
  for (const std::string& lane : lanes) {
    models::GateCellView cell{
        QString(), format_with_interval(phase_of(experiment, lane, phase), key, interval_key),
        QString(), QString()};
    if (const json* c = comparison_of(experiment, lane, phase, interval_key)) {
      if (const QString ratio = ratio_text(*c); !ratio.isEmpty()) cell.text += "\n" + ratio;
      cell.detail = q(text_at(*c, "statement"));
      cell.verdict = q(text_at(*c, "verdict"));
    }
    row.cells.push_back(std::move(cell));
  }
  return row;
}

// Best output throughput over the phases of each lane, with the phase it was reached at.
models::GateRowView peak_row(const QString& label, const QString& name, const json& experiment,
                             const std::vector<std::string>& lanes,
                             const std::vector<std::string>& phases) {
  models::GateRowView row{label, true, {}, name};
  for (const std::string& lane : lanes) {
    double best = NAN;
    std::string at;
    for (const std::string& phase : phases) {
      const double v = number_at(phase_of(experiment, lane, phase), "output_throughput");
      if (!std::isnan(v) && (std::isnan(best) || v > best)) {
        best = v;
        at = phase;
      }
    }
    row.cells.push_back(
        {QString(), format(best), at.empty() ? QString() : QObject::tr("at %1").arg(q(at))});
  }
  return row;
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
      view.cells.push_back({status, q(report::cell_text(cell)), q(cell.detail)});
    }
    rows.push_back(std::move(view));
  }
  return rows;
}

std::vector<models::GateRowView> performance_rows(const json& summary,
                                                  const std::vector<std::string>& lanes,
                                                  report::FileFields& f) {
  std::vector<models::GateRowView> rows;
  const json& experiments = f.array(summary, "", "experiments");
  for (size_t i = 0; i < experiments.size(); ++i) {
    const json& e = experiments[i];
    const std::string path = report::FileFields::item_path("", "experiments", i);
    if (!f.expect_object(e, path) || f.string(e, path, "kind") == "gates") continue;
    const std::vector<std::string> phases = phase_order(e, lanes);
    if (phases.empty()) continue;
    const QString name = q(f.string(e, path, "name"));
    // Every phase: each context size, cold and warm, each concurrency level.
    for (const std::string& phase : phases) {
      const QString at = phases.size() > 1 ? QObject::tr(" at %1").arg(q(phase)) : QString();
      rows.push_back(figure_row(QObject::tr("TTFT median (ms)%1").arg(at), name, e, lanes, phase,
                                "median_ttft_ms", "median_ttft_ms"));
      rows.push_back(figure_row(QObject::tr("Decode median (tok/s)%1").arg(at), name, e, lanes,
                                phase, "median_decode_tok_s", "median_decode_tok_s"));
      rows.push_back(figure_row(QObject::tr("E2E latency p50 (ms)%1").arg(at), name, e, lanes,
                                phase, "p50_e2el_ms", "median_e2el_ms"));
    }
    rows.push_back(peak_row(QObject::tr("Best output throughput (tok/s)"), name, e, lanes, phases));
  }
  return rows;
}

}  // namespace lb::ui
