#include "core/run/shard_record.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <vector>

#include "core/artifacts/sha256.h"
#include "core/record/json_object_file.h"
#include "core/record/run_folder_headline.h"
#include "core/run/lanes/clock_offset.h"

namespace lb::run {
namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// The wall clock and the steady clock read together: a request's t_*_ns (steady) plus
// wall_ns - steady_ns is its wall-clock time on this machine.
nlohmann::json clock_anchor() {
  using namespace std::chrono;
  const int64_t steady_ns =
      duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
  const int64_t wall_ns =
      duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
  return {{"steady_ns", steady_ns}, {"wall_ns", wall_ns}};
}

}  // namespace

std::string plan_sha256(const nlohmann::json& plan_json) {
  return artifacts::sha256_hex(plan_json.dump());
}

ShardFolderState shard_folder_state(const std::string& dir, const ShardSpec& spec,
                                    const std::string& plan_sha256) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec) || std::filesystem::is_empty(dir, ec))
    return ShardFolderState::Empty;
  std::vector<std::string> problems;
  const nlohmann::json shard = record::read_json_object_file(dir, "shard.json", problems);
  const nlohmann::json same = {{"index", spec.index}, {"count", spec.count}};
  if (!shard.is_object() || !shard.contains("shard") || !shard["shard"].is_object() ||
      shard["shard"].value("index", nlohmann::json()) != same["index"] ||
      shard["shard"].value("count", nlohmann::json()) != same["count"] ||
      shard.value("plan_sha256", nlohmann::json()) != plan_sha256)
    return ShardFolderState::Other;
  const nlohmann::json summary = record::read_json_object_file(dir, "summary.json", problems);
  const nlohmann::json run =
      summary.is_object() ? summary.value("run", nlohmann::json()) : nlohmann::json();
  return record::run_finished(run) ? ShardFolderState::Finished : ShardFolderState::Unfinished;
}

ShardRecord::ShardRecord(const ShardSpec& spec, const plan::Plan& shard_plan,
                         const nlohmann::json& plan_json, const std::string& client_version,
                         record::RunFolderWriter& writer)
    : writer_(writer) {
  record_ = {{"format", 1},
             {"shard", shard_json(spec, shard_plan)},
             {"host", host_name()},
             {"client_version", client_version},
             {"plan_sha256", plan_sha256(plan_json)},
             {"clock", clock_anchor()},
             {"server_clocks", nlohmann::json::object()}};
  writer_.write_json("shard.json", record_);
}

void ShardRecord::measure_clock(net::StreamClient& client, const LaneRuntime& lane,
                                const std::atomic<bool>& stop) {
  record_["server_clocks"][lane.plan.id] =
      to_json(measure_clock_offset(client, lane.endpoint, stop));
  writer_.write_json("shard.json", record_);
}

}  // namespace lb::run
