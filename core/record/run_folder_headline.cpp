#include "core/record/run_folder_headline.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/files/regular_file.h"

namespace lb::record {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// One JSON object file of the folder. An absent file is null with no problem (a run killed early
// has no summary yet); an unreadable, malformed or non-object file is null and a problem that
// names the file.
json read_object(const fs::path& folder, const char* name, std::vector<std::string>& problems) {
  constexpr size_t kMaxRunJsonBytes = 256 * files::kMiB;
  const fs::path path = folder / name;
  std::error_code ec;
  if (!fs::exists(path, ec)) return nullptr;
  std::string error;
  const auto text = files::read_regular_file(path.string(), kMaxRunJsonBytes, &error);
  if (!text) {
    problems.push_back(std::string(name) + ": cannot be read (" + error + ")");
    return nullptr;
  }
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) {
    problems.push_back(std::string(name) + ": not valid JSON");
    return nullptr;
  }
  if (!doc.is_object()) {
    problems.push_back(std::string(name) + ": not a JSON object");
    return nullptr;
  }
  return doc;
}

// The strings at list[i].key (lanes[].id, experiments[].kind); each entry of another shape is a
// problem naming the file and the field, and is left out.
std::vector<std::string> strings_of(const json& plan, const char* list, const char* key,
                                    std::vector<std::string>& problems) {
  std::vector<std::string> out;
  if (!plan.contains(list)) return out;
  const json& items = plan[list];
  if (!items.is_array()) {
    problems.push_back(std::string("plan.json: ") + list + " is not a list");
    return out;
  }
  for (size_t i = 0; i < items.size(); ++i) {
    const json& item = items[i];
    if (item.is_object() && item.contains(key) && item[key].is_string()) {
      out.push_back(item[key].get<std::string>());
    } else {
      problems.push_back(std::string("plan.json: ") + list + "[" + std::to_string(i) + "]." + key +
                         " is not a string");
    }
  }
  return out;
}

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
  const json plan = read_object(folder, "plan.json", out.problems);
  if (plan.is_null()) return;
  if (plan.contains("name")) {
    if (plan["name"].is_string()) {
      out.plan_name = plan["name"].get<std::string>();
    } else {
      out.problems.push_back("plan.json: name is not a string");
    }
  }
  out.lanes = strings_of(plan, "lanes", "id", out.problems);
  out.experiments = strings_of(plan, "experiments", "kind", out.problems);
}

// As the report judges it: finished only when summary.json says so and was not interrupted.
void read_summary(const fs::path& folder, RunFolderHeadline& out) {
  const json summary = read_object(folder, "summary.json", out.problems);
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
  out.complete = run.contains("finished_at") && !run.value("interrupted", false);
}

void read_decision(const fs::path& folder, RunFolderHeadline& out) {
  const json decision = read_object(folder, "decision.json", out.problems);
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
