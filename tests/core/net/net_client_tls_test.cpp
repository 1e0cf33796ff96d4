// TLS: verification is on by default, a per-request CA bundle makes a private CA trusted, the
// insecure switch skips verification, and a wrong CA is a clear Tls error.
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include "test_main.h"

#include "core/net/stream_client.h"
#include "replay_server.h"
#include "tls_frontend.h"

using namespace lb::net;
using namespace lb::test;

namespace {

const std::vector<std::string> kStream = {
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"secure\"}}]}\n\n",
    "data: [DONE]\n\n"};

}  // namespace

class TestClientTls : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QTemporaryDir other_dir_;
  TestCertificate cert_;
  TestCertificate other_cert_;
  std::unique_ptr<ReplayServer> server_;
  std::unique_ptr<TlsFrontend> tls_;
  StreamClient client_;

  HttpRequest request() const {
    HttpRequest r;
    r.url = "https://127.0.0.1:" + std::to_string(tls_->port()) + "/v1/chat/completions";
    r.body = std::make_shared<const std::string>("{}");
    r.timeouts.first_byte_ms = 5000;
    return r;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid() && other_dir_.isValid());
    cert_ = make_self_signed_certificate(dir_.path().toStdString());
    other_cert_ = make_self_signed_certificate(other_dir_.path().toStdString());
    server_ =
        std::make_unique<ReplayServer>([](const ServedRequest&) { return sse_script(kStream, 0); });
    tls_ = std::make_unique<TlsFrontend>(server_->port(), cert_);
  }

  void verificationIsOnByDefault() {
    const auto r = client_.fetch(request());
    QCOMPARE(r.error, ErrorKind::Tls);
    QVERIFY2(r.error_message.find("TLS certificate verification failed") == 0,
             r.error_message.c_str());
    QVERIFY(r.content.empty());
  }

  void caBundleMakesItTrusted() {
    auto req = request();
    req.tls.ca_bundle_path = cert_.cert_path;
    const auto r = client_.fetch(req);
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("secure"));
    QCOMPARE(r.http_version_used, std::string("1.1"));  // Auto offered h2; the server said no
  }

  void wrongCaIsATlsError() {
    auto req = request();
    req.tls.ca_bundle_path = other_cert_.cert_path;
    QCOMPARE(client_.fetch(req).error, ErrorKind::Tls);
  }

  void insecureSwitchSkipsVerification() {
    auto req = request();
    req.tls.verify = false;
    const auto r = client_.fetch(req);
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("secure"));
  }

  void alpnNegotiatesHttp2AndMultiplexes() {
    TlsFrontend h2_tls(server_->port(), cert_, /*offer_h2=*/true);
    const size_t before = server_->connections_accepted();
    constexpr int kStreams = 20;
    std::atomic<int> ok{0}, done{0};
    for (int i = 0; i < kStreams; ++i) {
      auto req = request();
      req.url = "https://127.0.0.1:" + std::to_string(h2_tls.port()) + "/v1/chat/completions";
      req.tls.ca_bundle_path = cert_.cert_path;
      req.http_version = HttpVersion::Auto;  // offers h2 and http/1.1 by ALPN
      client_.submit(req, [&](StreamResult&& r) {
        if (r.error == ErrorKind::None && r.http_version_used == "2" && r.content == "secure") ++ok;
        ++done;
      });
    }
    QTRY_COMPARE_WITH_TIMEOUT(done.load(), kStreams, 10000);
    QCOMPARE(ok.load(), kStreams);
    // All streams multiplexed on one connection (PIPEWAIT; reuse works over TLS even with
    // libcurl 7.88).
    QCOMPARE(server_->connections_accepted() - before, size_t(1));
  }

  void missingCaFileIsATlsError() {
    auto req = request();
    req.tls.ca_bundle_path = dir_.path().toStdString() + "/does-not-exist.pem";
    const auto r = client_.fetch(req);
    QCOMPARE(r.error, ErrorKind::Tls);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestClientTls)
#include "net_client_tls_test.moc"
