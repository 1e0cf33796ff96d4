// data: URLs: base64 both ways, and no data: URL in what the client hands back, even when a
// server's refusal quotes the image it was sent (the error keeps the image's size and hash).
#include <QtTest>

#include "test_main.h"

#include "core/net/data_url.h"
#include "core/net/stream_client.h"
#include "replay_server.h"

using namespace lb::net;
using namespace lb::test;

namespace {

std::string sample_bytes(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += static_cast<char>((i * 37 + 11) & 0xff);
  return out;
}

}  // namespace

class TestDataUrl : public QObject {
  Q_OBJECT
 private slots:
  void base64RoundTripsEveryLength() {
    for (size_t n : {0, 1, 2, 3, 4, 5, 255, 1000}) {
      const std::string bytes = sample_bytes(n);
      const std::string text = base64_encode(bytes);
      QCOMPARE(text.size(), 4 * ((n + 2) / 3));
      const auto back = base64_decode(text);
      QVERIFY(back.has_value());
      QCOMPARE(*back, bytes);
    }
    QCOMPARE(base64_encode("Man"), std::string("TWFu"));
    QCOMPARE(base64_encode("Ma"), std::string("TWE="));
    QVERIFY(!base64_decode("TWE").has_value());   // not a multiple of 4
    QVERIFY(!base64_decode("TW!u").has_value());  // not the alphabet
    QCOMPARE(sha256_hex("abc"),
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  }

  void redactionKeepsSizeAndHashOnly() {
    const std::string bytes = sample_bytes(300);
    const std::string url = data_url("image/png", bytes);
    QVERIFY(url.rfind("data:image/png;base64,", 0) == 0);
    const std::string text = "bad image " + url + " in messages[0]";
    QVERIFY(contains_data_url(text));
    const std::string out = redact_data_urls(text);
    QVERIFY2(!contains_data_url(out), out.c_str());
    QVERIFY(out.find(base64_encode(bytes).substr(0, 40)) == std::string::npos);
    QVERIFY2(out.find("data:image/png;base64,[redacted: 300 bytes, sha256 " + sha256_hex(bytes) +
                      "]") != std::string::npos,
             out.c_str());
    QVERIFY(out.rfind("bad image ", 0) == 0);
    QCOMPARE(redact_data_urls(out), out);  // redacting twice changes nothing
    QVERIFY(out.find(" in messages[0]") != std::string::npos);
    // A payload cut short (a server quoting the first 100 characters) is still redacted.
    const std::string cut = "got " + url.substr(0, 100) + "...";
    const std::string cut_out = redact_data_urls(cut);
    QVERIFY2(!contains_data_url(cut_out), cut_out.c_str());
    QVERIFY2(cut_out.find("characters, sha256") != std::string::npos, cut_out.c_str());
    // Text that only looks like the start of one stays as it is.
    for (const std::string plain : {"data: {\"a\":1}", "metadata:x", "data:image/png no comma"})
      QCOMPARE(redact_data_urls(plain), plain);
  }

  void aRefusalQuotingTheImageReachesNoRecord() {
    const std::string bytes = sample_bytes(5000);
    const std::string url = data_url("image/jpeg", bytes);
    ReplayServer server([&](const ServedRequest&) {
      const std::string message = "Invalid image: " + url;
      return error_script(400, "{\"error\":{\"message\":\"" + message +
                                   "\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}}");
    });
    StreamClient client;
    HttpRequest req;
    req.url = server.url("/v1/chat/completions");
    req.body =
        std::make_shared<const std::string>("{\"messages\":[{\"content\":\"" + url + "\"}]}");
    const StreamResult r = client.fetch(std::move(req));
    QCOMPARE(r.http_status, 400);
    QCOMPARE(r.error, ErrorKind::HttpStatus);
    QVERIFY2(!contains_data_url(r.error_message), r.error_message.c_str());
    QVERIFY2(!contains_data_url(r.body), r.body.c_str());
    QVERIFY2(r.error_message.find("5000 bytes, sha256 " + sha256_hex(bytes)) != std::string::npos,
             r.error_message.c_str());
    QVERIFY(r.error_message.find("Invalid image") != std::string::npos);
    // The server did get the image.
    QCOMPARE(server.served().size(), size_t{1});
    QVERIFY(server.served()[0].body.find(url) != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestDataUrl)
#include "net_data_url_test.moc"
