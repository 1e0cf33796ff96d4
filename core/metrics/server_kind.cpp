#include "core/metrics/server_kind.h"

namespace lb::metrics {

const char* to_string(ServerKind kind) {
  switch (kind) {
    case ServerKind::Vllm:
      return "vllm";
    case ServerKind::Sglang:
      return "sglang";
    case ServerKind::LlamaCpp:
      return "llama.cpp";
    case ServerKind::Tgi:
      return "tgi";
    case ServerKind::Ollama:
      return "ollama";
    case ServerKind::LanebenchSim:
      return "lanebench-sim";
    case ServerKind::Unknown:
      break;
  }
  return "unknown";
}

}  // namespace lb::metrics
