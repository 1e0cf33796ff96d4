// A plan's shards on a real Slurm cluster: the test starts a single-node cluster on this machine
// (munged, slurmctld and slurmd in the foreground, a generated slurm.conf on loopback ports),
// submits a plan of three simulator lanes and a lane split over two clients (one lanebench-sim
// server) with `lanebench-cli fleet slurm --submit`, waits for
// the job array and the merge job after it, and compares the merged run with the same plan run
// in one process: the same requests per lane and phase, the same gate results, and reports of the
// same structure. Debian's slurmctld, slurmd, slurm-client and munge are installed by
// scripts/bootstrap.sh --tests; the cluster needs root, as CI runs.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QtTest>

#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "test_main.h"

#include "cli_process.h"
#include "run_folder_reader.h"
#include "test_paths.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace lb::test;

namespace fleet_slurm_test {

// A loopback port nothing listens on now.
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t n = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
  close(fd);
  return ntohs(a.sin_port);
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

QString find_program(const char* name) {
  return QStandardPaths::findExecutable(name, {"/usr/sbin", "/usr/bin", "/sbin", "/bin"});
}

// Three simulator lanes, and a fourth (SPLIT_URL, one lanebench-sim server) whose load two
// clients share; without SPLIT_URL the three only.
json slurm_plan(const std::string& split_url = "") {
  json plan = {
      {"name", "fleet-slurm"},
      {"lanes",
       {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.1"}},
        {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.1"}},
        {{"id", "fp8-mtp"}, {"base_url", "sim:fp8-mtp3?time_scale=0.1"}}}},
      {"experiments",
       {{{"kind", "throughput"}, {"concurrency", {2, 4}}, {"requests", 8}, {"output_tokens", 16}},
        {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}},
        {{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 24}}}}};
  if (!split_url.empty()) {
    plan["lanes"].push_back({{"id", "fp8-split"}, {"base_url", split_url}});
    plan["split"] = {{"lane", "fp8-split"}, {"clients", 2}};
  }
  return plan;
}

// Measured requests by experiment, lane and phase.
std::map<std::string, int> counts(const fs::path& run) {
  std::map<std::string, int> out;
  for (const json& l : read_jsonl(run / "requests.jsonl"))
    if (!l["warmup"].get<bool>())
      ++out[l["experiment"].get<std::string>() + "/" + l["lane"].get<std::string>() + "/" +
            l["phase"].get<std::string>()];
  return out;
}

// Each gate check's status by lane and check.
std::map<std::string, std::string> gate_statuses(const fs::path& run) {
  std::map<std::string, std::string> out;
  const json summary = read_json(run / "summary.json");
  for (const json& e : summary["experiments"])
    if (e["kind"] == "gates")
      for (const auto& [lane, l] : e["lanes"].items())
        for (const auto& [check, g] : l["gates"].items())
          out[lane + "/" + check] = g.value("status", "");
  return out;
}

// The report's headings and table header rows: its structure, not its numbers.
std::vector<std::string> report_structure(const fs::path& run) {
  std::vector<std::string> out;
  std::ifstream in(run / "report" / "report.md");
  std::string previous;
  for (std::string line; std::getline(in, line); previous = line) {
    if (line.rfind("#", 0) == 0) out.push_back(line);
    if (line.rfind("|---", 0) == 0 || line.rfind("| ---", 0) == 0) out.push_back(previous);
  }
  return out;
}

}  // namespace fleet_slurm_test

using namespace fleet_slurm_test;

class TestFleetSlurm : public QObject {
  Q_OBJECT

  fs::path dir_;
  QProcessEnvironment env_ = QProcessEnvironment::systemEnvironment();
  std::vector<std::unique_ptr<QProcess>> daemons_;

