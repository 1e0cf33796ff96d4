// Run folders from elsewhere, damaged in the ways hand edits, other tools and cut copies damage
// them. A real run folder (simulator lanes: regression with logprobs, sampled regression,
// throughput, gates; a decision saved) is the seed; for every file a GUI page reads, the corpus
// replaces each value of its top two levels (and of each experiment, lane, prompt and pair entry)
// with a value of every other JSON type, deletes each of those keys, cuts the file short and
// replaces the whole file. Each damaged folder is opened as the Runs, Review and Decision pages
// open one. Nothing may throw out of a reader, and a damaged file the pages read is named in
// place as "damaged: FILE: what".
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "core/report/decision_record.h"
#include "test_main.h"
#include "ui/history/run_folder_job.h"
#include "ui/pages/decision_page.h"
#include "ui/pages/review_page.h"
#include "ui/review/review_session.h"
#include "ui/review/sampled_review_data.h"
#include "ui/run/gate_scores.h"
#include "ui_run_fixture.h"

using namespace lb;
using nlohmann::json;

namespace damaged_corpus_test {

// The key cases are many (about 1600); a deterministic stride bounds the runtime. Cut files,
// whole-file replacements and the values once seen to abort the workbench are always driven.
constexpr size_t kMaxKeyCases = 200;

enum class Damage { Replace, Delete, Truncate, WholeFile };

struct Case {
  QString file;              // relative to the run folder
  json::json_pointer where;  // the value replaced or deleted; root for the file-level ones
  Damage damage = Damage::Replace;
  json value;              // the replacement
  bool must_name = false;  // a page must say "damaged: FILE"
  QString label() const {
    const char* what[] = {"replaced by", "deleted", "cut short", "whole file replaced by"};
    QString text = file + " " + QString::fromStdString(where.to_string()) + " " +
                   what[static_cast<int>(damage)];
    if (damage == Damage::Replace || damage == Damage::WholeFile)
      text += " " + QString::fromStdString(value.dump());
    return text;
  }
};

QByteArray read_all(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return f.readAll();
}

void write_all(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) qFatal("cannot write");
  f.write(bytes);
}

// A .jsonl file's first line is the document mutated; the other lines stay.
bool is_lines(const QString& file) { return file.endsWith(".jsonl"); }

json document_of(const QString& file, const QByteArray& bytes) {
  const QByteArray text = is_lines(file) ? bytes.left(bytes.indexOf('\n')) : bytes;
  return json::parse(text.toStdString(), nullptr, false);
}

QByteArray bytes_of(const QString& file, const json& doc, const QByteArray& original) {
  const QByteArray text = QByteArray::fromStdString(doc.dump());
  return is_lines(file) ? text + original.mid(original.indexOf('\n')) : text;
}

const json& wrong_values() {
  static const json values = json::array({json::array({1}), 7, "x", json::object({{"k", 1}})});
  return values;
}

bool same_kind(const json& a, const json& b) {
  return a.type() == b.type() || (a.is_number() && b.is_number());
}

// Lists whose entries the corpus goes into one level deeper than the rest.
bool is_entry_list(const std::string& key) {
  return key == "experiments" || key == "lanes" || key == "prompts" || key == "pairs";
}

void collect(const json& v, const json::json_pointer& at, int depth, int limit,
             std::vector<json::json_pointer>& out) {
  if (depth >= limit) return;
  if (v.is_object()) {
    for (const auto& [key, child] : v.items()) {
      out.push_back(at / key);
      const int deeper = depth == 0 && is_entry_list(key) ? limit + 1 : limit;
      collect(child, at / key, depth + 1, deeper, out);
    }
  } else if (v.is_array()) {
    const bool all = !at.empty() && at.back() == "experiments";
    const size_t n = all ? v.size() : std::min<size_t>(v.size(), 2);
    for (size_t i = 0; i < n; ++i) {
      out.push_back(at / i);
      collect(v[i], at / i, depth + 1, limit, out);
    }
  }
}

// The damage the issue reported and a few more that a page must name: the reader needs the value.
bool must_name(const QString& file, const std::string& where, const json& value) {
  if (value.is_null()) return false;
  static const std::map<QString, std::set<std::string>> kNeeded{
      {"plan.json",
       {"/lanes", "/experiments", "/lanes/0", "/lanes/0/id", "/experiments/0",
        "/experiments/0/kind", "/experiments/0/prompts", "/experiments/1/kind"}},
      {"sampled.json", {"/baseline", "/candidate", "/prompts", "/prompts/0"}},
      {"tokens.json", {"/pairs/0"}},
  };
  const auto it = kNeeded.find(file);
  return it != kNeeded.end() && it->second.count(where) > 0;
}

