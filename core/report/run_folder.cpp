#include "core/report/run_folder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>

#include "core/compare/run_reviews.h"
#include "core/files/regular_file.h"
#include "core/metrics/inter_token_gaps.h"
#include "core/report/request_lines_reader.h"

namespace lb::report {
namespace {

namespace fs = std::filesystem;

// summary.json of a long sweep is a few MiB; a larger JSON file is not one a run wrote.
constexpr size_t kMaxJsonFileBytes = 256 * files::kMiB;

void note_damage(RunFolder& folder, const std::string& file, const std::string& what) {
  folder.damage.push_back("damaged: " + file + ": " + what);
}

// A JSON file of the folder; null (with a warning) when it is missing, not a regular file, too
// large or not JSON.
nlohmann::json read_json_file(const fs::path& path, RunFolder& folder, bool warn_missing) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    if (warn_missing) folder.warnings.push_back(path.filename().string() + " is missing");
    return nullptr;
  }
  std::string error;
  const auto text = files::read_regular_file(path.string(), kMaxJsonFileBytes, &error);
  if (!text) {
    folder.warnings.push_back(error);
    note_damage(folder, path.filename().string(), files::error_reason(error, path.string()));
    return nullptr;
  }
  auto json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) {
    folder.warnings.push_back(path.filename().string() + " is not valid JSON; ignored");
    note_damage(folder, path.filename().string(), "not valid JSON (cut short?)");
    return nullptr;
  }
  return json;
}

// plan.json, environment.json and summary.json are read as JSON of any shape; nothing is taken
// from one that is not an object, so its figures are missing: say so.
void note_not_object(RunFolder& folder, const char* name, const nlohmann::json& doc) {
  if (!doc.is_null() && !doc.is_object())
    note_damage(folder, name, std::string("the file is ") + doc.type_name() + ", not an object");
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

void read_requests(const fs::path& path, RunFolder& folder, const RequestBlockSink* sink) {
  // The lanes in order of first appearance, noted on the way for lane_ids().
  auto note_lanes = [&folder](const std::vector<RequestPoint>& points) {
    for (const RequestPoint& p : points)
      if (!p.lane.empty() &&
          (folder.request_lanes.empty() || folder.request_lanes.back() != p.lane) &&
          std::find(folder.request_lanes.begin(), folder.request_lanes.end(), p.lane) ==
              folder.request_lanes.end())
        folder.request_lanes.push_back(p.lane);
  };
  RequestLineCounts counts;
  bool found = false;
  if (sink) {
    const RequestBlockSink pass_on = [&](std::vector<RequestPoint>& points, double share_read) {
      note_lanes(points);
      (*sink)(points, share_read);
    };
    found = read_request_lines(path, pass_on, counts);
  } else {
    RequestLines lines;
    found = read_request_lines(path, lines);
    folder.requests = std::move(lines.points);
    counts = std::move(lines.counts);
    note_lanes(folder.requests);
    folder.digest.add_block(folder.requests);
  }
  if (!found) {
    // A requests.jsonl that is there but refused (a FIFO, a device) says why.
    if (counts.warnings.empty()) folder.warnings.push_back("requests.jsonl is missing");
    for (auto& w : counts.warnings) folder.warnings.push_back(std::move(w));
    return;
  }
  folder.request_count = counts.records;
  folder.torn_lines += counts.torn_lines;
  for (auto& w : counts.warnings) folder.warnings.push_back(std::move(w));
}

// One record per lane pair, whichever of the folder's review files hold its verdicts.
void read_reviews(const fs::path& dir, RunFolder& folder) {
  folder.reviews = compare::reviews_by_pair(
      compare::read_review_files(dir.string(), &folder.warnings, &folder.damage));
}

void read_sampled_reviews(const fs::path& dir, RunFolder& folder) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("sampled-review", 0) == 0 && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::string error;
    if (auto record = compare::load_sampled_review(file.string(), &error))
      folder.sampled_reviews.push_back(std::move(*record));
    else {
      folder.warnings.push_back(file.filename().string() + " cannot be read: " + error);
      note_damage(folder, file.filename().string(), files::error_reason(error, file.string()));
    }
  }
}

void judge_completion(RunFolder& folder) {
  const record::RunHeader& run = folder.record.run;
  const bool finished = folder.has_summary && !run.finished_at.empty();
  const bool stopped = run.interrupted == true;
  folder.interrupted = !finished || stopped;
  folder.complete = finished && !folder.interrupted;
  if (!finished)
    folder.warnings.push_back(
        "the run did not finish (summary.json is missing or predates the end of the run)");
  else if (folder.interrupted)
    folder.warnings.push_back("the run was interrupted before every experiment finished");
}

}  // namespace

std::vector<double> RequestPoint::itl_ms() const {
  return metrics::itl_ms_from_offsets(event_offsets_ns);
}

bool RequestPoint::tokens_per_event_known() const {
  return !event_tokens.empty() && event_tokens.size() == event_offsets_ns.size() &&
         std::none_of(event_tokens.begin(), event_tokens.end(),
                      [](float t) { return std::isnan(t); });
}

std::optional<RunFolder> load_run_folder(const std::string& dir, std::string* error,
                                         const RequestBlockSink* requests) {
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
  const nlohmann::json plan = read_json_file(root / "plan.json", folder, true);
  std::vector<std::string> plan_problems;  // "plan.json: name is not a string"
  folder.plan_headline = record::plan_headline_of(plan, &plan_problems);
  for (const std::string& problem : plan_problems) folder.damage.push_back("damaged: " + problem);
  const nlohmann::json environment = read_json_file(root / "environment.json", folder, true);
  folder.environment = record::read_environment(environment);
  const nlohmann::json summary = read_json_file(root / "summary.json", folder, false);
  note_not_object(folder, "plan.json", plan);
  note_not_object(folder, "environment.json", environment);
  note_not_object(folder, "summary.json", summary);
  folder.has_summary = summary.is_object();
  if (folder.has_summary) {
    record::FileFields fields("summary.json");
    folder.record = record::read_run_summary(summary, fields);
    folder.record_damage = fields.damage();
  }
  read_requests(root / "requests.jsonl", folder, requests);
  read_reviews(root, folder);
  read_sampled_reviews(root, folder);
  read_artifacts(root, folder);
  std::string decision_error;
  folder.decision = load_decision(dir, &decision_error);
  if (!folder.decision && !decision_error.empty()) {
    folder.warnings.push_back(decision_error);
    folder.damage.push_back("damaged: " + decision_error);  // "decision.json: what"
  }
  judge_completion(folder);
  return folder;
}

std::optional<RunFolder> load_run_folder_for_report(const std::string& dir, std::string* error) {
  RequestDigest digest;
  const RequestBlockSink fold = [&digest](std::vector<RequestPoint>& points, double) {
    digest.add_block(points);
  };
  auto folder = load_run_folder(dir, error, &fold);
  if (folder) folder->digest = std::move(digest);
  return folder;
}

std::vector<std::string> RunFolder::lane_ids() const {
  std::vector<std::string> ids;
  auto add = [&ids](const std::string& id) {
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  };
  for (const std::string& id : plan_headline.lanes) add(id);
  for (const auto& [id, lane] : environment.lanes) add(id);
  for (const auto& lane : request_lanes) add(lane);
  return ids;
}

}  // namespace lb::report
