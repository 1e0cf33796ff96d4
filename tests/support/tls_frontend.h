#pragma once
// TlsFrontend: a TLS-terminating pipe in front of a plain loopback server, so the replay server's
// scripts can be served over https to test certificate verification, CA bundles and the
// insecure switch. Bytes are forwarded both ways unchanged; ground-truth send times remain the
// plain server's (taken as it hands bytes to the pipe, a few microseconds earlier).
#include <cstdint>
#include <memory>
#include <string>

namespace lb::test {

// A self-signed certificate for 127.0.0.1 and localhost (EC P-256, valid one day), written as
// PEM files into `dir`. The certificate is its own CA: pass cert_path as a client's CA bundle.
struct TestCertificate {
  std::string cert_path;
  std::string key_path;
};
TestCertificate make_self_signed_certificate(const std::string& dir);

class TlsFrontend {
 public:
  // With offer_h2, ALPN selects "h2" when the client offers it and the pipe carries HTTP/2 to
  // the backend, which recognises the HTTP/2 preface (see ReplayServer).
  TlsFrontend(uint16_t backend_port, const TestCertificate& certificate, bool offer_h2 = false);
  ~TlsFrontend();
  TlsFrontend(const TlsFrontend&) = delete;
  TlsFrontend& operator=(const TlsFrontend&) = delete;

  uint16_t port() const;
  size_t handshakes_failed() const;  // clients that refused our certificate, among others

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lb::test