void add_key_cases(const QString& file, const json& doc, std::vector<Case>& out) {
  std::vector<json::json_pointer> paths;
  collect(doc, json::json_pointer(), 0, 2, paths);
  for (const auto& p : paths) {
    for (const json& v : wrong_values())
      if (!same_kind(doc.at(p), v))
        out.push_back({file, p, Damage::Replace, v, must_name(file, p.to_string(), v)});
    out.push_back({file, p, Damage::Replace, nullptr, false});
    out.push_back({file, p, Damage::Delete, nullptr, false});
  }
}

// Files the GUI reads, relative to the run folder.
QStringList target_files(const QString& dir) {
  QStringList out;
  QDirIterator it(dir, {"*.json", "*.jsonl"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString rel = QDir(dir).relativeFilePath(it.next());
    if (rel != "requests.jsonl" && !rel.startsWith("prompts/")) out << rel;
  }
  out.sort();
  return out;
}

struct Corpus {
  std::vector<Case> cases;
  size_t key_cases = 0;        // of the key cases, those driven
  size_t key_cases_total = 0;  // of the key cases, all
};

Corpus make_corpus(const QString& dir) {
  std::vector<Case> fixed, keys;
  for (const QString& file : target_files(dir)) {
    const json doc = document_of(file, read_all(QDir(dir).filePath(file)));
    if (doc.is_discarded()) qFatal("%s is not JSON", qPrintable(file));
    fixed.push_back({file, json::json_pointer(), Damage::Truncate, nullptr, true});
    for (const json& v : wrong_values())
      if (!same_kind(doc, v))
        fixed.push_back({file, json::json_pointer(), Damage::WholeFile, v, true});
    add_key_cases(file, doc, keys);
  }
  Corpus corpus{std::move(fixed), 0, keys.size()};
  const size_t stride = std::max<size_t>(1, (keys.size() + kMaxKeyCases - 1) / kMaxKeyCases);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % stride != 0 && !keys[i].must_name) continue;
    corpus.cases.push_back(keys[i]);
    ++corpus.key_cases;
  }
  return corpus;
}

QByteArray damaged_bytes(const Case& c, const QByteArray& original) {
  if (c.damage == Damage::Truncate) return original.left(original.size() / 2);
  json doc = document_of(c.file, original);
  if (c.damage == Damage::WholeFile) {
    doc = c.value;
  } else if (c.damage == Damage::Replace) {
    doc.at(c.where) = c.value;
  } else {
    json& parent = doc.at(c.where.parent_pointer());
    if (parent.is_object())
      parent.erase(c.where.back());
    else
      parent.erase(static_cast<size_t>(std::stoul(c.where.back())));
  }
  return bytes_of(c.file, doc, original);
}

// What the pages' readers said, and what escaped them.
struct Opened {
  QStringList messages;
  QString escaped;
};

// The readers the Runs, Decision and Review pages run (RunFolderJob's load_run, the review
// session and its pair, the sampled review, the gate scores), each where it would throw into a
// slot.
void run_readers(const QString& dir, Opened& o, std::shared_ptr<const ui::LoadedRun>& run) {
  const auto guard = [&o](const char* where, const auto& read) {
    try {
      read();
    } catch (const std::exception& e) {
      o.escaped += QString("%1: %2; ").arg(where, e.what());
    }
  };
  guard("load_run", [&] { run = ui::load_run(dir); });
  guard("review source and pair", [&] {
    ui::ReviewSource source;
    QString error;
    if (!ui::open_review_source(dir, &source, &error)) {
      o.messages << error;
      return;
    }
    ui::LoadedPair pair;
    if (!ui::load_pair(source, source.lanes[0], source.lanes[1], &pair, &error))
      o.messages << error;
    else
      ui::review_rows(pair, source);
  });
  guard("sampled review", [&] {
    for (const QString& file : ui::sampled_review_files(dir)) {
      ui::SampledReviewData data;
      QString error;
      if (!ui::load_sampled_review_data(dir, file, &data, &error)) o.messages << error;
    }
  });
  guard("gate scores", [&] {
    QFile f(QDir(dir).filePath("summary.json"));
    if (!f.open(QIODevice::ReadOnly)) return;
    ui::LiveGateScores scores;
    record::FileFields fields("summary.json");
    scores.apply_summary(record::read_run_summary_text(f.readAll().toStdString(), fields));
  });
}

