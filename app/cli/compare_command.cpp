// `lanebench-cli compare A B [--threshold X] [--prompts SET] [--json] [--review FILE]`: the
// per-prompt regression check. Per pair it prints `i identical` or `i similarity 0.xxx` exactly
// as the field report's difflib script does (so the two outputs can be diffed), then indented
// detail lines: triage, labels, changed numbers, failed and flipped fact checks.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "compare_cross_scores.h"
#include "core/compare/pair_comparison.h"
#include "core/compare/review_record.h"
#include "core/compare/texts_file.h"
#include "core/compare/token_divergence.h"
#include "core/logprobs/logprob_lines.h"
#include "core/plan/prompt_set.h"

namespace lb::cli {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitBlocker = 1;
constexpr int kExitInput = 2;

struct CompareArgs {
  std::string a;
  std::string b;
  double threshold = compare::kDefaultNearIdenticalThreshold;
  std::string prompts;
  std::string review_path;
  bool json = false;
  std::string logprobs_a, logprobs_b;  // empty: RUN_DIR/logprobs/LANE.jsonl when it exists
  double near_tie_margin_nats = 0.5;
};

struct LaneTexts {
  std::string name;  // lane name (RUN_DIR:LANE) or the file's stem
  std::string path;
  std::vector<std::string> texts;
  std::vector<logprobs::PromptLogprobs> logprobs;  // empty when none were recorded
};

[[noreturn]] void input_error(const std::string& message) { throw std::invalid_argument(message); }

std::string lane_name(const std::string& argument, const std::string& path) {
  if (path != argument) return argument.substr(argument.rfind(':') + 1);
  std::string stem = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".texts.json", ".json"}) {
    const std::string s(suffix);
    if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0) {
      return stem.substr(0, stem.size() - s.size());
    }
  }
  return stem;
}

