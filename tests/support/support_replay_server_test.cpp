// Checks the loopback replay server itself with plain libcurl: bytes on the wire are the
// fixture's bytes, send times are recorded per piece, keep-alive reuses the connection, error
// scripts carry their headers, and stalled or silent responses do not block other connections.
#include <curl/curl.h>

#include <QtTest>

#include <chrono>
#include <string>
#include "test_main.h"

#include "replay_server.h"

using namespace lb::test;

namespace {

struct Fetched {
  long status = 0;
  std::string body;
  std::string headers;
  CURLcode code = CURLE_OK;
};

size_t append(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

Fetched fetch(CURL* curl, const std::string& url, long timeout_ms = 5000) {
  Fetched f;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &f.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, append);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &f.headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  f.code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &f.status);
  return f;
}

}  // namespace

class TestReplayServer : public QObject {
  Q_OBJECT
 private slots:
  void splitsFixturesLosslessly() {
    const std::string bytes = load_fixture("wire/sse_edge_crlf_ping.sse");
    const auto pieces = split_sse_events(bytes);
    std::string joined;
    for (const auto& p : pieces) joined += p;
    QCOMPARE(joined, bytes);
    QVERIFY(pieces.size() >= 5);
    for (size_t i = 0; i + 1 < pieces.size(); ++i) {
      QVERIFY(pieces[i].size() >= 2);
      QCOMPARE(pieces[i].substr(pieces[i].size() - 2), std::string("\r\n"));
    }
    const auto cr_pieces = split_sse_events("data: a\r\rdata: b\r\r");
    QCOMPARE(cr_pieces.size(), size_t(2));
  }

  void replaysVerbatimWithSendTimes() {
    const std::string bytes = load_fixture("wire/vllm_chat_stream.sse");
    const auto pieces = split_sse_events(bytes);
    ReplayServer server([&](const ServedRequest&) { return sse_script(pieces, 1000); });
    CURL* curl = curl_easy_init();
    const auto t0 = std::chrono::steady_clock::now();
    Fetched first = fetch(curl, server.url("/v1/chat/completions"));
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    QCOMPARE(first.code, CURLE_OK);
    QCOMPARE(first.status, 200L);
    QCOMPARE(first.body, bytes);
    QVERIFY(elapsed >= std::chrono::microseconds(1000 * pieces.size()));
    Fetched second = fetch(curl, server.url("/again"));
    QCOMPARE(second.body, bytes);
    curl_easy_cleanup(curl);

    QVERIFY(server.wait_for_finished(2, std::chrono::seconds(2)));
    const auto log = server.served();
    QCOMPARE(log.size(), size_t(2));
    QCOMPARE(log[1].target, std::string("/again"));
    QCOMPARE(log[0].connection, log[1].connection);  // keep-alive
    QCOMPARE(log[0].sent.size(), pieces.size());
    QCOMPARE(log[0].sent.back().body_end, bytes.size());
    for (size_t i = 1; i < log[0].sent.size(); ++i) {
      QVERIFY(log[0].sent[i].sent_ns - log[0].sent[i - 1].sent_ns >= 1'000'000);
      QVERIFY(log[0].sent[i].write_start_ns >= log[0].sent[i - 1].sent_ns);
    }
    for (const auto& piece : log[0].sent) {
      QVERIFY(piece.write_start_ns > 0 && piece.write_start_ns <= piece.sent_ns);
    }
    QCOMPARE(log[0].sent_ns_for_offset(0), log[0].sent[0].sent_ns);
    QCOMPARE(log[0].sent_ns_for_offset(bytes.size()), int64_t(-1));
  }

  void errorScriptCarriesHeaders() {
    ReplayServer server([](const ServedRequest&) {
      return error_script(429, R"({"error":"slow down"})", {{"Retry-After", "2"}});
    });
    CURL* curl = curl_easy_init();
    Fetched f = fetch(curl, server.url("/x"));
    curl_easy_cleanup(curl);
    QCOMPARE(f.status, 429L);
    QCOMPARE(f.body, std::string(R"({"error":"slow down"})"));
    QVERIFY(f.headers.find("Retry-After: 2\r\n") != std::string::npos);
  }

  void silentAndClosingScripts() {
    ReplayServer server([](const ServedRequest& r) {
      ResponseScript s = sse_script({"data: {}\n\n", "data: {}\n\n"}, 0);
      if (r.target == "/never") s.never_answer = true;
      if (r.target == "/close") s.ending = Ending::CloseMidStream;
      return s;
    });
    CURL* curl = curl_easy_init();
    Fetched never = fetch(curl, server.url("/never"), 300);
    QCOMPARE(never.code, CURLE_OPERATION_TIMEDOUT);
    Fetched closed = fetch(curl, server.url("/close"));
    QVERIFY(closed.code != CURLE_OK);  // chunked body without its terminal chunk
    QCOMPARE(closed.body, std::string("data: {}\n\ndata: {}\n\n"));
    Fetched ok = fetch(curl, server.url("/ok"));
    QCOMPARE(ok.code, CURLE_OK);
    curl_easy_cleanup(curl);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestReplayServer)
#include "support_replay_server_test.moc"
