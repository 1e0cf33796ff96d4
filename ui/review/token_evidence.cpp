#include "ui/review/token_evidence.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <nlohmann/json.hpp>

#include "core/compare/token_divergence.h"
#include "core/record/file_fields.h"

namespace lb::ui {
namespace {

using nlohmann::json;

std::vector<logprobs::PromptLogprobs> read_lines(const QString& path, TokenEvidence& out) {
  QFile file(path);
  if (!file.exists()) return {};
  const QString name = "logprobs/" + QFileInfo(path).fileName();
  if (!file.open(QIODevice::ReadOnly)) {
    out.damage << QObject::tr("damaged: %1: cannot be opened").arg(name);
    out.note = out.damage.back();
    return {};
  }
  const QByteArray bytes = file.readAll();
  std::string error;
  auto lines = logprobs::parse_lines(std::string_view(bytes.constData(), bytes.size()), error);
  if (!error.empty()) {
    out.damage << QObject::tr("damaged: %1: %2").arg(name, QString::fromStdString(error));
    out.note = out.damage.back();
  }
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

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One direction of a pair's teacher-forced scores, when it was scored.
QString direction_text(const json& d, const std::string& path, record::FileFields& f,
                       const QString& what) {
  if (!d.is_object()) return {};
  if (f.string(d, path, "status", "ok") != "ok")
    return what + ": " + QString::fromStdString(f.string(d, path, "reason", "not scored"));
  QStringList parts;
  const double agreement = f.number(d, path, "top1_agreement", kNaN);
  if (!std::isnan(agreement)) parts << QObject::tr("top-1 agreement %1").arg(agreement, 0, 'f', 4);
  double kl = f.number(d, path, "mean_kl_nats", kNaN);
  if (std::isnan(kl)) kl = f.number(d, path, "kl", kNaN);
  if (!std::isnan(kl)) parts << QObject::tr("KL %1 nats").arg(kl, 0, 'g', 3);
  return parts.isEmpty() ? QString() : what + ": " + parts.join(" · ");
}

QString cross_text(const json& pair, const std::string& path, record::FileFields& f) {
  QStringList out;
  if (pair.contains("cross_score")) {
    const json& cross = f.object(pair, path, "cross_score");
    const std::string at = path + ".cross_score";
    out << direction_text(f.object(cross, at, "candidate_under_baseline"),
                          at + ".candidate_under_baseline", f,
                          QObject::tr("candidate under baseline"))
        << direction_text(f.object(cross, at, "baseline_under_candidate"),
                          at + ".baseline_under_candidate", f,
                          QObject::tr("baseline under candidate"));
    out.removeAll(QString());
    if (out.isEmpty() && !cross.empty())
      out << direction_text(cross, at, f, QObject::tr("cross-scores"));
  }
  if (out.isEmpty()) out << direction_text(pair, path, f, QObject::tr("cross-scores"));  // flat
  out.removeAll(QString());
  return out.join("  |  ");
}

void take_pair(const json& p, const std::string& path, record::FileFields& f, TokenEvidence& out) {
  if (!f.expect_object(p, path)) return;
  const double index = f.number(p, path, "index", -1);
  if (!p.contains("index") || !p["index"].is_number_integer() || index < 0 ||
      index >= static_cast<double>(out.prompts.size()))
    return;
  PromptTokens& t = out.prompts[static_cast<size_t>(index)];
  t.cause = QString::fromStdString(f.string(p, path, "class"));
  t.reason = QString::fromStdString(f.string(p, path, "reason"));
  t.token_index = static_cast<int64_t>(f.number(p, path, "token_index", -1));
  t.margin_nats = f.number(p, path, "baseline_margin_nats", kNaN);
  t.cross_scores = cross_text(p, path, f);
}

void take_from_report(const json& report, record::FileFields& f, TokenEvidence& out) {
  const json& th = f.object(report, "", "thresholds");
  out.near_tie_margin_nats =
      f.number(th, "thresholds", "near_tie_margin_nats", out.near_tie_margin_nats);
  out.top_k = static_cast<int>(f.number(th, "thresholds", "top_k", out.top_k));
  const json& pairs = f.array(report, "", "pairs");
  for (size_t i = 0; i < pairs.size(); ++i)
    take_pair(pairs[i], record::FileFields::item_path("", "pairs", i), f, out);
}

// The run's own analysis of the pair, when tokens.json is there and readable.
bool read_tokens_json(const QString& tokens_json, TokenEvidence& out) {
  QFile file(tokens_json);
  if (tokens_json.isEmpty() || !file.open(QIODevice::ReadOnly)) return false;
  record::FileFields f(QFileInfo(tokens_json).fileName().toStdString());
  const json report = f.parse_object(file.readAll().toStdString());
  if (report.contains("pairs")) take_from_report(report, f, out);
  for (const std::string& d : f.damage()) out.damage << QString::fromStdString(d);
  return report.contains("pairs") && !f.damaged();
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
  const auto lines_a = read_lines(logprobs_a, out);
  const auto lines_b = read_lines(logprobs_b, out);
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
  // A damaged tokens.json is said (damage) and the evidence computed from the logprobs instead.
  if (read_tokens_json(tokens_json, out)) {
    out.source = QStringLiteral("tokens.json");
    return out;
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
