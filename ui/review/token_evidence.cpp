#include "ui/review/token_evidence.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>

#include "core/compare/token_divergence.h"
#include "core/record/file_fields.h"
#include "core/record/tokens_file.h"

namespace lb::ui {
namespace {

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
QString direction_text(const record::CrossDirection& d, const QString& what) {
  if (!d.scored) return what + ": " + QString::fromStdString(d.reason);
  QStringList parts;
  if (d.top1_agreement)
    parts << QObject::tr("top-1 agreement %1").arg(*d.top1_agreement, 0, 'f', 4);
  if (d.mean_kl_nats) parts << QObject::tr("KL %1 nats").arg(*d.mean_kl_nats, 0, 'g', 3);
  return parts.isEmpty() ? QString() : what + ": " + parts.join(" · ");
}

QString cross_text(const record::TokenPair& p) {
  QStringList out;
  if (p.candidate_under_baseline)
    out << direction_text(*p.candidate_under_baseline, QObject::tr("candidate under baseline"));
  if (p.baseline_under_candidate)
    out << direction_text(*p.baseline_under_candidate, QObject::tr("baseline under candidate"));
  out.removeAll(QString());
  if (out.isEmpty() && p.cross_whole)
    out << direction_text(*p.cross_whole, QObject::tr("cross-scores"));
  out.removeAll(QString());
  if (out.isEmpty()) out << direction_text(p.flat, QObject::tr("cross-scores"));
  out.removeAll(QString());
  return out.join("  |  ");
}

void take_from_report(const record::TokensFile& report, TokenEvidence& out) {
  out.near_tie_margin_nats = report.near_tie_margin_nats.value_or(out.near_tie_margin_nats);
  out.top_k = static_cast<int>(report.top_k.value_or(out.top_k));
  for (const record::TokenPair& p : report.pairs) {
    if (p.index < 0 || p.index >= static_cast<int64_t>(out.prompts.size())) continue;
    PromptTokens& t = out.prompts[static_cast<size_t>(p.index)];
    t.cause = QString::fromStdString(p.cause);
    t.reason = QString::fromStdString(p.reason);
    t.token_index = p.token_index;
    t.margin_nats = p.baseline_margin_nats.value_or(kNaN);
    t.cross_scores = cross_text(p);
  }
}

// The run's own analysis of the pair, when tokens.json is there and readable.
bool read_tokens_json(const QString& tokens_json, TokenEvidence& out) {
  QFile file(tokens_json);
  if (tokens_json.isEmpty() || !file.open(QIODevice::ReadOnly)) return false;
  record::FileFields f(QFileInfo(tokens_json).fileName().toStdString());
  const record::TokensFile report = record::read_tokens_file_text(file.readAll().toStdString(), f);
  if (report.has_pairs) take_from_report(report, out);
  for (const std::string& d : f.damage()) out.damage << QString::fromStdString(d);
  return report.has_pairs && !f.damaged();
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
