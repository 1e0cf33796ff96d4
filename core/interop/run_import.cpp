#include "core/interop/run_import.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/files/confined_write.h"
#include "core/files/regular_file.h"
#include "core/files/safe_file_name.h"
#include "core/interop/import_file.h"
#include "core/interop/imported_lane.h"
#include "core/interop/json_fields.h"
#include "core/record/experiment_kind.h"
#include "core/run/lanes/environment_info.h"
#include "core/run/plan_runner.h"

namespace lb::interop {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kNewRunExperiment = "imported";

ImportOutcome failure(std::string message) {
  ImportOutcome out;
  out.exit_code = 2;
  out.error = std::move(message);
  return out;
}

std::string dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

// --into names a run folder that may come from elsewhere: its requests.jsonl may be a link.
bool append_all(const std::string& dir, const std::string& bytes, std::string* error) {
  const std::string path = (fs::path(dir) / "requests.jsonl").string();
  const int fd = files::open_confined_append(dir, "requests.jsonl", error);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *error = "cannot append to " + path + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return ::close(fd) == 0 || (*error = "cannot close " + path, false);
}

// requests.jsonl, then texts, then summary.json last: a summary never names lines not written.
bool write_lane_files(const std::string& dir, const std::string& lane_id, const ImportedLane& lane,
                      std::string* error) {
  if (!append_all(dir, lane.jsonl, error)) return false;
  if (!lane.texts.empty()) {
    const json texts = lane.texts;
    const std::string name = "texts/" + files::safe_file_name(lane_id) + ".texts.json";
    if (!files::write_confined(dir, name, dump(texts), error)) return false;
  }
  return true;
}

ImportOutcome outcome_of(const ImportedLane& lane, const std::string& lane_id,
                         const std::string& exp, const ImportedBenchmark& b) {
  ImportOutcome out;
  out.lane_id = lane_id;
  out.experiment = exp;
  out.tool = b.tool + (b.tool_version.empty() ? "" : " " + b.tool_version);
  out.phases = lane.phases;
  out.requests = lane.requests;
  return out;
}

ImportOutcome import_new_run(ImportedBenchmark& b, const ImportOptions& o,
                             const std::string& lane_id, const std::string& file_name) {
  std::string why;
  if (!run::run_folder_usable(o.out_dir, &why)) return failure(why);
  std::error_code ec;
  fs::create_directories(o.out_dir, ec);
  if (ec) return failure("cannot create " + o.out_dir + ": " + ec.message());
  ImportedLane lane = build_imported_lane(b, lane_id, kNewRunExperiment, file_name);
  const std::string now = run::utc_now_iso8601();
  const json plan = {
      {"name", "imported from " + file_name},
      {"imported", true},
      {"lanes", {{{"id", lane_id}, {"base_url", std::string("imported:") + to_string(b.format)}}}},
      {"experiments", {{{"kind", "throughput"}, {"name", kNewRunExperiment}}}}};
  const json environment = {{"imported", {{lane_id, lane.section["source"]}}}};
  json section = {{"name", kNewRunExperiment},
                  {"kind", "throughput"},
                  {"status", "done"},
                  {"started_at", now},
                  {"finished_at", now}};
  section["lanes"][lane_id] = lane.section;
  const json summary = {{"run",
                         {{"name", plan["name"]},
                          {"started_at", now},
                          {"finished_at", now},
                          {"interrupted", false},
                          {"blockers", json::array()},
                          {"imported", true}}},
                        {"experiments", {section}}};
  std::string error;
  if (!files::write_confined(o.out_dir, "plan.json", dump(plan), &error) ||
      !files::write_confined(o.out_dir, "environment.json", dump(environment), &error) ||
      !write_lane_files(o.out_dir, lane_id, lane, &error) ||
      !files::write_confined(o.out_dir, "summary.json", dump(summary), &error))
    return failure(error);
  return outcome_of(lane, lane_id, kNewRunExperiment, b);
}

// The experiment an imported lane joins: the named one, else the run's only throughput
// experiment, else a section of its own. -1 with `error` set when the choice is ambiguous.
long choose_section(json& experiments, const std::string& wanted, std::string* error) {
  std::vector<long> throughput;
  std::string names;
  for (size_t i = 0; i < experiments.size(); ++i) {
    const json& e = experiments[i];
    if (!e.is_object()) continue;
    const std::string name = string_or(e, "name", "");
    names += (names.empty() ? "" : ", ") + name;
    if (!wanted.empty() && name == wanted) return long(i);
    if (wanted.empty() && record::experiment_kind_from(string_or(e, "kind", "")) ==
                              record::ExperimentKind::Throughput)
      throughput.push_back(long(i));
  }
  if (!wanted.empty()) {
    *error = "the run has no experiment named " + wanted +
             " (it has: " + (names.empty() ? std::string("none") : names) + ")";
    return -1;
  }
  if (throughput.size() > 1) {
    *error = "the run has several throughput experiments (" + names +
             "); choose one with --experiment NAME";
    return -1;
  }
  if (throughput.size() == 1) return throughput[0];
  for (size_t i = 0; i < experiments.size(); ++i)
    if (experiments[i].is_object() && string_or(experiments[i], "name", "") == kNewRunExperiment)
      return long(i);
  experiments.push_back({{"name", kNewRunExperiment}, {"kind", "throughput"}, {"status", "done"}});
  return long(experiments.size() - 1);
}

ImportOutcome import_existing_run(ImportedBenchmark& b, const ImportOptions& o,
                                  const std::string& lane_id, const std::string& file_name) {
  const fs::path summary_path = fs::path(o.into_dir) / "summary.json";
  std::error_code ec;
  if (!fs::exists(summary_path, ec))
    return failure(o.into_dir + " is not a run folder (no summary.json)");
  constexpr size_t kMaxSummaryBytes = 256 * files::kMiB;
  std::string read_error;
  const auto text = files::read_regular_file(summary_path.string(), kMaxSummaryBytes, &read_error);
  if (!text) return failure(read_error);
  json summary = json::parse(*text, nullptr, false);
  if (!summary.is_object() || !summary.contains("experiments") ||
      !summary["experiments"].is_array())
    return failure(summary_path.string() + " is not a run summary (no experiments list)");
  std::string error;
  const long k = choose_section(summary["experiments"], o.experiment, &error);
  if (k < 0) return failure(error);
  json& section = summary["experiments"][size_t(k)];
  if (section.contains("lanes") && section["lanes"].is_object() &&
      section["lanes"].contains(lane_id))
    return failure("experiment " + string_or(section, "name", "") + " already has a lane " +
                   lane_id + "; choose another name with --lane");
  const std::string exp = string_or(section, "name", kNewRunExperiment);
  ImportedLane lane = build_imported_lane(b, lane_id, exp, file_name);
  section["lanes"][lane_id] = lane.section;
  if (!write_lane_files(o.into_dir, lane_id, lane, &error) ||
      !files::write_confined(o.into_dir, "summary.json", dump(summary), &error))
    return failure(error);
  return outcome_of(lane, lane_id, exp, b);
}

}  // namespace

std::string imported_lane_id(const std::string& name) {
  if (name.empty() || name.size() > 64) return {};
  for (unsigned char c : name)
    if (!(std::isalnum(c) || c == '.' || c == '-' || c == '_')) return {};
  return "imported:" + name;
}

ImportOutcome import_into_run(const ImportOptions& o) {
  if (o.out_dir.empty() == o.into_dir.empty())
    return failure("give exactly one of --out NEWRUN or --into RUN");
  ImportReadResult read = read_import_file(o.file, o.format);
  if (!read.ok) return failure(read.error);
  const std::string name = o.lane_name.empty() ? to_string(read.benchmark.format) : o.lane_name;
  const std::string lane_id = imported_lane_id(name);
  if (lane_id.empty())
    return failure("lane name '" + name +
                   "' must be 1-64 letters, digits, '.', '-' or '_' (it becomes imported:" + name +
                   ")");
  const std::string file_name = fs::path(o.file).filename().string();
  return o.out_dir.empty() ? import_existing_run(read.benchmark, o, lane_id, file_name)
                           : import_new_run(read.benchmark, o, lane_id, file_name);
}

}  // namespace lb::interop