// The pages themselves, once the readers threw nothing: what they show in place.
void show_in_pages(const QString& dir, const std::shared_ptr<const ui::LoadedRun>& run,
                   ui::ReviewPage& review, ui::DecisionPage& decision, Opened& o) {
  o.messages << run->error << run->damage;
  decision.set_run(run);
  o.messages << decision.banner_text();
  QSignalSpy statuses(&review, &ui::ReviewPage::status);
  review.open_run(dir);
  if (!QTest::qWaitFor([&review] { return !review.loading(); }, 20'000))
    o.escaped += "the review never finished loading; ";
  o.messages << review.damage_text();
  for (const QList<QVariant>& args : statuses) o.messages << args.at(0).toString();
}

}  // namespace damaged_corpus_test

using namespace damaged_corpus_test;

class UiDamagedCorpusTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    seed_ = tmp_.filePath("seed");
    const json plan = {
        {"name", "damaged corpus"},
        {"lanes",
         {{{"id", "bf16"}, {"base_url", "sim:bf16?time_scale=0.001"}},
          {{"id", "fp8"}, {"base_url", "sim:fp8?time_scale=0.001&flip_facts=1"}}}},
        {"experiments",
         {{{"kind", "regression"}, {"prompts", "builtin:regression-20"}, {"max_tokens", 16}},
          {{"kind", "sampled_regression"},
           {"prompts", "builtin:regression-20"},
           {"samples", 2},
           {"max_tokens", 8},
           {"permutations", 99}},
          {{"kind", "throughput"},
           {"concurrency", {1, 2}},
           {"requests", 4},
           {"input_tokens", 128},
           {"output_tokens", 8}},
          {{"kind", "gates"}, {"checks", {"json", "streaming"}}, {"repeat", 1}}}}};
    test::run_plan_json(seed_, plan);
    report::DecisionRecord record;
    record.decision = report::Decision::Challenger;
    record.rationale = "seed";
    std::string error;
    QVERIFY2(report::save_decision(seed_.toStdString(), record, &error), error.c_str());
  }

  // The seed itself opens cleanly: every message the corpus finds comes from its damage.
  void seedOpensWithoutDamage() {
    for (const char* file :
         {"plan.json", "summary.json", "environment.json", "review.json", "sampled.json",
          "tokens.json", "decision.json", "texts/bf16.texts.json", "logprobs/fp8.jsonl"})
      QVERIFY2(QFile::exists(QDir(seed_).filePath(file)), file);
    Opened o;
    std::shared_ptr<const ui::LoadedRun> run;
    run_readers(seed_, o, run);
    QVERIFY2(o.escaped.isEmpty(), qPrintable(o.escaped));
    QVERIFY(run && run->folder);
    ui::ReviewPage review;
    ui::DecisionPage decision;
    show_in_pages(seed_, run, review, decision, o);
    QVERIFY2(!o.messages.join("\n").contains("damaged:"), qPrintable(o.messages.join("\n")));
  }

  void everyDamagedFolderOpensAndSaysWhatIsDamaged() {
    const Corpus made = make_corpus(seed_);
    const std::vector<Case>& corpus = made.cases;
    qInfo("%zu cases (%zu of %zu key cases)", corpus.size(), made.key_cases, made.key_cases_total);
    ui::ReviewPage review;
    ui::DecisionPage decision;
    QStringList escaped, unnamed;
    size_t named = 0;
    for (const Case& c : corpus) {
      const QString path = QDir(seed_).filePath(c.file);
      const QByteArray original = read_all(path);
      write_all(path, damaged_bytes(c, original));
      Opened o;
      std::shared_ptr<const ui::LoadedRun> run;
      run_readers(seed_, o, run);
      if (o.escaped.isEmpty() && run) show_in_pages(seed_, run, review, decision, o);
      write_all(path, original);
      if (!o.escaped.isEmpty()) escaped << c.label() + ": " + o.escaped;
      const bool says = o.messages.join("\n").contains("damaged: " + c.file);
      named += says ? 1 : 0;
      if (c.must_name && !says) unnamed << c.label() + " -> " + o.messages.join(" | ");
    }
    qInfo("%zu of %zu damaged folders named the damaged file", named, corpus.size());
    QVERIFY2(escaped.isEmpty(), qPrintable(QString("%1 case(s) threw out of a reader:\n%2")
                                               .arg(escaped.size())
                                               .arg(escaped.mid(0, 12).join("\n"))));
    QVERIFY2(unnamed.isEmpty(), qPrintable(QString("%1 case(s) not named as damaged:\n%2")
                                               .arg(unnamed.size())
                                               .arg(unnamed.mid(0, 12).join("\n"))));
  }

 private:
  QTemporaryDir tmp_;
  QString seed_;
};

LANEBENCH_TEST_MAIN(UiDamagedCorpusTest)
#include "ui_damaged_corpus_test.moc"
