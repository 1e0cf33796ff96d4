#pragma once
// SimConfig: everything one simulated lane needs (profile plus server-level options), and the
// lane spec syntax "PROFILE[?key=value&...]" used by `sim:PROFILE` base URLs and --lane flags.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "profile.h"

namespace lb::sim {

enum class FaultKind {
  None,
  RateLimit,       // 429 with Retry-After before the stream
  ServerError,     // 500 before the stream
  MidstreamError,  // an error object inside the stream, then [DONE]
  Drop,            // connection closed mid-stream, no terminating chunk
  Stall,           // stream stops sending, connection held open, then closed
  Malformed,       // a chunk that is not valid JSON, then the stream goes on
  SlowFirstByte,   // response held back before its first byte
};

const char* to_string(FaultKind kind);
// Accepts the names used by --fault and the x-sim-fault header: 429, 500, midstream_error, drop,
// stall, malformed, slow_first_byte, none.
bool parse_fault_kind(std::string_view name, FaultKind& out);

struct FaultConfig {
  FaultKind kind = FaultKind::None;  // applied to a fraction `rate` of requests
  double rate = 1.0;
  double error_rate = 0.0;              // independent fraction answered with a 500
  double retry_after_s = 1.0;           // 429's Retry-After (whole seconds on the wire, at least 1)
  double stall_ms = 600'000.0;          // model ms a stalled stream is held open before closing
  double slow_first_byte_ms = 2'000.0;  // model ms added before the first byte
  int after_events = 3;                 // mid-stream faults strike after this many events
};

// One line of ground truth per event written to a client.
struct TraceRecord {
  std::string request_id;
  int64_t event_index = 0;  // 0-based over every SSE message of the response
  int64_t sched_ns = 0;     // steady_clock time the model scheduled the event for
  int64_t sent_ns = 0;      // steady_clock right after the write completed
  int32_t tokens = 0;       // generated tokens the event carries (0 for framing events)
  std::string kind;         // "role", "token", "usage", "done", "error", "framing", "flip"
  // kind "flip" (no event written): JSON {"index","margin_nats","class","prompt_fnv"}, where the
  // lane's answer first departs from the unperturbed model's (content token index).
  std::string detail;
};

// The API a lane serves: vLLM's (the OpenAI routes, /metrics, /tokenize, ...) or Ollama's
// (/api/chat, /api/version, /api/tags and the OpenAI routes under /v1, as `ollama serve` has them).
enum class ServeAs { Vllm, Ollama };
const char* to_string(ServeAs api);

// Media given by http(s) URL: vLLM's fetch limits (media_fetch.h).
struct FetchLimits {
  double image_timeout_s = 5;              // VLLM_IMAGE_FETCH_TIMEOUT
  double video_timeout_s = 30;             // VLLM_VIDEO_FETCH_TIMEOUT
  double max_download_mb = 256;            // VLLM_MAX_MEDIA_DOWNLOAD_SIZE_MB; 0 = no limit
  std::string user_agent = "vLLM/0.11.0";  // vLLM sends "vLLM/<version>"
  std::string ca_file;                     // CA bundle for https; empty = the system's
};

struct SimConfig {
  Profile profile;
  ServeAs api = ServeAs::Vllm;  // option api=vllm|ollama
  double time_scale = 1.0;      // real duration = model duration * time_scale
  FaultConfig faults;
  bool flip_facts = false;
  bool refuse_logprobs = false;  // answer requests asking for logprobs with a 400
  // Cross-scoring as servers limit it: /v1/completions refuses `echo` with `logprobs`, or
  // `prompt_logprobs`, with a 400.
  bool refuse_echo = false;
  bool refuse_prompt_logprobs = false;
  // Another vocabulary, as a lane serving a different model family has: every token id on the
  // wire (logprobs, /tokenize, token-id prompts, /detokenize) is the tokenizer's plus this.
  int64_t token_id_offset = 0;
  double run_jitter = 0.0;  // log-sd of a per-trial speed factor (run_jitter.h); 0 = none
  // Batch variance (0-1): a near-tie resolves the other way with a probability that grows with
  // the batch a request joins (answer_book.h); 0 = batching never changes an answer.
  double batch_variance = 0.0;
  // Cache variance (0-1): a request whose prompt prefix the prefix cache holds when it arrives
  // prefills only the rest, and its near-tie resolves the other way with this probability
  // (answer_book.h); 0 = a cache hit never changes an answer.
  double cache_variance = 0.0;
  uint64_t seed = 0;
  int64_t retrieval_window_tokens = 0;                 // 0 = max_model_len
  std::string trace_path;                              // JSON lines file; empty = none
  std::function<void(const TraceRecord&)> trace_sink;  // in-process consumer (I/O thread)
  // Like vLLM's --api-key: /v1 routes answer 401 without "Authorization: Bearer <key>". Set
  // from an environment variable (option api_key_env), so the key never sits in a lane spec.
  std::string api_key;
  // http(s) media: timeouts, size limit and CA bundle of the fetches (media_fetch.h).
  FetchLimits media_fetch;
  std::string version = "0.11.0";
  std::string host = "127.0.0.1";
};

// Where option api_key_env reads its variable: the process environment by default (only read,
// never changed); tests pass their own so that none of them has to call setenv.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
std::optional<std::string> process_env_lookup(std::string_view name);

// Sets one server-level option or profile field by name; returns an error naming the option.
std::string apply_sim_option(SimConfig& config, std::string_view key, std::string_view value,
                             const EnvLookup& env = process_env_lookup);
std::vector<std::string> sim_option_names();

// "fp8?time_scale=0.05&flip_facts=1" -> config, or an error naming the unknown profile/option.
std::variant<SimConfig, std::string> parse_lane_spec(std::string_view spec,
                                                     const EnvLookup& env = process_env_lookup);

}  // namespace lb::sim
