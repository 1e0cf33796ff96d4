// Per-token logprobs from every dialect's documented shape: the tokens, logprobs, ids and top-K
// each fixture carries; odd values flagged, never fatal; the run-folder line format round trip.
#include <QtTest>

#include <cmath>

#include "core/logprobs/logprob_lines.h"
#include "core/logprobs/raw_logprobs.h"
#include "core/logprobs/wire_logprobs.h"
#include "fixture_streams.h"
#include "test_main.h"

using namespace lb::net;
using namespace lb::net::testing;
namespace lp = lb::logprobs;

namespace {

StreamResult parse_stream(const char* file) {
  for (const auto& f : fixture_streams()) {
    if (std::string(f.file) == file) return parse_split(f.dialect, fixture_wire_bytes(f), {});
  }
  throw std::runtime_error(std::string("unknown fixture ") + file);
}

StreamResult parse_body(const char* file, Dialect dialect) {
  StreamResult result;
  StreamParser parser(dialect, 8 << 20, result);
  parser.parse_document(lb::test::load_fixture(std::string("wire/") + file), 1);
  resolve_logprobs(result);
  return result;
}

std::string tokens_of(const lp::TokenSeries& s) {
  std::string out;
  for (const auto& t : s) out += "[" + t.token + "]";
  return out;
}

// The series as the readers see whole messages: every data line parsed, choice 0's logprobs
// read (the client reads cut-out values later; both must agree).
std::string whole_message_series(const char* file, bool completions) {
  const std::string bytes = lb::test::load_fixture(std::string("wire/") + file);
  lp::TokenSeries series;
  size_t at = 0;
  while (at < bytes.size()) {
    size_t end = bytes.find('\n', at);
    if (end == std::string::npos) end = bytes.size();
    const std::string line = bytes.substr(at, end - at);
    at = end + 1;
    if (line.rfind("data: {", 0) != 0) continue;
    const std::string data = line.substr(6);
    nlohmann::json j = nlohmann::json::parse(data, nullptr, false);
    if (std::string quoted; j.is_discarded() && lp::quote_nonfinite_literals(data, quoted))
      j = nlohmann::json::parse(quoted, nullptr, false);
    if (j.is_discarded() || !j.contains("choices") || j["choices"].empty()) continue;
    const auto& choice = j["choices"][0];
    if (!choice.contains("logprobs") || choice["logprobs"].is_null()) continue;
    if (completions) {
      lp::append_openai_completions(choice["logprobs"], series);
    } else {
      lp::append_openai_chat(choice["logprobs"], series);
    }
  }
  std::string out;
  for (const auto& t : series) {
    out += "[" + t.token + "|" + std::to_string(t.logprob) + "|" + std::to_string(t.id) + "|" +
           std::to_string(t.flags);
    for (const auto& a : t.top) out += "," + a.token + ":" + std::to_string(a.logprob);
    out += "]";
  }
  return out;
}

std::string series_text(const lp::TokenSeries& series) {
  std::string out;
  for (const auto& t : series) {
    out += "[" + t.token + "|" + std::to_string(t.logprob) + "|" + std::to_string(t.id) + "|" +
           std::to_string(t.flags);
    for (const auto& a : t.top) out += "," + a.token + ":" + std::to_string(a.logprob);
    out += "]";
  }
  return out;
}

}  // namespace

class TestLogprobs : public QObject {
  Q_OBJECT
 private slots:
  void vllmChatStreamGivesEveryTokenWithItsTopK() {
    StreamResult r = parse_stream("vllm_chat_stream_logprobs.sse");
    QVERIFY(r.logprobs_seen);
    QCOMPARE(tokens_of(r.logprobs), std::string("[The][ capital][ is][ Paris][.]"));
    QCOMPARE(r.logprobs[3].logprob, -0.0003);
    QCOMPARE(r.logprobs[3].top.size(), size_t(2));
    QCOMPARE(r.logprobs[3].top[1].token, std::string(" paris"));
    QCOMPARE(r.logprobs[3].top[1].logprob, -9.1);
    QCOMPARE(r.logprobs[3].id, int64_t(-1));  // this build sends no ids
  }

  void sglangChatStreamInItsKeyOrder() {
    StreamResult r = parse_stream("sglang_chat_stream_logprobs.sse");
    QCOMPARE(tokens_of(r.logprobs), std::string("[Yes][.]"));
    QCOMPARE(r.logprobs[0].logprob, -0.2877);
    QCOMPARE(r.logprobs[0].top[1].token, std::string("No"));
    QCOMPARE(r.finish_reason, std::string("stop"));
  }

