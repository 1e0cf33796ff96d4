#pragma once
// The series of the traffic kinds' charts, folded one finished request at a time: a trace
// replay's send lateness against its schedule, sessions' median TTFT by turn, and a capacity
// search's probes with their p99 figures. The Run page (LiveRunData, from the engine's records)
// and a reopened run (StoredSeriesBuilder, from requests.jsonl) both feed this one fold, so a
// stored run's charts are the live ones. Memory is bounded whatever the number of requests, but
// for a capacity probe's exact figures (a probe is short).
#include <QPointF>
#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/metrics/order_statistics.h"
#include "core/plan/plan.h"
#include "core/record/experiment_kind.h"
#include "core/record/plan_headline.h"
#include "ui/run/bounded_samples.h"

namespace lb::ui {

// What the traffic charts need of one finished request.
struct TrafficRequest {
  std::optional<record::ExperimentKind> kind;  // its experiment's kind; none when not known
  QString phase;
  bool ok = false;
  bool warmup = false;
  int64_t turn = -1;  // 0-based turn of a session; -1 outside sessions
  double ttft_ms = -1;
  double tpot_ms = -1;
  int64_t t_sched_ns = -1;  // steady-clock stamps; <= 0 when unknown
  int64_t t_sent_ns = -1;
};

// One capacity probe phase ("c8", "r2.5"), as far as its finished requests go: its load and
// measured p99 figures (-1 = none yet), not judged (see run::judge_probe).
struct ProbeFigures {
  double load = 0;
  double ttft_p99_ms = -1;
  double tpot_p99_ms = -1;
  int64_t completed = 0;
  int64_t errors = 0;
};

// A capacity experiment's SLOs in ms (<= 0 = not set) and whether it searches a request rate.
using CapacitySlo = record::CapacityPlanSlo;

// The kind of each experiment of a plan, by the name its requests carry (the experiment's name,
// else its kind).
class ExperimentKinds {
 public:
  ExperimentKinds() = default;
  // A run folder's plan.json (resolved or not), as record::plan_headline_of reads it.
  static ExperimentKinds from(const record::PlanHeadline& plan);
  void add(const std::string& name, const std::string& kind) { kinds_[name] = kind; }
  // "NAME-2" is NAME's kind when NAME is known (an experiment appended under a name the run
  // had); any other unknown name is taken as a kind ("context_sweep"); nullopt for the rest.
  std::optional<record::ExperimentKind> kind_of(const std::string& experiment) const;

 private:
  std::map<std::string, std::string> kinds_;
};

// One lane's traffic series.
class TrafficSeries {
 public:
  static constexpr size_t kMaxLatenessPoints = 600;
  // Sessions' turns charted: as many as a plan's `turns` or `max_turns` may ask for (a line of a
  // run folder saying more, or a ShareGPT conversation run uncut past it, is left out of the
  // chart). And the TTFTs kept per turn, a uniform sample behind each median.
  static constexpr int64_t kMaxTurns = plan::SessionsExperiment::kMaxTurns;
  static constexpr size_t kTurnSample = 2000;

  // Failed requests count as a probe's errors; warm-ups count nowhere.
  void add(const TrafficRequest& request);

  // (scheduled stamp − origin in s, send lateness t_sent − t_sched in ms) per sent trace
  // request, by x; every lateness_stride()-th once there are many.
  std::vector<QPointF> lateness(int64_t origin_ns) const;
  int64_t lateness_stride() const { return lateness_.stride(); }
  // (turn number, 1 = the first, median TTFT in ms over that turn's requests), by turn.
  std::vector<QPointF> ttft_by_turn() const;
  // The capacity experiment's probes in the order they started.
  std::vector<ProbeFigures> capacity_probes() const;

  // "c8" -> 8, "r2.5" -> 2.5; NaN for anything else.
  static double probe_load(const QString& phase);

 private:
  struct Probe {
    QString phase;
    double load = 0;
    metrics::OrderStatistics ttft_ms, tpot_ms;
    int64_t completed = 0;
    int64_t errors = 0;
  };
  Probe& probe(const QString& phase, double load);

  ThinnedPoints lateness_{kMaxLatenessPoints};  // x: the scheduled stamp in ns
  std::vector<ReservoirSample> turn_ttft_ms_;   // per turn index
  std::vector<Probe> probes_;                   // in the order they started
};

}  // namespace lb::ui
