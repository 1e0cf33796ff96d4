#include "core/record/run_folder_headline.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/files/regular_file.h"
#include "core/record/json_object_file.h"
#include "core/record/plan_headline.h"

namespace lb::record {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

int64_t count_lines(const fs::path& path) {
  const int fd = files::open_regular_file(path.string(), nullptr);
  if (fd < 0) return 0;
  int64_t lines = 0;
  std::vector<char> chunk(1 << 16);
  long n = 0;
  while ((n = files::read_up_to(fd, chunk.data(), chunk.size())) > 0)
    lines += std::count(chunk.data(), chunk.data() + n, '\n');
  ::close(fd);
  return lines;
}

void read_plan(const fs::path& folder, RunFolderHeadline& out) {
  const auto plan = read_plan_headline(folder.string(), &out.problems);
  if (!plan) return;
  out.plan_name = plan->name;
  out.lanes = plan->lanes;
  for (const PlannedExperiment& e : plan->experiments) out.experiments.push_back(e.kind);
}

}  // namespace

bool run_finished(const nlohmann::json& run) {
  if (!run.is_object()) return false;
  const auto at = run.find("finished_at");
  const auto interrupted = run.find("interrupted");
  return at != run.end() && at->is_string() && !at->get<std::string>().empty() &&
         (interrupted == run.end() || *interrupted == false);
}

namespace {

// As the report judges it: finished only when summary.json says so and was not interrupted.
void read_summary(const fs::path& folder, RunFolderHeadline& out) {
  const json summary = read_json_object_file(folder.string(), "summary.json", out.problems);
  out.complete = false;
  if (summary.is_null() || !summary.contains("run")) return;
  const json& run = summary["run"];
  if (!run.is_object()) {
    out.problems.push_back("summary.json: run is not an object");
    return;
  }
  if (run.contains("interrupted") && !run["interrupted"].is_boolean()) {
    out.problems.push_back("summary.json: run.interrupted is not true or false");
    return;
  }
  out.complete = run_finished(run);
  out.partial = run.contains("partial") && run["partial"].is_object();
}

void read_decision(const fs::path& folder, RunFolderHeadline& out) {
  const json decision = read_json_object_file(folder.string(), "decision.json", out.problems);
  if (decision.is_null() || !decision.contains("decision")) return;
  if (decision["decision"].is_string()) {
    out.decision = decision["decision"].get<std::string>();
  } else {
    out.problems.push_back("decision.json: decision is not a string");
  }
}

// review.json for two lanes, review.<candidate>.json for more (compare/run_reviews.h).
bool has_review_file(const fs::path& folder) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool review = name == "review.json" || (name.starts_with("review.") &&
                                                  name.ends_with(".json") && name.size() >= 12);
    if (review && it->is_regular_file(ec)) return true;
  }
  return false;
}

}  // namespace

bool looks_like_run_folder(const std::string& dir) {
  std::error_code ec;
  return fs::exists(fs::path(dir) / "plan.json", ec) ||
         fs::exists(fs::path(dir) / "requests.jsonl", ec);
}

RunFolderHeadline read_run_folder_headline(const std::string& dir) {
  const fs::path folder(dir);
  RunFolderHeadline out;
  read_plan(folder, out);
  out.request_lines = count_lines(folder / "requests.jsonl");
  out.has_review = has_review_file(folder);
  read_summary(folder, out);
  read_decision(folder, out);
  return out;
}

}  // namespace lb::record
