// Nothing lost (docs/report.md, "Incomplete runs"): `lanebench-cli run` on simulator lanes is
// killed with SIGKILL at seeded random moments from start-up to the end. After each kill the run
// folder must load (every requests.jsonl line parses except a torn last one; plan.json,
// environment.json and summary.json parse when present) and hold every request the CLI had reported
// finished: its progress lines ("[lane] experiment phase  N/M done") are only printed once the N
// requests are written, so each count is a floor for the lines of that lane, experiment and phase.
// And `lanebench-cli report` builds from it, marking the run incomplete. LANEBENCH_CRASH_SEED picks
// another sequence of kill moments.
#include <signal.h>

#include <QRegularExpression>
#include <QtTest>

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <tuple>
#include "test_main.h"

#include "cli_process.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json crash_plan() {
  return {{"name", "crash safety"},
          {"lanes",
           {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.025"}},
            {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.025"}}}},
          {"experiments",
           {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 64}},
            {{"kind", "throughput"},
             {"concurrency", {1, 8}},
             {"requests", 24},
             {"warmups", 1},
             {"input_tokens", 256},
             {"output_tokens", 24}}}}};
}

// Requests the plan finishes when it runs to the end: per lane 20 regression prompts and two
// throughput levels of 24 measured and 1 warm-up request.
constexpr size_t kFullRunRequests = 2 * (20 + 2 * (24 + 1));

using PhaseKey = std::tuple<std::string, std::string, std::string, bool>;  // lane, exp, phase, warm

