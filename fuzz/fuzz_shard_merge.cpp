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
#include "folder_input.h"
#include "split_input.h"

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNames[] = {
    "0/shard.json",           "0/plan.json",         "0/summary.json",
    "0/environment.json",     "0/requests.jsonl",    "0/texts/bf16.texts.json",
    "0/logprobs/bf16.jsonl",  "1/shard.json",        "1/plan.json",
    "1/summary.json",         "1/environment.json",  "1/requests.jsonl",
    "1/texts/fp8.texts.json", "1/logprobs/fp8.jsonl"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path& dir = lb::fuzz::scratch_dir("lanebench-fuzz-shards-");
  lb::fuzz::write_marked_files(dir, std::string_view(reinterpret_cast<const char*>(data), size),
                               kNames);
  fs::create_directories(dir / "0");
  fs::create_directories(dir / "1");
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
