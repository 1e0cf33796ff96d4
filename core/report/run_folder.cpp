#include "report/run_folder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>

#include "metrics/inter_token_gaps.h"
#include "metrics/percentile.h"

namespace lb::report {
namespace {

namespace fs = std::filesystem;

double number_or(const nlohmann::json& j, const char* key, double fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

std::string string_or(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A numeric array as values, NaN for entries that are not numbers; empty when the key is absent
// or not an array.
template <typename T>
std::vector<T> numbers_or_nan(const nlohmann::json& j, const char* key) {
  std::vector<T> out;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  out.reserve(it->size());
  for (const nlohmann::json& v : *it)
    out.push_back(v.is_number() ? v.get<T>() : std::numeric_limits<T>::quiet_NaN());
  return out;
}

// Reads a whole file; false when it does not exist or cannot be read. One allocation of the
// file's size and one read: requests.jsonl of a long run is gigabytes, and a growing stream
// buffer would copy it several times over and hold twice its size at the peak.
bool read_text(const fs::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  if (size < 0) return false;
  out.resize(static_cast<size_t>(size));
  in.seekg(0);
  in.read(out.data(), size);
  out.resize(static_cast<size_t>(in.gcount()));  // a file that shrank meanwhile
  return !in.bad();
}

// A JSON file of the folder; null (with a warning) when it is missing or not JSON.
nlohmann::json read_json_file(const fs::path& path, RunFolder& folder, bool warn_missing) {
  std::string text;
  if (!read_text(path, text)) {
    if (warn_missing) folder.warnings.push_back(path.filename().string() + " is missing");
    return nullptr;
  }
  auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) {
    folder.warnings.push_back(path.filename().string() + " is not valid JSON; ignored");
    return nullptr;
  }
  return json;
}

// artifacts/<lane>.verification.json, in file-name order.
void read_artifacts(const fs::path& root, RunFolder& folder) {
  constexpr std::string_view kSuffix = ".verification.json";
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(root / "artifacts", ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    const nlohmann::json doc = read_json_file(path, folder, false);
    if (doc.is_null()) continue;
    const std::string name = path.filename().string();
    ArtifactRecord record;
    std::string error;
    if (read_artifact_record(name.substr(0, name.size() - kSuffix.size()), doc, record, &error))
      folder.artifacts.push_back(std::move(record));
    else
      folder.warnings.push_back(error + "; ignored");
  }
}

void read_requests(const fs::path& path, RunFolder& folder) {
  // Line by line into one reused buffer: a long run's requests.jsonl is gigabytes, and neither
  // the file nor its JSON stays in memory, only each line's RequestPoint.
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    folder.warnings.push_back("requests.jsonl is missing");
    return;
  }
  int64_t number = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    auto json = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
      ++folder.torn_lines;
      folder.warnings.push_back("requests.jsonl line " + std::to_string(number) +
                                " is incomplete or not JSON; skipped");
      continue;
    }
    try {
      folder.requests.push_back(request_point(json));
    } catch (const nlohmann::json::exception&) {  // a field of the wrong type: not our line
      ++folder.torn_lines;
      folder.warnings.push_back("requests.jsonl line " + std::to_string(number) +
                                " has fields of the wrong type; skipped");
      continue;
    }
  }
}

void read_reviews(const fs::path& dir, RunFolder& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("review", 0) == 0 && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::string error;
    if (auto record = compare::load_review(file.string(), &error))
      folder.reviews.push_back(std::move(*record));
    else
      folder.warnings.push_back(file.filename().string() + " cannot be read: " + error);
  }
}

void judge_completion(RunFolder& folder) {
  const nlohmann::json* run = nullptr;
  if (folder.summary.is_object() && folder.summary.contains("run") &&
      folder.summary["run"].is_object())
    run = &folder.summary["run"];
  const bool finished = run && run->contains("finished_at");
  const bool stopped = run && run->contains("interrupted") && (*run)["interrupted"] == true;
  folder.interrupted = !finished || stopped;
  folder.complete = finished && !folder.interrupted;
  if (!finished)
    folder.warnings.push_back(
        "the run did not finish (summary.json is missing or predates the end of the run)");
  else if (folder.interrupted)
    folder.warnings.push_back("the run was interrupted before every experiment finished");
}

}  // namespace

