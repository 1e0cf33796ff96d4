#pragma once
// The review records of a run folder, one per (baseline lane, candidate lane) pair. A folder may
// hold several files for one pair: the run writes its triage (review.json for two lanes,
// review.<candidate>.json for more), and earlier versions of the Review page wrote the
// reviewer's verdicts into a file of their own beside it. Every reader (gate table, Decision
// page, report, CLI) and the Review page itself go through these functions, so a verdict given
// in any of those files counts, and new verdicts go to the one file that holds the pair.
#include <optional>
#include <string>
#include <vector>

#include "core/compare/review_record.h"

namespace lb::compare {

struct StoredReview {
  std::string file;  // file name inside the run folder, e.g. "review.fp8.json"
  ReviewRecord record;
};

// review.json and review.*.json of RUN_DIR in file-name order; a file that cannot be read is
// left out with one sentence in *warnings ("review.json cannot be read: PATH: why") and one in
// *damage as the pages name it ("damaged: review.json: why").
std::vector<StoredReview> read_review_files(const std::string& run_dir,
                                            std::vector<std::string>* warnings = nullptr,
                                            std::vector<std::string>* damage = nullptr);

// One record per lane pair, in order of first appearance. Where several files hold a pair, the
// preferred file's record (see review_file_for_pair) is the base and each prompt pair takes the
// verdict given last (latest reviewed_at) in any of them.
std::vector<ReviewRecord> reviews_by_pair(const std::vector<StoredReview>& files);

// The record of (lane_a, lane_b), merged as above; nullopt when no file holds it.
std::optional<ReviewRecord> review_for_pair(const std::vector<StoredReview>& files,
                                            const std::string& lane_a, const std::string& lane_b);

// The file name verdicts for (lane_a, lane_b) are saved to: the file that already holds the pair
// (the run's own review.<candidate>.json before review.json before any other), else a new
// review.<a>.<b>.json with the lane names made file-safe ("RUN:bf16" -> "RUN_bf16").
std::string review_file_for_pair(const std::vector<StoredReview>& files, const std::string& lane_a,
                                 const std::string& lane_b);

// Replaces the record of RECORD's lane pair in RECORDS (or appends it): the in-memory view of a
// run after the Review page saved RECORD.
void put_review(std::vector<ReviewRecord>& records, ReviewRecord record);

}  // namespace lb::compare