// The highest "done" count each phase's progress lines reported.
std::map<PhaseKey, int64_t> reported_done(const std::string& stderr_text) {
  static const QRegularExpression line_re(
      QStringLiteral(R"(^\[([^\]]+)\] (\S+) (.+?)  (\d+)/\S+ done)"),
      QRegularExpression::MultilineOption);
  std::map<PhaseKey, int64_t> out;
  auto it = line_re.globalMatch(QString::fromStdString(stderr_text));
  while (it.hasNext()) {
    const auto m = it.next();
    std::string phase = m.captured(3).toStdString();
    const std::string suffix = " warm-up";
    const bool warmup = phase.size() > suffix.size() &&
                        phase.compare(phase.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (warmup) phase.resize(phase.size() - suffix.size());
    PhaseKey key{m.captured(1).toStdString(), m.captured(2).toStdString(), phase, warmup};
    out[key] = std::max<int64_t>(out[key], m.captured(4).toLongLong());
  }
  return out;
}

struct FolderCheck {
  std::vector<json> lines;
  bool torn_last_line = false;
};

// Loads the folder as a reader would; QVERIFY-style failures come back as a message.
std::string load_run_folder(const fs::path& dir, FolderCheck& check) {
  for (const char* name : {"plan.json", "environment.json", "summary.json"}) {
    if (!fs::exists(dir / name)) continue;
    std::ifstream in(dir / name);
    if (!json::accept(in)) return std::string(name) + " does not parse";
  }
  if (!fs::exists(dir / "requests.jsonl")) return {};
  std::ifstream in(dir / "requests.jsonl", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const bool last = nl == std::string::npos;
    const std::string line = text.substr(start, last ? std::string::npos : nl - start);
    start = last ? text.size() : nl + 1;
    if (last) {  // no newline: the kill cut the last write short; it may be partial
      check.torn_last_line = true;
      break;
    }
    if (!json::accept(line))
      return "requests.jsonl line " + std::to_string(check.lines.size() + 1) +
             " does not parse: " + line.substr(0, 120);
    check.lines.push_back(json::parse(line));
  }
  return {};
}

// Every request a progress line counted is in requests.jsonl, and no request is there twice.
std::string check_reported_requests_kept(const std::string& stderr_text,
                                         const std::vector<json>& lines) {
  std::map<PhaseKey, int64_t> written;
  std::set<std::tuple<std::string, std::string, std::string, bool, int64_t>> seen;
  for (const auto& l : lines) {
    PhaseKey key{l["lane"], l["experiment"], l["phase"], l["warmup"]};
    ++written[key];
    if (!seen.emplace(l["lane"], l["experiment"], l["phase"], l["warmup"], l["index"]).second)
      return "request " + l["lane"].get<std::string>() + "/" + l["phase"].get<std::string>() + "#" +
             std::to_string(l["index"].get<int64_t>()) + " is written twice";
  }
  for (const auto& [key, done] : reported_done(stderr_text)) {
    if (written[key] < done)
      return "progress said " + std::to_string(done) + " done in " + std::get<0>(key) + " " +
             std::get<1>(key) + " " + std::get<2>(key) + (std::get<3>(key) ? " warm-up" : "") +
             " but requests.jsonl holds " + std::to_string(written[key]);
  }
  return {};
}

// `lanebench-cli report` on the folder: it must build, and say incomplete unless the run ended.
std::string check_report(const fs::path& run, const fs::path& report_dir, bool run_ended) {
  if (!fs::exists(run / "plan.json")) {  // killed before the folder had anything to report
    const auto r = lb::test::run_program(
        lb::test::cli_path(),
        {"report", lb::test::qstr(run), "--format", "md", "--out", lb::test::qstr(report_dir)});
    return r.exit_code == 0 || r.exit_code == 2 ? std::string() : "report crashed: " + r.err;
  }
  const auto r = lb::test::run_program(
      lb::test::cli_path(),
      {"report", lb::test::qstr(run), "--format", "md,json", "--out", lb::test::qstr(report_dir)});
  if (r.exit_code != 0) return "report exited " + std::to_string(r.exit_code) + ": " + r.err;
  const bool says_incomplete = r.out.find("incomplete") != std::string::npos;
  if (says_incomplete == run_ended)
    return run_ended ? "a finished run reported as incomplete"
                     : "a killed run not marked incomplete";
  std::ifstream md(report_dir / "report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), {});
  if (!run_ended && text.find("INCOMPLETE RUN") == std::string::npos)
    return "report.md does not say the run is incomplete";
  return {};
}

// The CLI writes summary.json with the run's finished_at as its last step. A kill that lands after
// it, while the process is exiting (under ASan the leak check at exit alone takes a few hundred
// ms), leaves a finished run, which must then hold every request and report as complete.
bool summary_says_finished(const fs::path& run) {
  std::ifstream in(run / "summary.json");
  const json summary = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object() || !summary.contains("run") || !summary["run"].is_object()) return false;
  const json& r = summary["run"];
  return r.contains("finished_at") && r.value("interrupted", false) == false;
}

struct KilledRun {
  std::string err;
  bool finished_before_kill = false;
  int64_t elapsed_ms = 0;
};

KilledRun run_and_kill(const std::string& plan, const fs::path& out, int64_t kill_after_ms) {
  QProcess p;
  const auto t0 = std::chrono::steady_clock::now();
  p.start(lb::test::cli_path(),
          {"run", QString::fromStdString(plan), "--out", lb::test::qstr(out)});
  KilledRun r;
  if (!p.waitForStarted()) return r;
  r.finished_before_kill = p.waitForFinished(static_cast<int>(std::max<int64_t>(kill_after_ms, 1)));
  if (!r.finished_before_kill) {
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    p.waitForFinished(10'000);
  }
  r.elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  r.err = p.readAllStandardError().toStdString();
  return r;
}

uint32_t crash_seed() {
  const QByteArray env = qgetenv("LANEBENCH_CRASH_SEED");
  return env.isEmpty() ? 20261130u : static_cast<uint32_t>(env.toULong());
}

}  // namespace

class TestCliCrashSafety : public QObject {
  Q_OBJECT
 private slots:
  void killedRunsKeepEveryReportedRequest() {
    const auto dir = fs::temp_directory_path() / ("lb-crash-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string plan = lb::test::write_plan_file(dir / "plan-in.json", crash_plan());

    // A run left alone sets the time line the kills are spread over.
    const auto full = run_and_kill(plan, dir / "full", 60'000);
    QVERIFY2(full.finished_before_kill, full.err.c_str());
    FolderCheck whole;
    QCOMPARE(load_run_folder(dir / "full", whole), std::string());
    QVERIFY(!whole.torn_last_line);
    QCOMPARE(whole.lines.size(), kFullRunRequests);
    QCOMPARE(check_reported_requests_kept(full.err, whole.lines), std::string());
    QCOMPARE(check_report(dir / "full", dir / "full-report", true), std::string());

    const uint32_t seed = crash_seed();
    qInfo("kill moments seeded with %u over a %lld ms run", seed,
          static_cast<long long>(full.elapsed_ms));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int64_t> moment_ms(0, full.elapsed_ms);
    int kills = 0;
    size_t most_kept = 0;
    for (int i = 0; i < 8; ++i) {
      const int64_t at_ms = moment_ms(rng);
      const fs::path out = dir / ("killed-" + std::to_string(i));
      const auto killed = run_and_kill(plan, out, at_ms);
      kills += killed.finished_before_kill ? 0 : 1;
      FolderCheck check;
      const std::string where =
          "kill #" + std::to_string(i) + " at " + std::to_string(at_ms) + " ms";
      const std::string load_error = load_run_folder(out, check);
      QVERIFY2(load_error.empty(), (where + ": " + load_error).c_str());
      const std::string lost = check_reported_requests_kept(killed.err, check.lines);
      QVERIFY2(lost.empty(), (where + ": " + lost).c_str());
      const bool ended = killed.finished_before_kill || summary_says_finished(out);
      if (ended)
        QVERIFY2(check.lines.size() == kFullRunRequests,
                 (where + ": a finished run without all its requests").c_str());
      const std::string report = check_report(out, dir / ("report-" + std::to_string(i)), ended);
      QVERIFY2(report.empty(), (where + ": " + report).c_str());
      most_kept = std::max(most_kept, check.lines.size());
    }
    QVERIFY(kills >= 4);     // most moments fall inside the run
    QVERIFY(most_kept > 0);  // and some after requests had finished
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestCliCrashSafety)
#include "app_cli_crash_safety_test.moc"
