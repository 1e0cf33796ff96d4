// Private details planted in a run's plan, environment and lane notes (an API key, a URL, a host
// name, IPv4 and IPv6 addresses, the user's name and a home path) do not survive into
// qualification-summary.json, and the key reaches no file of the report. Ordinary report text
// (times, rates, model names, units) is left alone.
#include <pwd.h>
#include <unistd.h>

#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include "test_main.h"

#include "core/plan/api_key_source.h"
#include "core/report/qualification_summary.h"
#include "core/report/report_writer.h"
#include "report_run_fixture.h"
#include "run_folder_reader.h"

namespace fs = std::filesystem;
using lb::test::read_json;
using lb::test::read_text;

namespace {

const std::string kKey = "sk-live-7Hq2ZpX9vB4nM1cR8tY3";
const std::string kUrl = "https://inference.corp.example.com:8443/v1";
const std::string kHost = "gpu-node-7.corp.example.com";
const std::string kIpv4 = "10.20.30.40";
const std::string kIpv6 = "fe80::1ff:fe23:4567:890a";
const std::string kIpv6Full = "2001:db8:85a3:0:0:8a2e:370:7334";

std::string user_name() {
  const passwd* pw = getpwuid(getuid());
  return pw ? pw->pw_name : "nobody";
}

std::string home_path() { return "/home/" + user_name() + "/models/qwen3"; }

std::string planted_text() {
  return "key " + kKey + ", endpoint " + kUrl + " on " + kHost + " (" + kIpv4 + ", " + kIpv6 +
         ", " + kIpv6Full + "), operator " + user_name() + ", weights in " + home_path();
}

std::vector<std::string> planted() {
  return {kKey, "corp.example.com", kIpv4, "fe80:", "2001:db8", home_path(), "/home/"};
}

// After the run, as if the plan had named a real endpoint and its server had reported these.
void plant_in_run_files(const fs::path& run) {
  auto plan = read_json(run / "plan.json");
  plan["lanes"][1]["base_url"] = kUrl;
  plan["lanes"][1]["api_key_env"] = "LB_REPORT_TEST_KEY";
  plan["lanes"][0]["api_key_env"] = "keyring:bf16";
  plan["name"] = "qualification on " + kHost;
  std::ofstream(run / "plan.json") << plan.dump(2);
  auto env = read_json(run / "environment.json");
  env["lanes"]["fp8"]["base_url"] = kUrl;
  env["lanes"]["fp8"]["model"] = home_path() + "/Qwen3-8B-FP8";
  env["lanes"]["fp8"]["probe"]["version"] = {{"version", "0.11.0 built on " + kHost}};
  env["lanes"]["bf16"]["notes"]["engine_version"] = "from " + kIpv4 + " and [" + kIpv6 + "]";
  std::ofstream(run / "environment.json") << env.dump(2);
}

}  // namespace

class TestReportPrivacy : public QObject {
  Q_OBJECT
 public:
  // The report reads the plan's key variable from the process environment, as the CLI does.
  static void initMain() {
    lb::test::set_environment_before_threads("LB_REPORT_TEST_KEY", kKey.c_str());
  }

 private slots:
  void nothingPrivateSurvivesIntoTheSummary() {
    const auto run = lb::test::run_plan_into(lb::test::report_test_plan(planted_text()), "lb-priv");
    plant_in_run_files(run);
    std::string error;
    const auto folder = lb::report::load_run_folder(run.string(), &error);
    QVERIFY2(folder, error.c_str());
    const auto scrubber = lb::report::PrivacyScrubber::for_run(*folder);
    auto model = lb::report::build_report_model(*folder);
    // The variable is named for the reproduce command; a keyring reference is not.
    QVERIFY2(model.reproduce_command.rfind("LB_REPORT_TEST_KEY=... lanebench-cli run", 0) == 0,
             model.reproduce_command.c_str());
    lb::report::redact_model_secrets(model, scrubber);
    const auto out = run / "report";
    const auto result = lb::report::write_report_files(*folder, model, scrubber, out.string(),
                                                       lb::report::report_format_names());
    QVERIFY2(result.ok(), result.errors.empty() ? "" : result.errors.front().c_str());
    const std::string summary = read_text(out / "qualification-summary.json");
    for (const auto& item : planted())
      QVERIFY2(summary.find(item) == std::string::npos, item.c_str());
    QVERIFY(summary.find("\"" + user_name() + "\"") == std::string::npos);
    QVERIFY(summary.find(" " + user_name() + ",") == std::string::npos);
    // Still a useful record: lanes, gates and figures are there.
    const auto j = nlohmann::json::parse(summary);
    QCOMPARE(j["lanes"].size(), size_t(2));
    QCOMPARE(j["lanes"][0]["id"], "bf16");
    QVERIFY(j["gates"]["rows"].size() >= 7);
    QVERIFY(j["lanes"][1]["performance"]["c1_decode_tok_s"]["value"].get<double>() > 0);
    // The key is in no file the report wrote.
    for (const auto& entry : fs::recursive_directory_iterator(out))
      if (entry.is_regular_file())
        QVERIFY2(read_text(entry.path()).find(kKey) == std::string::npos,
                 entry.path().filename().c_str());
    fs::remove_all(run);
  }

