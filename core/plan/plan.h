#pragma once
// The plan file (docs/plan-file.md): which lanes (endpoints + serving configuration) to run which
// experiments against. The same file drives the GUI and the CLI. Parsing validates everything and
// reports each problem with the JSON path of the field it concerns.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/net/http_types.h"
#include "core/plan/environment.h"
#include "core/plan/launch_spec.h"
#include "core/plan/sharegpt_file.h"
#include "core/plan/split_spec.h"
#include "core/plan/sweep_spec.h"
#include "core/plan/trace_file.h"
#include "core/plan/trial_options.h"

namespace lb::plan {

struct LaneNotes {
  std::string weights;   // e.g. "bf16", "fp8"
  std::string kv_cache;  // e.g. "fp8"
  std::string spec;      // e.g. "none", "mtp:3"
  std::optional<bool> prefix_caching;
  std::string engine_version;
  std::string text;  // free text
};

inline constexpr int64_t kDefaultMaxMediaBytes = int64_t{20} << 20;  // 20 MiB
// The longest one request may take from being sent to its last byte, unless the plan or the
// experiment says otherwise ("request_timeout_s"): long enough for the prefill of a 241K-token
// prompt and a long answer, short enough that a server that never stops cannot hold a run.
inline constexpr double kDefaultRequestTimeoutS = 1800;
inline constexpr double kMaxRequestTimeoutS = 7 * 24 * 3600.0;

// Where a lane's GPU energy is read (docs/metrics.md, "Energy"): the cumulative DCGM counter
// DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION (mJ) on a Prometheus text endpoint.
struct EnergySource {
  // "lane" = the lane's own /metrics; otherwise the http(s) URL of dcgm-exporter's /metrics or
  // of a Prometheus server's /federate?match[]=DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION.
  std::string metrics_url;
  // The GPUs of the lane, matched against each sample's `gpu` (index) or `UUID` label; empty =
  // every GPU the endpoint reports.
  std::vector<std::string> gpus;
};
inline constexpr const char* kEnergyFromLane = "lane";

struct Lane {
  std::string id;
  std::string base_url;        // "http(s)://host[:port][/path]" or "sim:PROFILE[?k=v&...]"
  std::string model = "auto";  // "auto" = the first id of /v1/models
  std::string api_key_env;     // env var holding the key, or "keyring:<lane-id>"; never the key
  std::string ca_bundle;       // path of a CA bundle for this lane; empty = system store
  bool insecure = false;       // TLS verification off; labelled in every output
  // Send the key over plain http to a host other than loopback (plan/key_transport.h).
  bool allow_key_over_http = false;
  net::HttpVersion http_version = net::HttpVersion::Auto;
  // The most bytes of images and videos (encoded files, together) one request may carry; a
  // request with more is refused before it is sent. 0 = no limit.
  int64_t max_media_bytes = kDefaultMaxMediaBytes;
  // What the lane's serving hardware costs, in US dollars an hour (0 = not given): each phase
  // then records its cost per million output tokens (docs/metrics.md, "Cost").
  double cost_per_hour = 0;
  // Unset = the lane's own /metrics when its probe finds the DCGM counter there.
  std::optional<EnergySource> energy;
  LaneNotes notes;

  // Filled for "sim:" lanes.
  bool is_sim() const { return !sim_profile.empty(); }
  std::string sim_profile;
  std::map<std::string, std::string> sim_options;  // e.g. {"time_scale": "0.1"}

