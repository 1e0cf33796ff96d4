#include "ui/review/review_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <nlohmann/json.hpp>

#include "compare/pair_comparison.h"
#include "compare/run_reviews.h"
#include "compare/texts_file.h"

namespace lb::ui {
namespace {

nlohmann::json read_json(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return nullptr;
  return nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
}

QString check_text(const plan::PromptSpec* prompt, const compare::CheckResult& r) {
  const QString what =
      prompt && r.check_index < prompt->checks.size()
          ? QString::fromStdString(plan::describe_check(prompt->checks[r.check_index]))
          : QString::fromLatin1(compare::check_status_name(r.status));
  return r.detail.empty() ? what : what + " — " + QString::fromStdString(r.detail);
}

// The lanes of the run's plan that have regression outputs, in plan order.
QStringList lanes_with_texts(const QString& run_dir, const nlohmann::json& plan) {
  QStringList lanes;
  if (!plan.is_object()) return lanes;
  for (const auto& lane : plan.value("lanes", nlohmann::json::array())) {
    if (!lane.is_object() || !lane.contains("id") || !lane["id"].is_string()) continue;
    const std::string id = lane["id"].get<std::string>();
    if (QFileInfo::exists(
            QString::fromStdString(compare::lane_texts_path(run_dir.toStdString(), id))))
      lanes << QString::fromStdString(id);
  }
  return lanes;
}

// The prompt set the run's first regression answered ("" when it has none).
std::string regression_prompts(const nlohmann::json& plan) {
  if (!plan.is_object()) return {};
  for (const auto& exp : plan.value("experiments", nlohmann::json::array()))
    if (exp.is_object() && exp.value("kind", "") == "regression")
      return exp.value("prompts", std::string("builtin:regression-20"));
  return {};
}

// The regression's batch-variant prompts per lane, from its load baseline.
void read_batch_variant(const nlohmann::json& summary, std::map<QString, std::set<size_t>>& out) {
  if (!summary.is_object() || !summary.contains("experiments")) return;
  for (const auto& exp : summary["experiments"]) {
    if (!exp.is_object() || exp.value("kind", "") != "regression" || !exp.contains("lanes") ||
        !exp["lanes"].is_object())
      continue;
    for (const auto& [lane, section] : exp["lanes"].items()) {
      const auto* list = section.is_object() && section.contains("load_baseline")
                             ? &section["load_baseline"]
                             : nullptr;
      if (!list || !list->is_object() || !list->contains("batch_variant")) continue;
      auto& indexes = out[QString::fromStdString(lane)];
      for (const auto& v : (*list)["batch_variant"])
        if (v.is_object() && v.contains("index") && v["index"].is_number_unsigned())
          indexes.insert(v["index"].get<size_t>());
    }
    return;
  }
}

}  // namespace

bool open_review_source(const QString& run_dir, ReviewSource* source, QString* error) {
  ReviewSource out;
  out.run_dir = run_dir;
  const nlohmann::json plan = read_json(QDir(run_dir).filePath("plan.json"));
  QStringList plan_lanes;
  if (plan.is_object()) {
    for (const auto& lane : plan.value("lanes", nlohmann::json::array()))
      if (lane.is_object() && lane.contains("id") && lane["id"].is_string())
        plan_lanes << QString::fromStdString(lane["id"].get<std::string>());
    for (const auto& exp : plan.value("experiments", nlohmann::json::array())) {
      if (!exp.is_object() || exp.value("kind", "") != "regression") continue;
      out.prompt_set_ref = exp.value("prompts", std::string("builtin:regression-20"));
      if (exp.contains("similarity_threshold") && exp["similarity_threshold"].is_number())
        out.threshold = exp["similarity_threshold"].get<double>();
      break;
    }
  }
  read_batch_variant(read_json(QDir(run_dir).filePath("summary.json")), out.batch_variant);
  for (const QString& lane : plan_lanes)
    if (QFileInfo::exists(QString::fromStdString(
            compare::lane_texts_path(run_dir.toStdString(), lane.toStdString()))))
      out.lanes << lane;
  if (out.lanes.size() < 2) {
    *error = QObject::tr(
                 "This run has no regression outputs to compare (it needs the texts of "
                 "two or more lanes in %1/texts).")
                 .arg(run_dir);
    return false;
  }
  if (!out.prompt_set_ref.empty()) {
    plan::PromptSetResult set = plan::load_prompt_set(out.prompt_set_ref);
    if (set.ok())
      out.prompts = std::move(set.set);
    else
      out.warning = QObject::tr("Prompt set %1 could not be loaded; fact checks are not shown.")
                        .arg(QString::fromStdString(out.prompt_set_ref));
  }
  *source = std::move(out);
  return true;
}

QString ReviewSource::texts_path(const QString& lane) const {
  for (const auto& [name, path] : other_runs)
    if (name == lane) return path;
  return QString::fromStdString(
      compare::lane_texts_path(run_dir.toStdString(), lane.toStdString()));
}

QStringList add_other_run(ReviewSource& source, const QString& other_run_dir, QString* error) {
  const nlohmann::json plan = read_json(QDir(other_run_dir).filePath("plan.json"));
  const QString run_name = QDir(other_run_dir).dirName();
  const QStringList lanes = lanes_with_texts(other_run_dir, plan);
  if (lanes.isEmpty()) {
    *error = QObject::tr("%1 has no regression outputs to compare with.").arg(other_run_dir);
    return {};
  }
  const std::string prompts = regression_prompts(plan);
  if (prompts != source.prompt_set_ref) {
    *error = QObject::tr(
                 "%1 answered the prompt set %2, this run %3: their outputs cannot be "
                 "paired prompt by prompt.")
                 .arg(run_name, QString::fromStdString(prompts),
                      QString::fromStdString(source.prompt_set_ref));
    return {};
  }
  QStringList added;
  for (const QString& lane : lanes) {
    const QString name = run_name + ":" + lane;
    if (source.lanes.contains(name)) continue;
    source.other_runs.emplace_back(name, QString::fromStdString(compare::lane_texts_path(
                                             other_run_dir.toStdString(), lane.toStdString())));
    source.lanes << name;
    added << name;
  }
  if (added.isEmpty()) *error = QObject::tr("The lanes of %1 are already listed.").arg(run_name);
  return added;
}

QString review_path_for(const QString& run_dir, const QString& a, const QString& b) {
  const auto files = compare::read_review_files(run_dir.toStdString());
  return QDir(run_dir).filePath(QString::fromStdString(
      compare::review_file_for_pair(files, a.toStdString(), b.toStdString())));
}

QString logprobs_path_for(const ReviewSource& source, const QString& lane) {
  // texts/<lane>.texts.json and logprobs/<lane>.jsonl sit side by side in a run folder.
  QDir run = QFileInfo(source.texts_path(lane)).dir();
  run.cdUp();
  const QString id = lane.contains(':') ? lane.section(':', -1) : lane;
  return run.filePath("logprobs/" + id + ".jsonl");
}

QString tokens_json_for(const ReviewSource& source, const QString& a, const QString& b) {
  QStringList own;
  for (const QString& lane : source.lanes)
    if (!lane.contains(':')) own << lane;
  if (own.isEmpty() || a != own.front() || !own.contains(b) || a == b) return {};
  const QString several = QDir(source.run_dir).filePath("tokens." + b + ".json");
  if (QFileInfo::exists(several)) return several;
  return own.size() == 2 ? QDir(source.run_dir).filePath("tokens.json") : QString();
}

bool load_pair(const ReviewSource& source, const QString& a, const QString& b, LoadedPair* out,
               QString* error) {
  const compare::TextsResult ta = compare::load_texts_file(source.texts_path(a).toStdString());
  const compare::TextsResult tb = compare::load_texts_file(source.texts_path(b).toStdString());
  if (!ta.ok() || !tb.ok()) {
    *error = QString::fromStdString(!ta.ok() ? ta.error : tb.error);
    return false;
  }
  if (ta.texts->size() != tb.texts->size()) {
    *error = QObject::tr("%1 has %2 outputs and %3 has %4: they cannot be paired")
                 .arg(a)
                 .arg(ta.texts->size())
                 .arg(b)
                 .arg(tb.texts->size());
    return false;
  }
  const plan::PromptSet* prompts =
      source.prompts && source.prompts->prompts.size() == ta.texts->size() ? &*source.prompts
                                                                           : nullptr;
  // Every review file of the run that holds this pair: verdicts carry over from all of them.
  const auto files = compare::read_review_files(source.run_dir.toStdString());
  const QString path = QDir(source.run_dir)
                           .filePath(QString::fromStdString(compare::review_file_for_pair(
                               files, a.toStdString(), b.toStdString())));
  LoadedPair pair{a, b, *ta.texts, *tb.texts, {}, path};
  pair.record = compare::make_review(
      a.toStdString(), b.toStdString(), source.prompt_set_ref, source.threshold,
      compare::compare_lanes(pair.texts_a, pair.texts_b, prompts, source.threshold));
  for (auto& review : pair.record.pairs) {
    for (const QString& lane : {a, b}) {
      const auto it = source.batch_variant.find(lane);
      if (it != source.batch_variant.end() && it->second.count(review.comparison.index))
        review.batch_variant.push_back(lane.toStdString());
    }
  }
  if (const auto previous = compare::review_for_pair(files, a.toStdString(), b.toStdString()))
    compare::carry_over_verdicts(pair.record, *previous);
  pair.tokens = load_token_evidence(logprobs_path_for(source, a), logprobs_path_for(source, b),
                                    tokens_json_for(source, a, b), pair.texts_a, pair.texts_b);
  *out = std::move(pair);
  return true;
}

models::ReviewPair review_row(const compare::PairReview& review, const ReviewSource& source) {
  const compare::PairComparison& c = review.comparison;
  models::ReviewPair row;
  row.index = static_cast<int>(c.index);
  row.prompt_id = QString::fromStdString(c.prompt_id);
  const plan::PromptSpec* prompt = source.prompts && c.index < source.prompts->prompts.size()
                                       ? &source.prompts->prompts[c.index]
                                       : nullptr;
  if (prompt) {
    row.category = QString::fromStdString(prompt->category);
    row.prompt = QString::fromStdString(prompt->prompt);
    if (row.prompt.isEmpty() && !prompt->messages.empty())
      row.prompt = QString::fromStdString(prompt->messages.back().content);
  }
  row.ratio = c.triage.ratio;
  row.triage = QString::fromLatin1(compare::triage_name(c.triage.triage));
  for (const std::string& label : c.triage.labels())
    row.triage += " · " + QString::fromStdString(label);
  if (c.unsupported()) {
    QStringList lanes;
    for (const std::string& lane : c.unsupported_by) lanes << QString::fromStdString(lane);
    row.triage = QObject::tr("unsupported by the lane (%1)").arg(lanes.join(", "));
  }
  row.flipped_fact = c.blocker_candidate();
  for (const compare::CheckResult& r : c.checks_a)
    if (r.status != compare::CheckStatus::Pass) row.failed_checks << "A: " + check_text(prompt, r);
  for (const compare::CheckResult& r : c.checks_b)
    if (r.status != compare::CheckStatus::Pass) row.failed_checks << "B: " + check_text(prompt, r);
  row.verdict = review.verdict == compare::Verdict::Unreviewed
                    ? QString()
                    : QString::fromLatin1(compare::verdict_name(review.verdict));
  row.note = QString::fromStdString(review.note);
  for (const std::string& lane : review.batch_variant)
    row.batch_variant << QString::fromStdString(lane);
  return row;
}

std::vector<models::ReviewPair> review_rows(const LoadedPair& pair, const ReviewSource& source) {
  std::vector<models::ReviewPair> rows;
  for (const compare::PairReview& review : pair.record.pairs) {
    models::ReviewPair row = review_row(review, source);
    if (const PromptTokens* t = pair.tokens.at(static_cast<size_t>(row.index))) {
      row.cause = t->cause;
      row.margin_nats = t->margin_nats;
      row.divergence_token = t->token_index;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace lb::ui
