#pragma once
// Runs a scheduler's command-line tool (sbatch, squeue, scontrol) and keeps what it printed.
#include <string>
#include <vector>

namespace lb::fleet {

struct ProgramOutput {
  bool started = false;  // false: the program could not be run (not installed); see output
  int exit_code = -1;    // -1 when it was killed or timed out
  std::string output;    // stdout and stderr together, at most 1 MiB
};

// ARGV[0] is looked up on PATH. Standard input is /dev/null; the program is killed after
// TIMEOUT_S seconds.
ProgramOutput run_program(const std::vector<std::string>& argv, int timeout_s = 60);

}  // namespace lb::fleet
