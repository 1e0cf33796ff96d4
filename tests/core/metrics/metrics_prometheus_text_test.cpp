// The Prometheus text parser on the servers' real /metrics bytes and on the format's edge cases.
#include <QtTest>

#include "test_main.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/metrics/prometheus_text.h"
#include "fixture_text.h"

using namespace lb::metrics;

class PrometheusTextTest : public QObject {
  Q_OBJECT
 private slots:
  void vllmFixture() {
    const std::string text = read_wire_fixture("vllm_metrics.prom");
    QVERIFY(!text.empty());
    const PrometheusSnapshot snap = parse_prometheus_text(text);
    QVERIFY2(snap.issues.empty(), snap.issues.empty() ? "" : snap.issues[0].message.c_str());
    QCOMPARE(snap.samples.size(), size_t(39));
    const auto queries = snap.find("vllm:prefix_cache_queries_total");
    QCOMPARE(queries.size(), size_t(1));
    QCOMPARE(queries[0]->value, 1853952.0);
    QCOMPARE(queries[0]->family, std::string("vllm:prefix_cache_queries"));
    QCOMPARE(*queries[0]->label("model_name"), std::string("Qwen/Qwen3-8B"));
    QCOMPARE(*queries[0]->label("engine"), std::string("0"));
    QVERIFY(queries[0]->label("le") == nullptr);
    QCOMPARE(snap.type_of_family("vllm:prefix_cache_queries"), MetricType::Counter);
    QCOMPARE(snap.type_of_family("vllm:kv_cache_usage_perc"), MetricType::Gauge);
    QCOMPARE(snap.type_of_family("vllm:time_to_first_token_seconds"), MetricType::Histogram);
    QCOMPARE(snap.families.at("vllm:num_requests_running").help,
             std::string("Number of requests in model execution batches."));
    const auto buckets = snap.find("vllm:time_to_first_token_seconds_bucket");
    QCOMPARE(buckets.size(), size_t(9));
    QCOMPARE(*buckets.back()->label("le"), std::string("+Inf"));
    QCOMPARE(buckets.back()->family, std::string("vllm:time_to_first_token_seconds"));
    QCOMPARE(*snap.sum("vllm:request_success_total"), 1013.0);  // 880 + 131 + 2
    QCOMPARE(*snap.find("vllm:cache_config_info")[0]->label("num_gpu_blocks"),
             std::string("27354"));
    QVERIFY(!snap.sum("vllm:no_such_metric"));
  }
  void llamacppTypeNamesIncludeTotal() {
    const PrometheusSnapshot snap =
        parse_prometheus_text(read_wire_fixture("llamacpp_metrics.prom"));
    QVERIFY(snap.issues.empty());
    QCOMPARE(snap.samples.size(), size_t(13));
    const auto s = snap.find("llamacpp:prompt_tokens_total");
    QCOMPARE(s.size(), size_t(1));
    QCOMPARE(s[0]->family, std::string("llamacpp:prompt_tokens_total"));
    QCOMPARE(snap.type_of_family("llamacpp:prompt_tokens_total"), MetricType::Counter);
    QVERIFY(s[0]->labels.empty());
    QCOMPARE(s[0]->value, 1000.0);
  }
  void sglangFixture() {
    const PrometheusSnapshot snap = parse_prometheus_text(read_wire_fixture("sglang_metrics.prom"));
    QVERIFY(snap.issues.empty());
    QCOMPARE(*snap.sum("sglang:prompt_tokens_total"), 8128902.0);
    // Label order varies (le first here): lookup is by name.
    const auto b = snap.find("sglang:time_to_first_token_seconds_bucket");
    QCOMPARE(b.size(), size_t(3));
    QCOMPARE(*b[0]->label("le"), std::string("0.04"));
    QCOMPARE(b[0]->labels.front().first, std::string("le"));
  }
  void escapesAndSpecialValues() {
    const std::string text =
        "# HELP x_total Help with \\\\ backslash\\nand newline.\n"
        "# TYPE x_total counter\r\n"
        "x_total{path=\"C:\\\\dir\",quote=\"say \\\"hi\\\"\",nl=\"a\\nb\",} 3 1700000000123\n"
        "\n"
        "   \t\n"
        "# a plain comment\n"
        "g NaN\n"
        "g{s=\"pos\"} +Inf\n"
        "g{s=\"neg\"} -Inf\n"
        "g{s=\"sci\"} 1.5e-3\n"
        "g{ s = \"spaced\" } -2\n"
        "untyped_metric 42";  // no final newline
    const PrometheusSnapshot snap = parse_prometheus_text(text);
    QVERIFY2(snap.issues.empty(), snap.issues.empty() ? "" : snap.issues[0].message.c_str());
    QCOMPARE(snap.families.at("x_total").help, std::string("Help with \\ backslash\nand newline."));
    const auto x = snap.find("x_total");
    QCOMPARE(x.size(), size_t(1));
    QCOMPARE(*x[0]->label("path"), std::string("C:\\dir"));
    QCOMPARE(*x[0]->label("quote"), std::string("say \"hi\""));
    QCOMPARE(*x[0]->label("nl"), std::string("a\nb"));
    QCOMPARE(x[0]->timestamp_ms.value(), int64_t(1700000000123));
    const auto g = snap.find("g");
    QCOMPARE(g.size(), size_t(5));
    QVERIFY(std::isnan(g[0]->value));
    QVERIFY(std::isinf(g[1]->value) && g[1]->value > 0);
    QVERIFY(std::isinf(g[2]->value) && g[2]->value < 0);
    QCOMPARE(g[3]->value, 0.0015);
    QCOMPARE(*g[4]->label("s"), std::string("spaced"));
    QCOMPARE(g[4]->value, -2.0);
    QCOMPARE(snap.type_of_family("g"), MetricType::Untyped);
    QCOMPARE(snap.find("untyped_metric")[0]->value, 42.0);
  }
  void badLinesReportedAndSkipped() {
    const std::string text =
        "ok_one 1\n"
        "bad{unterminated=\"x} 2\n"
        "bad_value abc\n"
        "9starts_with_digit 1\n"
        "# TYPE weird nonsense\n"
        "missing_value{a=\"b\"}\n"
        "bad_ts 1 12x\n"
        "bad_label{a=b} 1\n"
        "ok_two 2\n";
    const PrometheusSnapshot snap = parse_prometheus_text(text);
    QCOMPARE(snap.samples.size(), size_t(2));
    QCOMPARE(snap.samples[0].name, std::string("ok_one"));
    QCOMPARE(snap.samples[1].name, std::string("ok_two"));
    QCOMPARE(snap.issues.size(), size_t(7));
    QCOMPARE(snap.issues[0].line, 2);
    QVERIFY(snap.issues[0].message.find("unterminated") != std::string::npos);
    QCOMPARE(snap.issues[1].line, 3);
    QVERIFY(snap.issues[1].message.find("abc") != std::string::npos);
    QCOMPARE(snap.issues[3].line, 5);
    QVERIFY(snap.issues[3].message.find("nonsense") != std::string::npos);
    QCOMPARE(snap.issues[4].line, 6);
    QVERIFY(snap.issues[4].message.find("missing value") != std::string::npos);
    QCOMPARE(snap.issues[5].line, 7);
    QVERIFY(snap.issues[5].message.find("timestamp") != std::string::npos);
    QCOMPARE(snap.issues[6].line, 8);
  }
  void everyTruncationAndGarbageIsSurvived() {
    // A scrape cut anywhere (connection dropped) or filled with junk gives samples and issues,
    // never a crash; every issue points at a line that exists.
    const std::string text = read_wire_fixture("vllm_metrics.prom");
    for (size_t n = 0; n <= text.size(); n += 7) {
      const PrometheusSnapshot snap = parse_prometheus_text(std::string_view(text).substr(0, n));
      const auto lines = std::count(text.begin(), text.begin() + long(n), '\n') + 1;
      for (const auto& issue : snap.issues) QVERIFY(issue.line >= 1 && issue.line <= lines);
    }
    // The modulus comes from the alphabet: a literal 27 for these 25 characters read past the
    // array (UBSan: index 26 out of bounds) and fed NUL bytes in as junk.
    constexpr std::string_view alphabet = "{}\"\\=, \n#abc:_9+-.eInfNa\t";
    std::string junk;
    uint32_t x = 12345;
    for (int i = 0; i < 20000; ++i) {
      x = x * 1103515245u + 12345u;
      junk.push_back(alphabet[(x >> 16) % alphabet.size()]);
    }
    const PrometheusSnapshot snap = parse_prometheus_text(junk);
    QVERIFY(!snap.issues.empty());
  }
  void histogramAndSummarySuffixes() {
    const std::string text =
        "# TYPE h histogram\n"
        "h_bucket{le=\"0.5\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 0.9\nh_count 2\n"
        "# TYPE s summary\n"
        "s{quantile=\"0.5\"} 0.1\ns_sum 3\ns_count 7\n";
    const PrometheusSnapshot snap = parse_prometheus_text(text);
    QVERIFY(snap.issues.empty());
    for (const auto& s : snap.samples) {
      QVERIFY2(s.family == "h" || s.family == "s", s.name.c_str());
    }
    QCOMPARE(snap.type_of_family("s"), MetricType::Summary);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(PrometheusTextTest)
#include "metrics_prometheus_text_test.moc"