  // A lane whose key lives in the OS keyring: the scrubber asks the registered keyring lookup
  // (the desktop app's libsecret one; here one that holds a single key) and removes that key.
  void keyringKeysAreScrubbedToo() {
    // No "sk-" prefix: only knowing the key, not its look, can find it.
    const std::string keyring_key = "kr0f9e8d7c6b5a4d3c2b1a";
    lb::plan::set_keyring_lookup([&](const lb::plan::KeyringItem& item, std::string* error) {
      if (item.lane_id == "fp8" && item.host == "sim")
        return std::optional<std::string>(keyring_key);
      if (error) error->clear();
      return std::optional<std::string>();
    });
    lb::report::RunFolder folder;
    folder.plan_headline = lb::record::plan_headline_of(
        {{"lanes",
          {{{"id", "fp8"}, {"base_url", "sim:fp8"}, {"api_key_env", "keyring:fp8"}},
           {{"id", "bf16"}, {"base_url", "sim:bf16"}, {"api_key_env", "keyring:bf16"}}}}});
    const auto scrubber = lb::report::PrivacyScrubber::for_run(folder);
    lb::plan::set_keyring_lookup(nullptr);
    const std::string text = "lane fp8 answered 401 for key " + keyring_key + " at c1";
    QVERIFY(!scrubber.secret_findings(text).empty());
    const std::string clean = scrubber.redact_secrets(text);
    QVERIFY2(clean.find(keyring_key) == std::string::npos, clean.c_str());
    QVERIFY(clean.find("lane fp8 answered 401") != std::string::npos);
  }

  void scrubberFindsEachKindAndLeavesReportTextAlone() {
    const lb::report::PrivacyScrubber s({kKey}, {user_name()});
    for (const auto& item : {kKey, kUrl, kHost, kIpv4, kIpv6, kIpv6Full, home_path(),
                             std::string("~/models"), std::string("alice@example.org")}) {
      QVERIFY2(!s.findings("x " + item + " y").empty(), item.c_str());
      QVERIFY2(s.findings(s.redact_private("x " + item + " y")).empty(), item.c_str());
    }
    QVERIFY(!s.secret_findings("Authorization: Bearer abcdefghijklmnop").empty());
    for (const std::string clean :
         {"2026-11-29T21:45:59Z", "c1 decode 47.9 tok/s, E2E p50 1.69 s", "Qwen/Qwen3.8-27B-FP8",
          "pass 3/3", "builtin:regression-20", "Effective prefill = prompt tokens / TTFT.",
          "see review.json and texts/", "vllm 0.11.0", "std::vector"}) {
      QCOMPARE(s.redact_private(clean), clean);
      QVERIFY2(s.findings(clean).empty(), clean.c_str());
    }
  }

  // The gate table's row keys name the product's checks: "gates.streaming" read "[redacted]" in
  // qualification-summary.json, taken for a host name. A host that only starts like one is still
  // a host, and keys are still keys.
  void gateKeysAreNotHostNames() {
    const lb::report::PrivacyScrubber s({kKey}, {user_name()});
    for (const std::string key :
         {"gates.streaming", "gates.tools", "gates.responses", "gates.session", "gates.reasoning",
          "gates.multimodal", "gates.tool_continuation", "gates.json"}) {
      QCOMPARE(s.redact_private(key), key);
      QVERIFY2(s.findings(key).empty(), key.c_str());
    }
    for (const std::string host : {"gates.streaming.example.com", "gates.tools.internal.net",
                                   "gates.example.com", "streaming.example.org"}) {
      QVERIFY2(!s.findings("at " + host).empty(), host.c_str());
      QCOMPARE(s.redact_private("at " + host), std::string("at [redacted]"));
    }
    QVERIFY(!s.secret_findings("gates.streaming " + kKey).empty());
    QCOMPARE(s.redact_private("gates.streaming sk-abcdef0123456789"),
             std::string("gates.streaming [redacted]"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReportPrivacy)
#include "report_privacy_test.moc"
