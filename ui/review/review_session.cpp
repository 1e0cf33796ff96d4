#include "ui/review/review_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <optional>

#include "core/compare/pair_comparison.h"
#include "core/compare/run_reviews.h"
#include "core/compare/texts_file.h"
#include "core/record/regression_inputs.h"

namespace lb::ui {
namespace {

QStringList to_qt(const std::vector<std::string>& lines) {
  QStringList out;
  for (const std::string& line : lines) out << QString::fromStdString(line);
  return out;
}

QString check_text(const plan::PromptSpec* prompt, const compare::CheckResult& r) {
  const QString what =
      prompt && r.check_index < prompt->checks.size()
          ? QString::fromStdString(plan::describe_check(prompt->checks[r.check_index]))
          : QString::fromLatin1(compare::check_status_name(r.status));
  return r.detail.empty() ? what : what + " — " + QString::fromStdString(r.detail);
}

// What the review needs of plan.json: its lanes and its first regression.
struct ReviewPlan {
  QStringList lanes;           // lanes[].id in plan order
  std::string prompt_set_ref;  // of the first regression; "" without one
  double threshold = compare::kDefaultNearIdenticalThreshold;
};

// plan.json of a run folder; what is of the wrong kind is noted in *damage under `label`.
ReviewPlan read_review_plan(const QString& run_dir, const std::string& label, QStringList* damage) {
  const record::RegressionPlanInputs in =
      record::read_regression_plan_inputs(QFile::encodeName(run_dir).toStdString(), label);
  ReviewPlan out;
  out.lanes = to_qt(in.lanes);
  out.prompt_set_ref = in.prompt_set_ref;
  out.threshold = in.similarity_threshold.value_or(out.threshold);
  *damage << to_qt(in.damage);
  return out;
}

// The lanes of the plan that have regression outputs, in plan order.
QStringList lanes_with_texts(const QString& run_dir, const QStringList& plan_lanes) {
  QStringList lanes;
  for (const QString& lane : plan_lanes)
    if (QFileInfo::exists(QString::fromStdString(
            compare::lane_texts_path(run_dir.toStdString(), lane.toStdString()))))
      lanes << lane;
  return lanes;
}

// The regression's batch-variant prompts per lane, from its load baseline in summary.json.
void read_batch_variant(const QString& run_dir, std::map<QString, std::set<size_t>>& out,
                        QStringList* damage) {
  std::vector<std::string> noted;
  for (auto& [lane, indexes] :
       record::read_batch_variant_prompts(QFile::encodeName(run_dir).toStdString(), noted))
    out[QString::fromStdString(lane)] = std::move(indexes);
  *damage << to_qt(noted);
}

}  // namespace

bool open_review_source(const QString& run_dir, ReviewSource* source, QString* error) {
  ReviewSource out;
  out.run_dir = run_dir;
  const ReviewPlan plan = read_review_plan(run_dir, "plan.json", &out.damage);
  out.prompt_set_ref = plan.prompt_set_ref;
  out.threshold = plan.threshold;
  read_batch_variant(run_dir, out.batch_variant, &out.damage);
  out.lanes = lanes_with_texts(run_dir, plan.lanes);
  if (out.lanes.size() < 2) {
    *error = QObject::tr(
                 "This run has no regression outputs to compare (it needs the texts of "
                 "two or more lanes in %1/texts).")
                 .arg(run_dir);
    if (!out.damage.isEmpty()) *error = out.damage.join("\n") + "\n" + *error;
    source->damage = out.damage;
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
  const QString run_name = QDir(other_run_dir).dirName();
  QStringList damage;
  const ReviewPlan plan =
      read_review_plan(other_run_dir, run_name.toStdString() + "/plan.json", &damage);
  const QStringList lanes = lanes_with_texts(other_run_dir, plan.lanes);
  if (lanes.isEmpty()) {
    *error = QObject::tr("%1 has no regression outputs to compare with.").arg(other_run_dir);
    if (!damage.isEmpty()) *error = damage.join("\n") + "\n" + *error;
    return {};
  }
  const std::string& prompts = plan.prompt_set_ref;
  if (prompts != source.prompt_set_ref) {
    *error = QObject::tr(
                 "%1 answered the prompt set %2, this run %3: their outputs cannot be "
                 "paired prompt by prompt.")
                 .arg(run_name, QString::fromStdString(prompts),
                      QString::fromStdString(source.prompt_set_ref));
    return {};
  }
  source.damage << damage;
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

namespace {

// "damaged: texts/fp8.texts.json: what" from a core reader's "PATH: what" (PATH inside run_dir).
QString damaged(const QString& run_dir, const QString& path, const std::string& error) {
  const QString file = QDir(run_dir).relativeFilePath(path);
  QString what = QString::fromStdString(error);
  if (what.startsWith(path + ": ")) what = what.mid(path.size() + 2);
  return QString("damaged: %1: %2").arg(file, what);
}

bool read_pair_texts(const ReviewSource& source, const QString& a, const QString& b,
                     LoadedPair& pair, QString* error) {
  const QString path_a = source.texts_path(a), path_b = source.texts_path(b);
  const compare::TextsResult ta = compare::load_texts_file(path_a.toStdString());
  const compare::TextsResult tb = compare::load_texts_file(path_b.toStdString());
  if (!ta.ok() || !tb.ok()) {
    *error = !ta.ok() ? damaged(source.run_dir, path_a, ta.error)
                      : damaged(source.run_dir, path_b, tb.error);
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
  pair.texts_a = *ta.texts;
  pair.texts_b = *tb.texts;
  return true;
}

void mark_batch_variant(const ReviewSource& source, LoadedPair& pair) {
  for (auto& review : pair.record.pairs) {
    for (const QString& lane : {pair.lane_a, pair.lane_b}) {
      const auto it = source.batch_variant.find(lane);
      if (it != source.batch_variant.end() && it->second.count(review.comparison.index))
        review.batch_variant.push_back(lane.toStdString());
    }
  }
}

bool compare_pair(const ReviewSource& source, const QString& a, const QString& b, LoadedPair* out,
                  QString* error) {
  // Every review file of the run that holds this pair: verdicts carry over from all of them.
  const auto files = compare::read_review_files(source.run_dir.toStdString());
  const QString path = QDir(source.run_dir)
                           .filePath(QString::fromStdString(compare::review_file_for_pair(
                               files, a.toStdString(), b.toStdString())));
  LoadedPair pair{a, b, {}, {}, {}, path};
  if (!read_pair_texts(source, a, b, pair, error)) return false;
  const plan::PromptSet* prompts =
      source.prompts && source.prompts->prompts.size() == pair.texts_a.size() ? &*source.prompts
                                                                              : nullptr;
  pair.record = compare::make_review(
      a.toStdString(), b.toStdString(), source.prompt_set_ref, source.threshold,
      compare::compare_lanes(pair.texts_a, pair.texts_b, prompts, source.threshold));
  mark_batch_variant(source, pair);
  if (const auto previous = compare::review_for_pair(files, a.toStdString(), b.toStdString()))
    compare::carry_over_verdicts(pair.record, *previous);
  pair.tokens = load_token_evidence(logprobs_path_for(source, a), logprobs_path_for(source, b),
                                    tokens_json_for(source, a, b), pair.texts_a, pair.texts_b);
  pair.damage << pair.tokens.damage;
  *out = std::move(pair);
  return true;
}

}  // namespace

// Runs on a pool thread and its result is taken in a slot: whatever a file from elsewhere makes
// a reader throw becomes the error shown in place.
bool load_pair(const ReviewSource& source, const QString& a, const QString& b, LoadedPair* out,
               QString* error) {
  try {
    return compare_pair(source, a, b, out, error);
  } catch (const std::exception& e) {
    *error = QString("damaged: %1 or %2 of %3: %4")
                 .arg(QDir(source.run_dir).relativeFilePath(source.texts_path(a)),
                      QDir(source.run_dir).relativeFilePath(source.texts_path(b)),
                      QDir(source.run_dir).dirName(), e.what());
    return false;
  }
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
