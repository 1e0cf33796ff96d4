#pragma once
// A run's sampled regression as its files record it, read back for review: sampled.json (or
// sampled.<lane>.json, one per candidate: each prompt's result, q-value, fact losses and the
// ratio of every sample pair) and texts/<lane>.samples.json (per prompt, the lane's samples).
// Read bounded and tolerantly: a field of the wrong shape is noted ("damaged: sampled.json:
// prompts[3].q_value is a string, not a number") and read as absent; a file that cannot be used
// at all is an error that names it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lb::record {

struct SampledPairRatio {
  uint32_t i = 0;  // sample index in the first lane (A for cross pairs)
  uint32_t j = 0;  // sample index in the second lane (B for cross pairs)
  double ratio = 0;
};

struct SampledFactLoss {
  int64_t lost = 0;
  int64_t samples = 0;
};

struct SampledPromptRecord {
  size_t index = 0;
  std::string id;
  std::string result;  // "indistinguishable", "shifted", "untested"
  double q_value = 1;
  std::string fact_loss_text;  // "fact lost in 3/16 fp8 samples vs 0/16 bf16"; "" without checks
  // Per lane, when the prompt has fact checks ("fact_lost"); a lane whose entry is not
  // {"lost": N, "samples": M} is absent from it.
  std::optional<std::map<std::string, SampledFactLoss>> fact_lost;
  std::array<std::vector<SampledPairRatio>, 3> pairs;  // within_a, within_b, cross
};

struct SampledFile {
  std::string baseline;
  std::string candidate;
  std::vector<SampledPromptRecord> prompts;
  std::vector<std::string> damage;  // what was read as absent, one sentence each
};

// DIR/FILE (sampled.json or sampled.<lane>.json); nullopt with *error ("damaged: sampled.json:
// not valid JSON (cut short?)") when it cannot be read or names no lanes or prompts.
std::optional<SampledFile> read_sampled_file(const std::string& dir, const std::string& file,
                                             std::string* error);

// DIR/texts/<LANE>.samples.json as [prompt][sample] (a sample that is not a string reads as "");
// LANE names a file in texts/ and nothing else. nullopt with *error naming the file.
std::optional<std::vector<std::vector<std::string>>> read_lane_samples(const std::string& dir,
                                                                       const std::string& lane,
                                                                       std::string* error);

}  // namespace lb::record