// A run folder keeps a lane's logprobs in logprobs/LANE.jsonl beside texts/LANE.texts.json.
std::vector<logprobs::PromptLogprobs> load_logprobs(const std::string& explicit_path,
                                                    const LaneTexts& lane) {
  namespace fs = std::filesystem;
  std::string path = explicit_path;
  if (path.empty()) {
    const fs::path beside =
        fs::path(lane.path).parent_path().parent_path() / "logprobs" / (lane.name + ".jsonl");
    if (!fs::exists(beside)) return {};
    path = beside.string();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) input_error("cannot read logprobs file " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string error;
  auto lines = logprobs::parse_lines(buffer.str(), error);
  if (!error.empty()) input_error(path + ": " + error);
  return lines;
}

LaneTexts load_lane(const std::string& argument, const std::string& logprobs_path) {
  LaneTexts lane;
  lane.path = compare::resolve_texts_argument(argument);
  lane.name = lane_name(argument, lane.path);
  auto loaded = compare::load_texts_file(lane.path);
  if (!loaded.ok()) input_error(loaded.error);
  lane.texts = std::move(*loaded.texts);
  lane.logprobs = load_logprobs(logprobs_path, lane);
  return lane;
}

const logprobs::PromptLogprobs* prompt_logprobs(const LaneTexts& lane, std::size_t index) {
  for (const auto& p : lane.logprobs)
    if (p.index == static_cast<int64_t>(index)) return &p;
  return nullptr;
}

std::vector<compare::TokenDivergence> token_divergences(const CompareArgs& args, const LaneTexts& a,
                                                        const LaneTexts& b) {
  std::vector<compare::TokenDivergence> out;
  if (a.logprobs.empty() && b.logprobs.empty()) return out;
  const int top_k = a.logprobs.empty() ? 0 : a.logprobs.front().top_k;
  for (std::size_t i = 0; i < a.texts.size(); ++i) {
    auto d =
        compare::analyse_token_divergence(prompt_logprobs(a, i), prompt_logprobs(b, i), a.texts[i],
                                          b.texts[i], {args.near_tie_margin_nats, top_k});
    d.prompt_index = static_cast<int64_t>(i);
    out.push_back(std::move(d));
  }
  return out;
}

std::string nats(const std::optional<double>& v) {
  if (!v) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", *v);
  return buffer;
}

void print_tokens(const compare::TokenDivergence& d) {
  if (d.cls == compare::DivergenceClass::Identical) return;
  std::cout << "  tokens: " << compare::to_string(d.cls);
  if (d.token_index >= 0 && d.cls != compare::DivergenceClass::NoLogprobs) {
    std::cout << " at token " << d.token_index << " (char " << d.char_offset_a
              << "): " << logprobs::token_text_json(d.token_a).dump() << ' ' << nats(d.logprob_a)
              << " vs " << logprobs::token_text_json(d.token_b).dump() << ' ' << nats(d.logprob_b)
              << "; A's logprob of B's token " << nats(d.a_logprob_of_b) << ", B's of A's "
              << nats(d.b_logprob_of_a) << "; baseline margin " << nats(d.baseline_margin_nats);
  }
  std::cout << " (" << d.reason << ")\n";
}

std::optional<plan::PromptSet> load_prompts(const std::string& ref, std::size_t pairs) {
  if (ref.empty()) return std::nullopt;
  auto loaded = plan::load_prompt_set(ref);
  if (!loaded.ok()) input_error(loaded.error_text());
  if (loaded.set->prompts.size() != pairs) {
    input_error("prompt set " + ref + " has " + std::to_string(loaded.set->prompts.size()) +
                " prompts but the texts have " + std::to_string(pairs));
  }
  return std::move(*loaded.set);
}

std::string format_ratio(double ratio) {  // Python's f"{r:.3f}": both round the exact binary value
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", ratio);
  return buffer;
}

std::string check_line(const compare::CheckResult& r, const plan::PromptSpec& prompt) {
  std::string line = plan::describe_check(prompt.checks.at(r.check_index));
  if (!r.detail.empty()) line += " (" + r.detail + ")";
  return line;
}

void print_checks(const compare::PairComparison& p, const plan::PromptSpec* prompt,
                  const LaneTexts& a, const LaneTexts& b) {
  if (!prompt) return;
  for (std::size_t i = 0; i < p.checks_a.size(); ++i) {
    const auto& ra = p.checks_a[i];
    const auto& rb = p.checks_b[i];
    const bool pass_a = ra.status == compare::CheckStatus::Pass;
    const bool pass_b = rb.status == compare::CheckStatus::Pass;
    if (pass_a && !pass_b) {
      std::cout << "  FLIPPED FACT (blocker candidate): " << check_line(rb, *prompt)
                << " passes on " << a.name << ", " << compare::check_status_name(rb.status)
                << " on " << b.name << '\n';
    } else if (!pass_a && !pass_b) {
      std::cout << "  check " << compare::check_status_name(ra.status)
                << " on both lanes: " << check_line(rb, *prompt) << '\n';
    } else if (!pass_a) {
      std::cout << "  check " << compare::check_status_name(ra.status) << " on " << a.name
                << ", passes on " << b.name << ": " << check_line(ra, *prompt) << '\n';
    }
  }
}

void print_pair(const compare::PairComparison& p, const plan::PromptSpec* prompt,
                const LaneTexts& a, const LaneTexts& b) {
  if (p.triage.triage == compare::TriageClass::Identical) {
    std::cout << p.index << " identical\n";
  } else {
    std::cout << p.index << " similarity " << format_ratio(p.triage.ratio) << '\n';
    std::cout << "  " << compare::triage_name(p.triage.triage);
    for (const auto& label : p.triage.labels()) std::cout << ", " << label;
    if (!p.triage.changed_numbers.empty()) {
      std::cout << "; numbers:";
      for (const auto& n : p.triage.changed_numbers) std::cout << ' ' << n.label() << ';';
    }
    std::cout << '\n';
  }
  print_checks(p, prompt, a, b);
}

nlohmann::json checks_json(const std::vector<compare::CheckResult>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : checks) {
    out.push_back({{"check", c.check_index},
                   {"type", plan::check_type_name(c.type)},
                   {"status", compare::check_status_name(c.status)},
                   {"detail", c.detail}});
  }
  return out;
}

