#include "core/fleet/run_merge.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/files/confined_write.h"
#include "core/fleet/merged_requests.h"
#include "core/fleet/merged_summary.h"
#include "core/fleet/shard_folder.h"
#include "core/fleet/split_lane.h"
#include "core/plan/plan.h"
#include "core/plan/sweep_expansion.h"
#include "core/record/json_object_file.h"
#include "core/run/plan_runner.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr int kExitInput = 2;

// Files a merge writes itself; a shard's report/ is left behind (the merged run reports anew).
bool merge_writes(const std::string& relative) {
  static const std::set<std::string> own = {"plan.json", "summary.json", "environment.json",
                                            "requests.jsonl", "shard.json"};
  return own.count(relative) > 0 || relative.rfind("report/", 0) == 0;
}

// Every other regular file of the shards (texts, /metrics snapshots, logs of managed servers),
// by its path in the folder. Lanes name their files, so shards do not meet; a name that is taken
// keeps the first shard's file and is noted.
bool copy_lane_files(const std::vector<ShardFolder>& shards, const std::string& out_dir,
                     MergeResult& result) {
  std::set<std::string> written;
  for (const ShardFolder& shard : shards) {
    std::vector<std::string> taken;  // names an earlier shard's file has (a split lane's)
    std::error_code ec;
    fs::recursive_directory_iterator it(shard.dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      if (it->is_symlink(ec)) {
        result.notes.push_back(shard.dir + ": " + it->path().string() + " is a link; not copied");
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec)) continue;
      const std::string relative = fs::relative(it->path(), shard.dir, ec).generic_string();
      if (ec || relative.empty() || merge_writes(relative)) continue;
      if (!written.insert(relative).second) {
        taken.push_back(relative);
        continue;
      }
      std::string error;
      const auto content = record::read_run_file(shard.dir, relative, &error);
      if (!content) {
        result.errors.push_back(shard.dir + ": " + relative + ": " + error);
        return false;
      }
      if (!files::write_confined(out_dir, relative, *content, &error)) {
        result.errors.push_back(error);
        return false;
      }
    }
    if (ec) {
      result.errors.push_back(shard.dir + ": cannot list the folder: " + ec.message());
      return false;
    }
    if (!taken.empty())
      result.notes.push_back(shard.dir + ": " + std::to_string(taken.size()) + " file" +
                             (taken.size() == 1 ? "" : "s") + " (" + taken.front() +
                             (taken.size() > 1 ? ", ..." : "") +
                             ") taken by an earlier shard, as a split lane's clients' are; not "
                             "copied");
  }
  return true;
}

bool write_json(const std::string& out_dir, const char* name, const json& value,
                MergeResult& result) {
  std::string error;
  if (files::write_confined(
          out_dir, name, value.dump(2, ' ', false, json::error_handler_t::replace) + "\n", &error))
    return true;
  result.errors.push_back(error);
  return false;
}

MergeResult fail(MergeResult result) {
  result.exit_code = kExitInput;
  return result;
}

}  // namespace

namespace {

// OUT says what it did to the out folder: created it, or wrote into it (it was empty).
struct OutFolder {
  bool created = false;
  bool written = false;
};
MergeResult merge_checked(const MergeOptions& options, OutFolder& out);

}  // namespace

MergeResult merge_shards(const MergeOptions& options) {
  OutFolder out;
  MergeResult result;
  try {
    result = merge_checked(options, out);
  } catch (const std::exception& e) {
    // A value of the wrong kind deep in a shard's files: refused like any damaged shard.
    result = MergeResult();
    result.errors.push_back(std::string("a shard's files hold a value this merge cannot read (") +
                            e.what() + "); nothing was merged");
    result.exit_code = kExitInput;
  }
  // Nothing merged silently: a merge that failed leaves no half folder behind.
  if (result.exit_code == kExitInput && out.written) {
    std::error_code ec;
    if (out.created) {
      fs::remove_all(options.out_dir, ec);
    } else {
      for (const auto& entry : fs::directory_iterator(options.out_dir, ec))
        fs::remove_all(entry.path(), ec);
    }
  }
  return result;
}

namespace {

MergeResult merge_checked(const MergeOptions& options, OutFolder& out) {
  MergeResult result;
  std::vector<ShardFolder> shards;
  for (const std::string& dir : options.shard_dirs) {
    std::string why;
    if (auto shard = read_shard_folder(dir, &why))
      shards.push_back(std::move(*shard));
    else
      result.errors.push_back(why);
  }
  if (!result.errors.empty()) return fail(std::move(result));
  ShardSetCheck check = check_shard_set(shards, options.partial, options.max_clock_offset_ms);
  result.notes = check.notes;
  result.missing = check.missing;
  result.errors = check.errors;
  if (!result.errors.empty()) return fail(std::move(result));
  std::string why;
  if (!run::run_folder_usable(options.out_dir, &why)) {
    result.errors.push_back("--out: " + why);
    return fail(std::move(result));
  }
  auto parsed = plan::parse_plan(shards.front().plan_text, "plan.json");
  if (!parsed.ok()) {
    result.errors.push_back(shards.front().dir + ": plan.json is not a valid plan:\n" +
                            parsed.error_text());
    return fail(std::move(result));
  }
  const plan::SweptPlan swept = plan::expand_sweep(*parsed.plan);
  std::error_code ec;
  out.created = !fs::exists(options.out_dir, ec);
  out.written = true;  // new or empty (run_folder_usable above): all that is in it is ours
  fs::create_directories(options.out_dir, ec);
  std::string error;
  if (!files::write_confined(options.out_dir, "plan.json", shards.front().plan_text, &error)) {
    result.errors.push_back(error);
    return fail(std::move(result));
  }
  MergedRequests requests;
  if (!merge_request_lines(shards, options.out_dir, split_pairs(swept.plan), requests, &error)) {
    result.errors.push_back(error);
    return fail(std::move(result));
  }
  result.requests = requests.lines;
  result.shards = static_cast<int64_t>(shards.size());
  if (requests.unreadable > 0)
    result.notes.push_back(
        std::to_string(requests.unreadable) +
        " lines of the shards' requests.jsonl were not request records; left out");
  if (!copy_lane_files(shards, options.out_dir, result)) return fail(std::move(result));
  MergedSummary merged =
      merged_summary(swept, shards, requests, check.missing, options.out_dir, result.notes);
  if (!write_json(options.out_dir, "environment.json", merged_environment(shards), result) ||
      !write_json(options.out_dir, "summary.json", merged.summary, result))
    return fail(std::move(result));
  if (merged.blocked) result.exit_code = 1;
  return result;
}

}  // namespace

}  // namespace lb::fleet
