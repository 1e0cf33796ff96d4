// Secrets (docs/security.md): API keys come from environment variables and are never written to
// disk, logs or exports. Distinctive keys are planted in the environment of lanebench-cli and of a
// lanebench-sim child; both simulator lanes (one in-process, one the child with --trace) answer
// 401 without them. After a full run nothing in the run folder, the report folder, the vLLM
// export, the CLI's stdout/stderr, the simulator's output or its trace contains a key. Keys put
// where they do not belong (a plan's api_key, user:password@ in a base_url) are refused without
// being echoed.
#include <signal.h>

#include <QtTest>

#include "test_main.h"

#include "cli_process.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using lb::test::qstr;
using nlohmann::json;

namespace {

const std::string kKeyInProcess = "sk-lbplanted-inproc-" + std::to_string(::getpid()) + "-9f3c1e";
const std::string kKeyChild = "sk-lbplanted-child-" + std::to_string(::getpid()) + "-47ad0b";

QProcessEnvironment keyed_env() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("LB_PLANTED_INPROC_KEY", QString::fromStdString(kKeyInProcess));
  env.insert("LB_PLANTED_CHILD_KEY", QString::fromStdString(kKeyChild));
  return env;
}

json keyed_plan(const std::string& child_url, bool send_keys) {
  json inproc = {{"id", "inproc"},
                 {"base_url", "sim:bf16?time_scale=0.01&api_key_env=LB_PLANTED_INPROC_KEY"}};
  json child = {{"id", "child"}, {"base_url", child_url}};
  if (send_keys) {
    inproc["api_key_env"] = "LB_PLANTED_INPROC_KEY";
    child["api_key_env"] = "LB_PLANTED_CHILD_KEY";
  }
  return {{"name", "secrets"},
          {"lanes", {inproc, child}},
          {"experiments",
           {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 24}},
            {{"kind", "throughput"},
             {"concurrency", {2}},
             {"requests", 6},
             {"input_tokens", 128},
             {"output_tokens", 8}},
            {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}}}}};
}

