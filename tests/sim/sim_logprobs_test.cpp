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

  // The prompt (as /tokenize gives it for the chat) plus `answer` scored by `s` with echo:
  // per answer token, its logprob and the alternatives listed ({token: logprob}).
  std::vector<std::pair<double, json>> forced(Server& s, const std::string& prompt,
                                              const std::vector<Entry>& answer) {
    const json tok_body = {{"messages", {{{"role", "user"}, {"content", prompt}}}},
                           {"add_generation_prompt", true}};
    const auto t = http_request(s.port(), "POST", "/tokenize", tok_body.dump());
    if (t.status != 200) throw std::runtime_error("tokenize: " + t.body);
    json ids = json::parse(t.body)["tokens"];
    const size_t prompt_len = ids.size();
    for (const auto& e : answer) ids.push_back(SimTokenizer::piece_id(e.token));
    const json body = {{"prompt", ids}, {"max_tokens", 1},  {"echo", true},
                       {"logprobs", 5}, {"temperature", 0}, {"return_tokens_as_token_ids", true}};
    const auto r = http_request(s.port(), "POST", "/v1/completions", body.dump());
    if (r.status != 200) throw std::runtime_error("completions: " + r.body);
    const json lp = json::parse(r.body)["choices"][0]["logprobs"];
    std::vector<std::pair<double, json>> out;
    for (size_t i = prompt_len; i < prompt_len + answer.size(); ++i)
      out.emplace_back(lp["token_logprobs"][i].get<double>(), lp["top_logprobs"][i]);
    return out;
  }

  static std::string top1(const json& alternatives) {
    std::string best;
    double best_lp = -1e300;
    for (auto& [k, v] : alternatives.items())
      if (v.get<double>() > best_lp) best = k, best_lp = v.get<double>();
    return best;
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
  void teacherForcingScoresAnswersAsTheLanesWroteThem() {
    int flipped = 0;
    for (const auto& prompt : builtin_prompts()) {
      const auto base = streamed_entries(chat(*bf16_, prompt, true, 5));
      const auto cand = streamed_entries(chat(*fp8_, prompt, true, 5));
      // A lane scoring its own answer gives back what it said while generating it.
      const auto self = forced(*fp8_, prompt, cand);
      QCOMPARE(self.size(), cand.size());
      for (size_t i = 0; i < cand.size(); ++i) {
        QVERIFY(std::abs(self[i].first - cand[i].logprob) < 1e-6);
        QCOMPARE(top1(self[i].second),
                 "token_id:" + std::to_string(SimTokenizer::piece_id(cand[i].token)));
      }
      // The baseline scoring the candidate's answer disagrees at the flip and nowhere else.
      size_t d = 0;
      while (d < base.size() && d < cand.size() && base[d].token == cand[d].token) ++d;
      const auto cross = forced(*bf16_, prompt, cand);
      for (size_t i = 0; i < cand.size(); ++i) {
        const bool agrees = top1(cross[i].second) ==
                            "token_id:" + std::to_string(SimTokenizer::piece_id(cand[i].token));
        if (i != d) {
          QVERIFY2(agrees, (prompt + " at " + std::to_string(i)).c_str());
          continue;
        }
        ++flipped;
        QVERIFY(!agrees);
        if (i >= base.size()) {
          // The baseline stopped here: its end of turn comes first.
          QCOMPARE(top1(cross[i].second), "token_id:" + std::to_string(SimTokenizer::kImEnd));
          continue;
        }
        // The baseline's logprob of the candidate's token is what it listed for it while
        // generating (a near-tie), or below all its top-5 (a flipped fact).
        const std::string want = cand[i].token;
        const auto listed = std::find_if(
            base[i].top.begin(), base[i].top.end(),
            [&want](const std::pair<std::string, double>& t) { return t.first == want; });
        if (listed != base[i].top.end())
          QVERIFY(std::abs(cross[i].first - listed->second) < 1e-6);
        else
          QVERIFY(cross[i].first < base[i].top.back().second);
      }
    }
    QVERIFY(flipped > 0);
  }

  void promptLogprobsAgreeWithEcho() {
    const std::string prompt = builtin_prompts().at(0);
    const auto answer = streamed_entries(chat(*bf16_, prompt, true, 5));
    const auto echoed = forced(*fp8_, prompt, answer);
    const json tok_body = {{"messages", {{{"role", "user"}, {"content", prompt}}}}};
    json ids = json::parse(
        http_request(fp8_->port(), "POST", "/tokenize", tok_body.dump()).body)["tokens"];
    const size_t prompt_len = ids.size();
    for (const auto& e : answer) ids.push_back(SimTokenizer::piece_id(e.token));
    json body = {{"prompt", ids}, {"max_tokens", 1}, {"prompt_logprobs", 5}};
    auto r = http_request(fp8_->port(), "POST", "/v1/completions", body.dump());
    QCOMPARE(r.status, 200);
    const json pl = json::parse(r.body)["choices"][0]["prompt_logprobs"];
    QCOMPARE(pl.size(), ids.size());
    QVERIFY(pl[0].is_null());
    for (size_t i = 0; i < answer.size(); ++i) {
      const json& at = pl[prompt_len + i];
      const std::string id = std::to_string(SimTokenizer::piece_id(answer[i].token));
      QVERIFY(at.contains(id));
      QVERIFY(std::abs(at[id]["logprob"].get<double>() - echoed[i].first) < 1e-6);
      QCOMPARE(at[id]["decoded_token"].get<std::string>(), answer[i].token);
      QVERIFY(at[id]["rank"].get<int>() >= 1);
    }
    body["stream"] = true;
    r = http_request(fp8_->port(), "POST", "/v1/completions", body.dump());
    QCOMPARE(r.status, 400);
    QVERIFY(r.body.find("prompt_logprobs") != std::string::npos);
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimLogprobsTest)
#include "sim_logprobs_test.moc"