  void llamacppKeepsIdsAndBytePieces() {
    StreamResult r = parse_stream("llamacpp_chat_stream_logprobs.sse");
    QCOMPARE(r.logprobs.size(), size_t(4));
    QCOMPARE(r.logprobs[0].id, int64_t(59604));
    QCOMPARE(r.logprobs[0].top[1].id, int64_t(791));
    // The euro sign arrives as two byte pieces; joined they spell the content.
    QCOMPARE(r.logprobs[2].token, std::string("\xe2\x82"));
    QCOMPARE(r.logprobs[2].token + r.logprobs[3].token, std::string("\xe2\x82\xac"));
    lp::normalize(r.logprobs, 2);
    QVERIFY(r.logprobs[2].flags & lp::kInvalidUtf8);
    QVERIFY(lp::usable(r.logprobs[2]));  // a byte piece is still a comparable token
    QCOMPARE(r.logprobs[0].flags, uint8_t(0));
  }

  void completionsStreamReadsTheTopLogprobMaps() {
    StreamResult r = parse_stream("vllm_completions_stream_logprobs.sse");
    QCOMPARE(tokens_of(r.logprobs), std::string("[ Paris][,][ which]"));
    lp::normalize(r.logprobs, 2);
    // The sampled token need not be the best: top is sorted best first.
    QCOMPARE(r.logprobs[2].top.size(), size_t(3));
    QCOMPARE(r.logprobs[2].top[0].token, std::string(" and"));
    QCOMPARE(r.logprobs[2].logprob, -2.4403);
  }

  void completionsEchoHasANullFirstPromptLogprob() {
    StreamResult r = parse_body("vllm_completions_logprobs_echo.json", Dialect::OpenAiCompletions);
    QCOMPARE(r.logprobs.size(), size_t(4));
    QVERIFY(r.logprobs[0].flags & lp::kMissingLogprob);
    QVERIFY(!lp::usable(r.logprobs[0]));
    QCOMPARE(r.logprobs[3].logprob, -0.0871);
  }

  // vLLM's prompt_logprobs of a token-id prompt: each position's own token under its id (even
  // far below the top-K), its alternatives those of rank 1 to K, odd values flagged.
  void vllmPromptLogprobsReadByTheSentIds() {
    const auto j = nlohmann::json::parse(
        lb::test::load_fixture("wire/vllm_completions_prompt_logprobs.json"), nullptr, false);
    QVERIFY(!j.is_discarded());
    lp::TokenSeries s;
    lp::append_vllm_prompt_logprobs(j["choices"][0]["prompt_logprobs"], {791, 6864, 374, 12366}, 2,
                                    s);
    QCOMPARE(s.size(), size_t(4));
    QVERIFY(s[0].flags & lp::kMissingLogprob);  // the first token has no context
    QCOMPARE(s[1].id, int64_t(6864));
    QCOMPARE(s[1].token, std::string(" capital"));
    QCOMPARE(s[1].logprob, -6.120397567749023);
    QCOMPARE(s[1].top.size(), size_t(2));  // rank 812 is not in the top-2
    lp::normalize(s, 2);
    QCOMPARE(s[1].top[0].token, std::string(" first"));
    QCOMPARE(s[1].top[0].id, int64_t(1176));
    QCOMPARE(s[2].top[0].id, int64_t(315));
    QVERIFY(s[3].flags & lp::kNonFiniteLogprob);  // "NaN" stands for a value the server lost
    // Fewer entries than sent ids, and entries that are not objects: flagged, never a crash.
    lp::TokenSeries short_series;
    lp::append_vllm_prompt_logprobs(nlohmann::json::parse("[null, 3, {\"x\": {}}]"), {1, 2, 3, 4},
                                    5, short_series);
    QCOMPARE(short_series.size(), size_t(4));
    for (const auto& t : short_series) QVERIFY(t.flags & lp::kMissingLogprob);
    QVERIFY(short_series[2].flags & lp::kBadAlternative);
  }

  void ollamaNativeLogprobs() {
    StreamResult r = parse_stream("ollama_api_chat_logprobs.ndjson.txt");
    QCOMPARE(tokens_of(r.logprobs), std::string("[4][.]"));
    QCOMPARE(r.logprobs[0].top[1].token, std::string("Four"));
    QCOMPARE(r.logprobs[1].top[1].token, std::string(""));  // an empty piece (end of turn)
  }