  bool start(const QString& program, const QStringList& args) {
    auto p = std::make_unique<QProcess>();
    p->setProcessEnvironment(env_);
    p->setProcessChannelMode(QProcess::MergedChannels);
    p->setStandardOutputFile(QString::fromStdString((dir_ / "log").string()) + "/" +
                             QFileInfo(program).fileName() + ".out");
    p->start(program, args);
    const bool started = p->waitForStarted(10'000);
    daemons_.push_back(std::move(p));
    return started;
  }

  // sinfo says the node is idle (the cluster takes jobs), within 60 s.
  bool cluster_ready() {
    for (int i = 0; i < 120; ++i) {
      const auto r = run_program(find_program("sinfo"), {"-h", "-o", "%t"}, env_, 10'000);
      if (r.exit_code == 0 && r.out.find("idle") != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    return false;
  }

  void write_slurm_conf() {
    const std::string d = dir_.string();
    std::ofstream(dir_ / "slurm.conf")
        << "ClusterName=lanebench\nSlurmctldHost=" << host_name() << "(127.0.0.1)\n"
        << "SlurmctldPort=" << free_port() << "\nSlurmdPort=" << free_port() << "\n"
        << "SlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\nCredType=cred/munge\n"
        << "AuthInfo=socket=" << d << "/munge/munge.sock\n"
        << "StateSaveLocation=" << d << "/state\nSlurmdSpoolDir=" << d << "/spool\n"
        << "SlurmctldPidFile=" << d << "/slurmctld.pid\nSlurmdPidFile=" << d << "/slurmd.pid\n"
        << "SlurmctldLogFile=" << d << "/log/slurmctld.log\nSlurmdLogFile=" << d
        << "/log/slurmd.log\n"
        << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nMpiDefault=none\n"
        << "SwitchType=switch/none\nReturnToService=2\nSchedulerType=sched/builtin\n"
        << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
        << "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
        << "JobCompType=jobcomp/none\nMinJobAge=600\n"
        // As many CPUs as the machine has, a task each: two tasks at a time, as one process
        // runs its lanes one at a time, so the medians compare; the split lane's first client
        // waits at its first meeting for the second to be scheduled.
        << "NodeName=" << host_name()
        << " NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN\n"
        << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP "
           "OverSubscribe=YES\n";
  }

 private slots:
  void initTestCase() {
    for (const char* p : {"munged", "slurmctld", "slurmd", "sbatch", "scontrol", "sinfo"})
      if (find_program(p).isEmpty())
        QFAIL(qPrintable(QString(p) + " is not installed: scripts/bootstrap.sh --tests installs "
                                      "Debian's slurmctld, slurmd, slurm-client and munge"));
    if (geteuid() != 0) QFAIL("the single-node Slurm cluster of this test needs root");
    dir_ = fresh_dir("lb-fleet-slurm");
    for (const char* sub : {"munge", "state", "spool", "log"}) fs::create_directories(dir_ / sub);
    fs::permissions(dir_ / "munge", fs::perms::owner_all, fs::perm_options::replace);
    {
      std::ofstream key(dir_ / "munge" / "munge.key", std::ios::binary);
      std::ifstream random("/dev/urandom", std::ios::binary);
      std::vector<char> bytes(1024);
      random.read(bytes.data(), std::streamsize(bytes.size()));
      key.write(bytes.data(), std::streamsize(bytes.size()));
    }
    fs::permissions(dir_ / "munge" / "munge.key", fs::perms::owner_read, fs::perm_options::replace);
    write_slurm_conf();
    env_.insert("SLURM_CONF", QString::fromStdString((dir_ / "slurm.conf").string()));
    const QString m = QString::fromStdString((dir_ / "munge").string());
    QVERIFY(start(find_program("munged"),
                  {"--foreground", "--force", "--key-file=" + m + "/munge.key",
                   "--socket=" + m + "/munge.sock", "--pid-file=" + m + "/munged.pid",
                   "--seed-file=" + m + "/seed", "--log-file=" + m + "/munged.log"}));
    for (int i = 0; i < 50 && !fs::exists(dir_ / "munge" / "munge.sock"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    QVERIFY2(fs::exists(dir_ / "munge" / "munge.sock"), "munged did not make its socket");
    QVERIFY(start(find_program("slurmctld"), {"-D", "-i"}));
    QVERIFY(start(find_program("slurmd"), {"-D"}));
    QVERIFY2(cluster_ready(), qPrintable("the node never became idle; see " +
                                         QString::fromStdString((dir_ / "log").string())));
  }

  void cleanupTestCase() {
    for (auto& p : daemons_) p->terminate();
    for (auto& p : daemons_)
      if (!p->waitForFinished(5'000)) p->kill(), p->waitForFinished();
    fs::remove_all(dir_);
  }

  void aPlanRunsAsAJobArrayAndMergesAsOneProcessWouldRunIt() {
    QProcess sim;
    // No prefix cache: the merged run meets the server as the one-process run did, not warmed
    // by its prompts.
    sim.start(sim_path(), {"--profile", "fp8", "--time-scale", "0.1", "--port", "0",
                           "--no-enable-prefix-caching"});
    QVERIFY(sim.waitForStarted());
    while (!sim.canReadLine() && sim.waitForReadyRead(10'000)) {
    }
    const std::string split_url =
        QString::fromUtf8(sim.readLine()).trimmed().section(' ', 1, 1).toStdString();
    QVERIFY2(split_url.rfind("http://127.0.0.1:", 0) == 0, split_url.c_str());
    const std::string plan_path = write_plan_file(dir_ / "plan.json", slurm_plan(split_url));
    const auto one =
        run_program(cli_path(), {"run", qstr(plan_path), "--out", qstr(dir_ / "one")}, env_);
    // A flipped fact is a blocker (exit 1); the merged run must find the same.
    QVERIFY2(one.exit_code == 0 || one.exit_code == 1, one.err.c_str());

    const fs::path fleet = dir_ / "fleet";
    const auto submitted = run_program(
        cli_path(), {"fleet", "slurm", qstr(plan_path), "--out", qstr(fleet), "--submit"}, env_);
    QVERIFY2(submitted.exit_code == 0, submitted.err.c_str());
    QVERIFY(submitted.out.find("shards: job array ") != std::string::npos);
    QVERIFY(submitted.out.find("merge: job ") != std::string::npos);
    const json record = read_json(fleet / "fleet.json");
    QCOMPARE(record["shards"], 5);  // three lanes, and the split lane's two clients
    QVERIFY(record.contains("shard_job") && record.contains("merge_job"));

    // The merge job runs once the array is over.
    std::string status;
    for (int i = 0; i < 240; ++i) {
      status = run_program(cli_path(), {"fleet", "status", qstr(fleet)}, env_).out;
      if (status.find("merge  COMPLETED") != std::string::npos ||
          status.find("merge  FAILED") != std::string::npos)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    qInfo("%s", status.c_str());
    QVERIFY2(status.find("merge  COMPLETED") != std::string::npos, status.c_str());
    for (int i = 0; i < 5; ++i)
      QVERIFY2(status.find(std::to_string(i) + "      COMPLETED    finished on " + host_name()) !=
                   std::string::npos,
               status.c_str());

    // A second submission into the same folder would merge the first one's shards: refused.
    const auto again = run_program(
        cli_path(), {"fleet", "slurm", qstr(plan_path), "--out", qstr(fleet), "--submit"}, env_);
    QCOMPARE(again.exit_code, 2);
    QVERIFY2(again.err.find("holds an earlier submission's results") != std::string::npos,
             again.err.c_str());
    const fs::path merged = fleet / "run";
    QCOMPARE(counts(merged), counts(dir_ / "one"));
    QCOMPARE(gate_statuses(merged), gate_statuses(dir_ / "one"));
    QCOMPARE(gate_statuses(merged).size(), size_t(8));
    // The same answers and the same review triage.
    for (const char* file : {"texts/fp8.texts.json", "review.fp8.json", "review.fp8-mtp.json"}) {
      QVERIFY2(fs::exists(merged / file) && fs::exists(dir_ / "one" / file), file);
      QCOMPARE(read_json(merged / file), read_json(dir_ / "one" / file));
    }
    const json summary = read_json(merged / "summary.json");
    // Each phase's TTFT and TPOT medians as one process measured them, within the noise their
    // intervals show: the two runs' 95 % intervals overlap. The lanes' model time runs at a tenth
    // of real time, so what the simulator models (tens of ms) outweighs the machine's jitter.
    const json one_summary = read_json(dir_ / "one" / "summary.json");
    int phases = 0;
    for (const auto& [lane, l] : summary["experiments"][0]["lanes"].items())
      for (const auto& [phase, p] : l["phases"].items()) {
        for (const char* figure : {"median_ttft_ms", "median_tpot_ms"}) {
          const json& a = p["intervals"][figure];
          const json& b =
              one_summary["experiments"][0]["lanes"][lane]["phases"][phase]["intervals"][figure];
          QVERIFY2(
              a["lo"] <= b["hi"] && b["lo"] <= a["hi"],
              (lane + " " + phase + " " + figure + ": " + a.dump() + " / " + b.dump()).c_str());
        }
        ++phases;
      }
    QCOMPARE(phases, 8);
    QCOMPARE(summary["shards"].size(), size_t(5));
    // The split lane's phases from both clients' requests, as one client would have sent them.
    for (const std::string phase : {"c2", "c4"}) {
      const json& p = summary["experiments"][0]["lanes"]["fp8-split"]["phases"][phase];
      QCOMPARE(p["completed"], 8);
      QCOMPARE(p["split"]["clients"], 2);
    }
    QCOMPARE(summary["run"]["blockers"],
             read_json(dir_ / "one" / "summary.json")["run"]["blockers"]);
    QVERIFY(!summary["experiments"][0]["comparisons"].empty());
    for (const fs::path& run : {merged, dir_ / "one"})
      QCOMPARE(run_program(cli_path(), {"report", qstr(run), "--format", "md"}, env_).exit_code, 0);
    auto merged_structure = report_structure(merged);
    const auto one_structure = report_structure(dir_ / "one");
    QVERIFY(one_structure.size() > 10);
    QCOMPARE(merged_structure, one_structure);
  }

  void aPlanThatCannotBeShardedWritesNoScript() {
    json sampled = slurm_plan();
    sampled["experiments"] = {{{"kind", "sampled_regression"}, {"samples", 2}}};
    const std::string plan_path = write_plan_file(dir_ / "sampled.json", sampled);
    const fs::path out = dir_ / "refused";
    const auto r =
        run_program(cli_path(), {"fleet", "slurm", qstr(plan_path), "--out", qstr(out)}, env_);
    QCOMPARE(r.exit_code, 2);
    QVERIFY2(r.err.find("compares the lanes' answers") != std::string::npos, r.err.c_str());
    QVERIFY(!fs::exists(out / "shards.sbatch"));
    const auto bad = run_program(cli_path(),
                                 {"fleet", "slurm", qstr(dir_ / "plan.json"), "--out",
                                  qstr(dir_ / "has space"), "--partition", "a b"},
                                 env_);
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.find("#SBATCH") != std::string::npos, bad.err.c_str());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestFleetSlurm)
#include "app_cli_fleet_slurm_test.moc"