RequestPoint request_point(const nlohmann::json& line) {
  RequestPoint p;
  p.lane = string_or(line, "lane");
  p.experiment = string_or(line, "experiment");
  p.phase = string_or(line, "phase");
  p.index = static_cast<int64_t>(number_or(line, "index", 0));
  p.warmup = line.value("warmup", false);
  p.ok = line.value("ok", false);
  p.ttft_ms = number_or(line, "ttft_ms", -1);
  p.e2el_ms = number_or(line, "e2el_ms", -1);
  p.tpot_ms = number_or(line, "tpot_ms", -1);
  p.decode_tok_s = number_or(line, "decode_tok_s", -1);
  p.output_tokens = static_cast<int64_t>(number_or(line, "output_tokens", -1));
  p.prompt_tokens = static_cast<int64_t>(number_or(line, "prompt_tokens", -1));
  p.output_tokens_provenance = string_or(line, "output_tokens_provenance");
  p.prompt_tokens_provenance = string_or(line, "prompt_tokens_provenance");
  if (const auto e = line.find("error"); e != line.end() && e->is_object())
    p.error_kind = string_or(*e, "kind");
  p.t_sched_ns = static_cast<int64_t>(number_or(line, "t_sched_ns", -1));
  p.t_sent_ns = static_cast<int64_t>(number_or(line, "t_sent_ns", -1));
  p.event_offsets_ns = numbers_or_nan<double>(line, "event_offsets_ns");
  p.event_tokens = numbers_or_nan<float>(line, "event_tokens");
  const std::vector<double> itl = p.itl_ms();
  if (!itl.empty()) {
    p.itl_median_ms = metrics::percentile(itl, 50);
    p.itl_p99_ms = metrics::percentile(itl, 99);
  }
  return p;
}

std::vector<double> RequestPoint::itl_ms() const {
  return metrics::itl_ms_from_offsets(event_offsets_ns);
}

bool RequestPoint::tokens_per_event_known() const {
  return !event_tokens.empty() && event_tokens.size() == event_offsets_ns.size() &&
         std::none_of(event_tokens.begin(), event_tokens.end(),
                      [](float t) { return std::isnan(t); });
}

std::optional<RunFolder> load_run_folder(const std::string& dir, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    if (error) *error = dir + " is not a run folder: no such directory";
    return std::nullopt;
  }
  const fs::path root(dir);
  if (!fs::exists(root / "plan.json", ec) && !fs::exists(root / "summary.json", ec) &&
      !fs::exists(root / "requests.jsonl", ec)) {
    if (error) *error = dir + " is not a run folder: no plan.json, summary.json or requests.jsonl";
    return std::nullopt;
  }
  RunFolder folder;
  folder.dir = dir;
  folder.plan = read_json_file(root / "plan.json", folder, true);
  folder.environment = read_json_file(root / "environment.json", folder, true);
  folder.summary = read_json_file(root / "summary.json", folder, false);
  folder.review = read_json_file(root / "review.json", folder, false);
  read_requests(root / "requests.jsonl", folder);
  read_reviews(root, folder);
  read_artifacts(root, folder);
  std::string decision_error;
  folder.decision = load_decision(dir, &decision_error);
  if (!folder.decision && !decision_error.empty()) folder.warnings.push_back(decision_error);
  judge_completion(folder);
  return folder;
}

std::vector<std::string> RunFolder::lane_ids() const {
  std::vector<std::string> ids;
  auto add = [&ids](const std::string& id) {
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  if (plan.is_object() && plan.contains("lanes") && plan["lanes"].is_array())
    for (const auto& lane : plan["lanes"])
      if (lane.is_object()) add(string_or(lane, "id"));
  if (environment.is_object() && environment.contains("lanes") && environment["lanes"].is_object())
    for (const auto& [id, lane] : environment["lanes"].items()) add(id);
  for (const auto& r : requests) add(r.lane);
  return ids;
}

std::vector<const nlohmann::json*> RunFolder::experiments_of_kind(const std::string& kind) const {
  std::vector<const nlohmann::json*> out;
  if (!summary.is_object() || !summary.contains("experiments") ||
      !summary["experiments"].is_array())
    return out;
  for (const auto& e : summary["experiments"])
    if (e.is_object() && e.contains("kind") && e["kind"] == kind) out.push_back(&e);
  return out;
}

}  // namespace lb::report
