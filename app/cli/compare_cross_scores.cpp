#include "compare_cross_scores.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace lb::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string fixed(const json& v, const char* format) {
  if (!v.is_number()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, v.get<double>());
  return buf;
}

json read_json_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nullptr;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return json::parse(buffer.str(), nullptr, false);
}

// "top-1 0.9876 (402/407), |dlogprob| mean 0.0123 p95 0.0456 nats, KL 0.00012 nats/token"
std::string direction_text(const json& d) {
  if (!d.is_object()) return "-";
  if (d.value("status", "") != "ok") return d.value("reason", std::string("unsupported"));
  std::string out = "top-1 " + fixed(d.value("top1_agreement", json()), "%.4f") + " (" +
                    std::to_string(d.value("top1_agreeing", 0)) + "/" +
                    std::to_string(d.value("tokens", 0)) + "), |dlogprob| mean " +
                    fixed(d.value("mean_abs_dlogprob_nats", json()), "%.4f") + " p95 " +
                    fixed(d.value("p95_abs_dlogprob_nats", json()), "%.4f") + " nats, KL " +
                    fixed(d.value("mean_kl_nats", json()), "%.5f") + " nats/token";
  if (d.contains("most_surprising") && d["most_surprising"].is_object()) {
    const json& m = d["most_surprising"];
    out += "; most surprising " + m.value("token", json("")).dump() + " at token " +
           std::to_string(m.value("token_index", -1)) +
           (m.value("id", std::string()).empty() ? "" : " of " + m.value("id", std::string())) +
           " (" + fixed(m.value("scorer_logprob", json()), "%.3f") + ")";
  }
  return out;
}

}  // namespace

std::optional<StoredCrossScores> load_cross_scores(const std::string& texts_a,
                                                   const std::string& name_a,
                                                   const std::string& texts_b,
                                                   const std::string& name_b) {
  const fs::path run_a = fs::path(texts_a).parent_path().parent_path();
  const fs::path run_b = fs::path(texts_b).parent_path().parent_path();
  std::error_code ec;
  if (!fs::equivalent(run_a, run_b, ec) || ec) return std::nullopt;
  for (const fs::path& file : {run_a / ("tokens." + name_b + ".json"), run_a / "tokens.json"}) {
    const json j = read_json_file(file);
    if (!j.is_object() || !j.contains("cross_score") || !j["cross_score"].is_object()) continue;
    const json& c = j["cross_score"].value("candidate_under_baseline", json::object());
    if (c.value("scorer", "") != name_a || c.value("answer_of", "") != name_b) continue;
    StoredCrossScores out;
    out.totals = j["cross_score"];
    out.per_pair = json::array();
    for (const auto& p : j.value("pairs", json::array()))
      out.per_pair.push_back(p.is_object() && p.contains("cross_score") ? p["cross_score"]
                                                                        : json(nullptr));
    return out;
  }
  return std::nullopt;
}

void print_pair_cross_scores(const json& pair_cross) {
  if (!pair_cross.is_object()) return;
  std::cout << "  cross-scores: B read by A "
            << direction_text(pair_cross.value("candidate_under_baseline", json()))
            << "; A read by B "
            << direction_text(pair_cross.value("baseline_under_candidate", json())) << '\n';
}

void print_cross_score_totals(const json& totals) {
  std::cout << "cross-scores (B read by A): "
            << direction_text(totals.value("candidate_under_baseline", json())) << '\n'
            << "cross-scores (A read by B): "
            << direction_text(totals.value("baseline_under_candidate", json())) << '\n';
}

}  // namespace lb::cli
