#include "ui/pages/lane_prober.h"

#include <QCoreApplication>
#include <QObject>
#include <QStringList>
#include <atomic>

#include "core/run/lanes/lane_preparation.h"

namespace lb::ui {
namespace {

class CollectingSink final : public run::RunSink {
 public:
  void on_request_done(const metrics::RequestRecord&) override {}
  void on_progress(const run::RunProgress&) override {}
  void on_message(run::MessageLevel, const std::string& text) override {
    lines << QString::fromStdString(text);
  }
  QStringList lines;
};

QString describe(const run::LaneRuntime& lane) {
  const run::ProbeReport& p = lane.probe;
  QStringList lines;
  lines << QObject::tr("Server: %1 %2")
               .arg(QString::fromLatin1(metrics::to_string(p.kind)),
                    QString::fromStdString(p.version));
  lines << QObject::tr("Dialect: %1")
               .arg(p.dialect == net::Dialect::OpenAiChat ? "OpenAI chat completions" : "other");
  lines << QObject::tr("Model: %1").arg(QString::fromStdString(lane.endpoint.model));
  const int64_t ctx = p.max_context_tokens();
  lines << QObject::tr("Max context: %1")
               .arg(ctx > 0 ? QString::number(ctx) + " tokens" : "not reported");
  QStringList families;
  for (const std::string& f : p.metrics_families) families << QString::fromStdString(f);
  lines << QObject::tr("Metrics: %1")
               .arg(p.metrics_available ? (families.isEmpty() ? "yes" : families.join(", "))
                                        : QObject::tr("none (/metrics not available)"));
  if (p.models.size() > 1) {
    QStringList ids;
    for (const run::ModelInfo& m : p.models) ids << QString::fromStdString(m.id);
    lines << QObject::tr("Models served: %1").arg(ids.join(", "));
  }
  return lines.join('\n');
}

// Set when the application quits: probes still waiting on a slow or silent server are
// cancelled, so the pool's threads (joined at exit) finish at once instead of at their timeouts.
std::atomic<bool> g_quitting{false};

}  // namespace

ProbeOutcome probe_lane_blocking(const plan::Lane& lane, const plan::Environment& env) {
  plan::Plan plan;
  plan.name = "probe";
  plan.lanes = {lane};
  net::ClientOptions options;
  options.cancel_when = &g_quitting;
  net::StreamClient client(options);
  CollectingSink sink;
  run::LanePreparation prepared = run::prepare_lanes(plan, client, sink, g_quitting, env);
  ProbeOutcome out;
  if (!prepared.errors.empty() || prepared.lanes.empty()) {
    QStringList errors;
    for (const std::string& e : prepared.errors) errors << QString::fromStdString(e);
    out.text =
        errors.isEmpty() ? QObject::tr("The lane could not be prepared.") : errors.join('\n');
    return out;
  }
  out.ok = true;
  out.text = describe(prepared.lanes.front());
  out.model = QString::fromStdString(prepared.lanes.front().endpoint.model);
  return out;
}

QThreadPool& probe_pool() {
  static QThreadPool pool;
  static const bool once = [] {
    net::StreamClient::global_init();  // here, on the GUI thread, not in the first probe
    pool.setMaxThreadCount(4);  // several lanes probed at once; each mostly waits on the network
    if (QCoreApplication* app = QCoreApplication::instance())
      QObject::connect(app, &QCoreApplication::aboutToQuit, [] { g_quitting.store(true); });
    return true;
  }();
  (void)once;
  return pool;
}

}  // namespace lb::ui
