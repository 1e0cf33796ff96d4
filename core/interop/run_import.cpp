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
#include "core/record/experiment_kind.h"
#include "core/record/run_summary.h"
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

// The section an imported run's lanes go into when the run has no throughput experiment.
record::ExperimentSection new_section() {
  record::ExperimentSection section;
  section.name = kNewRunExperiment;
  section.kind = record::ExperimentKind::Throughput;
  section.kind_name = "throughput";
  section.more["status"] = "done";
  return section;
}

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

// The imported lane as the record holds it; its section was built by build_imported_lane.
record::LaneRecord lane_record(const std::string& lane_id, const ImportedLane& lane) {
  record::FileFields fields("the imported lane");
  return record::read_lane_record(lane_id, lane.section, fields);
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
  record::RunSummary summary;
  summary.run.name = "imported from " + file_name;
  summary.run.started_at = summary.run.finished_at = now;
  summary.run.interrupted = false;
  summary.run.empty_blockers = true;
  summary.run.more["imported"] = true;
  summary.experiments.push_back(new_section());
  record::ExperimentSection& section = summary.experiments.back();
  section.more["started_at"] = section.more["finished_at"] = now;
  section.lanes.push_back(lane_record(lane_id, lane));
  const json plan = {
      {"name", summary.run.name},
      {"imported", true},
      {"lanes", {{{"id", lane_id}, {"base_url", std::string("imported:") + to_string(b.format)}}}},
      {"experiments", {{{"kind", "throughput"}, {"name", kNewRunExperiment}}}}};
  const json environment = {{"imported", {{lane_id, lane.section["source"]}}}};
  std::string error;
  if (!files::write_confined(o.out_dir, "plan.json", dump(plan), &error) ||
      !files::write_confined(o.out_dir, "environment.json", dump(environment), &error) ||
      !write_lane_files(o.out_dir, lane_id, lane, &error) ||
      !files::write_confined(o.out_dir, "summary.json", dump(record::to_json(summary)), &error))
    return failure(error);
  return outcome_of(lane, lane_id, kNewRunExperiment, b);
}

// The experiment an imported lane joins: the named one, else the run's only throughput
// experiment, else a section of its own. nullptr with `error` set when the choice is ambiguous.
record::ExperimentSection* choose_section(record::RunSummary& summary, const std::string& wanted,
                                          std::string* error) {
  std::vector<record::ExperimentSection*> throughput;
  std::string names;
  for (record::ExperimentSection& e : summary.experiments) {
    names += (names.empty() ? "" : ", ") + e.name;
    if (!wanted.empty() && e.name == wanted) return &e;
    if (wanted.empty() && e.is(record::ExperimentKind::Throughput)) throughput.push_back(&e);
  }
  if (!wanted.empty()) {
    *error = "the run has no experiment named " + wanted +
             " (it has: " + (names.empty() ? std::string("none") : names) + ")";
    return nullptr;
  }
  if (throughput.size() > 1) {
    *error = "the run has several throughput experiments (" + names +
             "); choose one with --experiment NAME";
    return nullptr;
  }
  if (throughput.size() == 1) return throughput[0];
  for (record::ExperimentSection& e : summary.experiments)
    if (e.name == kNewRunExperiment) return &e;
  summary.experiments.push_back(new_section());
  return &summary.experiments.back();
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
  const json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("experiments") || !doc["experiments"].is_array())
    return failure(summary_path.string() + " is not a run summary (no experiments list)");
  // Written back whole: a member the record cannot read would be lost, so none may be damaged.
  record::FileFields fields(summary_path.string());
  record::RunSummary summary = record::read_run_summary(doc, fields);
  if (fields.damaged())
    return failure(fields.damage().front() + "; the lane is not imported into a damaged run");
  std::string error;
  record::ExperimentSection* section = choose_section(summary, o.experiment, &error);
  if (!section) return failure(error);
  if (section->lane(lane_id))
    return failure("experiment " + section->name + " already has a lane " + lane_id +
                   "; choose another name with --lane");
  const std::string exp = section->name.empty() ? kNewRunExperiment : section->name;
  ImportedLane lane = build_imported_lane(b, lane_id, exp, file_name);
  section->lanes.push_back(lane_record(lane_id, lane));
  if (!write_lane_files(o.into_dir, lane_id, lane, &error) ||
      !files::write_confined(o.into_dir, "summary.json", dump(record::to_json(summary)), &error))
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
