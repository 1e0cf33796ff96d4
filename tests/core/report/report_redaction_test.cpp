// Redaction of text from elsewhere: a texts file, a server's error, a lane note. Every pattern
// runs in linear time (RE2): std::regex overflowed the stack and crashed `lanebench-cli report`
// (SIGSEGV) on "token=" + 30,000 characters in a texts file, on "sk-" + 64 KiB served by a lane
// and on a 300 KB lane note. What is redacted stays what it was.
#include <QtTest>

#include "test_main.h"

#include "core/net/secret_text.h"
#include "core/report/html_report.h"
#include "core/report/markdown_report.h"
#include "core/report/privacy_scrub.h"
#include "core/report/private_patterns.h"
#include "core/report/requests_csv.h"

using lb::net::redact_secret_text;
using lb::report::PrivacyScrubber;

class ReportRedactionTest : public QObject {
  Q_OBJECT
 private slots:
  void hugeSecretLikeTokensAreRedactedWithoutCrashing() {
    QCOMPARE(redact_secret_text("token=" + std::string(30'000, 'x'), {}),
             std::string("[redacted]"));
    QCOMPARE(redact_secret_text("sk-" + std::string(64 * 1024, 'k') + " end", {}),
             std::string("[redacted] end"));
    QCOMPARE(redact_secret_text("Bearer " + std::string(100'000, 'b'), {}),
             std::string("[redacted]"));
    const auto findings =
        lb::net::secret_text_findings("password: " + std::string(50'000, 'p'), {});
    QCOMPARE(findings, std::vector<std::string>{"credential assignment"});
  }

  void secretsAreRedactedAsBefore() {
    QCOMPARE(redact_secret_text("Incorrect API key provided: sk-abc123456789. Try again", {}),
             std::string("Incorrect API key provided: [redacted]. Try again"));
    QCOMPARE(redact_secret_text("auth Bearer abcdefgh12 ok; api_key = hunter22, x", {}),
             std::string("auth [redacted] ok; [redacted], x"));
    QCOMPARE(redact_secret_text("my-literal-key-value and MY-LITERAL-KEY-VALUE",
                                {"my-literal-key-value"}),
             std::string("[redacted] and [redacted]"));
    // Names that only look like words around a key are left alone.
    QCOMPARE(redact_secret_text("Streaming integrity pass 3/3; tokens: 128; skip-it", {}),
             std::string("Streaming integrity pass 3/3; tokens: 128; skip-it"));
  }

  void aHugeLaneNoteIsScrubbedInPlace() {
    const PrivacyScrubber scrubber({}, {});
    const std::string note = std::string(300'000, 'a') + " on gpu7.cluster.internal at /home/u/x";
    const std::string out = scrubber.redact_private(note);
    QCOMPARE(out.substr(300'000), std::string(" on [redacted] at [redacted]"));
    QCOMPARE(scrubber.redact_private("https://" + std::string(300'000, 'h')),
             std::string("[redacted]"));
    QCOMPARE(scrubber.redact_private(std::string(100'000, '.') + "x"),
             std::string(100'000, '.') + "x");
  }

  // Outputs of the former std::regex patterns, kept.
  void privatePatternsRedactAsBefore() {
    const std::pair<const char*, const char*> cases[] = {
        {"see https://x.example.com/a?b=1 and 10.0.0.5, fe80::1, user@corp.example.com",
         "see [redacted] and [redacted], [redacted], [redacted]"},
        {"gpu-a.example.com:8000 /home/u/models/x report.json foo.bar-baz.json a.b2.json",
         "[redacted]:8000 [redacted] report.json [redacted]-baz.json a.b2.json"},
        {"time 12:30:45 and fe80:: end", "time 12:30:45 and [redacted] end"},
        {"file qwen3.safetensors and model.v2.gguf and run.sh at C:\\Users\\me\\x",
         "file qwen3.safetensors and model.v2.gguf and run.sh at [redacted]"},
        {"weights fp8, kv_cache fp8; Streaming integrity pass 3/3",
         "weights fp8, kv_cache fp8; Streaming integrity pass 3/3"},
        {"a.b.c.d.e.com.json", "[redacted].json"},
        {"(~/models/a) =/opt/x,y 'path' \"/var/lib/x\"",
         "([redacted] =[redacted],y 'path' \"[redacted]\""},
        {"1.2.3.4.5 999.1.1.1 256.255.255.255", "[redacted].5 999.1.1.1 256.255.255.255"},
        {"h1:h2:h3:h4:h5 aa:bb:cc:dd:ee:ff 1:2:3:4", "h1:h2:h3:h4:h5 [redacted] 1:2:3:4"},
        {"vllm-0.11.0.dev1+g123.cu128 built on gpu7.cluster.internal",
         "vllm-0.11.0.dev1+g123.cu128 built on [redacted]"},
        {"@::~1::\\", "@[redacted]~[redacted]\\"},
        {"Jjne@~::9::.json", "Jjne@~[redacted]::.json"},
        {"x--y.example.org-z", "[redacted]-z"},
    };
    for (const auto& [in, expected] : cases)
      QCOMPARE(lb::report::redact_private_patterns(in), std::string(expected));
    QCOMPARE(lb::report::private_pattern_findings("at fe80::1 on a.example.com"),
             (std::vector<std::string>{"IPv6 address", "host name"}));
    QVERIFY(lb::report::private_pattern_findings("report.json, 12:30:45").empty());
  }

  // Case 14: Markdown wrote the title, lane notes, the server's model name and /version and
  // prompt ids raw: <script>, <img onerror> and remote images survived outside fences.
  void markdownShowsTextFromARunFolderAsText() {
    lb::report::ReportModel m;
    m.title = "<script>alert(1)</script>";
    m.lanes.push_back({"fp8](http://evil.example/x)",
                       "",
                       {{"weights", "<img src=x onerror=alert(1)>"}},
                       {{"model", "![p](http://evil.example/p.png)"}, {"version", "`x` | y"}}});
    m.reproduce_command = "lanebench-cli run plan.json ```\n<b>not code</b>";
    const std::string md = lb::report::render_markdown(m);
    // Before the fenced command, every character that could open a tag or a code span, or close
    // a link, is escaped.
    const std::string text = md.substr(0, md.find("## Reproduce"));
    for (size_t i = text.find_first_of("<`"); i != std::string::npos;
         i = text.find_first_of("<`", i + 1))
      QVERIFY2(i > 0 && text[i - 1] == '\\', text.substr(i, 40).c_str());
    for (const char* link : {"](", "]["})
      for (size_t i = text.find(link); i != std::string::npos; i = text.find(link, i + 1))
        QVERIFY2(i > 0 && text[i - 1] == '\\', text.substr(i, 40).c_str());
    QVERIFY2(md.find("\\<script\\>alert(1)\\</script\\>") != std::string::npos, md.c_str());
    QVERIFY2(md.find("\\`x\\` \\| y") != std::string::npos, md.c_str());
    QVERIFY2(md.find("````sh\n") != std::string::npos, "the fence outlasts the command's");
  }

  void csvCellsAreNeverFormulas() {
    using lb::report::csv_field;
    QCOMPARE(csv_field("=HYPERLINK(\"http://x\",\"y\")"),
             std::string("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""));
    for (const char* lead : {"+1", "-1+2", "@SUM(A1)", "\tx", "\rx"})
      QVERIFY2(csv_field(lead).rfind("\"'", 0) == 0, lead);
    QCOMPARE(csv_field("fp8"), std::string("fp8"));
    QCOMPARE(csv_field("a,b"), std::string("\"a,b\""));
  }

  void htmlReportLoadsAndRunsNothing() {
    lb::report::ReportModel m;
    m.title = "<script>alert(1)</script>";
    const std::string html = lb::report::render_html(m);
    QVERIFY(html.find("Content-Security-Policy") != std::string::npos);
    QVERIFY(html.find("default-src 'none'") != std::string::npos);
    QVERIFY(html.find("<script>") == std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(ReportRedactionTest)
#include "report_redaction_test.moc"