// The files (or texts) that contain either key, by name.
std::vector<std::string> holders_of_keys(
    const std::vector<std::pair<std::string, std::string>>& texts) {
  std::vector<std::string> out;
  for (const auto& [name, text] : texts) {
    if (text.find(kKeyInProcess) != std::string::npos || text.find(kKeyChild) != std::string::npos)
      out.push_back(name);
  }
  return out;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

// lanebench-sim --profile fp8 with the child key required and a trace; returns its base URL.
std::string start_keyed_sim(QProcess& sim, const fs::path& trace) {
  sim.setProcessEnvironment(keyed_env());
  sim.start(lb::test::sim_path(), {"--profile", "fp8", "--time-scale", "0.01", "--trace",
                                   qstr(trace), "--set", "api_key_env=LB_PLANTED_CHILD_KEY"});
  if (!sim.waitForStarted()) return {};
  while (!sim.canReadLine() && sim.waitForReadyRead(10'000)) {
  }
  const QString line = QString::fromUtf8(sim.readLine()).trimmed();  // "fp8 http://..."
  return line.section(' ', 1, 1).toStdString();
}

}  // namespace

class TestCliSecrets : public QObject {
  Q_OBJECT
 private slots:
  void plantedKeysReachNoFileOrLog() {
    const auto dir = fs::temp_directory_path() / ("lb-secrets-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    QProcess sim;
    const std::string url = start_keyed_sim(sim, dir / "sim-trace.jsonl");
    QVERIFY2(url.rfind("http://127.0.0.1:", 0) == 0, url.c_str());

    // Without the keys both lanes refuse: the keys are really needed and really sent.
    const auto refused_plan = lb::test::write_plan_file(dir / "nokey.json", keyed_plan(url, false));
    const auto refused = lb::test::run_program(
        lb::test::cli_path(),
        {"run", QString::fromStdString(refused_plan), "--out", qstr(dir / "nokey")}, keyed_env());
    QCOMPARE(refused.exit_code, 3);  // the servers refused: a lane error, not an input one
    QVERIFY2(refused.err.find("401") != std::string::npos, refused.err.c_str());

    const auto plan = lb::test::write_plan_file(dir / "plan-in.json", keyed_plan(url, true));
    const fs::path run = dir / "run";
    const auto r = lb::test::run_program(
        lb::test::cli_path(),
        {"run", QString::fromStdString(plan), "--out", qstr(run), "--allow-env",
         "LB_PLANTED_INPROC_KEY", "--allow-env", "LB_PLANTED_CHILD_KEY"},
        keyed_env(), 90'000);
    QVERIFY2(r.exit_code == 0 || r.exit_code == 1, r.err.c_str());
    const auto lines = read_all(run / "requests.jsonl");
    QVERIFY(std::count(lines.begin(), lines.end(), '\n') >= 2 * (20 + 6));
    QVERIFY2(lines.find("\"http_status\":401") == std::string::npos, "a request was refused");

    // Every report format (HTML, Markdown, PDF, CSV, JSON) into a folder of its own.
    const auto report = lb::test::run_program(
        lb::test::cli_path(), {"report", qstr(run), "--out", qstr(dir / "report")}, keyed_env());
    QVERIFY2(report.exit_code == 0, report.err.c_str());
    QVERIFY(fs::exists(dir / "report" / "report.md"));
    // The run's phases as vLLM bench serve result JSON.
    const auto exported = lb::test::run_program(
        lb::test::cli_path(),
        {"export", qstr(run), "--format", "vllm", "-o", qstr(dir / "export.json")}, keyed_env());
    QVERIFY2(exported.exit_code == 0, exported.err.c_str());

    ::kill(static_cast<pid_t>(sim.processId()), SIGTERM);
    QVERIFY(sim.waitForFinished(10'000));
    std::vector<std::pair<std::string, std::string>> texts = {
        {"cli stdout", r.out},
        {"cli stderr", r.err},
        {"refused run stderr", refused.err},
        {"report stdout", report.out},
        {"report stderr", report.err},
        {"export", read_all(dir / "export.json")},
        {"export stderr", exported.err},
        {"sim stdout", sim.readAllStandardOutput().toStdString()},
        {"sim stderr", sim.readAllStandardError().toStdString()},
    };
    for (const auto& folder : {run, dir / "nokey", dir / "report"})
      for (const auto& f : lb::test::files_under(folder))
        texts.emplace_back(f.string(), read_all(f));
    const std::string trace = read_all(dir / "sim-trace.jsonl");
    QVERIFY(!trace.empty());
    texts.emplace_back("sim trace", trace);
    QVERIFY(texts.size() > 8);  // the run folder is there to search
    const auto holders = holders_of_keys(texts);
    QVERIFY2(holders.empty(), ("a key was written to: " + join(holders)).c_str());
    fs::remove_all(dir);
  }

  void keysWhereTheyDoNotBelongAreRefusedUnechoed() {
    const auto dir = fs::temp_directory_path() / ("lb-secrets-bad-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    json in_plan = {
        {"lanes", {{{"id", "a"}, {"base_url", "sim:fp8"}, {"api_key", kKeyChild}}}},
        {"experiments", {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 1}}}}};
    json in_url = in_plan;
    in_url["lanes"][0].erase("api_key");
    in_url["lanes"][0]["base_url"] = "http://user:" + kKeyInProcess + "@127.0.0.1:9/v1";
    for (const auto& [name, plan] :
         {std::pair{"api_key", in_plan}, std::pair{"base_url", in_url}}) {
      const auto path = lb::test::write_plan_file(dir / (std::string(name) + ".json"), plan);
      const auto r = lb::test::run_program(
          lb::test::cli_path(),
          {"run", QString::fromStdString(path), "--out", qstr(dir / (std::string(name) + "-out"))});
      QCOMPARE(r.exit_code, 2);
      QVERIFY2(r.err.find(name) != std::string::npos, r.err.c_str());  // the field is named
      const auto holders = holders_of_keys({{"stdout", r.out}, {"stderr", r.err}});
      QVERIFY2(holders.empty(), (std::string(name) + ": the key was echoed: " + r.err).c_str());
      QVERIFY(!fs::exists(dir / (std::string(name) + "-out")));
    }
    fs::remove_all(dir);
  }

  // A plan can come from anyone: no variable it names as a lane's key is sent, whatever its
  // name, unless the user allows that name with --allow-env.
  void keyVariablesAreSentOnlyWhenAllowed() {
    const auto dir = fs::temp_directory_path() / ("lb-secrets-env-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    QProcessEnvironment env = keyed_env();
    // Whatever its name: a key-like name (HF_TOKEN, ANTHROPIC_API_KEY) reached the plan's
    // server with no --allow-env before.
    for (const char* name : {"AWS_SECRET_ACCESS_KEY", "HF_TOKEN", "ANTHROPIC_API_KEY"})
      env.insert(name, QString::fromStdString(kKeyChild));
    env.insert("LB_LANE_SECRET", QString::fromStdString(kKeyInProcess));
    // The simulator lane demands the key in LB_LANE_SECRET, so a run that passes sent it.
    const json sim_demands_key = {
        {"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.01&api_key_env=LB_LANE_SECRET"}};
    const json experiments = {{{"kind", "throughput"},
                               {"concurrency", {1}},
                               {"requests", 1},
                               {"input_tokens", 16},
                               {"output_tokens", 4}}};
    for (const char* name :
         {"AWS_SECRET_ACCESS_KEY", "HF_TOKEN", "ANTHROPIC_API_KEY", "LB_LANE_SECRET"}) {
      json lane = sim_demands_key;
      lane["api_key_env"] = name;
      const auto path = lb::test::write_plan_file(
          dir / (std::string(name) + ".json"),
          {{"name", "env"}, {"lanes", {lane}}, {"experiments", experiments}});
      const auto r = lb::test::run_program(
          lb::test::cli_path(),
          {"run", QString::fromStdString(path), "--out", qstr(dir / (std::string(name) + "-out"))},
          env);
      QCOMPARE(r.exit_code, 2);
      QVERIFY2(r.err.find("lane fp8: api_key_env names " + std::string(name)) != std::string::npos,
               r.err.c_str());
      QVERIFY2(r.err.find("--allow-env " + std::string(name)) != std::string::npos, r.err.c_str());
      QVERIFY2(holders_of_keys({{"stdout", r.out}, {"stderr", r.err}}).empty(), r.err.c_str());
    }
    // Allowed by the user, the variable is read and its key reaches the server.
    json lane = sim_demands_key;
    lane["api_key_env"] = "LB_LANE_SECRET";
    const auto path = lb::test::write_plan_file(
        dir / "allowed.json", {{"name", "env"}, {"lanes", {lane}}, {"experiments", experiments}});
    const auto r =
        lb::test::run_program(lb::test::cli_path(),
                              {"run", QString::fromStdString(path), "--out",
                               qstr(dir / "allowed-out"), "--allow-env", "LB_LANE_SECRET"},
                              env, 60'000);
    QVERIFY2(r.exit_code == 0, r.err.c_str());
    QVERIFY2(read_all(dir / "allowed-out" / "requests.jsonl").find("\"http_status\":401") ==
                 std::string::npos,
             "the allowed key was not sent");
    fs::remove_all(dir);
  }

  // A key never crosses the network in clear: plain http is for loopback only, unless the lane
  // says allow_key_over_http, and then the run and its report say so.
  void keysGoOverPlainHttpOnlyToLoopbackOrWhenAllowed() {
    const auto dir = fs::temp_directory_path() / ("lb-secrets-http-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    // 192.0.2.1 (TEST-NET-1) is never a real host: the refusal comes before any connection.
    const json remote = {{"id", "remote"},
                         {"base_url", "http://192.0.2.1:9/v1"},
                         {"api_key_env", "LB_PLANTED_CHILD_KEY"}};
    const json experiments = {{{"kind", "throughput"}, {"concurrency", {1}}, {"requests", 1}}};
    const auto path = lb::test::write_plan_file(
        dir / "remote.json", {{"name", "http"}, {"lanes", {remote}}, {"experiments", experiments}});
    const auto r = lb::test::run_program(
        lb::test::cli_path(), {"run", QString::fromStdString(path), "--out", qstr(dir / "out")},
        keyed_env());
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.find("lane remote: its API key would go over plain http to 192.0.2.1") !=
                 std::string::npos,
             r.err.c_str());
    QVERIFY2(r.err.find("allow_key_over_http") != std::string::npos, r.err.c_str());
    QVERIFY2(holders_of_keys({{"stdout", r.out}, {"stderr", r.err}}).empty(), r.err.c_str());
    fs::remove_all(dir);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestCliSecrets)
#include "app_cli_secrets_test.moc"
