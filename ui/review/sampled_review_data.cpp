#include "ui/review/sampled_review_data.h"

#include <QDir>
#include <QFile>
#include <nlohmann/json.hpp>

namespace lb::ui {
namespace {

using nlohmann::json;

bool read_json(const QString& path, json* out, QString* error) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = QObject::tr("%1 cannot be read").arg(QDir::toNativeSeparators(path));
    return false;
  }
  const QByteArray bytes = f.readAll();
  *out = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
  if (out->is_discarded()) {
    *error = QObject::tr("%1 is not valid JSON").arg(QDir::toNativeSeparators(path));
    return false;
  }
  return true;
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
  const json entry = fact_lost.is_object() ? fact_lost.value(lane.toStdString(), json()) : json();
  if (!entry.is_object() || !entry["lost"].is_number_integer() ||
      !entry["samples"].is_number_integer())
    return "?";
  return QString("%1/%2").arg(entry["lost"].get<int64_t>()).arg(entry["samples"].get<int64_t>());
}

SampledPromptView prompt_of(const json& p, const QString& lane_a, const QString& lane_b) {
  SampledPromptView v;
  v.index = p.value("index", size_t{0});
  v.id = QString::fromStdString(p.value("id", ""));
  v.result = QString::fromStdString(p.value("result", ""));
  v.q_value = p.value("q_value", 1.0);
  v.fact_loss = QString::fromStdString(p.value("fact_loss_text", ""));
  if (p.contains("fact_lost"))
    v.fact_loss_counts =
        QObject::tr("%1 vs %2")
            .arg(sampled_lost_of(p["fact_lost"], lane_b), sampled_lost_of(p["fact_lost"], lane_a));
  if (p.contains("pairs") && p["pairs"].is_object()) {
    v.pairs[0] = pairs_of(p["pairs"].value("within_a", json()));
    v.pairs[1] = pairs_of(p["pairs"].value("within_b", json()));
    v.pairs[2] = pairs_of(p["pairs"].value("cross", json()));
  }
  return v;
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

bool load_sampled_review_data(const QString& run_dir, const QString& file, SampledReviewData* out,
                              QString* error) {
  const QDir dir(run_dir);
  json sampled;
  if (!read_json(dir.filePath(file), &sampled, error)) return false;
  if (!sampled.is_object() || !sampled.contains("prompts") || !sampled["prompts"].is_array()) {
    *error = QObject::tr("%1 has no prompts").arg(file);
    return false;
  }
  SampledReviewData d;
  d.lane_a = QString::fromStdString(sampled.value("baseline", ""));
  d.lane_b = QString::fromStdString(sampled.value("candidate", ""));
  json a, b;
  if (!read_json(dir.filePath("texts/" + d.lane_a + ".samples.json"), &a, error) ||
      !read_json(dir.filePath("texts/" + d.lane_b + ".samples.json"), &b, error))
    return false;
  d.samples_a = samples_of(a);
  d.samples_b = samples_of(b);
  for (const auto& p : sampled["prompts"]) d.prompts.push_back(prompt_of(p, d.lane_a, d.lane_b));
  // sampled.json -> sampled-review.json, sampled.X.json -> sampled-review.X.json
  QString review = file;
  review.replace(0, QString("sampled").size(), "sampled-review");
  d.review_path = dir.filePath(review);
  std::string why;
  if (auto record = compare::load_sampled_review(d.review_path.toStdString(), &why)) {
    d.record = std::move(*record);
  } else {
    d.record.lane_a = d.lane_a.toStdString();
    d.record.lane_b = d.lane_b.toStdString();
    for (const auto& p : d.prompts)
      d.record.prompts.push_back({p.index, p.id.toStdString(), p.result.toStdString(),
                                  compare::Verdict::Unreviewed, "", std::nullopt});
  }
  *out = std::move(d);
  return true;
}

}  // namespace lb::ui
