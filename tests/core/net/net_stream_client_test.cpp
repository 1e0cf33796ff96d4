// StreamClient end to end against the loopback replay server: every fixture replayed with
// controlled delays gives the same result as parsing its bytes, and each event's arrival time
// matches the server's own send time; requests reuse connections and run concurrently.
#include <curl/curl.h>

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include "test_main.h"

#include "core/net/stream_client.h"
#include "fixture_streams.h"
#include "replay_server.h"
#include "result_fingerprint.h"
#include "timing_slack.h"

using namespace lb::net;
using namespace lb::net::testing;
using namespace lb::test;

namespace {

// Extra room on upper timing bounds when instrumented (timing_slack.h).
using lb::test::slack_ms;
const auto slack_ns = static_cast<int64_t>(slack_ms * 1e6);

constexpr int64_t kPieceDelayUs = 2000;

HttpRequest stream_request(const std::string& url, Dialect dialect = Dialect::OpenAiChat) {
  HttpRequest r;
  r.url = url;
  r.dialect = dialect;
  r.body = std::make_shared<const std::string>(R"({"model":"m","stream":true})");
  r.timeouts.first_byte_ms = 10'000;
  r.timeouts.idle_ms = 10'000;
  return r;
}

// For each output event of a fixture, the index of the server piece that completed it.
std::vector<size_t> event_piece_index(Dialect dialect, const std::vector<std::string>& pieces) {
  StreamResult result;
  StreamParser parser(dialect, 8 << 20, result);
  for (size_t i = 0; i < pieces.size(); ++i) parser.feed(pieces[i], static_cast<int64_t>(i));
  parser.finish(static_cast<int64_t>(pieces.size() - 1));
  std::vector<size_t> out;
  for (const auto& e : result.events) out.push_back(static_cast<size_t>(e.arrival_ns));
  return out;
}

bool curl_reuses_prior_knowledge() {
  return curl_version_info(CURLVERSION_NOW)->version_num >= 0x080000;
}

std::vector<std::string> pieces_for(const FixtureStream& f) {
  const std::string bytes = fixture_wire_bytes(f);
  return f.dialect == Dialect::OllamaChat ? split_lines(bytes) : split_sse_events(bytes);
}

}  // namespace

class TestStreamClient : public QObject {
  Q_OBJECT

  void replayEveryFixture(HttpVersion version, const std::string& expect_version) {
    std::map<std::string, std::vector<std::string>> by_target;
    for (const auto& f : fixture_streams()) by_target["/" + std::string(f.file)] = pieces_for(f);
    ReplayServer server([&](const ServedRequest& req) {
      return sse_script(by_target.at(req.target), kPieceDelayUs);
    });
    StreamClient client;
    std::vector<double> errors_ms, sent_to_received_ms;
    for (const auto& f : fixture_streams()) {
      server.clear_served();
      auto request = stream_request(server.url("/" + std::string(f.file)), f.dialect);
      request.http_version = version;
      const auto result = client.fetch(request);
      const auto expected = parse_split(f.dialect, fixture_wire_bytes(f), {});
      if (fingerprint(result) != fingerprint(expected)) {
        QFAIL(qPrintable(QString("%1 over HTTP %2:\n%3\nexpected:\n%4")
                             .arg(f.file, expect_version.c_str(), fingerprint(result).c_str(),
                                  fingerprint(expected).c_str())));
      }
      QCOMPARE(result.http_status, 200);
      QCOMPARE(result.http_version_used, expect_version);
      QVERIFY(server.wait_for_finished(1, std::chrono::seconds(5)));
      const ServedRequest served = server.served().at(0);
      // t_sent is when the request head left; the server cannot have it complete before that.
      QVERIFY(result.t_submit_ns <= result.t_sent_ns);
      QVERIFY(result.t_sent_ns <= served.received_ns);
      sent_to_received_ms.push_back((served.received_ns - result.t_sent_ns) / 1e6);
      QVERIFY(served.received_ns - result.t_sent_ns < 20'000'000 + slack_ns);
      const auto piece_of_event =
          event_piece_index(f.dialect, by_target["/" + std::string(f.file)]);
      QCOMPARE(piece_of_event.size(), result.events.size());
      for (size_t i = 0; i < result.events.size(); ++i) {
        const SentPiece& piece = served.sent.at(piece_of_event[i]);
        const double err_ms = (result.events[i].arrival_ns - piece.sent_ns) / 1e6;
        // The server stamps after its write returns; a thread preempted between the two on a
        // loaded machine stamps late, so an arrival may precede the stamp, but never the start of
        // the write. The median below is what holds the client to sub-millisecond accuracy.
        QVERIFY2(result.events[i].arrival_ns >= piece.write_start_ns,
                 qPrintable(QString("%1 event %2 before the write began").arg(f.file).arg(i)));
        QVERIFY2(err_ms < 25.0 + slack_ms,
                 qPrintable(QString("%1 event %2: %3 ms").arg(f.file).arg(i).arg(err_ms)));
        errors_ms.push_back(err_ms);
      }
    }
    std::sort(errors_ms.begin(), errors_ms.end());
    const double median = errors_ms[errors_ms.size() / 2];
    qInfo("arrival - server send over %zu events: median %.3f ms, max %.3f ms", errors_ms.size(),
          median, errors_ms.back());
    QVERIFY(median < 2.0);
    std::sort(sent_to_received_ms.begin(), sent_to_received_ms.end());
    qInfo("t_sent -> server has the request: median %.3f ms",
          sent_to_received_ms[sent_to_received_ms.size() / 2]);
    if (version != HttpVersion::Http2 || curl_reuses_prior_knowledge()) {
      QCOMPARE(server.connections_accepted(), size_t(1));  // one connection, reused throughout
    }
  }

