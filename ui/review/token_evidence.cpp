#include "ui/review/token_evidence.h"

#include <QFile>
#include <QObject>
#include <nlohmann/json.hpp>

#include "compare/token_divergence.h"

namespace lb::ui {
namespace {

using nlohmann::json;

std::vector<logprobs::PromptLogprobs> read_lines(const QString& path, QString& note) {
  QFile file(path);
  if (!file.exists()) return {};
  if (!file.open(QIODevice::ReadOnly)) {
    note = QObject::tr("%1 could not be opened.").arg(path);
    return {};
  }
  const QByteArray bytes = file.readAll();
  std::string error;
  auto lines = logprobs::parse_lines(std::string_view(bytes.constData(), bytes.size()), error);
  if (!error.empty()) note = QObject::tr("%1: %2").arg(path, QString::fromStdString(error));
  return lines;
}

logprobs::PromptLogprobs line_for(const std::vector<logprobs::PromptLogprobs>& lines, size_t i) {
  for (const auto& l : lines)
    if (l.index == static_cast<int64_t>(i)) return l;
  logprobs::PromptLogprobs none;
  none.index = static_cast<int64_t>(i);
  none.status = "not_run";
  return none;
}

double number_or_nan(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>()
                                          : std::numeric_limits<double>::quiet_NaN();
}

// One direction of a pair's teacher-forced scores, when it was scored.
QString direction_text(const json& d, const QString& what) {
  if (!d.is_object()) return {};
  if (d.value("status", std::string("ok")) != "ok")
    return what + ": " + QString::fromStdString(d.value("reason", std::string("not scored")));
  QStringList parts;
  const double agreement = number_or_nan(d, "top1_agreement");
  if (!std::isnan(agreement)) parts << QObject::tr("top-1 agreement %1").arg(agreement, 0, 'f', 4);
  double kl = number_or_nan(d, "mean_kl_nats");
  if (std::isnan(kl)) kl = number_or_nan(d, "kl");
  if (!std::isnan(kl)) parts << QObject::tr("KL %1 nats").arg(kl, 0, 'g', 3);
  return parts.isEmpty() ? QString() : what + ": " + parts.join(" · ");
}

QString cross_text(const json& pair) {
  QStringList out;
  if (const auto it = pair.find("cross_score"); it != pair.end() && it->is_object()) {
    const QString b_under_a = direction_text(it->value("candidate_under_baseline", json()),
                                             QObject::tr("candidate under baseline"));
    const QString a_under_b = direction_text(it->value("baseline_under_candidate", json()),
                                             QObject::tr("baseline under candidate"));
    for (const QString& s : {b_under_a, a_under_b})
      if (!s.isEmpty()) out << s;
    if (out.isEmpty()) out << direction_text(*it, QObject::tr("cross-scores"));
  }
  if (out.isEmpty()) out << direction_text(pair, QObject::tr("cross-scores"));  // flat fields
  out.removeAll(QString());
  return out.join("  |  ");
}

void take_from_report(const json& report, TokenEvidence& out) {
  const json& th = report.value("thresholds", json::object());
  out.near_tie_margin_nats = th.value("near_tie_margin_nats", out.near_tie_margin_nats);
  out.top_k = th.value("top_k", out.top_k);
  for (const json& p : report.value("pairs", json::array())) {
    if (!p.is_object() || !p.contains("index") || !p["index"].is_number_integer()) continue;
    const auto i = p["index"].get<int64_t>();
    if (i < 0 || static_cast<size_t>(i) >= out.prompts.size()) continue;
    PromptTokens& t = out.prompts[static_cast<size_t>(i)];
    t.cause = QString::fromStdString(p.value("class", std::string()));
    t.reason = QString::fromStdString(p.value("reason", std::string()));
    t.token_index = p.value("token_index", int64_t(-1));
    t.margin_nats = number_or_nan(p, "baseline_margin_nats");
    t.cross_scores = cross_text(p);
  }
}

}  // namespace

QString logprob_text(double logprob) {
  if (!std::isfinite(logprob)) return QObject::tr("no usable logprob");
  return QObject::tr("logprob %1 (p %2)").arg(logprob, 0, 'f', 3).arg(std::exp(logprob), 0, 'f', 3);
}

TokenEvidence load_token_evidence(const QString& logprobs_a, const QString& logprobs_b,
                                  const QString& tokens_json,
                                  const std::vector<std::string>& texts_a,
                                  const std::vector<std::string>& texts_b) {
  TokenEvidence out;
  const auto lines_a = read_lines(logprobs_a, out.note);
  const auto lines_b = read_lines(logprobs_b, out.note);
  if (lines_a.empty() && lines_b.empty()) {
    if (out.note.isEmpty())
      out.note = QObject::tr("No token evidence: the run recorded no logprobs for these lanes.");
    return out;
  }
  const size_t n = std::min(texts_a.size(), texts_b.size());
  out.prompts.resize(n);
  for (size_t i = 0; i < n; ++i) {
    out.prompts[i].a = line_for(lines_a, i);
    out.prompts[i].b = line_for(lines_b, i);
    if (out.top_k == 0) out.top_k = std::max(out.prompts[i].a.top_k, out.prompts[i].b.top_k);
  }
  QFile file(tokens_json);
  if (!tokens_json.isEmpty() && file.open(QIODevice::ReadOnly)) {
    const json report = json::parse(file.readAll().toStdString(), nullptr, false);
    if (report.is_object() && report.contains("pairs")) {
      take_from_report(report, out);
      out.source = QStringLiteral("tokens.json");
      return out;
    }
  }
  const compare::DivergenceThresholds th{out.near_tie_margin_nats, out.top_k};
  for (size_t i = 0; i < n; ++i) {
    PromptTokens& t = out.prompts[i];
    const auto* a = t.a.status == "ok" ? &t.a : nullptr;
    const auto* b = t.b.status == "ok" ? &t.b : nullptr;
    const compare::TokenDivergence d =
        compare::analyse_token_divergence(a, b, texts_a[i], texts_b[i], th);
    t.cause = QString::fromLatin1(compare::to_string(d.cls));
    t.reason = QString::fromStdString(d.reason);
    t.token_index = d.token_index;
    if (d.baseline_margin_nats) t.margin_nats = *d.baseline_margin_nats;
  }
  out.source = QObject::tr("computed from the logprobs files");
  return out;
}

}  // namespace lb::ui