  // Set = LaneBench starts this lane's server before its experiments and stops it after them.
  std::optional<LaunchSpec> launch;
};

struct SloThresholds {  // <= 0 = not set
  double ttft_ms = -1;
  double tpot_ms = -1;
  double e2el_ms = -1;
};

// Determinism floor (plan file "kind": "determinism"): how often a lane's greedy answers change
// on their own. Repeatability: the prompt set `repeats` times at concurrency 1. Batch invariance:
// once more at `batch_concurrency` (0 = skipped). Cache invariance (`cache`): a warm pass right
// after a cold one, the prefix cache reset first where the server has an endpoint for it.
struct DeterminismExperiment {
  std::string prompts = "builtin:regression-20";  // "builtin:NAME" or a prompt-set file path
  int64_t max_tokens = 256;
  int64_t repeats = 3;
  int64_t batch_concurrency = 16;
  // Decode load: once more at concurrency 1 among this many long decodes in flight (0 = skipped).
  int64_t decode_load_streams = 0;
  bool cache = true;
  // Alternatives per token (0-20) for the first divergent token's margin; 0 = texts only.
  int64_t logprobs = 5;
  double near_tie_margin_nats = 0.5;
};

struct RegressionExperiment {
  std::string prompts = "builtin:regression-20";  // "builtin:NAME" or a prompt-set file path
  int64_t max_tokens = 256;
  double temperature = 0;              // greedy
  double similarity_threshold = 0.95;  // difflib ratio at or above which outputs are near-identical
  int64_t concurrency = 1;
  // Per-token logprobs with this many alternatives (1-20; "logprobs": false or 0 = off), and
  // the baseline top-1/top-2 margin (nats) at or under which a first divergence is a near-tie.
  int64_t logprobs = 5;
  double near_tie_margin_nats = 0.5;
  // Teacher-forced cross-scoring of each candidate's answers under the baseline and back
  // (needs logprobs, /tokenize and /v1/completions with echo), and the gate's least top-1
  // agreement (0-1) over the candidate's answers read by the baseline; -1 = no such gate.
  bool cross_score = false;
  double min_top1_agreement = -1;
  // Greedy A/A baseline under load (plan file "load_baseline": {"concurrency": N}): each lane
  // also answers the prompts at this concurrency, compared with its own answers at
  // `concurrency`; 0 = not asked for.
  int64_t load_baseline_concurrency = 0;
  // The baseline's determinism floor (plan file "floor": true or {"repeats", "batch_concurrency",
  // "cache"}), measured with the regression's prompts, max_tokens and logprobs; each candidate's
  // differences are then judged above or within it. Unset = not asked for.
  std::optional<DeterminismExperiment> floor;
};

// The sampled review (docs/plan-file.md): `samples` sampled answers per prompt and lane at the
// plan's temperature and top_p, sample k with seed `seed + k` where the server takes a seed; each
// prompt's within-lane and cross-lane similarity compared by a permutation test, with
// Benjamini–Hochberg across prompts at false discovery rate `fdr`.
struct SampledRegressionExperiment {
  std::string prompts = "builtin:regression-20";  // "builtin:NAME" or a prompt-set file path
  int64_t max_tokens = 256;
  int64_t samples = 16;  // per prompt and lane
  double temperature = 0.8;
  double top_p = 0.95;
  int64_t seed = 0;
  int64_t concurrency = 4;
  double fdr = 0.05;
  int64_t permutations = 1999;
};

// A closed-loop sweep that doubles concurrency (start, 2*start, 4*start, ... up to max) until
// aggregate output tok/s gains less than min_gain over the previous level or a level has errors.
// Plan file: "concurrency_doubling": {"start": 1, "max": 1024, "min_gain": 0.05}.
struct ConcurrencyDoubling {
  int64_t start = 1;
  int64_t max = 1024;
  double min_gain = 0.05;  // fraction, 0.05 = 5 %
};

struct ThroughputExperiment {
  // Closed loop over each concurrency (a sweep), or doubling until throughput stops gaining, or
  // open loop at request_rate (req/s) with Gamma burstiness (1 = Poisson), optionally capped at
  // max_concurrency.
  std::vector<int64_t> concurrency;             // empty when request_rate or doubling is used
  std::optional<ConcurrencyDoubling> doubling;  // set = levels by doubling, not the list
  double request_rate = -1;                     // req/s; -1 = closed loop
  double burstiness = 1.0;
  int64_t max_concurrency = 0;  // open loop cap; 0 = none
  int64_t requests = 0;         // per concurrency level (or for the open-loop run)
  double duration_s = 0;        // bound by time instead (or in addition: whichever comes first)
  int64_t warmups = 1;          // per level, excluded from aggregates
  int64_t input_tokens = 1024;
  int64_t output_tokens = 128;
  bool ignore_eos = true;  // so every request generates output_tokens
  uint64_t seed = 0;
  SloThresholds slo;
  bool use_tokenize = true;  // size prompts with the server's /tokenize when it has one
};

struct ContextSweepExperiment {
  std::vector<int64_t> prompt_tokens;  // target sizes, required
  bool needle = true;
  // Where the needle sits in the filler, 0 = start .. 1 = end; a quarter of the way in by default,
  // far from the question, where long-context retrieval is hardest.
  double needle_depth = 0.25;
  int64_t output_tokens = 64;
  int64_t repeat = 1;
  bool use_tokenize = true;  // size prompts with the server's /tokenize when it has one
};

struct PrefixCacheExperiment {
  int64_t burst = 5;
  int64_t shared_prefix_tokens = 4096;
  int64_t suffix_tokens = 64;
  int64_t output_tokens = 64;
  bool control = true;       // a pass whose requests each have their own prefix: nothing reusable
  bool use_tokenize = true;  // size prompts with the server's /tokenize when it has one
};

struct SpeculativeExperiment {
  std::vector<int64_t> concurrency = {1, 5};
  int64_t requests = 16;  // per concurrency level
  int64_t warmups = 1;
  int64_t input_tokens = 512;
  int64_t output_tokens = 256;
  bool use_tokenize = true;  // size prompts with the server's /tokenize when it has one
};

// Open-loop replay of a request trace on its own timestamps (docs/traces.md).
struct TraceExperiment {
  std::string path;  // the trace file; relative paths are resolved against the plan's folder
  std::string format = "auto";  // "auto", "mooncake", "azure", "burstgpt"
  double speedup = 1.0;         // trace offsets are divided by this
  int64_t max_requests = 0;     // 0 = the whole trace
  double max_duration_s = 0;    // replay time (after speedup); 0 = no bound
  bool skip_bad_rows = false;   // skip and count malformed rows instead of failing
  double max_gap_s = 0;         // > 0: a longer gap between rows is an error; 0 = no check
  bool ignore_eos = true;       // so every request generates the trace's output length
  bool use_tokenize = true;     // size prompts with the server's /tokenize when it has one
  // The rows check_plan_files read (with trace_read_options): the runner replays these, so the
  // file is read once and what was checked is what runs. Null until checked.
  std::shared_ptr<const Trace> rows;
};

// How to read the experiment's trace: format, bad-row rule, gap check, and the cuts
// (max_duration_s is replay time, so the trace is cut at max_duration_s * speedup).
TraceReadOptions trace_read_options(const TraceExperiment& e);

// A lane in the plan file's lane format, every field, as plan.json and a workspace's lanes.json
// hold it (parse_plan reads it back unchanged). SECRETS: how a launch block's secret-named env
// values are written (plan/launch_spec.h).
nlohmann::json lane_to_json(const Lane& lane, SecretEnvValues secrets);

// Multi-turn chat sessions (docs/sessions.md): each turn sends the whole history, the lane's own
// earlier answers included. Synthetic sessions, or the user turns of a ShareGPT file (path).
struct SessionsExperiment {
  static constexpr int64_t kMaxTurns = 1000;  // the most `turns` or `max_turns` may ask for
  std::string path;                           // ShareGPT file; empty = synthetic sessions
  int64_t sessions = 4;                       // sessions in flight at once
  int64_t total_sessions = 0;           // sessions run in all; 0 = `sessions` (synthetic) or the
                                        // whole file (ShareGPT)
  int64_t turns = 4;                    // synthetic: turns per session
  int64_t system_prompt_tokens = 2048;  // synthetic: each session's own system prompt
  int64_t user_tokens_per_turn = 128;   // synthetic: each user message
  double think_time_s = 0;              // pause between an answer and the next turn
  int64_t output_tokens = 64;           // max_tokens of every turn
  int64_t max_turns = 0;                // ShareGPT: cut longer conversations; 0 = no cut
  bool ignore_eos = true;               // so every answer is output_tokens long
  bool use_tokenize = true;             // size synthetic prompts with the server's /tokenize
  // The ShareGPT file's conversations as check_plan_files read them, for the runner. Null until
  // checked, and for synthetic sessions.
  std::shared_ptr<const ConversationReadResult> conversations;
};

// SLO capacity (docs/capacity.md): the highest load at which every SLO percentile holds, found
// by doubling from `start` and then bisecting to `resolution`, one probe per load.
struct CapacityExperiment {
  double ttft_p99_ms = -1;  // SLOs; <= 0 = not set; at least one is required
  double tpot_p99_ms = -1;
  std::string load = "concurrency";  // "concurrency" (closed loop) or "rate" (open loop, req/s)
  double start = 1;                  // first probe's load
  double max_load = 0;               // highest load probed; 0 = 1024 (concurrency), 1000 (rate)
  double resolution = 0;             // bisection stops at this gap; 0 = 1 (conc.), 0.5 (rate)
  int64_t max_probes = 12;
  double max_duration_s = 600;  // the whole search on one lane
  int64_t requests = 32;        // measured requests per probe
  int64_t warmups = 4;          // per probe, at the probe's load, discarded
  int64_t input_tokens = 512;
  int64_t output_tokens = 64;
  bool ignore_eos = true;
  bool use_tokenize = true;
  bool by_rate() const { return load == "rate"; }
  double effective_max_load() const { return max_load > 0 ? max_load : by_rate() ? 1000 : 1024; }
  double effective_resolution() const { return resolution > 0 ? resolution : by_rate() ? 0.5 : 1; }
};

struct GatesExperiment {
  std::vector<std::string> checks;  // default: all of all_gate_checks()
  int64_t repeat = 3;
  // The "multimodal" check's prompt set: each prompt (with its images or videos) is one attempt,
  // scored n/N per category (image, video, mixed) by its fact checks; `repeat` does not apply.
  std::string multimodal_prompts = "builtin:multimodal-30";
  // The API an OpenAI-compatible lane's multimodal check goes over: "chat" (and also the
  // Responses API when the lane passed the `responses` check), "responses" or "both". An Ollama
  // lane always goes over its native /api/chat (docs/multimodal.md).
  std::string multimodal_api = "chat";
};

// The functional gates run when a plan names none.
const std::vector<std::string>& all_gate_checks();
// Checks run only when a plan names them ("multimodal": it needs a vision model).
const std::vector<std::string>& optional_gate_checks();

using ExperimentParams =
    std::variant<RegressionExperiment, ThroughputExperiment, ContextSweepExperiment,
                 PrefixCacheExperiment, SpeculativeExperiment, GatesExperiment, TraceExperiment,
                 SampledRegressionExperiment, SessionsExperiment, CapacityExperiment,
                 DeterminismExperiment>;

struct Experiment {
  std::string kind;  // "regression", "throughput", "context_sweep", "prefix_cache", ...
  std::string name;  // optional label; defaults to kind (or kind#N when repeated)
  std::vector<std::string> lanes;  // lane ids to run on; empty in the file = all lanes
  ExperimentParams params;
  // Performance kinds only (plan/trial_options.h): how many times each level runs, the lanes'
  // order (interleaved by default when trials > 1), and gates on the lanes' comparisons.
  int64_t trials = 1;
  // Kinds other than regression (whose own "logprobs" lives in its params): per-token logprobs
  // with this many alternatives (1-20) on every chat request, kept in logprobs/<lane>.jsonl;
  // 0 = off. The gates kind does not take it.
  int64_t logprobs = 0;
  LaneOrder lane_order = LaneOrder::Sequential;
  std::vector<PerformanceGate> performance_gates;
  // Each request's total time limit (seconds): the experiment's own "request_timeout_s", else the
  // plan's. A request still running then ends with a timeout error.
  double request_timeout_s = kDefaultRequestTimeoutS;
  // Closed-loop phases' steady window (docs/metrics.md, "Steady state"): the share of the
  // phase's concurrency that must be in flight, in (0, 1].
  double steady_state_fraction = 0.95;
  // Open-loop phases' steady window (plan file "trim"): the warm-up and cool-down left out of
  // it, in seconds and/or requests from each end of the phase's sends; all 0 = no window.
  struct Trim {
    double warmup_s = 0, cooldown_s = 0;
    int64_t warmup_requests = 0, cooldown_requests = 0;
  } trim;
  // Not a plan-file key. In one shard of the plan (run --shard): the experiment's lanes in the
  // whole plan, in plan order (the first is its baseline); empty in a run of the whole plan.
  std::vector<std::string> shard_lanes;
  // Not a plan-file key. In a shard that is client `client` (0-based) of the plan's split lane:
  // the split, when the experiment shares that lane's load among its clients (splits_load()).
  // A client other than the first runs the lane's other experiments not at all (skips_lane).
  struct ShardClient {
    SplitSpec split;
    int64_t client = 0;
  };
  std::optional<ShardClient> split_client;
  bool skips_lane = false;
  // How the run names it: its "name", else its kind.
  const std::string& name_or_kind() const { return name.empty() ? kind : name; }
  // Whether it runs on that lane: every lane when it names none.
  bool runs_on(std::string_view lane_id) const {
    return lanes.empty() || std::find(lanes.begin(), lanes.end(), lane_id) != lanes.end();
  }
};

struct Plan {
  std::string name;
  std::string description;  // optional
  std::vector<Lane> lanes;
  std::vector<Experiment> experiments;
  SweepSpec sweep;  // launch parameters to sweep; no axes = none
  Objective objective;
  std::optional<SplitSpec> split;  // one lane's load sent by several clients (run --shard)
  double request_timeout_s = kDefaultRequestTimeoutS;  // the experiments' default
  const Lane* lane(std::string_view id) const;
  bool launches_servers() const;  // a lane has a launch block
};

struct PlanError {
  std::string path;     // JSON path, e.g. "experiments[1].concurrency[2]"; empty = whole file
  std::string message;  // what is wrong, e.g. "must be >= 1 (got 0)"
  // "SOURCE: PATH: MESSAGE"
  std::string to_string(std::string_view source_name) const;
};

struct PlanParseResult {
  std::optional<Plan> plan;  // set only when errors is empty
  std::vector<PlanError> errors;
  std::string source_name;
  bool ok() const { return plan.has_value() && errors.empty(); }
  std::string error_text() const;  // one error per line, "SOURCE: PATH: MESSAGE"
};

PlanParseResult parse_plan(std::string_view json_text, std::string_view source_name);
// Reads LANE_JSON's "launch" block into lane.launch (base_url taken from lane.base_url) exactly
// as parse_plan does, for editors of one lane; each error's path starts at "launch". No block:
// lane.launch is reset and only a "{port}" in base_url is an error.
std::vector<PlanError> read_lane_launch(const nlohmann::json& lane_json, Lane& lane);
// Reads the file and parses it; an unreadable file is one error naming the path. Relative trace
// paths are resolved against the plan file's folder, and each trace is read with its
// experiment's options, so a bad trace is a plan error naming its file and line.
PlanParseResult load_plan_file(const std::string& path);
// Resolves each trace and ShareGPT file's relative path against PLAN_FOLDER ("" = as given) and
// reads the file with its experiment's options: the errors name the experiment's "path" field
// and the file's line. What load_plan_file does after parsing, for plans given as text.
std::vector<PlanError> check_plan_files(Plan& plan, const std::string& plan_folder);

// The plan with every default filled in, as written to a run folder's plan.json. Contains the
// name of each lane's API-key variable, never a key.
nlohmann::json resolved_plan_json(const Plan& plan);

// Reads the lane's API key at call time from its variable in `env` or, for a
// "keyring:<lane-id>" reference, through the registered keyring lookup (plan/api_key_source.h).
// nullopt when the lane names no source (error untouched) or the key cannot be had (error says
// why, without the lane id prefix and never with a key). Keep the result in memory only.
std::optional<std::string> resolve_api_key(const Lane& lane, const Environment& env,
                                           std::string* error = nullptr);

}  // namespace lb::plan
