// Security: a URL from a plan, a probe command or a server reaches only http and https. libcurl
// speaks many other protocols (gopher, dict, telnet, file, ...); gopher:// delivered raw bytes to
// a TCP port and dict:// sent commands through `lanebench-cli probe`. Every transfer is limited
// to http and https, redirects included, and the refusal happens before any connection.
#include <QtTest>

#include "test_main.h"

#include "loopback_listener.h"

#include "core/net/printable_text.h"
#include "core/net/stream_client.h"

using namespace lb::net;

class NetProtocolsTest : public QObject {
  Q_OBJECT
 private slots:
  void onlyHttpAndHttpsAreSpoken() {
    lb::test::LoopbackListener listener;
    StreamClient client;
    for (const char* scheme : {"gopher", "dict", "telnet", "ftp", "smtp", "ldap"}) {
      HttpRequest r;
      r.url = std::string(scheme) + "://127.0.0.1:" + std::to_string(listener.port()) + "/x";
      r.timeouts.connect_ms = 2'000;
      r.timeouts.total_ms = 5'000;
      const StreamResult result = client.fetch(r);
      QVERIFY2(result.error != ErrorKind::None, scheme);
      QVERIFY2(!listener.was_connected(), scheme);
    }
    HttpRequest file;
    file.url = "file:///etc/passwd";
    const StreamResult read = client.fetch(file);
    QVERIFY(read.error != ErrorKind::None);
    QVERIFY(read.body.find("root:") == std::string::npos);
  }

  // Text from a server or a plan shown on a terminal: no escape sequence survives.
  void controlCharactersNeverReachATerminal() {
    using lb::net::printable_line;
    using lb::net::printable_text;
    QCOMPARE(printable_text("a\x1b[2Kb\rc\nd\te\x7f"), std::string("a?[2Kb?c\nd\te?"));
    QCOMPARE(printable_line("a\nb\tc"), std::string("a?b?c"));
    QCOMPARE(printable_text("csi \xc2\x9b"
                            "31m, osc \x1b]52;c;aGk=\x07"),
             std::string("csi ?31m, osc ?]52;c;aGk=?"));
    QCOMPARE(printable_text("Qwen3 \xc3\xa9t\xc3\xa9 \xe2\x9c\x93"),
             std::string("Qwen3 \xc3\xa9t\xc3\xa9 \xe2\x9c\x93"));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(NetProtocolsTest)
#include "net_protocols_test.moc"
