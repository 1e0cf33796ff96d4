#include "core/record/sampled_file.h"

#include <nlohmann/json.hpp>

#include "core/files/safe_file_name.h"
#include "core/record/file_fields.h"
#include "core/record/json_object_file.h"

namespace lb::record {
namespace {

using nlohmann::json;

// DIR/FILE parsed, named as the page says it ("texts/fp8.samples.json").
std::optional<json> read_json(const std::string& dir, const std::string& file, std::string* error) {
  std::string why;
  const auto text = read_run_file(dir, file, &why);
  if (!text) {
    *error =
        "damaged: " + file + ": cannot be read (" + (why.empty() ? "it is missing" : why) + ")";
    return std::nullopt;
  }
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    *error = "damaged: " + file + ": not valid JSON (cut short?)";
    return std::nullopt;
  }
  return doc;
}

std::vector<SampledPairRatio> pairs_of(const json& j) {
  std::vector<SampledPairRatio> out;
  for (const auto& p : j)
    if (p.is_array() && p.size() == 3 && p[0].is_number_unsigned() && p[1].is_number_unsigned() &&
        p[2].is_number())
      out.push_back({p[0].get<uint32_t>(), p[1].get<uint32_t>(), p[2].get<double>()});
  return out;
}

std::map<std::string, SampledFactLoss> fact_lost_of(const json& lost) {
  std::map<std::string, SampledFactLoss> out;
  for (const auto& [lane, entry] : lost.items()) {
    if (!entry.is_object()) continue;
    const auto n = entry.find("lost"), of = entry.find("samples");
    if (n != entry.end() && of != entry.end() && n->is_number_integer() && of->is_number_integer())
      out[lane] = {n->get<int64_t>(), of->get<int64_t>()};
  }
  return out;
}

SampledPromptRecord prompt_of(const json& p, const std::string& path, FileFields& f) {
  SampledPromptRecord v;
  if (!f.expect_object(p, path)) return v;
  const double index = f.number(p, path, "index", 0);
  v.index = index >= 0 ? static_cast<size_t>(index) : 0;
  v.id = f.string(p, path, "id");
  v.result = f.string(p, path, "result");
  v.q_value = f.number(p, path, "q_value", 1.0);
  v.fact_loss_text = f.string(p, path, "fact_loss_text");
  if (p.contains("fact_lost")) v.fact_lost = fact_lost_of(f.object(p, path, "fact_lost"));
  const json& pairs = f.object(p, path, "pairs");
  const std::string at = path + ".pairs";
  v.pairs[0] = pairs_of(f.array(pairs, at, "within_a"));
  v.pairs[1] = pairs_of(f.array(pairs, at, "within_b"));
  v.pairs[2] = pairs_of(f.array(pairs, at, "cross"));
  return v;
}

}  // namespace

std::optional<SampledFile> read_sampled_file(const std::string& dir, const std::string& file,
                                             std::string* error) {
  const auto sampled = read_json(dir, file, error);
  if (!sampled) return std::nullopt;
  FileFields f(file);
  SampledFile out;
  out.baseline = f.string(*sampled, "", "baseline", {}, true);
  out.candidate = f.string(*sampled, "", "candidate", {}, true);
  if (f.expect_object(*sampled, "") && !sampled->contains("prompts"))
    f.note("prompts", "is missing");
  const json& prompts = f.array(*sampled, "", "prompts");
  if (out.baseline.empty() || out.candidate.empty() || prompts.empty()) {
    *error = f.damaged() ? f.damage().front() : "damaged: " + file + ": it has no prompts";
    return std::nullopt;
  }
  for (size_t i = 0; i < prompts.size(); ++i)
    out.prompts.push_back(prompt_of(prompts[i], FileFields::item_path("", "prompts", i), f));
  out.damage = f.damage();
  return out;
}

std::optional<std::vector<std::vector<std::string>>> read_lane_samples(const std::string& dir,
                                                                       const std::string& lane,
                                                                       std::string* error) {
  const std::string file = "texts/" + files::safe_file_name(lane) + ".samples.json";
  const auto doc = read_json(dir, file, error);
  if (!doc) return std::nullopt;
  if (!doc->is_array()) {
    *error = "damaged: " + file + ": the file is " + doc->type_name() + ", not a list";
    return std::nullopt;
  }
  std::vector<std::vector<std::string>> out;
  for (const auto& prompt : *doc) {
    out.emplace_back();
    if (!prompt.is_array()) continue;
    for (const auto& s : prompt) out.back().push_back(s.is_string() ? s.get<std::string>() : "");
  }
  return out;
}

}  // namespace lb::record
