#include "core/fleet/slurm_batch.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/files/confined_write.h"
#include "core/fleet/program_output.h"
#include "core/fleet/shard_folder.h"
#include "core/record/json_object_file.h"

namespace lb::fleet {
namespace {

using json = nlohmann::json;

// A word of a shell command line, quoted so the shell takes it as it is.
std::string shell_word(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool only(const std::string& s, const char* extra) {
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr(extra, c) != nullptr;
  });
}

// A job name from the plan's name: letters, digits, '.', '_', '-'.
std::string job_name(const std::string& plan_name) {
  std::string out = "lanebench";
  if (!plan_name.empty()) out += "-";
  for (char c : plan_name.substr(0, 40))
    out +=
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  return out;
}

// The #SBATCH values: sbatch reads these lines itself, without a shell, so they may hold no
// space, quote or '%' (its file-name patterns).
std::string check_values(const SlurmOptions& o) {
  if (o.out_dir.empty() || o.out_dir[0] != '/' || !only(o.out_dir, "/._+-@,="))
    return "--out must be an absolute path of letters, digits and / . _ + - @ , = (it goes into "
           "#SBATCH lines), not \"" +
           o.out_dir + "\"";
  if (!only(o.partition, "_.,-"))
    return "--partition: \"" + o.partition + "\" is not a partition name";
  if (!only(o.gpus_per_task, ":_-"))
    return "--gpus-per-task: \"" + o.gpus_per_task + "\" is not a count";
  if (!only(o.time_limit, ":-")) return "--time: \"" + o.time_limit + "\" is not a Slurm time";
  return "";
}

std::string directives(const SlurmOptions& o, const std::string& name, const std::string& log) {
  std::string out =
      "#SBATCH --job-name=" + name + "\n#SBATCH --output=" + o.out_dir + "/logs/" + log + "\n";
  if (!o.partition.empty()) out += "#SBATCH --partition=" + o.partition + "\n";
  if (!o.time_limit.empty()) out += "#SBATCH --time=" + o.time_limit + "\n";
  return out;
}

std::string shards_script(const SlurmOptions& o, int64_t count, const std::string& name) {
  std::string s =
      "#!/bin/bash\n# One shard of the plan per array task (lanebench-cli fleet slurm).\n";
  s += "#SBATCH --array=0-" + std::to_string(count - 1) + "\n";
  s += directives(o, name, "shard-%a.log");
  if (!o.gpus_per_task.empty())
    s += "#SBATCH --gpus-per-task=" + o.gpus_per_task + "\n#SBATCH --ntasks=1\n";
  s += "set -eu\nexec " + shell_word(o.cli_path) + " run " + shell_word(o.plan_path) +
       " --shard auto/" + std::to_string(count) + " --out " + shell_word(o.out_dir + "/shards") +
       "/shard-\"$SLURM_ARRAY_TASK_ID\" --blockers-ok";
  if (o.allow_launch) s += " --allow-launch";
  for (const std::string& e : o.allowed_envs) s += " --allow-env " + shell_word(e);
  return s + "\n";
}

std::string merge_script(const SlurmOptions& o, int64_t count, const std::string& name) {
  std::string s =
      "#!/bin/bash\n# Merges the shards once the array is over (--dependency=afterany).\n";
  s += directives(o, name + "-merge", "merge.log");
  s += "set -eu\nshards=()\nfor i in $(seq 0 " + std::to_string(count - 1) + "); do\n";
  s += "  d=" + shell_word(o.out_dir + "/shards") + "/shard-$i\n";
  s += "  if [ -d \"$d\" ]; then shards+=(\"$d\"); fi\ndone\n";
  s += "if [ ${#shards[@]} -eq 0 ]; then echo 'no shard left a folder' >&2; exit 2; fi\n";
  s += "exec " + shell_word(o.cli_path) + " merge \"${shards[@]}\" --out " +
       shell_word(o.out_dir + "/run") + " --blockers-ok" + (o.partial_merge ? " --partial" : "") +
       "\n";
  return s;
}

// The job id `sbatch --parsable` printed ("123" or "123;cluster") among its other lines (a
// submit plugin's notes share the output); "" when there is none.
std::string parsed_id(const std::string& output) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    const std::string id = line.substr(0, line.find(';'));
    if (!id.empty() &&
        std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return id;
  }
  return "";
}

// Slurm's state of each array task (and of a plain job under its own id): scontrol keeps jobs
// for MinJobAge after they end, and needs no accounting database.
std::map<std::string, std::string> slurm_states(const std::string& job) {
  std::map<std::string, std::string> out;
  if (job.empty()) return out;
  const ProgramOutput p = run_program({"scontrol", "show", "job", job, "--oneliner"}, 30);
  if (!p.started || p.exit_code != 0) return out;
  std::istringstream lines(p.output);
  for (std::string line; std::getline(lines, line);) {
    auto field = [&](const std::string& key) {
      const size_t at = line.find(key + "=");
      if (at == std::string::npos) return std::string();
      const size_t from = at + key.size() + 1;
      return line.substr(from, line.find(' ', from) - from);
    };
    const std::string task = field("ArrayTaskId");
    out[task.empty() ? "job" : task] = field("JobState");
  }
  return out;
}

}  // namespace

