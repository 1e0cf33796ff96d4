#include "ui/review/sampled_review_data.h"

#include <QDir>
#include <QFile>

#include "core/record/sampled_file.h"

namespace lb::ui {
namespace {

// "3/16" from the lane's fact loss; "?" when the lane is missing.
QString sampled_lost_of(const std::map<std::string, record::SampledFactLoss>& fact_lost,
                        const QString& lane) {
  const auto it = fact_lost.find(lane.toStdString());
  if (it == fact_lost.end()) return "?";
  return QString("%1/%2").arg(it->second.lost).arg(it->second.samples);
}

SampledPromptView prompt_of(const record::SampledPromptRecord& p, const QString& lane_a,
                            const QString& lane_b) {
  SampledPromptView v;
  v.index = p.index;
  v.id = QString::fromStdString(p.id);
  v.result = QString::fromStdString(p.result);
  v.q_value = p.q_value;
  v.fact_loss = QString::fromStdString(p.fact_loss_text);
  if (p.fact_lost)
    v.fact_loss_counts =
        QObject::tr("%1 vs %2")
            .arg(sampled_lost_of(*p.fact_lost, lane_b), sampled_lost_of(*p.fact_lost, lane_a));
  for (size_t d = 0; d < p.pairs.size(); ++d)
    for (const record::SampledPairRatio& pair : p.pairs[d])
      v.pairs[d].push_back({pair.i, pair.j, pair.ratio});
  return v;
}

// The verdicts saved earlier, or none yet; a verdicts file that cannot be read is said.
void read_verdicts(const QDir& dir, const QString& file, SampledReviewData& d) {
  // sampled.json -> sampled-review.json, sampled.X.json -> sampled-review.X.json
  QString review = file;
  review.replace(0, QString("sampled").size(), "sampled-review");
  d.review_path = dir.filePath(review);
  std::string why;
  if (auto record = compare::load_sampled_review(d.review_path.toStdString(), &why)) {
    d.record = std::move(*record);
    return;
  }
  if (QFile::exists(d.review_path))
    d.damage << QObject::tr("damaged: %1: %2")
                    .arg(review, QString::fromStdString(why).remove(d.review_path + ": "));
  d.record.lane_a = d.lane_a.toStdString();
  d.record.lane_b = d.lane_b.toStdString();
  for (const auto& p : d.prompts)
    d.record.prompts.push_back({p.index, p.id.toStdString(), p.result.toStdString(),
                                compare::Verdict::Unreviewed, "", std::nullopt});
}

}  // namespace

std::pair<std::string, std::string> SampledReviewData::texts(
    size_t prompt, SampleDistribution d, const compare::SamplePair& pair) const {
  auto at = [prompt](const std::vector<std::vector<std::string>>& s, size_t k) {
    return prompt < s.size() && k < s[prompt].size() ? s[prompt][k] : std::string();
  };
  switch (d) {
    case SampleDistribution::WithinA:
      return {at(samples_a, pair.i), at(samples_a, pair.j)};
    case SampleDistribution::WithinB:
      return {at(samples_b, pair.i), at(samples_b, pair.j)};
    case SampleDistribution::Cross:
      break;
  }
  return {at(samples_a, pair.i), at(samples_b, pair.j)};
}

QStringList sampled_review_files(const QString& run_dir) {
  return QDir(run_dir).entryList({"sampled.json", "sampled.*.json"}, QDir::Files, QDir::Name);
}

namespace {

bool read_sampled(const QString& run_dir, const QString& file, SampledReviewData* out,
                  QString* error) {
  const std::string dir = QFile::encodeName(run_dir).toStdString();
  std::string why;
  const auto sampled = record::read_sampled_file(dir, file.toStdString(), &why);
  auto a = sampled ? record::read_lane_samples(dir, sampled->baseline, &why) : std::nullopt;
  auto b = a ? record::read_lane_samples(dir, sampled->candidate, &why) : std::nullopt;
  if (!b) {
    *error = QString::fromStdString(why);
    return false;
  }
  SampledReviewData d;
  d.lane_a = QString::fromStdString(sampled->baseline);
  d.lane_b = QString::fromStdString(sampled->candidate);
  d.samples_a = std::move(*a);
  d.samples_b = std::move(*b);
  for (const record::SampledPromptRecord& p : sampled->prompts)
    d.prompts.push_back(prompt_of(p, d.lane_a, d.lane_b));
  for (const std::string& line : sampled->damage) d.damage << QString::fromStdString(line);
  read_verdicts(QDir(run_dir), file, d);
  *out = std::move(d);
  return true;
}

}  // namespace

// Called from the Review page's slots: whatever a file from elsewhere makes a reader throw is
// the error shown in place.
bool load_sampled_review_data(const QString& run_dir, const QString& file, SampledReviewData* out,
                              QString* error) {
  try {
    return read_sampled(run_dir, file, out, error);
  } catch (const std::exception& e) {
    *error = QString("damaged: %1: %2").arg(file, e.what());
    return false;
  }
}

}  // namespace lb::ui
