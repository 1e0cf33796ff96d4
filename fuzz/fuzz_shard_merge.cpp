// Two shards' run folders from arbitrary bytes, merged (lanebench-cli merge): whatever shard.json,
// plan.json, summary.json, environment.json, requests.jsonl, texts and logprobs hold,
// - fleet::merge_shards never throws, and a refused merge says why and leaves no folder;
// - a merged folder opens as a run folder (load_run_folder) without throwing.
//
// Input layout: files separated by lines "//file NAME", NAME one of kNames (each shard's files
// under "0/" and "1/"); text before the first such line is 0/shard.json. A seed is two shards of
// one plan written out in this form (fuzz/corpus/shard_merge).
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/fleet/run_merge.h"
#include "core/report/run_folder.h"
#include "split_input.h"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNames[] = {
    "0/shard.json",           "0/plan.json",         "0/summary.json",
    "0/environment.json",     "0/requests.jsonl",    "0/texts/bf16.texts.json",
    "0/logprobs/bf16.jsonl",  "1/shard.json",        "1/plan.json",
    "1/summary.json",         "1/environment.json",  "1/requests.jsonl",
    "1/texts/fp8.texts.json", "1/logprobs/fp8.jsonl"};

bool known_name(std::string_view name) {
  for (std::string_view known : kNames)
    if (name == known) return true;
  return false;
}

const fs::path& scratch_dir() {
  static const fs::path dir = [] {
    const fs::path d =
        fs::temp_directory_path() / ("lanebench-fuzz-shards-" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void write_file(const fs::path& dir, std::string_view name, std::string_view text) {
  const fs::path path = dir / name;
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::app)
      .write(text.data(), static_cast<std::streamsize>(text.size()));
}

// The input's files into DIR/0 and DIR/1 (a marker counts at the start of a line).
void write_shards(const fs::path& dir, std::string_view input) {
  std::string_view name = "0/shard.json";
  constexpr std::string_view kMarker = "//file ";
  while (!input.empty()) {
    size_t marker = input.find(kMarker);
    while (marker != std::string_view::npos && marker != 0 && input[marker - 1] != '\n')
      marker = input.find(kMarker, marker + 1);
    if (marker == std::string_view::npos) {
      write_file(dir, name, input);
      break;
    }
    write_file(dir, name, input.substr(0, marker == 0 ? 0 : marker - 1));
    const size_t end = input.find('\n', marker);
    const std::string_view next = input.substr(
        marker + kMarker.size(),
        end == std::string_view::npos ? std::string_view::npos : end - marker - kMarker.size());
    name = known_name(next) ? next : std::string_view("0/shard.json");
    input = end == std::string_view::npos ? std::string_view() : input.substr(end + 1);
  }
  fs::create_directories(dir / "0");
  fs::create_directories(dir / "1");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path& dir = scratch_dir();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
  write_shards(dir, std::string_view(reinterpret_cast<const char*>(data), size));
  lb::fleet::MergeOptions options{{(dir / "0").string(), (dir / "1").string()},
                                  (dir / "out").string()};
  options.partial = size % 2 == 1;
  lb::fleet::MergeResult result;
  try {
    result = lb::fleet::merge_shards(options);
  } catch (const std::exception& e) {
    lb::fuzz::invariant_failed(e.what());
  }
  if (result.exit_code == 2) {
    if (result.errors.empty()) lb::fuzz::invariant_failed("a merge refused without a reason");
    if (fs::exists(dir / "out")) lb::fuzz::invariant_failed("a refused merge left a folder");
    return 0;
  }
  std::string error;
  try {
    (void)lb::report::load_run_folder((dir / "out").string(), &error);
  } catch (const std::exception& e) {
    lb::fuzz::invariant_failed(e.what());
  }
  return 0;
}