 private slots:
  void replaysEveryFixtureWithServerTimes() { replayEveryFixture(HttpVersion::Auto, "1.1"); }
  void replaysEveryFixtureOverHttp2() { replayEveryFixture(HttpVersion::Http2, "2"); }

  void http2MultiplexesConcurrentStreams() {
    const auto pieces = pieces_for({"vllm_chat_stream.sse", Dialect::OpenAiChat});
    ReplayServer server([&](const ServedRequest& req) {
      ResponseScript s = sse_script(pieces, 2000);
      if (req.target == "/cut") s.ending = Ending::CloseMidStream;
      return s;
    });
    StreamClient client;
    constexpr int kStreams = 50;
    std::atomic<int> ok{0}, done{0}, cut{0};
    for (int i = 0; i < kStreams; ++i) {
      auto request = stream_request(server.url(i % 10 == 9 ? "/cut" : "/ok"));
      request.http_version = HttpVersion::Http2;
      client.submit(request, [&](StreamResult&& r) {
        if (r.error == ErrorKind::None && r.events.size() == 7 && r.http_version_used == "2") ++ok;
        if (r.error == ErrorKind::Truncated) ++cut;
        ++done;
      });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), kStreams, 20000);
    QCOMPARE(ok.load(), kStreams - kStreams / 10);
    QCOMPARE(cut.load(), kStreams / 10);  // a reset stream does not disturb its neighbours
    // libcurl < 8.0 cannot reuse prior-knowledge connections; the client then opens one each.
    QCOMPARE(server.connections_accepted(),
             curl_reuses_prior_knowledge() ? size_t(1) : size_t(kStreams));
  }

  void ttftMatchesTheServersDelay() {
    // Role chunk at once, first content after 50 ms: TTFT is the content, not the role chunk.
    const std::vector<std::string> pieces = {
        "data: "
        "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n",
        "data: [DONE]\n\n"};
    ReplayServer server([&](const ServedRequest&) {
      ResponseScript s = sse_script(pieces, 0);
      s.pieces[1].delay_us = 50'000;
      return s;
    });
    StreamClient client;
    const auto r = client.fetch(stream_request(server.url("/v1/chat/completions")));
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.events.size(), size_t(1));
    const double ttft_ms = (r.events[0].arrival_ns - r.t_sent_ns) / 1e6;
    QVERIFY2(ttft_ms >= 50.0 && ttft_ms < 70.0 + slack_ms, qPrintable(QString::number(ttft_ms)));
    QCOMPARE(r.total_events, int64_t(2));
  }

  void splitAnywhereOnTheWire() {
    // The TCP-split fixture's stream cut at every byte into two writes 1 ms apart, and once
    // byte by byte: the result never changes.
    const FixtureStream f{"sse_edge_tcp_split.sse", Dialect::OpenAiChat};
    const std::string bytes = fixture_wire_bytes(f);
    const std::string expected = fingerprint(parse_split(f.dialect, bytes, {}));
    std::atomic<size_t> cut{0};
    ReplayServer server([&](const ServedRequest& req) {
      if (req.target == "/bytes") {
        std::vector<std::string> each;
        for (char c : bytes) each.emplace_back(1, c);
        return sse_script(each, 0);
      }
      return sse_script({bytes.substr(0, cut), bytes.substr(cut)}, 1000);
    });
    StreamClient client;
    for (size_t k = bytes.size() - 200; k <= bytes.size(); ++k) {  // the data region of the stream
      cut = k;
      QCOMPARE(fingerprint(client.fetch(stream_request(server.url("/split")))), expected);
    }
    QCOMPARE(fingerprint(client.fetch(stream_request(server.url("/bytes")))), expected);
  }

  void reusesConnectionsAndRunsConcurrently() {
    const auto pieces = pieces_for({"vllm_chat_stream.sse", Dialect::OpenAiChat});
    ReplayServer server([&](const ServedRequest&) { return sse_script(pieces, 1000); });
    StreamClient client;
    for (int i = 0; i < 3; ++i)
      QCOMPARE(client.fetch(stream_request(server.url("/a"))).error, ErrorKind::None);
    QCOMPARE(server.connections_accepted(), size_t(1));

    constexpr int kStreams = 100;
    std::atomic<int> ok{0}, done{0}, observed{0};
    for (int i = 0; i < kStreams; ++i) {
      client.submit(
          stream_request(server.url("/b")),
          [&](StreamResult&& r) {
            if (r.error == ErrorKind::None && r.events.size() == 7) ++ok;
            ++done;
          },
          [&](uint64_t, const EventArrival&) { ++observed; });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), kStreams, 20000);
    QCOMPARE(ok.load(), kStreams);
    QCOMPARE(observed.load(), kStreams * 7);
    QCOMPARE(client.in_flight(), size_t(0));
  }

  void manyStreamsAtOnceReuseTheirConnectionsInTheNextBurst() {
    // 300 HTTP/1.1 streams submitted at once (each waits 1 s for its first byte), so the client
    // holds hundreds of connections, spread over several connection pools; a second burst of 300
    // once those are done must find its connections again, open no new one and lose no stream.
    // Then 200 streams that never answer are cancelled together: each ends Cancelled.
    const auto pieces = pieces_for({"vllm_chat_stream.sse", Dialect::OpenAiChat});
    ReplayServer server([&](const ServedRequest& req) {
      ResponseScript s = sse_script(pieces, 0);
      s.header_delay_us = req.target == "/never" ? 60'000'000 : 1'000'000;
      return s;
    });
    StreamClient client;
    constexpr int kStreams = 300;
    std::atomic<int> ok{0}, done{0};
    const auto burst = [&] {
      for (int i = 0; i < kStreams; ++i) {
        client.submit(stream_request(server.url("/b")), [&](StreamResult&& r) {
          if (r.error == ErrorKind::None && r.events.size() == 7) ++ok;
          ++done;
        });
      }
    };
    burst();
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), kStreams, 30000);
    QCOMPARE(ok.load(), kStreams);
    const size_t first_burst = server.connections_accepted();
    QVERIFY2(first_burst > 128 && first_burst <= size_t(kStreams),  // more than two pools' worth
             qPrintable(QString::number(first_burst)));
    burst();
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), 2 * kStreams, 30000);
    QCOMPARE(ok.load(), 2 * kStreams);
    QCOMPARE(server.connections_accepted(), first_burst);  // every one reused

    constexpr int kStalled = 200;
    std::atomic<int> cancelled{0}, stalled_done{0};
    for (int i = 0; i < kStalled; ++i) {
      client.submit(stream_request(server.url("/never")), [&](StreamResult&& r) {
        if (r.error == ErrorKind::Cancelled) ++cancelled;
        ++stalled_done;
      });
    }
    QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(server.served().size()), 2 * kStreams + kStalled,
                              20000);
    client.cancel_all();
    QTRY_COMPARE_WITH_TIMEOUT(stalled_done.load(), kStalled, 10000);
    QCOMPARE(cancelled.load(), kStalled);
    QCOMPARE(client.in_flight(), size_t(0));
  }

  void autoOverPlainHttpSendsWithoutWaitingForBusyConnections() {
    // With "Auto" over http://, a second request submitted while the first (on the only
    // connection) still waits for its first byte goes out at once on a new connection; it must
    // not wait for the busy one to say whether it multiplexes, which would shift open-loop send
    // times behind slow responses.
    ReplayServer server([](const ServedRequest& req) {
      ResponseScript s =
          sse_script({"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\n",
                      "data: [DONE]\n\n"},
                     0);
      if (req.target == "/slow") s.header_delay_us = 400'000;
      return s;
    });
    StreamClient client;
    std::atomic<int> done{0};
    StreamResult fast;
    client.submit(stream_request(server.url("/slow")), [&](StreamResult&&) { ++done; });
    QTest::qWait(20);
    const int64_t submitted_ns = std::chrono::steady_clock::now().time_since_epoch().count();
    client.submit(stream_request(server.url("/fast")), [&](StreamResult&& r) {
      fast = std::move(r);
      ++done;
    });
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), 2, 5000);
    QCOMPARE(fast.error, ErrorKind::None);
    const double send_delay_ms = (fast.t_sent_ns - submitted_ns) / 1e6;
    QVERIFY2(send_delay_ms < 100.0 + slack_ms,
             qPrintable(QString("sent %1 ms after submit").arg(send_delay_ms)));
  }

  void transfersBeyondTheLimitWaitTheirTurn() {
    // Each stream takes about 7 pieces x 5 ms: with two at a time, the later ones start only as
    // earlier ones finish, in order, and none fails.
    const auto pieces = pieces_for({"vllm_chat_stream.sse", Dialect::OpenAiChat});
    ReplayServer server([&](const ServedRequest&) { return sse_script(pieces, 5000); });
    ClientOptions options;
    options.max_transfers = 2;
    StreamClient client(options);
    constexpr int kStreams = 6;
    std::mutex mutex;
    std::vector<StreamResult> results;
    std::vector<uint64_t> ids;
    for (int i = 0; i < kStreams; ++i)
      ids.push_back(client.submit(stream_request(server.url("/a")), [&](StreamResult&& r) {
        std::lock_guard lock(mutex);
        results.push_back(std::move(r));
      }));
    // The last one is cancelled while it waits: it completes as cancelled, never sent.
    client.cancel(ids.back());
    QTRY_COMPARE_WITH_TIMEOUT(client.in_flight(), size_t(0), 20000);
    std::lock_guard lock(mutex);
    QCOMPARE(results.size(), size_t(kStreams));
    std::vector<std::pair<int64_t, int64_t>> spans;  // sent, done of the ones that ran
    for (const auto& r : results) {
      if (r.id == ids.back()) {
        QCOMPARE(r.error, ErrorKind::Cancelled);
        QCOMPARE(r.t_sent_ns, int64_t(0));
        continue;
      }
      QCOMPARE(r.error, ErrorKind::None);
      spans.emplace_back(r.t_sent_ns, r.t_done_ns);
    }
    // At no moment were more than two under way.
    for (const auto& [sent, done] : spans) {
      int overlapping = 0;
      for (const auto& [s2, d2] : spans) overlapping += s2 <= sent && sent < d2;
      QVERIFY2(overlapping <= 2, std::to_string(overlapping).c_str());
    }
    QVERIFY(server.connections_accepted() <= 2);
    // Left to itself the limit follows the descriptor limit, well above a handful.
    QVERIFY(lb::net::default_max_transfers() >= 64);
  }

  void plainBodiesAreCollected() {
    ReplayServer server([](const ServedRequest& req) {
      ResponseScript s = error_script(200, "{\"version\":\"0.11.0\"}");
      if (req.method != "GET") s.status = 405;
      return s;
    });
    StreamClient client;
    HttpRequest r;
    r.url = server.url("/version");
    r.method = "GET";
    r.dialect = Dialect::PlainJson;
    const auto result = client.fetch(r);
    QCOMPARE(result.error, ErrorKind::None);
    QCOMPARE(result.body, std::string("{\"version\":\"0.11.0\"}"));
    QVERIFY(result.events.empty());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestStreamClient)
#include "net_stream_client_test.moc"
