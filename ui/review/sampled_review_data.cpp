#include "ui/review/sampled_review_data.h"

#include <QDir>
#include <QFile>
#include <nlohmann/json.hpp>

#include "core/record/file_fields.h"

namespace lb::ui {
namespace {

using nlohmann::json;

// A file of the run folder named as the page says it ("texts/fp8.samples.json").
bool read_json(const QDir& dir, const QString& file, json* out, QString* error) {
  QFile f(dir.filePath(file));
  if (!f.open(QIODevice::ReadOnly)) {
    *error = QObject::tr("damaged: %1: cannot be read").arg(file);
    return false;
  }
  const QByteArray bytes = f.readAll();
  *out = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
  if (out->is_discarded()) {
    *error = QObject::tr("damaged: %1: not valid JSON (cut short?)").arg(file);
    return false;
  }
  return true;
}

// texts/<lane>.samples.json: a list per prompt of its samples.
bool read_samples(const QDir& dir, const QString& lane, json* out, QString* error) {
  const QString file = "texts/" + lane + ".samples.json";
  if (!read_json(dir, file, out, error)) return false;
  if (out->is_array()) return true;
  *error = QObject::tr("damaged: %1: the file is %2, not a list")
               .arg(file, QString::fromLatin1(out->type_name()));
  return false;
}

std::vector<std::vector<std::string>> samples_of(const json& j) {
  std::vector<std::vector<std::string>> out;
  if (!j.is_array()) return out;
  for (const auto& prompt : j) {
    out.emplace_back();
    if (!prompt.is_array()) continue;
    for (const auto& s : prompt) out.back().push_back(s.is_string() ? s.get<std::string>() : "");
  }
  return out;
}

std::vector<compare::SamplePair> pairs_of(const json& j) {
  std::vector<compare::SamplePair> out;
  if (!j.is_array()) return out;
  for (const auto& p : j)
    if (p.is_array() && p.size() == 3 && p[0].is_number_unsigned() && p[1].is_number_unsigned() &&
        p[2].is_number())
      out.push_back({p[0].get<uint32_t>(), p[1].get<uint32_t>(), p[2].get<double>()});
  return out;
}

// "3/16" from {"lost": 3, "samples": 16}; "?" when the lane is missing.
QString sampled_lost_of(const json& fact_lost, const QString& lane) {
  const auto it = fact_lost.find(lane.toStdString());
  if (it == fact_lost.end() || !it->is_object()) return "?";
  const json& entry = *it;
  const auto lost = entry.find("lost"), samples = entry.find("samples");
  if (lost == entry.end() || samples == entry.end() || !lost->is_number_integer() ||
      !samples->is_number_integer())
    return "?";
  return QString("%1/%2").arg(lost->get<int64_t>()).arg(samples->get<int64_t>());
}

SampledPromptView prompt_of(const json& p, const std::string& path, record::FileFields& f,
                            const QString& lane_a, const QString& lane_b) {
  SampledPromptView v;
  if (!f.expect_object(p, path)) return v;
  const double index = f.number(p, path, "index", 0);
  v.index = index >= 0 ? static_cast<size_t>(index) : 0;
  v.id = QString::fromStdString(f.string(p, path, "id"));
  v.result = QString::fromStdString(f.string(p, path, "result"));
  v.q_value = f.number(p, path, "q_value", 1.0);
  v.fact_loss = QString::fromStdString(f.string(p, path, "fact_loss_text"));
  if (p.contains("fact_lost")) {
    const json& lost = f.object(p, path, "fact_lost");
    v.fact_loss_counts =
        QObject::tr("%1 vs %2").arg(sampled_lost_of(lost, lane_b), sampled_lost_of(lost, lane_a));
  }
  const json& pairs = f.object(p, path, "pairs");
  const std::string at = path + ".pairs";
  v.pairs[0] = pairs_of(f.array(pairs, at, "within_a"));
  v.pairs[1] = pairs_of(f.array(pairs, at, "within_b"));
  v.pairs[2] = pairs_of(f.array(pairs, at, "cross"));
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
  const QDir dir(run_dir);
  json sampled;
  if (!read_json(dir, file, &sampled, error)) return false;
  record::FileFields f(file.toStdString());
  SampledReviewData d;
  d.lane_a = QString::fromStdString(f.string(sampled, "", "baseline", {}, true));
  d.lane_b = QString::fromStdString(f.string(sampled, "", "candidate", {}, true));
  if (f.expect_object(sampled, "") && !sampled.contains("prompts")) f.note("prompts", "is missing");
  const json& prompts = f.array(sampled, "", "prompts");
  if (d.lane_a.isEmpty() || d.lane_b.isEmpty() || prompts.empty()) {
    *error = QString::fromStdString(f.damaged()
                                        ? f.damage().front()
                                        : "damaged: " + file.toStdString() + ": it has no prompts");
    return false;
  }
  json a, b;
  if (!read_samples(dir, d.lane_a, &a, error) || !read_samples(dir, d.lane_b, &b, error))
    return false;
  d.samples_a = samples_of(a);
  d.samples_b = samples_of(b);
  for (size_t i = 0; i < prompts.size(); ++i)
    d.prompts.push_back(prompt_of(prompts[i], record::FileFields::item_path("", "prompts", i), f,
                                  d.lane_a, d.lane_b));
  for (const std::string& line : f.damage()) d.damage << QString::fromStdString(line);
  read_verdicts(dir, file, d);
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