  void tgiStreamSkipsSpecialTokensAndKeepsIds() {
    StreamResult r = parse_stream("tgi_generate_stream_top_tokens.sse");
    QCOMPARE(tokens_of(r.logprobs), std::string("[ a][ global]"));
    QCOMPARE(r.logprobs[1].id, int64_t(3645));
    QCOMPARE(r.logprobs[1].top[1].token, std::string(" large"));
    QCOMPARE(r.content, std::string(" a global"));
  }

  void tgiDetailsOfANonStreamedAnswer() {
    StreamResult r = parse_body("tgi_generate_details.json", Dialect::TgiGenerate);
    QCOMPARE(tokens_of(r.logprobs), std::string("[ a][ global]"));
    QCOMPARE(r.logprobs[0].top[1].id, int64_t(264));
  }

  void llamacppNativeCompletionProbabilitiesBothShapes() {
    StreamResult r =
        parse_body("llamacpp_completion_probabilities.json", Dialect::OpenAiCompletions);
    QCOMPARE(tokens_of(r.logprobs), std::string("[ Paris][.]"));
    QCOMPARE(r.logprobs[1].top[1].logprob, -1.2507);
    StreamResult legacy =
        parse_body("llamacpp_completion_probabilities_legacy.json", Dialect::OpenAiCompletions);
    QCOMPARE(legacy.logprobs.size(), size_t(1));
    QVERIFY(std::abs(legacy.logprobs[0].logprob - std::log(0.9596)) < 1e-9);
    QCOMPARE(legacy.logprobs[0].top.size(), size_t(2));
  }

