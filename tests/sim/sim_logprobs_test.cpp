// The simulator's logprobs: vLLM's request options and errors, the chat and completions shapes
// (streamed and not, echo), a top-K whose first entry is always the emitted token, and flips
// that happen exactly where the trace says: a near-tie flips to the unperturbed runner-up, a
// flipped fact to a token outside the unperturbed top-20.
#include <QtTest>

#include <mutex>
#include <sstream>

#include "sim/builtin_answers.h"
#include "sim/text_filler.h"
#include "sim/tokenizer.h"
#include "sim_test_support.h"
#include "test_main.h"

using namespace lb::sim;
using namespace lb::sim::test;
using nlohmann::json;

namespace {

struct Entry {
  std::string token;  // bytes
  double logprob = 0;
  std::vector<std::pair<std::string, double>> top;
};

std::string bytes_of(const json& e) {
  std::string s;
  for (const auto& b : e["bytes"]) s.push_back(static_cast<char>(b.get<int>()));
  return s;
}

// Every content token's logprobs of a streamed chat answer, checking each chunk on the way.
std::vector<Entry> streamed_entries(const HttpResult& r) {
  std::vector<Entry> out;
  for (const auto& data : sse_data(r.body)) {
    if (data == "[DONE]") continue;
    const json j = json::parse(data);
    if (j["choices"].empty()) continue;
    const json& choice = j["choices"][0];
    const std::string content = choice["delta"].value("content", "");
    if (choice["logprobs"].is_null()) {
      if (!content.empty()) throw std::runtime_error("content without logprobs: " + data);
      continue;
    }
    std::string joined;
    for (const auto& e : choice["logprobs"]["content"]) {
      Entry entry{bytes_of(e), e["logprob"].get<double>(), {}};
      const std::string name = e["token"];
      if (name != "token_id:" + std::to_string(SimTokenizer::piece_id(entry.token)))
        throw std::runtime_error("token name " + name + " is not its id");
      for (const auto& t : e["top_logprobs"]) entry.top.emplace_back(bytes_of(t), t["logprob"]);
      joined += entry.token;
      out.push_back(std::move(entry));
    }
    if (joined != content) throw std::runtime_error("logprob tokens do not spell " + content);
  }
  return out;
}

std::vector<std::string> builtin_prompts() {
  std::vector<std::string> out;
  std::istringstream in{std::string(builtin_regression_prompts())};
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("prompt")) out.push_back(j["prompt"]);
  }
  return out;
}

std::string fnv_hex(const std::string& text) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(text)));
  return hex;
}

}  // namespace

class SimLogprobsTest : public QObject {
  Q_OBJECT
  std::unique_ptr<Server> bf16_, fp8_, refusing_;
  std::mutex mutex_;
  std::vector<TraceRecord> bf16_trace_, fp8_trace_;

  HttpResult chat(Server& s, const std::string& prompt, bool stream, int top) {
    return http_request(s.port(), "POST", "/v1/chat/completions",
                        chat_body(prompt, {{"stream", stream},
                                           {"max_tokens", 200},
                                           {"logprobs", true},
                                           {"top_logprobs", top},
                                           {"return_tokens_as_token_ids", true}}));
  }

 private slots:
  void initTestCase() {
    const auto sink = [this](std::vector<TraceRecord>& into) {
      return [this, &into](SimConfig& c) {
        c.trace_sink = [this, &into](const TraceRecord& r) {
          std::lock_guard<std::mutex> lock(mutex_);
          if (r.kind == "flip") into.push_back(r);
        };
      };
    };
    bf16_ = start_server("bf16?time_scale=0.001", sink(bf16_trace_));
    fp8_ = start_server("fp8?time_scale=0.001&flip_facts=1", sink(fp8_trace_));
    refusing_ = start_server("fp8?time_scale=0.001&refuse_logprobs=1");
    QVERIFY(bf16_ && fp8_ && refusing_);
  }

