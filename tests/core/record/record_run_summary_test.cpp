// The golden run folders (tests/fixtures/run_folders, one per experiment kind, written by
// make.sh on simulator lanes) read into RunSummary without a note and write back byte for byte;
// damaged files read what they can and say what they could not.
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/record/figure_comparison.h"
#include "core/record/lane_extras.h"
#include "core/record/run_summary.h"
#include "test_main.h"
#include "test_paths.h"

using namespace lb::record;
using nlohmann::json;

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// As the run-folder writer writes summary.json.
std::string as_written(const json& j) {
  return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::vector<std::filesystem::path> golden_folders() {
  std::vector<std::filesystem::path> out;
  for (const auto& entry :
       std::filesystem::directory_iterator(lb::test::fixture_path("run_folders")))
    if (entry.is_directory()) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

RunSummary read(const std::string& text, std::vector<std::string>* damage = nullptr) {
  FileFields f("summary.json");
  RunSummary s = read_run_summary_text(text, f);
  if (damage) *damage = f.damage();
  return s;
}

const char* const kDamagedSummary =
    "{\"run\": {\"name\": 3}, \"experiments\": ["
    "{\"name\": \"t\", \"kind\": \"throughput\", \"lanes\": {\"a\": {"
    "\"phase_order\": [\"c1\", \"c9\"], \"phases\": {\"c1\": {\"completed\": \"many\", "
    "\"median_ttft_ms\": 12.5, \"intervals\": {\"median_ttft_ms\": {\"lo\": 1, \"hi\": "
    "\"x\"}}}}}}, "
    "\"comparisons\": [7]}, \"not a section\", {\"name\": \"n\", \"kind\": \"teleport\"}]}";

}  // namespace

class RecordRunSummaryTest : public QObject {
  Q_OBJECT
 private slots:
  void everyKindHasAGoldenFolder() {
    std::set<std::string> kinds;
    for (const auto& dir : golden_folders()) kinds.insert(dir.filename().string());
    for (ExperimentKind kind : all_experiment_kinds())
      QVERIFY2(kinds.count(to_string(kind)), to_string(kind));
  }

  void goldenFoldersReadWithoutANote() {
    for (const auto& dir : golden_folders()) {
      const std::string kind = dir.filename().string();
      std::vector<std::string> damage;
      const RunSummary s = read(read_text(dir / "summary.json"), &damage);
      QVERIFY2(damage.empty(), (kind + ": " + (damage.empty() ? "" : damage.front())).c_str());
      QCOMPARE(s.experiments.size(), size_t(1));
      const ExperimentSection& e = s.experiments.front();
      QVERIFY2(e.kind && to_string(*e.kind) == kind, kind.c_str());
      QCOMPARE(e.lanes.size(), size_t(3));
      QVERIFY(!s.run.finished_at.empty());
      QCOMPARE(s.run.interrupted, std::optional<bool>(false));
      if (e.is(ExperimentKind::Gates)) {
        for (const LaneRecord& lane : e.lanes) {
          QCOMPARE(lane.gates.size(), size_t(3));
          for (const GateResult& g : lane.gates) QVERIFY(g.status != GateStatus::NotRun);
        }
        continue;
      }
      // Every other kind measures phases with figures and intervals.
      const LaneRecord& lane = e.lanes.front();
      QVERIFY2(!lane.phases.empty(), kind.c_str());
      const PhaseRecord& phase = lane.phases.front();
      QVERIFY2(phase.figures.completed > 0, kind.c_str());
      QCOMPARE(phase.figures.lane_id, lane.id);
      QVERIFY2(std::isfinite(phase.figures.ttft_ms.median), kind.c_str());
      QVERIFY2(phase.figures.ttft_ms.count > 0, kind.c_str());
    }
  }

  void goldenFoldersWriteBackByteForByte() {
    for (const auto& dir : golden_folders()) {
      const std::string text = read_text(dir / "summary.json");
      const std::string again = as_written(to_json(read(text)));
      if (again != text) {
        size_t at = 0;
        while (at < text.size() && at < again.size() && text[at] == again[at]) ++at;
        const std::string where = dir.filename().string() + " differs at byte " +
                                  std::to_string(at) + ": file \"" + text.substr(at, 80) +
                                  "\" written \"" + again.substr(at, 80) + "\"";
        QFAIL(where.c_str());
      }
    }
  }

  void phasesKeepTheirRunOrderAndComparisonsTheirVerdicts() {
    const RunSummary s = read(read_text(
        std::filesystem::path(lb::test::fixture_path("run_folders/throughput")) / "summary.json"));
    const ExperimentSection& e = s.experiments.front();
    QCOMPARE(e.phase_order({"bf16", "fp8"}), (std::vector<std::string>{"c1", "c4"}));
    const PhaseRecord* c4 = e.phase("fp8", "c4");
    QVERIFY(c4);
    QVERIFY(c4->figures.output_throughput > 0);
    const Interval* ttft = c4->interval("median_ttft_ms");
    QVERIFY(ttft && ttft->known() && ttft->lo <= c4->figures.ttft_ms.median &&
            c4->figures.ttft_ms.median <= ttft->hi);
    const Comparison* c = e.comparison("fp8-mtp", "c4", "median_decode_tok_s");
    QVERIFY(c);
    QCOMPARE(c->baseline, std::string("bf16"));
    QVERIFY(std::isfinite(c->ratio));
    QVERIFY(c->verdict != lb::metrics::Verdict::Unknown || !c->interval_known());
    QVERIFY(!c->statement.empty());
  }

  void wrongTypesAreNotedAndReadAsAbsent() {
    std::vector<std::string> damage;
    const RunSummary s = read(kDamagedSummary, &damage);
    QCOMPARE(s.experiments.size(), size_t(2));
    const PhaseRecord* c1 = s.experiments[0].phase("a", "c1");
    QVERIFY(c1);
    QCOMPARE(c1->figures.completed, int64_t(0));
    QCOMPARE(c1->figures.ttft_ms.median, 12.5);
    QVERIFY(!c1->interval("median_ttft_ms")->known());
    QVERIFY(!s.experiments[1].kind);
    QCOMPARE(s.experiments[1].kind_name, std::string("teleport"));
    const std::string all = [&] {
      std::string out;
      for (const auto& d : damage) out += d + "\n";
      return out;
    }();
    for (const char* expected :
         {"damaged: summary.json: run.name is a number, not a string",
          "experiments[0].lanes.a.phase_order names \"c9\", which has no phase",
          "experiments[0].lanes.a.phases.c1.completed is a string, not a number",
          "intervals.median_ttft_ms.hi is a string, not a number",
          "experiments[0].comparisons[0] is a number, not an object",
          "experiments[1] is a string, not an object",
          "experiments[2].kind is \"teleport\", a kind this version does not know"})
      QVERIFY2(all.find(expected) != std::string::npos,
               (expected + std::string("\n") + all).c_str());
  }

  void textThatIsNotJsonIsNotedNotThrown() {
    std::vector<std::string> damage;
    const RunSummary s = read("{\"run\": {\"name\": \"cut sh", &damage);
    QVERIFY(s.experiments.empty());
    QCOMPARE(damage.size(), size_t(1));
    QVERIFY(damage[0].find("not valid JSON") != std::string::npos);
  }

  // A phase's steady window reads whole or not at all; wrong types never throw.
  void steadyWindowReadsWholeOrNotAtAll() {
    PhaseRecord p;
    QVERIFY(!p.steady_window());
    p.more["steady_state"] = {
        {"found", true}, {"window_s", {1.5, 9.0}}, {"output_throughput", 812.5}, {"short", true}};
    const auto w = p.steady_window();
    QVERIFY(w.has_value());
    QCOMPARE(w->start_s, 1.5);
    QCOMPARE(w->end_s, 9.0);
    QCOMPARE(w->output_throughput, 812.5);
    QVERIFY(w->short_window);
    p.more["steady_state"]["short"] = "yes";  // not a boolean: not short
    QVERIFY(!p.steady_window()->short_window);
    for (const json& damaged :
         {json{{"found", "yes"}, {"window_s", {1, 2}}, {"output_throughput", 1}},
          json{{"found", true}, {"window_s", "1-2"}, {"output_throughput", 1}},
          json{{"found", true}, {"window_s", {1}}, {"output_throughput", 1}},
          json{{"found", true}, {"window_s", {1, 2}}, {"output_throughput", "x"}},
          json{{"found", false}}, json(3)}) {
      p.more["steady_state"] = damaged;
      QVERIFY2(!p.steady_window(), damaged.dump().c_str());
    }
  }

  // A regression's floor, its verdicts and a phase's missing energy read as types; a member of
  // another type reads as absent, never a throw.
  void floorAndEnergyReadAsTypes() {
    ExperimentSection e;
    e.kind = ExperimentKind::Regression;
    QVERIFY(!e.determinism_floor() && e.floor_verdicts().empty());
    e.more["floor"] = {{"lane", "bf16"}, {"floor", {{"flips", 2}, {"prompts_compared", 20}}}};
    e.more["comparisons"] =
        json::array({{{"baseline", "bf16"},
                      {"candidate", "fp8"},
                      {"floor_verdict",
                       {{"verdict", "within the floor"},
                        {"text", "within: 1 of 20"},
                        {"p_value", 0.885},
                        {"differing", 1},
                        {"compared", 20},
                        {"floor_flips", 2},
                        {"floor_compared", 20}}}},
                     {{"candidate", "mtp"}},  // not judged: no verdict
                     {{"candidate", 7}, {"floor_verdict", {{"p_value", "low"}}}},  // damaged
                     json(3)});
    const auto floor = e.determinism_floor();
    QVERIFY(floor.has_value());
    QCOMPARE(floor->lane, std::string("bf16"));
    QCOMPARE(floor->floor.flips, 2.0);
    QCOMPARE(floor->floor.prompts_compared, 20.0);
    const std::vector<FloorVerdictRecord> v = e.floor_verdicts();
    QCOMPARE(v.size(), size_t(2));
    QCOMPARE(v[0].candidate, std::string("fp8"));
    QCOMPARE(v[0].verdict, std::string("within the floor"));
    QCOMPARE(v[0].text, std::string("within: 1 of 20"));
    QCOMPARE(v[0].p_value, 0.885);
    QCOMPARE(v[0].baseline, std::string("bf16"));
    QCOMPARE(v[0].differing, 1.0);
    QCOMPARE(v[0].compared, 20.0);
    QCOMPARE(v[0].floor_flips, 2.0);
    QCOMPARE(v[0].floor_compared, 20.0);
    QVERIFY(v[1].candidate.empty() && std::isnan(v[1].p_value));
    e.more["floor"] = {{"lane", 1}, {"floor", "none"}};
    QVERIFY(e.determinism_floor()->lane.empty() && std::isnan(e.determinism_floor()->floor.flips));
    e.more["floor"] = json::array();
    QVERIFY(!e.determinism_floor());

    PhaseRecord p;
    QVERIFY(!p.energy_gap());
    p.more["energy"] = {{"joules", 12.5}};
    QVERIFY(!p.energy_gap());
    p.more["energy"] = {{"refused", "the lane's /metrics has no energy counter"}};
    QCOMPARE(p.energy_gap()->status, std::string("refused"));
    QCOMPARE(p.energy_gap()->why, std::string("the lane's /metrics has no energy counter"));
    p.more["energy"] = {{"unsupported", 3}};
    QVERIFY(!p.energy_gap());
    p.more["energy"] = "unsupported";
    QVERIFY(!p.energy_gap());
  }

  // A determinism lane's floor, check by check with its flips, reads as types; damaged members
  // read as absent and an unknown check is left out.
  void determinismChecksReadAsTypes() {
    LaneRecord lane;
    QVERIFY(!lane.determinism_floor());
    lane.more["determinism"] = {
        {"repeatability",
         {{"passes", 3},
          {"prompts_compared", 40},
          {"flips", 2},
          {"flip_rate", 0.05},
          {"flip_rate_interval", {0.014, 0.165}},
          {"status", "measured"},
          {"flipped",
           {{{"id", "p7"},
             {"divergence",
              {{"token_index", 12},
               {"reference_token", " the"},
               {"other_token", ""},
               {"margin_nats", 0.031},
               {"class", "near-tie"}}}},
            {{"id", 9}, {"divergence", "x"}},
            json(3)}}}},
        {"cache", {{"status", "vacuous"}, {"note", "warm pass reused no more tokens"}}},
        {"batch", {{"concurrency", "8"}, {"flips", 0}, {"flip_rate_interval", {0.1}}}},
        {"sideways", {{"flips", 1}}},
        {"floor",
         {{"checks", {"repeatability", 4, "batch"}}, {"flips", 2}, {"prompts_compared", 40}}}};
    const auto floor = lane.determinism_floor();
    QVERIFY(floor.has_value());
    QCOMPARE(floor->checks.size(), size_t(3));  // in the floor's order: repeatability, batch, cache
    const FloorCheck& rep = floor->checks[0];
    QCOMPARE(rep.name, std::string("repeatability"));
    QVERIFY(rep.counted);
    QCOMPARE(rep.passes, 3.0);
    QCOMPARE(rep.rate.rate, 0.05);
    QVERIFY(rep.rate.interval_known());
    QCOMPARE(rep.rate.hi, 0.165);
    QCOMPARE(rep.flipped.size(), size_t(2));
    QCOMPARE(rep.flipped[0].prompt_id, std::string("p7"));
    QCOMPARE(rep.flipped[0].token_index, 12.0);
    QCOMPARE(rep.flipped[0].reference_token, std::string(" the"));
    QVERIFY(rep.flipped[0].other_token.empty());
    QCOMPARE(rep.flipped[0].margin_nats, 0.031);
    QCOMPARE(rep.flipped[0].divergence_class, std::string("near-tie"));
    QVERIFY(rep.flipped[1].prompt_id.empty() && std::isnan(rep.flipped[1].token_index));
    const FloorCheck& batch = floor->checks[1];
    QVERIFY(batch.counted && std::isnan(batch.concurrency) && !batch.rate.interval_known());
    const FloorCheck& cache = floor->checks[2];
    QVERIFY(!cache.counted);
    QCOMPARE(cache.note, std::string("warm pass reused no more tokens"));
    QCOMPARE(floor->counts, (std::vector<std::string>{"repeatability", "batch"}));
    QCOMPARE(floor->floor.flips, 2.0);
    lane.more["determinism"] = "none";
    QVERIFY(!lane.determinism_floor());
  }

  // A regression's pair outcomes, a sampled regression's and a context sweep's sizes read as
  // types: counts, token evidence and cross-score; a member of another type reads as absent and an
  // entry that is not an object is left out.
  void pairOutcomesAndContextSizesReadAsTypes() {
    ExperimentSection e;
    e.kind = ExperimentKind::Regression;
    e.more["comparisons"] = json::array(
        {{{"baseline", "bf16"},
          {"candidate", "fp8"},
          {"pairs", 20},
          {"identical", 12},
          {"near_identical", 5},
          {"divergent", 3},
          {"review_required", 2},
          {"flipped_facts", json::array({{{"index", 4}}, {{"index", 9}}})},
          {"unsupported_by_lane", 1},
          {"review_outcome", "2 pairs need review"},
          {"token_divergence",
           {{"confident_changes", json::array({{{"index", 4}}, {{"index", "x"}}})},
            {"cross_score",
             {{"min_top1_agreement", 0.98},
              {"candidate_under_baseline", {{"status", "ok"}, {"top1_agreement", 0.95}}}}}}}},
         {{"candidate", "mtp"}, {"pairs", "many"}, {"identical", 2.5}, {"flipped_facts", 3}},
         json("not a pair")});
    const std::vector<PairOutcome> pairs = e.pair_outcomes();
    QCOMPARE(pairs.size(), size_t(2));
    const PairOutcome& p = pairs[0];
    QCOMPARE(p.baseline, std::string("bf16"));
    QCOMPARE(p.candidate, std::string("fp8"));
    QCOMPARE(p.pairs + p.identical + p.near_identical + p.divergent, int64_t(40));
    QCOMPARE(p.review_required, int64_t(2));
    QCOMPARE(p.flipped_facts(), int64_t(2));
    QCOMPARE(p.unsupported_by_lane, int64_t(1));
    QCOMPARE(p.review_outcome, std::string("2 pairs need review"));
    QVERIFY(!p.floor_verdict);
    QVERIFY(p.tokens.has_value());
    QCOMPARE(p.tokens->confident_changes, (std::vector<int64_t>{4, -1}));
    QVERIFY(p.tokens->cross_score && p.tokens->cross_score->has_bar());
    QCOMPARE(p.tokens->cross_score->top1_agreement, 0.95);
    QCOMPARE(p.tokens->cross_score->status, std::string("ok"));
    const PairOutcome& damaged = pairs[1];  // not a count, not whole, not a list: absent
    QVERIFY(damaged.pairs == 0 && damaged.identical == 0 && damaged.flipped_facts() == 0);
    QVERIFY(!damaged.tokens);
    QVERIFY(e.sampled_outcomes().empty());  // not a sampled regression

    ExperimentSection sampled;
    sampled.kind = ExperimentKind::SampledRegression;
    sampled.more["comparisons"] = json::array({{{"baseline", "bf16"},
                                                {"candidate", "fp8"},
                                                {"shifted", 1},
                                                {"indistinguishable", 2},
                                                {"prompts", json::array({1, 2, 3})}}});
    QVERIFY(sampled.pair_outcomes().empty());
    const std::vector<SampledOutcome> s = sampled.sampled_outcomes();
    QCOMPARE(s.size(), size_t(1));
    QCOMPARE(s[0].prompts, int64_t(3));
    QCOMPARE(s[0].shifted, int64_t(1));
    QCOMPARE(s[0].indistinguishable, int64_t(2));

    LaneRecord lane;
    QVERIFY(lane.context_sweep().empty());
    lane.more["context_sweep"] =
        json::array({{{"status", "measured"},
                      {"target_tokens", 4096},
                      {"sized_tokens", {{"value", 4090}, {"provenance", "server"}}},
                      {"ttft_ms", 210.5},
                      {"retrieval_pass", true},
                      {"retrieval_passed", 3},
                      {"retrieval_attempts", 3}},
                     {{"status", "measured"}, {"target_tokens", 16384}, {"retrieval_pass", "yes"}},
                     {{"status", "skipped"}, {"reason", "exceeds max_model_len (8192)"}},
                     json(7)});
    const std::vector<ContextSizeRecord> sizes = lane.context_sweep();
    QCOMPARE(sizes.size(), size_t(3));
    QVERIFY(sizes[0].measured() && sizes[0].retrieval_pass == true);
    QCOMPARE(sizes[0].sized_tokens, 4090.0);
    QCOMPARE(sizes[0].sized_provenance, std::string("server"));
    QCOMPARE(sizes[0].ttft_ms, 210.5);
    QVERIFY(!sizes[1].retrieval_pass);  // a string is not a pass
    QVERIFY(!sizes[2].measured());
    QCOMPARE(sizes[2].reason, std::string("exceeds max_model_len (8192)"));
  }

  // A comparison's interval method and an experiment's performance gates read as types; a
  // member of another type reads as absent.
  void comparisonMethodAndPerformanceGatesReadAsTypes() {
    Comparison c;
    c.more = {{"level", 0.95},       {"basis", "trials"}, {"method", "percentile (expanded)"},
              {"resamples", 2000},   {"n_baseline", 5},   {"trials_needed", 12},
              {"requests_needed", 7}};
    const Comparison::Method m = c.method();
    QCOMPARE(m.level, 0.95);
    QCOMPARE(m.basis, std::string("trials"));
    QCOMPARE(m.name, std::string("percentile (expanded)"));
    QCOMPARE(m.resamples, 2000.0);
    QCOMPARE(m.n_baseline, 5.0);
    QCOMPARE(m.needed, 12.0);  // by its basis: trials
    c.more = {{"level", "high"}, {"requests_needed", 40}};
    QVERIFY(std::isnan(c.method().level));
    QCOMPARE(c.method().needed, 40.0);

    ExperimentSection e;
    QVERIFY(e.performance_gates().empty());
    e.more["performance_gates"] =
        json::array({{{"baseline", "bf16"},
                      {"candidate", "fp8"},
                      {"phase", "c8"},
                      {"figure", "median_ttft_ms"},
                      {"rule", "max_ratio"},
                      {"threshold", 1.1},
                      {"outcome", "inconclusive"},
                      {"trials_needed", 9},
                      {"comparison",
                       {{"ratio", 1.02}, {"lo", 0.97}, {"hi", 1.2}, {"verdict", "within noise"}}}},
                     {{"candidate", "mtp"}, {"threshold", "x"}, {"comparison", nullptr}},
                     json(1)});
    const std::vector<PerformanceGateRecord> gates = e.performance_gates();
    QCOMPARE(gates.size(), size_t(2));
    QCOMPARE(gates[0].rule, std::string("max_ratio"));
    QCOMPARE(gates[0].threshold, 1.1);
    QCOMPARE(gates[0].trials_needed, 9.0);
    QVERIFY(std::isnan(gates[0].requests_needed));
    QVERIFY(gates[0].comparison.has_value());
    QCOMPARE(gates[0].comparison->hi, 1.2);
    QCOMPARE(gates[0].comparison->verdict, lb::metrics::Verdict::WithinNoise);
    QVERIFY(std::isnan(gates[1].threshold) && !gates[1].comparison);
  }

  void kindsHaveOneNameEach() {
    for (int k = 0; k <= static_cast<int>(ExperimentKind::Capacity); ++k) {
      const auto kind = static_cast<ExperimentKind>(k);
      QCOMPARE(experiment_kind_from(to_string(kind)), std::optional<ExperimentKind>(kind));
    }
    QVERIFY(!experiment_kind_from("Throughput"));
  }

  // A capacity search reads as types: its SLOs, each lane's result and probes; a member of
  // another type reads as absent, a lane without a search as none.
  void capacitySearchReadsAsTypes() {
    ExperimentSection e;
    e.kind = ExperimentKind::Capacity;
    e.more["slo"] = {{"ttft_p99_ms", 500.0}, {"tpot_p99_ms", nullptr}};
    LaneRecord lane;
    lane.id = "fp8";
    lane.more["capacity"] = {
        {"unit", "req/s"},
        {"capacity", 8.0},
        {"goodput_req_s", "lots"},
        {"binding_slo", nullptr},
        {"failing_load", 16},
        {"reached_max_load", "yes"},
        {"stopped_by", "max_load"},
        {"probe_count", 2},
        {"probes", json::array({{{"load", 8}, {"pass", true}, {"ttft_p99_ms", 120.5}},
                                json(3),
                                {{"load", "16"}, {"pass", false}, {"binding", "ttft_p99_ms"}}})}};
    e.lanes.push_back(lane);
    e.lanes.push_back(LaneRecord{"bf16", {}, {}, json::object()});
    const CapacitySlo slo = e.capacity_slo();
    QCOMPARE(slo.ttft_p99_ms, 500.0);
    QVERIFY(std::isnan(slo.tpot_p99_ms));
    const std::optional<CapacityRecord> c = e.lane("fp8")->capacity();
    QVERIFY(c.has_value());
    QCOMPARE(c->unit, std::string("req/s"));
    QCOMPARE(c->capacity, 8.0);
    QVERIFY(std::isnan(c->goodput_req_s));
    QVERIFY(c->binding_slo.empty());
    QCOMPARE(c->failing_load, 16.0);
    QVERIFY(!c->reached_max_load);
    QCOMPARE(c->stopped_by, std::string("max_load"));
    QCOMPARE(c->probes.size(), size_t(2));  // the number is left out
    QCOMPARE(c->probes[0].ttft_p99_ms, 120.5);
    QVERIFY(c->probes[0].pass && std::isnan(c->probes[0].tpot_p99_ms));
    QVERIFY(std::isnan(c->probes[1].load));
    QCOMPARE(c->probes[1].binding, std::string("ttft_p99_ms"));
    QVERIFY(!e.lane("bf16")->capacity());
  }

  // Each golden folder's per-kind blocks read whole through the record's accessors.
  void goldenKindExtrasReadAsTypes() {
    auto golden = [](const char* kind) {
      return read(read_text(std::filesystem::path(lb::test::fixture_path("run_folders")) / kind /
                            "summary.json"));
    };
    const RunSummary throughput = golden("throughput");
    const LaneRecord& t = throughput.experiments.at(0).lanes.at(0);
    const auto sweep = t.concurrency_sweep();
    QVERIFY(sweep && !sweep->mode.empty() && sweep->knee_concurrency.has_value());
    QVERIFY(t.kv_capacity().has_value());
    QVERIFY(!t.phases.at(0).steady_state());  // written before levels recorded one
    PhaseRecord level;
    level.more["steady_state"] = {
        {"found", true},
        {"rule", "in flight"},
        {"window_s", {1.5, 9.0}},
        {"requests_started", 40},
        {"output_throughput", 812.5},
        {"drift", {{"ttft_ms", {{"verdict", "drifting up"}, {"change", 0.12}}}}}};
    const auto steady = level.steady_state();
    QVERIFY(steady && steady->found && steady->window_s);
    QCOMPARE(steady->window_s->second, 9.0);
    QCOMPARE(steady->requests_started, 40.0);
    QVERIFY(steady->ttft_drift.drifting() && !steady->tpot_drift.drifting());
    QCOMPARE(steady->ttft_drift.change, 0.12);
    QCOMPARE(level.steady_window()->output_throughput, 812.5);

    const RunSummary prefix = golden("prefix_cache");
    const auto pc = prefix.experiments.at(0).lanes.at(0).prefix_cache();
    QVERIFY(pc && pc->pass("cold") && pc->pass("warm"));
    QVERIFY(pc->pass("warm")->median_ttft_ms > 0 && pc->pass("warm")->prompt_tokens > 0);
    QVERIFY(pc->reuse_detected.has_value() && !pc->reuse_basis.empty());

    const RunSummary spec = golden("speculative");
    const auto levels = spec.experiments.at(0).lanes.at(0).speculative();
    QVERIFY(!levels.empty());
    for (size_t i = 1; i < levels.size(); ++i)  // by concurrency
      QVERIFY(levels[i - 1].concurrency < levels[i].concurrency);
    QVERIFY(levels.front().decode_tok_s_median() > 0);

    const RunSummary trace = golden("trace");
    const auto source = trace.experiments.at(0).trace();
    QVERIFY(source && !source->format.empty() && source->requests > 0);
    const auto schedule = trace.experiments.at(0).lanes.at(0).trace_schedule();
    QVERIFY(schedule && schedule->sent > 0 && schedule->kept_up.has_value());

    const RunSummary gates = golden("gates");
    QVERIFY(gates.experiments.at(0).lanes.at(0).gate("json") != nullptr);
    QVERIFY(gates.experiments.at(0).lanes.at(0).gate("teleport") == nullptr);
    QCOMPARE(gates.experiments.at(0).status(), std::string("done"));
  }

  // Members of another type read as absent, never as a throw; a block that is not an object
  // reads as none.
  void damagedKindExtrasReadAsAbsent() {
    LaneRecord lane;
    lane.more["prefix_cache"] = {{"passes", {{"cold", {{"median_ttft_ms", "slow"}}}, {"warm", 3}}},
                                 {"evidence", {{"reuse_detected", "yes"}}}};
    lane.more["speculative"] = {{"c8", {{"decode_tok_s", 5}}},
                                {"c2", {{"acceptance", {{"per_position", {0.5, "x"}}}}}},
                                {"odd", 1}};
    lane.more["schedule"] = {{"sent", "all"}, {"kept_up", 1}};
    lane.more["concurrency_sweep"] = {{"knee", {{"concurrency", "8"}}}, {"min_gain", nullptr}};
    lane.more["kv_capacity"] = json::array();
    const auto pc = lane.prefix_cache();
    QVERIFY(pc.has_value());
    QCOMPARE(pc->passes.size(), size_t(1));  // the warm pass is not an object
    QVERIFY(std::isnan(pc->passes[0].median_ttft_ms));
    QVERIFY(!pc->reuse_detected.has_value());
    const auto levels = lane.speculative();
    QCOMPARE(levels.size(), size_t(2));
    QCOMPARE(levels[0].level, std::string("c2"));  // by concurrency, not by name
    QCOMPARE(levels[0].acceptance_per_position().size(), size_t(2));
    QVERIFY(std::isnan(levels[0].acceptance_per_position()[1]));
    QVERIFY(std::isnan(levels[1].decode_tok_s_median()));
    const auto schedule = lane.trace_schedule();
    QVERIFY(schedule && std::isnan(schedule->sent) && !schedule->kept_up);
    const auto sweep = lane.concurrency_sweep();
    QVERIFY(sweep && !sweep->knee_concurrency && sweep->min_gain == 0);
    QVERIFY(!lane.kv_capacity());

    PhaseRecord phase;
    phase.more["steady_state"] = {{"found", true}, {"window_s", {1, "x"}}, {"drift", 4}};
    const auto steady = phase.steady_state();
    QVERIFY(steady && steady->found && !steady->window_s);
    QVERIFY(!steady->ttft_drift.drifting());
    QVERIFY(!phase.steady_window());  // nothing to draw

    RunSummary run;
    run.more["sweeps"] = {
        {{"lane", "a"}, {"points", {{{"value", 2}, {"figures", {{"x", "fast"}}}}, 5}}, {"best", 3}},
        "not an axis"};
    const auto sweeps = run.sweeps();
    QCOMPARE(sweeps.size(), size_t(1));
    QCOMPARE(sweeps[0].points.size(), size_t(1));
    QVERIFY(sweeps[0].points[0].figures.empty() && !sweeps[0].points[0].eligible);
    QVERIFY(std::isnan(sweeps[0].best_value));
    QCOMPARE(sweeps[0].objective_figure(), std::string("output_throughput"));
  }

  // One alternative per kind, in the kind's order; a kind this version does not know has none
  // but its phases.
  void laneExtrasFollowTheKind() {
    for (const auto& dir : golden_folders()) {
      const RunSummary summary = read(read_text(dir / "summary.json"));
      for (const ExperimentSection& e : summary.experiments) {
        QVERIFY(e.kind.has_value());
        for (const LaneRecord& lane : e.lanes) {
          const LaneExtras extras = lane_extras(e, lane);
          QCOMPARE(extras.index(), static_cast<size_t>(*e.kind) + 1);
        }
      }
    }
    const RunSummary throughput =
        read(read_text(std::filesystem::path(lb::test::fixture_path("run_folders")) / "throughput" /
                       "summary.json"));
    const ExperimentSection& e = throughput.experiments.at(0);
    const LaneExtras extras = lane_extras(e, e.lanes.at(0));
    QVERIFY(std::get<ThroughputLane>(extras).sweep && std::get<ThroughputLane>(extras).kv_capacity);
    ExperimentSection unknown = e;
    unknown.kind.reset();
    QVERIFY(std::holds_alternative<UnknownKindLane>(lane_extras(unknown, unknown.lanes.at(0))));
  }

  // The blocks the engine now writes from types come out as the golden folders have them.
  void typedBlocksWriteAsTheEngineDid() {
    const std::filesystem::path root(lb::test::fixture_path("run_folders"));
    for (const char* kind : {"throughput", "context_sweep", "trace", "prefix_cache", "speculative",
                             "sessions", "capacity", "determinism"}) {
      const json doc = json::parse(read_text(root / kind / "summary.json"));
      for (const auto& [id, lane] : doc["experiments"][0]["lanes"].items()) {
        if (lane.contains("kv_capacity") && lane["kv_capacity"].is_object())
          QCOMPARE(to_json(*read_kv_capacity(lane["kv_capacity"])).dump(),
                   lane["kv_capacity"].dump());
        if (const json& trace = doc["experiments"][0].value("trace", json()); trace.is_object())
          QCOMPARE(to_json(*read_trace_source(trace)).dump(), trace.dump());
        if (lane.contains("schedule"))
          QCOMPARE(to_json(*read_trace_schedule(lane["schedule"])).dump(), lane["schedule"].dump());
        if (lane.contains("speculative")) {
          const auto levels = read_speculative(lane["speculative"]);
          QCOMPARE(levels.size(), size_t(2));
          QCOMPARE(to_json(levels).dump(), lane["speculative"].dump());
        }
        if (lane.contains("prefix_cache")) {
          const auto prefix = read_prefix_cache(lane["prefix_cache"]);
          QCOMPARE(prefix->passes.size(), size_t(3));
          QCOMPARE(to_json(*prefix).dump(), lane["prefix_cache"].dump());
        }
        if (lane.contains("context_sweep")) {
          const auto sizes = read_context_sweep(lane["context_sweep"]);
          QCOMPARE(sizes.size(), size_t(2));
          QCOMPARE(to_json(sizes).dump(), lane["context_sweep"].dump());
        }
        if (lane.contains("sessions")) {
          const auto sessions = read_sessions(lane["sessions"]);
          QCOMPARE(sessions->per_turn.size(), size_t(4));
          QVERIFY(sessions->prefix_cache_counters.has_value());
          QCOMPARE(to_json(*sessions).dump(), lane["sessions"].dump());
        }
        if (lane.contains("determinism")) {
          const auto floor = read_determinism_floor(lane["determinism"]);
          QCOMPARE(floor->checks.size(), size_t(4));
          QVERIFY(floor->checks[2].background.has_value());
          QCOMPARE(to_json(*floor).dump(), lane["determinism"].dump());
        }
        if (lane.contains("capacity")) {
          const auto capacity = read_capacity(lane["capacity"]);
          QVERIFY(capacity->probes.size() >= 2);
          QCOMPARE(to_json(*capacity).dump(), lane["capacity"].dump());
          const json& slo = doc["experiments"][0]["slo"];
          QCOMPARE(to_json(read_capacity_slo(slo)).dump(), slo.dump());
        }
        if (lane.contains("concurrency_sweep")) {
          const auto sweep = read_concurrency_sweep(lane["concurrency_sweep"]);
          QCOMPARE(sweep->levels.size(), size_t(2));
          QCOMPARE(to_json(*sweep).dump(), lane["concurrency_sweep"].dump());
        }
      }
    }
    KvCapacityRecord none;
    none.provenance = "none";
    none.reason = "no cache config";
    QVERIFY(to_json(none)["tokens"].is_null());
    QVERIFY(!to_json(none).contains("full_context_windows"));
    ConcurrencySweepRecord nothing;  // no level completed anything
    QVERIFY(to_json(nothing)["knee"].is_null() && to_json(nothing)["stopped"].is_null());
    QCOMPARE(to_json(nothing)["levels"], json::array());
    PrefixCacheRecord timed;  // a server that reports neither usage nor counters
    timed.passes.push_back({});
    timed.passes.back().name = "cold";
    timed.reuse_basis = "timing (estimated)";
    timed.warning = "reuse is inferred from timing only";
    const json written = to_json(timed);
    QVERIFY(written["passes"]["cold"]["cached_tokens"].is_null());
    QVERIFY(!written["passes"]["cold"].contains("prefix_cache_hits"));
    QVERIFY(written["evidence"]["counter_hit_rate"].is_null());
    QVERIFY(!written["evidence"].contains("server_prefix_caching"));
    QCOMPARE(to_json(*read_prefix_cache(written)).dump(), written.dump());
    ContextSizeRecord skipped;  // beyond the lane's context window
    skipped.status = "skipped";
    skipped.reason = "exceeds max_model_len (4096)";
    skipped.target_tokens = 8192;
    QCOMPARE(to_json(skipped).dump(), json({{"status", "skipped"},
                                            {"reason", "exceeds max_model_len (4096)"},
                                            {"target_tokens", 8192}})
                                          .dump());
    CapacityRecord cut;  // the time bound stopped a probe short; nothing met the SLOs
    cut.probes.push_back({});
    cut.probes.back().binding = "ttft_p99_ms";
    cut.binding_slo = "ttft_p99_ms";
    cut.cut_probe = CapacityProbeRecord{};
    cut.cut_probe->load = 8;
    const json capacity = to_json(cut);
    QVERIFY(capacity["capacity"].is_null());
    QCOMPARE(capacity["cut_probe"]["load"], json(8.0));
    QVERIFY(capacity["cut_probe"]["binding"].is_null());
    QCOMPARE(capacity["probes"][0]["binding"], json("ttft_p99_ms"));
    QCOMPARE(to_json(*read_capacity(capacity)).dump(), capacity.dump());
    FloorCheck flipped;  // a check with a flip and a failed prompt
    flipped.name = "batch";
    flipped.counted = true;
    flipped.rate = {19, 1, 1.0 / 19, 0.01, 0.25};
    flipped.failed_prompts.push_back({4, "p4"});
    flipped.flipped.push_back({});
    flipped.flipped.back().prompt_id = "p7";
    flipped.flipped.back().index = 7;
    flipped.flipped.back().token_index = 12;
    flipped.flipped.back().divergence_class = "near_tie";
    DeterminismFloor floor;
    floor.checks = {flipped};
    floor.counts = {"batch"};
    floor.lane = "bf16";  // a regression's floor names its baseline
    const json floor_json = to_json(floor);
    QCOMPARE(floor_json["batch"]["flipped"][0]["divergence"]["token_index"], json(12));
    QVERIFY(floor_json["batch"]["flipped"][0]["divergence"]["margin_nats"].is_null());
    QCOMPARE(floor_json["batch"]["failed_prompts"][0]["id"], json("p4"));
    QVERIFY(floor_json["floor"]["flip_rate"].is_null());
    QCOMPARE(to_json(*read_determinism_floor(floor_json)).dump(), floor_json.dump());
    lb::metrics::FigureComparison over_trials;  // a comparison the metrics made, as the file has it
    over_trials.baseline = "bf16";
    over_trials.candidate = "fp8";
    over_trials.phase = "c4";
    over_trials.figure = "output_throughput";
    over_trials.over_trials = true;
    over_trials.better = lb::metrics::Better::Higher;
    over_trials.ratio.ratio = 1.02;
    over_trials.ratio.n_baseline = 5;
    over_trials.verdict = lb::metrics::Verdict::WithinNoise;
    over_trials.needed = 40;
    const json trials = to_json(comparison_of(over_trials));
    QCOMPARE(trials["basis"], json("trials"));
    QCOMPARE(trials["method"], json("percentile (expanded)"));
    QCOMPARE(trials["trials_needed"], json(40));
    QVERIFY(trials["requests_needed"].is_null() && trials["lo"].is_null());
    QCOMPARE(trials["better"], json("higher"));
    QCOMPARE(trials["verdict"], json("within noise"));
    lb::metrics::FigureComparison over_requests = over_trials;
    over_requests.over_trials = false;
    const json requests = to_json(comparison_of(over_requests));
    QCOMPARE(requests["method_name"], json("bootstrap over requests"));
    QCOMPARE(requests["requests_needed"], json(40));
    QVERIFY(!requests.contains("trials_needed"));
    SessionsRecord uncounted;  // no /metrics, no cached tokens in usage
    uncounted.per_turn.push_back({});
    uncounted.per_turn.back().turn = 0;
    const json sessions = to_json(uncounted);
    QVERIFY(sessions["prefix_cache_counters"].is_null());
    QVERIFY(sessions["per_turn"][0]["cached_share"].is_null());
    QVERIFY(!sessions.contains("think_time_s"));  // a folder from before it was recorded
    QCOMPARE(to_json(*read_sessions(sessions)).dump(), sessions.dump());
  }
  void pairOutcomesWriteAsTheEngineDid() {
    const std::filesystem::path root(lb::test::fixture_path("run_folders"));
    const json doc = json::parse(read_text(root / "regression" / "summary.json"));
    const json& written = doc["experiments"][0]["comparisons"];
    const std::vector<PairOutcome> golden = read_pair_outcomes(written);
    QCOMPARE(golden.size(), size_t(2));
    QCOMPARE(golden[0].fact_checks_failed.at("fp8"), int64_t(4));
    QCOMPARE(golden[0].review_file, std::string("review.fp8.json"));
    QCOMPARE(golden[0].answered_by_both, int64_t(-1));  // written before it was recorded
    QVERIFY(golden[0].tokens.has_value() && golden[0].more.contains("token_divergence"));
    for (size_t i = 0; i < golden.size(); ++i)
      QCOMPARE(to_json(golden[i]).dump(), written[i].dump());
    PairOutcome pair;  // a flipped fact, a failed request, batch-variant prompts and a verdict
    pair.baseline = "bf16";
    pair.candidate = "fp8";
    pair.pairs = 3;
    pair.identical = 1;
    pair.divergent = 2;
    pair.flipped.push_back({2, "capital", {}});
    pair.fact_checks_failed = {{"bf16", 0}, {"fp8", 1}};
    pair.failed_requests = {1};
    pair.answered_by_both = 2;
    pair.differing_answers = 1;
    pair.review_outcome = "fail: 1 blocker(s)";
    pair.review_file = "review.json";
    pair.batch_variant = std::vector<PairPrompt>{{0, "sum", {"fp8"}}};
    pair.floor_verdict = FloorVerdictRecord{};
    pair.floor_verdict->verdict = "within the floor";
    pair.floor_verdict->test = "one-sided Fisher exact test";
    pair.floor_verdict->p_value = 0.5;
    pair.floor_verdict->alpha = 0.05;
    pair.floor_verdict->differing = 1;
    pair.floor_verdict->compared = 2;
    pair.floor_verdict->floor_flips = 1;
    pair.floor_verdict->floor_compared = 20;
    const json one = to_json(pair);
    QCOMPARE(one["flipped_facts"], json::parse(R"([{"id": "capital", "index": 2}])"));
    QVERIFY(!one["flipped_facts"][0].contains("lanes"));
    QCOMPARE(one["batch_variant"][0]["lanes"], json::array({"fp8"}));
    QCOMPARE(one["failed_requests"], json::array({1}));
    QCOMPARE(one["floor_verdict"]["floor_compared"], json(20));
    QVERIFY(one["floor_verdict"]["floor_compared"].is_number_integer());
    QVERIFY(!one["floor_verdict"].contains("baseline"));
    const std::vector<PairOutcome> back = read_pair_outcomes(json::array({one}));
    QCOMPARE(back[0].flipped_facts(), int64_t(1));
    QCOMPARE(back[0].floor_verdict->baseline, std::string("bf16"));
    QCOMPARE(back[0].batch_variant->at(0).lanes, std::vector<std::string>{"fp8"});
    QCOMPARE(to_json(back[0]).dump(), one.dump());
  }
  void loadBaselinesWriteAsTheEngineDid() {
    LoadBaselineRecord r;  // one batch-variant prompt, one failed request
    r.concurrency = 32;
    r.baseline_concurrency = 1;
    r.texts_file = "texts/bf16.load-c32.texts.json";
    r.prompts_compared = 19;
    r.mismatches = 1;
    r.mismatch_rate = 1.0 / 19;
    r.mismatch_rate_interval = std::pair{0.009, 0.25};
    r.interval_method = "Wilson score, 95 %";
    r.batch_variant.push_back({7, "sum", "near_identical", 0.97});
    r.failed_prompts = {3};
    const json written = to_json(r);
    QCOMPARE(written["concurrency"], json(32));
    QVERIFY(written["mismatches"].is_number_integer());
    QCOMPARE(written["batch_variant"][0]["ratio"], json(0.97));
    QCOMPARE(written["failed_prompts"], json::array({3}));
    QCOMPARE(written["mismatch_rate_interval"], json::array({0.009, 0.25}));
    const auto back = read_load_baseline(written);
    QCOMPARE(back->texts_file, r.texts_file);
    QCOMPARE(back->failed_prompts, r.failed_prompts);
    QCOMPARE(to_json(*back).dump(), written.dump());
    LoadBaselineRecord none;  // nothing compared: no rate
    none.prompts_compared = 0;
    QVERIFY(to_json(none)["mismatch_rate"].is_null());
  }
  void multimodalGatesWriteAsTheEngineDid() {
    // A check over Responses: a video prompt the API cannot carry, an image prompt scored.
    const json written = json::parse(R"({"api": "responses", "route": "/v1/responses",
        "prompts": "multimodal-30", "kinds": {"image": {"passed": 1, "total": 2, "score": "1/2"},
        "video": {"passed": 0, "total": 0, "score": "unsupported by the API",
        "unsupported_by_api": 1}}, "not_sent": 1, "not_sent_prompts": [{"id": "clip",
        "kind": "video", "why": "the Responses API carries no video"}]})");
    const MultimodalGateRecord gate = read_multimodal_gate(written);
    QCOMPARE(gate.kinds.at("image").passed, int64_t(1));
    QCOMPARE(gate.not_sent.size(), size_t(1));
    QCOMPARE(gate.not_sent[0].kind, std::string("video"));
    QCOMPARE(to_json(gate).dump(), written.dump());
    MultimodalGateRecord refused;  // the server refused media: no kinds, nothing not sent
    refused.unsupported = "multimodal unsupported";
    refused.prompts = "multimodal-30";
    const json refusal = to_json(refused);
    QVERIFY(!refusal.contains("kinds") && !refusal.contains("not_sent"));
    QCOMPARE(refusal["api"], json("chat"));
    MultimodalGateRecord empty;  // a set without prompts: scored, no kind
    QCOMPARE(to_json(empty)["kinds"], json::object());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(RecordRunSummaryTest)
#include "record_run_summary_test.moc"