  void oddValuesAreFlaggedAndTheStreamGoesOn() {
    StreamResult r = parse_stream("logprobs_bad_values.sse");
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("A b c."));
    lp::normalize(r.logprobs, 2);
    QCOMPARE(r.logprobs.size(), size_t(5));
    QVERIFY(r.logprobs[0].flags & lp::kNonFiniteLogprob);   // bare NaN
    QVERIFY(std::isinf(r.logprobs[0].top.back().logprob));  // -Infinity sorts last
    QVERIFY(r.logprobs[1].flags & lp::kMissingLogprob);
    QVERIFY(r.logprobs[1].flags & lp::kMissingTop);
    QVERIFY(r.logprobs[2].flags & lp::kShortTop);
    QVERIFY(lp::usable(r.logprobs[2]));
    QVERIFY(r.logprobs[3].flags & lp::kInvalidUtf8);
    QCOMPARE(r.logprobs[3].token, std::string("\xe2"));
    QVERIFY(r.logprobs[4].flags & lp::kBadAlternative);
    QCOMPARE(r.logprobs[4].top.size(), size_t(1));
    QCOMPARE(lp::describe_flags(r.logprobs[1].flags), std::string("missing_logprob,missing_top_k"));
  }

  void cutsOnlyLogprobsMembersAndCountsTheirTokens() {
    std::string out;
    std::vector<lp::CutValue> cuts;
    const std::string message =
        "{\"a\":\"x\\\"logprobs\\\":{\",\"choices\":[{\"logprobs\":{\"content\":[{\"token\":"
        "\"}\",\"top_logprobs\":[{\"token\":\"]\"}]},{\"token\":\"b\"}]},\"z\":1}]}";
    QVERIFY(lp::cut_logprobs(message, out, cuts));
    QCOMPARE(cuts.size(), size_t(1));
    QCOMPARE(cuts[0].entries, 2);
    QCOMPARE(out, std::string("{\"a\":\"x\\\"logprobs\\\":{\",\"choices\":[{\"logprobs\":0,"
                              "\"z\":1}]}"));
    QVERIFY(nlohmann::json::accept(out));
    QVERIFY(lp::cut_logprobs("{\"logprobs\":{\"content\":[]}}", out, cuts));
    QCOMPARE(cuts[0].entries, 0);
    QVERIFY(lp::cut_logprobs("{\"logprobs\" : {\"tokens\":[\"a\",\"b\",\"c\"],\"x\":[1,2]}}", out,
                             cuts));
    QCOMPARE(cuts[0].entries, 3);
    QCOMPARE(out, std::string("{\"logprobs\" : 0}"));
    QVERIFY(!lp::cut_logprobs("{\"logprobs\":null}", out, cuts));
    QVERIFY(!lp::cut_logprobs("{\"logprobs\":{\"content\":[", out, cuts));  // left open
    QVERIFY(cuts.empty());
    QVERIFY(!lp::cut_logprobs("{\"text\":\"logprobs\"}", out, cuts));
    // The scan jumps to the name; a quote in front of it that is escaped sits inside a string.
    QVERIFY(lp::cut_logprobs("{\"a\":\"\\\"logprobs\",\"logprobs\":{\"content\":[1]}}", out, cuts));
    QCOMPARE(out, std::string("{\"a\":\"\\\"logprobs\",\"logprobs\":0}"));
    QVERIFY(lp::cut_logprobs("{\"a\":\"logprobs\",\"logprobs\":{\"content\":[1,2]}}", out, cuts));
    QCOMPARE(out, std::string("{\"a\":\"logprobs\",\"logprobs\":0}"));
    QCOMPARE(cuts[0].entries, 2);
    QVERIFY(!lp::cut_logprobs("{\"\\\"logprobs\":{\"content\":[1]}}", out, cuts));  // other name
    QVERIFY(lp::cut_logprobs("{\"\\\"logprobs\":[],\"x\":{\"logprobs\":[1]}}", out, cuts));
    QCOMPARE(out, std::string("{\"\\\"logprobs\":[],\"x\":{\"logprobs\":0}}"));
  }

  void keptBlocksGoBackToThePoolAndKeepTheirValues() {
    const size_t before = lp::reserve_raw_blocks(0);
    const std::string value(1000, 'v');
    {
      lp::RawLogprobs raw;
      for (int i = 0; i < 70; ++i) raw.add(value, lp::RawShape::OpenAiChat);  // 3 blocks
      lp::RawLogprobs moved;
      moved = std::move(raw);
      QVERIFY(raw.empty());
      QCOMPARE(moved.size(), size_t(70));
      lp::RawLogprobs copy = moved;
      for (const lp::RawLogprobs* kept : {&moved, &copy}) {
        size_t n = 0;
        kept->visit([&](std::string_view v, lp::RawShape) {
          QCOMPARE(v, std::string_view(value));
          ++n;
        });
        QCOMPARE(n, size_t(70));
      }
    }
    // Taken from the pool first, then given back: the pool holds at least the three blocks.
    QVERIFY(lp::reserve_raw_blocks(0) >= std::max(before, 3 * lp::RawLogprobs::kBlockBytes));
    QVERIFY(lp::reserve_raw_blocks(1 << 20) >= size_t(1 << 20));
    const size_t pooled = lp::reserve_raw_blocks(0);
    {
      lp::RawLogprobs raw;
      raw.add(value, lp::RawShape::OpenAiChat);
      QCOMPARE(lp::reserve_raw_blocks(0), pooled - lp::RawLogprobs::kBlockBytes);  // one taken
    }
    QCOMPARE(lp::reserve_raw_blocks(0), pooled);                                // and given back
    QCOMPARE(lp::reserve_raw_blocks(size_t(1) << 40), lp::kMaxPooledRawBytes);  // capped
  }

  void keptValuesComeBackInOrderWithTheirShapes() {
    lp::RawLogprobs raw;
    std::vector<std::pair<std::string, lp::RawShape>> added;
    for (int i = 0; i < 300; ++i) {
      // Sizes that end blocks at every offset, one longer than a block, and empty ones.
      const size_t size = i == 150 ? lp::RawLogprobs::kBlockBytes + 10 : (i * 37) % 700;
      std::string value(size, static_cast<char>('a' + i % 26));
      const auto shape = i % 3 ? lp::RawShape::OpenAiChat : lp::RawShape::OpenAiCompletions;
      QVERIFY(raw.add(value, shape));
      added.emplace_back(std::move(value), shape);
    }
    QCOMPARE(raw.size(), added.size());
    // A value past the header's 30-bit length is refused before any byte of it is read.
    const char one = 'x';
    QVERIFY(!raw.add(std::string_view(&one, lp::RawLogprobs::kMaxValueBytes + 1),
                     lp::RawShape::OpenAiChat));
    QCOMPARE(raw.size(), added.size());
    size_t n = 0;
    raw.visit([&](std::string_view v, lp::RawShape shape) {
      QVERIFY(n < added.size());
      QCOMPARE(v, std::string_view(added[n].first));
      QVERIFY(shape == added[n].second);
      ++n;
    });
    QCOMPARE(n, added.size());
  }

  void cutValuesReadTheSameAsWholeMessages() {
    for (const char* file : {"vllm_chat_stream_logprobs.sse", "sglang_chat_stream_logprobs.sse",
                             "llamacpp_chat_stream_logprobs.sse", "logprobs_bad_values.sse"}) {
      const StreamResult r = parse_stream(file);
      QVERIFY2(r.logprobs_raw.empty(), file);  // parse_stream resolves, as fetch() does
      QCOMPARE(series_text(r.logprobs), whole_message_series(file, false));
      QVERIFY2(!r.logprobs.empty(), file);
    }
    const StreamResult c = parse_stream("vllm_completions_stream_logprobs.sse");
    QCOMPARE(series_text(c.logprobs),
             whole_message_series("vllm_completions_stream_logprobs.sse", true));
    // Tokens per event still come from the logprob entries when the server sends no token_ids.
    const StreamResult v = parse_stream("vllm_chat_stream_logprobs.sse");
    int64_t tokens = 0;
    for (const auto& e : v.events) tokens += e.tokens;
    QCOMPARE(tokens, int64_t(v.logprobs.size()));
  }

  void unreadableCutValueIsReportedAndTheTextKept() {
    const std::string bytes =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A\"},\"logprobs\":{\"content\":"
        "[{\"token\":\"A\",\"logprob\":-0.1,,}]}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":"
        "{\"content\":\"B\"},\"logprobs\":{\"content\":[{\"token\":\"B\",\"logprob\":-0.2}]}}]}\n\n"
        "data: [DONE]\n\n";
    StreamResult r = parse_split(Dialect::OpenAiChat, bytes, {});
    QCOMPARE(r.error, ErrorKind::None);
    QCOMPARE(r.content, std::string("AB"));
    QVERIFY(r.logprobs_seen);
    QCOMPARE(r.logprobs.size(), size_t(1));
    QCOMPARE(r.logprobs[0].token, std::string("B"));
    QVERIFY2(r.logprobs_error.find("event 1") != std::string::npos, r.logprobs_error.c_str());
    resolve_logprobs(r);  // idempotent
    QCOMPARE(r.logprobs.size(), size_t(1));
  }

  void chunksWithoutLogprobsCostNothingAndSayNone() {
    StreamResult r = parse_stream("vllm_chat_stream.sse");
    QVERIFY(!r.logprobs_seen);
    QVERIFY(r.logprobs.empty());
  }

  void quotingLeavesStringsAlone() {
    std::string out;
    QVERIFY(!lp::quote_nonfinite_literals("{\"a\":\"NaN\"}", out));
    QVERIFY(lp::quote_nonfinite_literals("{\"a\":NaN,\"b\":\"x\\\"NaN\",\"c\":-Infinity}", out));
    QCOMPARE(out, std::string("{\"a\":\"NaN\",\"b\":\"x\\\"NaN\",\"c\":\"-Infinity\"}"));
  }

  void lineFormatRoundTripsAndStaysCompact() {
    lp::PromptLogprobs p;
    p.index = 3;
    p.prompt_id = "math";
    p.top_k = 5;
    for (int i = 0; i < 100; ++i) {
      lp::TokenLogprob t;
      t.token = i % 10 == 9 ? std::string("\xe2\x82") : " tok" + std::to_string(i % 7);
      t.id = 100000 + i;
      t.logprob = -0.123456789 * (i % 4);
      for (int k = 0; k < 5; ++k) t.top.push_back({" alt" + std::to_string(k), -1.5 * k, 2000 + k});
      t.flags = i == 50 ? lp::kShortTop : 0;
      p.tokens.push_back(t);
    }
    p.tokens[7].logprob = std::nan("");
    p.tokens[7].flags = lp::kNonFiniteLogprob;
    const std::string line = lp::to_line(p);
    QVERIFY2(line.size() / p.tokens.size() < 200, qPrintable(QString::number(line.size())));
    std::string error;
    auto back = lp::parse_line(line, error);
    QVERIFY2(back.has_value(), error.c_str());
    QCOMPARE(back->tokens.size(), p.tokens.size());
    QCOMPARE(back->tokens[9].token, std::string("\xe2\x82"));  // hex-escaped and back
    QCOMPARE(back->tokens[1].logprob, -0.1235);                // rounded to 4 decimals
    QCOMPARE(back->tokens[1].id, int64_t(100001));
    QCOMPARE(back->tokens[50].flags, uint8_t(lp::kShortTop));
    QVERIFY(std::isnan(back->tokens[7].logprob));
    QCOMPARE(back->tokens[4].top[4].id, int64_t(2004));
  }

  void badLinesSayWhere() {
    std::string error;
    auto lines = lp::parse_lines("{\"i\":0,\"t\":[]}\n\n{\"i\":1,\"t\":[[\"a\"]]}\n", error);
    QCOMPARE(lines.size(), size_t(1));
    QVERIFY2(error.find("line 3") != std::string::npos, error.c_str());
    QVERIFY(!lp::parse_line("[1,2]", error));
    QVERIFY(!lp::parse_line("{\"t\":[[{\"x\":\"zz\"},1,[]]]}", error));
  }
};

LANEBENCH_TEST_GUILESS_MAIN(TestLogprobs)
#include "net_logprobs_test.moc"
