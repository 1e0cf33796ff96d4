#pragma once
// Which serving engine a lane's server is, as probed (/v1/models, /version, /metrics families,
// the Server header) and as its /metrics counters are named. One spelling each, written to
// environment.json and summary.json alike: "vllm", "sglang", "llama.cpp", "tgi", "ollama",
// "lanebench-sim", "unknown".
namespace lb::metrics {

enum class ServerKind { Unknown, Vllm, Sglang, LlamaCpp, Tgi, Ollama, LanebenchSim };
const char* to_string(ServerKind kind);

}  // namespace lb::metrics