bool write_slurm_scripts(const SlurmOptions& options, int64_t shard_count,
                         const std::string& plan_name, std::string* why) {
  if (std::string bad = check_values(options); !bad.empty()) {
    *why = bad;
    return false;
  }
  const std::string name = job_name(plan_name);
  std::error_code ec;
  // A second submission into the same folder would merge the first one's shards.
  for (const char* taken : {"/shards", "/run"})
    if (std::filesystem::exists(options.out_dir + taken, ec) &&
        !std::filesystem::is_empty(options.out_dir + taken, ec)) {
      *why = options.out_dir + taken + " holds an earlier submission's results; give another --out";
      return false;
    }
  std::filesystem::create_directories(options.out_dir + "/logs", ec);
  std::filesystem::create_directories(options.out_dir + "/shards", ec);
  if (ec) {
    *why = options.out_dir + ": cannot make its folders: " + ec.message();
    return false;
  }
  const json record = {
      {"scheduler", "slurm"}, {"plan", options.plan_path}, {"shards", shard_count}};
  return files::write_confined(options.out_dir, "shards.sbatch",
                               shards_script(options, shard_count, name), why) &&
         files::write_confined(options.out_dir, "merge.sbatch",
                               merge_script(options, shard_count, name), why) &&
         files::write_confined(options.out_dir, "fleet.json", record.dump(2) + "\n", why);
}

bool submit_slurm(const std::string& out_dir, SlurmSubmission* ids, std::string* why) {
  std::vector<std::string> problems;
  json record = record::read_json_object_file(out_dir, "fleet.json", problems);
  if (!record.is_object()) {
    *why = out_dir + ": no fleet.json; write the scripts first";
    return false;
  }
  const ProgramOutput shards = run_program({"sbatch", "--parsable", out_dir + "/shards.sbatch"});
  if (!shards.started || shards.exit_code != 0) {
    *why = "sbatch refused the shards' job array: " + shards.output;
    return false;
  }
  ids->shard_job = parsed_id(shards.output);
  if (ids->shard_job.empty()) {
    *why = "sbatch printed no job id: " + shards.output;
    return false;
  }
  // Kept before the merge is submitted: fleet status finds the array whatever happens next.
  record["shard_job"] = ids->shard_job;
  if (!files::write_confined(out_dir, "fleet.json", record.dump(2) + "\n", why)) return false;
  const ProgramOutput merge =
      run_program({"sbatch", "--parsable", "--dependency=afterany:" + ids->shard_job,
                   out_dir + "/merge.sbatch"});
  if (!merge.started || merge.exit_code != 0) {
    *why = "sbatch refused the merge job (the array " + ids->shard_job +
           " is queued): " + merge.output;
    return false;
  }
  ids->merge_job = parsed_id(merge.output);
  record["merge_job"] = ids->merge_job;
  return files::write_confined(out_dir, "fleet.json", record.dump(2) + "\n", why);
}

std::string fleet_status(const std::string& out_dir) {
  std::vector<std::string> problems;
  const json record = record::read_json_object_file(out_dir, "fleet.json", problems);
  if (!record.is_object() || !record.value("shards", json()).is_number_integer())
    return out_dir + ": no fleet.json (lanebench-cli fleet slurm writes it)\n";
  const int64_t count = record["shards"].get<int64_t>();
  const auto text = [&](const char* key) {
    return record.contains(key) && record[key].is_string() ? record[key].get<std::string>() : "";
  };
  const auto tasks = slurm_states(text("shard_job"));
  const auto merge = slurm_states(text("merge_job"));
  std::ostringstream out;
  out << "shard  slurm        folder\n";
  for (int64_t i = 0; i < count; ++i) {
    const std::string dir = out_dir + "/shards/shard-" + std::to_string(i);
    std::string folder = "not started";
    std::string why;
    if (auto s = read_shard_folder(dir, &why))
      folder = (s->finished ? "finished on " : "running or stopped on ") + s->host;
    else if (std::filesystem::exists(dir))
      folder = "no usable shard yet";
    const auto it = tasks.find(std::to_string(i));
    std::string state = it != tasks.end() ? it->second : (tasks.empty() ? "unknown" : "PENDING");
    out << std::left;
    out.width(7);
    out << i;
    out.width(13);
    out << state << folder << "\n";
  }
  const auto m = merge.find("job");
  out << "merge  " << (m != merge.end() ? m->second : std::string("unknown")) << "  "
      << (std::filesystem::exists(out_dir + "/run/summary.json") ? out_dir + "/run" : "no run yet")
      << "\n";
  return out.str();
}

}  // namespace lb::fleet