nlohmann::json pair_json(const compare::PairComparison& p) {
  nlohmann::json numbers = nlohmann::json::array();
  for (const auto& n : p.triage.changed_numbers) numbers.push_back(n.label());
  return {{"index", p.index},
          {"prompt_id", p.prompt_id},
          {"identical", p.triage.triage == compare::TriageClass::Identical},
          {"ratio", p.triage.ratio},
          {"triage", compare::triage_name(p.triage.triage)},
          {"labels", p.triage.labels()},
          {"changed_numbers", numbers},
          {"checks_a", checks_json(p.checks_a)},
          {"checks_b", checks_json(p.checks_b)},
          {"flipped_checks", p.flipped},
          {"blocker_candidate", p.blocker_candidate()}};
}

void print_summary(const std::vector<compare::PairComparison>& pairs, std::size_t blockers) {
  std::size_t identical = 0;
  std::size_t near = 0;
  std::size_t divergent = 0;
  for (const auto& p : pairs) {
    identical += p.triage.triage == compare::TriageClass::Identical;
    near += p.triage.triage == compare::TriageClass::NearIdentical;
    divergent += p.triage.triage == compare::TriageClass::Divergent;
  }
  std::cout << "summary: " << pairs.size() << " pairs: " << identical << " identical, " << near
            << " near-identical, " << divergent << " divergent; " << blockers
            << " blocker candidate(s)\n";
}

// Writes review.json (keeping verdicts already given) and returns the pairs still blocking:
// verdict "blocker", or a flipped fact nobody has cleared.
std::size_t update_review(const CompareArgs& args, const LaneTexts& a, const LaneTexts& b,
                          const std::vector<compare::PairComparison>& pairs) {
  auto record = compare::make_review(a.name, b.name, args.prompts, args.threshold, pairs);
  std::string error;
  if (std::filesystem::exists(args.review_path)) {
    auto previous = compare::load_review(args.review_path, &error);
    if (!previous) input_error(error);
    compare::carry_over_verdicts(record, *previous);
  }
  if (!compare::save_review(record, args.review_path, &error)) input_error(error);
  std::size_t blocking = 0;
  for (const auto& r : record.pairs) {
    const bool cleared =
        r.verdict != compare::Verdict::Unreviewed && r.verdict != compare::Verdict::Blocker;
    blocking +=
        r.verdict == compare::Verdict::Blocker || (r.comparison.blocker_candidate() && !cleared);
  }
  return blocking;
}

int run_compare(const CompareArgs& args) {
  if (!(args.threshold >= 0.0 && args.threshold <= 1.0)) {
    input_error("--threshold must be between 0 and 1");
  }
  if (!(args.near_tie_margin_nats >= 0)) input_error("--near-tie-margin must be >= 0");
  const LaneTexts a = load_lane(args.a, args.logprobs_a);
  const LaneTexts b = load_lane(args.b, args.logprobs_b);
  if (a.texts.size() != b.texts.size()) {
    input_error("different lengths: " + a.path + " has " + std::to_string(a.texts.size()) +
                " texts, " + b.path + " has " + std::to_string(b.texts.size()));
  }
  const auto prompts = load_prompts(args.prompts, a.texts.size());
  const auto pairs =
      compare::compare_lanes(a.texts, b.texts, prompts ? &*prompts : nullptr, args.threshold);
  std::size_t blockers = 0;
  for (const auto& p : pairs) blockers += p.blocker_candidate();
  if (!args.review_path.empty()) blockers = update_review(args, a, b, pairs);
  const auto tokens = token_divergences(args, a, b);
  const auto cross = load_cross_scores(a.path, a.name, b.path, b.name);
  const auto pair_cross = [&cross](std::size_t i) {
    return cross && i < cross->per_pair.size() ? cross->per_pair[i] : nlohmann::json(nullptr);
  };
  if (args.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : pairs) {
      out.push_back(pair_json(p));
      if (p.index < tokens.size())
        out.back()["token_divergence"] = compare::to_json(tokens[p.index]);
      if (!pair_cross(p.index).is_null()) out.back()["cross_score"] = pair_cross(p.index);
    }
    std::cout << out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    for (const auto& p : pairs) {
      print_pair(p, prompts ? &prompts->prompts[p.index] : nullptr, a, b);
      if (p.index < tokens.size()) print_tokens(tokens[p.index]);
      print_pair_cross_scores(pair_cross(p.index));
    }
    print_summary(pairs, blockers);
    if (!tokens.empty()) {
      std::cout << "tokens (near-tie margin " << args.near_tie_margin_nats << " nats):";
      const nlohmann::json counts = compare::divergence_counts(tokens);
      for (const auto& [name, n] : counts.items())
        std::cout << ' ' << name << ' ' << n.get<int>() << ';';
      std::cout << '\n';
    }
    if (cross) print_cross_score_totals(cross->totals);
  }
  return blockers > 0 ? kExitBlocker : kExitOk;
}

