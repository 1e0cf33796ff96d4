#pragma once
// A run folder read back for reporting. Loading never requires the run to have finished: a run
// killed at any moment (summary.json missing or from an earlier experiment, the last line of
// requests.jsonl cut short) still loads, marked incomplete, with every whole request line.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/compare/review_record.h"
#include "core/compare/sampled_verdicts.h"
#include "core/record/environment_record.h"
#include "core/record/plan_headline.h"
#include "core/record/run_summary.h"
#include "core/report/artifact_records.h"
#include "core/report/decision_record.h"
#include "core/report/request_digest.h"

namespace lb::report {

// What the charts and tables need from one requests.jsonl line. Negative = not available.
struct RequestPoint {
  std::string lane;
  std::string experiment;
  std::string phase;
  int64_t index = 0;
  int64_t turn = -1;  // 0-based turn of a multi-turn session; -1 outside sessions
  bool warmup = false;
  bool ok = false;
  double ttft_ms = -1;
  double e2el_ms = -1;
  double tpot_ms = -1;
  double decode_tok_s = -1;
  int64_t output_tokens = -1;
  int64_t prompt_tokens = -1;
  std::string output_tokens_provenance;  // "measured", "server", "estimated", "none"
  std::string prompt_tokens_provenance;
  std::string error_kind;   // empty when the request succeeded
  int64_t t_sched_ns = -1;  // the stored steady-clock stamps; -1 when absent
  int64_t t_sent_ns = -1;
  // The request's images and videos (requests.jsonl "media"); 0 for a text-only request.
  int64_t media_images = 0;
  int64_t media_videos = 0;
  int64_t media_pixels = 0;  // width × height summed, a video's over its frames
  // Each event's arrival after t_sent in ns, NaN where the file's entry is not a number.
  std::vector<double> event_offsets_ns;
  // Tokens each event carried as the server counted them, NaN where it did not; empty when the
  // line has no per-event counts.
  std::vector<float> event_tokens;

  // Gaps between consecutive events (per chunk), ms: metrics::itl_ms_from_offsets.
  std::vector<double> itl_ms() const;
  // Whether the server counted the tokens of every event.
  bool tokens_per_event_known() const;
};

// Called on the loading thread with each block of requests.jsonl's points, in file order; it may
// move them out. `share_read` is the part of the file read so far, 0 to 1.
using RequestBlockSink = std::function<void(std::vector<RequestPoint>& points, double share_read)>;

struct RunFolder {
  std::string dir;
  // plan.json's name, lanes and experiments (the resolved plan, no secrets); empty when absent.
  record::PlanHeadline plan_headline;
  record::EnvironmentRecord environment;  // environment.json; empty when absent
  bool has_summary = false;               // summary.json was there and is a JSON object
  record::RunSummary record;  // summary.json as types (record/run_summary.h); empty when absent
  // What of summary.json could not be read into `record`: "damaged: summary.json: PATH ...".
  std::vector<std::string> record_damage;
  // One record per (baseline, candidate) pair from review.json and review.*.json
  // (compare/run_reviews.h): the verdicts given on the Review page count wherever they are.
  std::vector<compare::ReviewRecord> reviews;
  // sampled-review.json and sampled-review.<lane>.json: verdicts of the sampled review.
  std::vector<compare::SampledReviewRecord> sampled_reviews;
  std::optional<DecisionRecord> decision;  // decision.json
  // artifacts/<lane>.verification.json (verify --attach), in file-name order; a file that is not
  // a verification document is a warning instead.
  std::vector<ArtifactRecord> artifacts;
  // Every whole line of requests.jsonl, as chart data (the JSON itself is not kept: a long run's
  // lines would take several times the file's size as JSON values).
  // Empty when the folder was loaded with a RequestBlockSink, which got them instead.
  std::vector<RequestPoint> requests;
  // What the report needs of every request, counted as the file was read: filled when the
  // requests are kept, and by load_run_folder_for_report (a RequestBlockSink gets the points
  // instead, and the Runs page, which folds its own charts, does not pay for it).
  RequestDigest digest;
  int64_t request_count = 0;               // request records in requests.jsonl, kept or not
  std::vector<std::string> request_lanes;  // their lanes, in order of first appearance
  bool complete = false;     // summary.json has run.finished_at and the run was not interrupted
  bool interrupted = false;  // stopped early, or killed before it could say it finished
  int64_t torn_lines = 0;    // requests.jsonl lines that are not JSON (a kill cuts the last one)
  std::vector<std::string> warnings;  // what is missing or damaged, one sentence each
  // The files among them that are damaged, as the pages name them: "damaged: summary.json: not
  // valid JSON (cut short?)", "damaged: plan.json: the file is array, not an object".
  std::vector<std::string> damage;

  // Lane ids in plan order (falling back to environment.json's, then request order).
  std::vector<std::string> lane_ids() const;
};

// nullopt with error filled when DIR is not a readable directory or holds nothing of a run.
// With REQUESTS, requests.jsonl's points go to it (and RunFolder::requests stays empty): a caller
// that folds them as they come never holds a long run's requests at once.
std::optional<RunFolder> load_run_folder(const std::string& dir, std::string* error,
                                         const RequestBlockSink* requests = nullptr);
// The same, keeping no request (RunFolder::requests stays empty; the digest is filled): what a
// report needs, in memory that does not grow with the run.
std::optional<RunFolder> load_run_folder_for_report(const std::string& dir, std::string* error);

}  // namespace lb::report