  void vllmChecksTheOptions() {
    auto r = http_request(bf16_->port(), "POST", "/v1/chat/completions",
                          chat_body("hi", {{"logprobs", true}, {"top_logprobs", 25}}));
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.find("greater than max allowed: 20") != std::string::npos);
    r = http_request(bf16_->port(), "POST", "/v1/chat/completions",
                     chat_body("hi", {{"top_logprobs", 3}}));
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.find("`logprobs` must be set to true") != std::string::npos);
    r = http_request(refusing_->port(), "POST", "/v1/chat/completions",
                     chat_body("hi", {{"logprobs", true}}));
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.find("logprobs") != std::string::npos);
    r = http_request(refusing_->port(), "POST", "/v1/chat/completions", chat_body("hi"));
    QCOMPARE(r.status, 200);
  }

  void theEmittedTokenIsTopOneAndStreamingAgreesWithTheWholeAnswer() {
    const std::string prompt = builtin_prompts().at(0);
    const auto streamed = streamed_entries(chat(*fp8_, prompt, true, 5));
    QVERIFY(!streamed.empty());
    for (const auto& e : streamed) {
      QCOMPARE(e.top.size(), size_t(5));
      QCOMPARE(e.top[0].first, e.token);
      QCOMPARE(e.top[0].second, e.logprob);
      for (size_t k = 1; k < e.top.size(); ++k) QVERIFY(e.top[k].second <= e.top[k - 1].second);
      QVERIFY(e.logprob < 0);
    }
    const auto whole = chat(*fp8_, prompt, false, 5);
    const json body = json::parse(whole.body);
    const json& content = body["choices"][0]["logprobs"]["content"];
    QCOMPARE(content.size(), streamed.size());
    for (size_t i = 0; i < streamed.size(); ++i) {
      QCOMPARE(bytes_of(content[i]), streamed[i].token);
      QCOMPARE(content[i]["logprob"].get<double>(), streamed[i].logprob);
    }
  }

  void flipsHappenWhereTheTraceSaysAndOnlyThere() {
    int near = 0, confident = 0;
    for (const auto& prompt : builtin_prompts()) {
      const auto base = streamed_entries(chat(*bf16_, prompt, true, 20));
      const auto cand = streamed_entries(chat(*fp8_, prompt, true, 20));
      json flip;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& r : fp8_trace_) {
          const json d = json::parse(r.detail);
          if (d["prompt_fnv"] == fnv_hex(prompt)) flip = d;
        }
      }
      size_t i = 0;
      while (i < base.size() && i < cand.size() && base[i].token == cand[i].token) ++i;
      if (flip.is_null()) {
        QCOMPARE(i, base.size());
        QCOMPARE(base.size(), cand.size());
        continue;
      }
      QCOMPARE(flip["index"].get<size_t>(), i);
      if (flip["class"] == "length_change") continue;
      const double margin = base[i].top[0].second - base[i].top[1].second;
      QVERIFY(std::abs(margin - flip["margin_nats"].get<double>()) < 1e-5);
      const std::string& want = cand[i].token;
      const auto in_base = std::find_if(
          base[i].top.begin(), base[i].top.end(),
          [&want](const std::pair<std::string, double>& t) { return t.first == want; });
      if (flip["class"] == "near_tie") {
        ++near;
        QVERIFY(margin <= 0.45 + 1e-9);
        QVERIFY(in_base == base[i].top.begin() + 1);  // the runner-up won
      } else {
        ++confident;
        QCOMPARE(flip["class"].get<std::string>(), std::string("confident_change"));
        QVERIFY(in_base == base[i].top.end());  // not even in the top-20
      }
    }
    QVERIFY(near > 0);
    QVERIFY(confident > 0);
    std::lock_guard<std::mutex> lock(mutex_);
    QVERIFY(bf16_trace_.empty());
  }

  void completionsEchoScoresThePromptFirst() {
    const json body = {
        {"prompt", "The capital of France is"}, {"max_tokens", 4}, {"logprobs", 3}, {"echo", true}};
    const auto r = http_request(bf16_->port(), "POST", "/v1/completions", body.dump());
    QCOMPARE(r.status, 200);
    const json choice = json::parse(r.body)["choices"][0];
    const std::string text = choice["text"];
    QVERIFY(text.rfind("The capital of France is", 0) == 0);
    const json& lp = choice["logprobs"];
    const size_t prompt_tokens = SimTokenizer::pieces("The capital of France is").size();
    QCOMPARE(lp["tokens"].size(), prompt_tokens + 4);
    QVERIFY(lp["token_logprobs"][0].is_null());
    QVERIFY(lp["top_logprobs"][0].is_null());
    QVERIFY(lp["token_logprobs"][prompt_tokens].is_number());
    QCOMPARE(lp["top_logprobs"][prompt_tokens].size(), size_t(3));
    std::string joined;
    for (const auto& t : lp["tokens"]) joined += t.get<std::string>();
    QCOMPARE(joined, text);
    QCOMPARE(lp["text_offset"][1].get<int>(), 3);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimLogprobsTest)
#include "sim_logprobs_test.moc"