constexpr const char* kFooter = R"(
A and B are lane outputs in prompt order: a texts file (a JSON array of strings, such as
RUN_DIR/texts/bf16.texts.json) or RUN_DIR:LANE, which means RUN_DIR/texts/LANE.texts.json.
Per pair: "i identical" or "i similarity 0.xxx" (difflib's ratio, as the Python script prints
it), then indented lines with the triage (near_identical when ratio >= threshold, else
divergent), whitespace/case-only labels, changed numbers and fact checks.
--prompts SET runs the set's fact checks (SET is "builtin:regression-20" or a prompt-set file);
a check that passes on A and fails on B is a flipped fact, a blocker candidate.
--review FILE writes review.json, keeping verdicts already in FILE; a flipped fact that a
reviewer has judged (benign_drift, material_difference, identical) no longer blocks.
With logprobs (logprobs/LANE.jsonl beside the texts, or --logprobs-a/-b), each non-identical
pair gets a "tokens:" line: the first divergent token, both tokens with their logprobs, each
lane's logprob for the other's token, the baseline margin and the class (near_tie,
confident_change, length_change, tokenizer_mismatch, no_logprobs); --json adds
"token_divergence" to each pair.
When A and B are the baseline and a candidate of one run folder that was cross-scored
("cross_score": true), each pair gets a "cross-scores:" line (B's answer read by A and A's by
B: top-1 agreement, mean and p95 |dlogprob|, truncated KL, the most surprising token), the run's
totals follow the summary, and --json adds "cross_score" to each pair.
Exit: 0 no blocker candidate, 1 a blocker candidate exists, 2 bad input.)";

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("compare", "compare two lanes' outputs prompt by prompt");
  auto args = std::make_shared<CompareArgs>();
  cmd->add_option("A", args->a, "lane A texts: FILE.texts.json or RUN_DIR:LANE")->required();
  cmd->add_option("B", args->b, "lane B texts: FILE.texts.json or RUN_DIR:LANE")->required();
  cmd->add_option("--threshold", args->threshold,
                  "similarity ratio at or above which a pair is near-identical")
      ->capture_default_str();
  cmd->add_option("--prompts", args->prompts, "prompt set with fact checks (builtin:NAME or file)");
  cmd->add_option("--review", args->review_path, "write (or update) this review.json");
  cmd->add_flag("--json", args->json, "print a JSON array with one object per pair");
  cmd->add_option("--logprobs-a", args->logprobs_a,
                  "lane A's logprobs (default: RUN_DIR/logprobs/LANE.jsonl when it exists)");
  cmd->add_option("--logprobs-b", args->logprobs_b, "lane B's logprobs (same default)");
  cmd->add_option("--near-tie-margin", args->near_tie_margin_nats,
                  "baseline top-1/top-2 margin (nats) at or under which a divergence is a near-tie")
      ->capture_default_str();
  cmd->footer(kFooter);
  cmd->callback([args, &exit_code] {
    try {
      exit_code = run_compare(*args);
    } catch (const std::invalid_argument& e) {
      std::string message = e.what();
      while (!message.empty() && message.back() == '\n') message.pop_back();
      std::cerr << "lanebench-cli compare: " << message << '\n';
      exit_code = kExitInput;
    }
  });
}

}  // namespace lb::cli
