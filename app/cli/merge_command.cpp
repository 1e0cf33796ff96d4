// `lanebench-cli merge SHARD_DIR... --out RUN_DIR [--partial] [--max-clock-offset-ms MS]`: the
// run folders of a plan's shards (run --shard) made into one run folder (docs/fleet.md).
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "core/fleet/run_merge.h"
#include "core/net/printable_text.h"

namespace lb::cli {

void add_merge_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<fleet::MergeOptions>();
  auto* cmd = app.add_subcommand(
      "merge", "make one run folder of the run folders of a plan's shards (run --shard)");
  cmd->add_option("shards", options->shard_dirs, "the shards' run folders")->required();
  cmd->add_option("--out,-o", options->out_dir, "run folder to create (must be new or empty)")
      ->required();
  cmd->add_flag("--partial", options->partial,
                "merge although shards are missing or did not finish; the run is marked partial "
                "and names them");
  cmd->add_option("--max-clock-offset-ms", options->max_clock_offset_ms,
                  "refuse a shard whose clock is further than this from its lanes' servers' "
                  "(default 1000)")
      ->check(CLI::PositiveNumber);
  auto blockers_ok = std::make_shared<bool>(false);
  cmd->add_flag("--blockers-ok", *blockers_ok,
                "exit 0, not 1, when the merged run has blockers (a failed gate, a flipped fact)");
  cmd->callback([options, blockers_ok, &exit_code] {
    const fleet::MergeResult result = fleet::merge_shards(*options);
    for (const std::string& e : result.errors)
      std::cerr << "lanebench-cli merge: " << net::printable_text(e) << '\n';
    for (const std::string& n : result.notes)
      std::cerr << "lanebench-cli merge: " << net::printable_text(n) << '\n';
    if (result.errors.empty())
      std::cout << "merged " << result.shards << " shard" << (result.shards == 1 ? "" : "s") << ", "
                << result.requests << " requests"
                << (result.missing.empty() ? "" : " (partial: shards missing)")
                << "\nrun folder: " << options->out_dir << '\n';
    exit_code = result.exit_code == 1 && *blockers_ok ? 0 : result.exit_code;
  });
}

}  // namespace lb::cli
