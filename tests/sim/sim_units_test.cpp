// Units of the simulator: tokenizer, prefix cache, lane specs, schema instances.
#include <QtTest>

#include "test_main.h"

#include "sim/prefix_cache.h"
#include "sim/schema_instance.h"
#include "sim/sim_config.h"
#include "sim/tokenizer.h"

using namespace lb::sim;

class SimUnitsTest : public QObject {
  Q_OBJECT
 private slots:
  void tokenizer_round_trips_and_bounds_pieces() {
    const std::string text =
        "Hello world, the prefill_tokens are 12345!\n\n  Indented  line\twith tab. Ünïcödé 日本語 "
        "ok";
    const auto ids = SimTokenizer::encode(text);
    QCOMPARE(SimTokenizer::decode(ids), text);
    for (auto piece : SimTokenizer::pieces(text)) {
      QVERIFY(piece.size() <= 4);
      QVERIFY(!piece.empty());
      // Never starts inside a UTF-8 sequence.
      QVERIFY((static_cast<unsigned char>(piece[0]) & 0xC0) != 0x80);
    }
    for (auto id : ids) QVERIFY(SimTokenizer::valid_id(id));
  }

  void tokenizer_attaches_one_space_to_words() {
    const auto p = SimTokenizer::pieces("Hello world  again, ok");
    std::vector<std::string> got(p.begin(), p.end());
    const std::vector<std::string> want = {"Hell", "o",  " wor", "ld", " ",
                                           " aga", "in", ",",    " ok"};
    QCOMPARE(got, want);
    QCOMPARE(SimTokenizer::count("Hello world  again, ok"), int64_t(9));
  }

  void tokenizer_rejects_ids_outside_the_vocabulary() {
    QVERIFY(!SimTokenizer::valid_id(0));
    QVERIFY(!SimTokenizer::valid_id(257));  // digit 0 is not a byte
    QVERIFY(!SimTokenizer::valid_id(-5));
    QVERIFY(SimTokenizer::valid_id(SimTokenizer::kImStart));
    QCOMPARE(SimTokenizer::piece_text(SimTokenizer::kImEnd), std::string("<|im_end|>"));
  }

  void prefix_cache_reuses_only_checkpointed_prefixes() {
    PrefixCache cache(1000, 16);
    std::vector<TokenId> a(200);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<TokenId>(i + 1);
    const auto ha = cache.block_hashes(a);
    QCOMPARE(ha.size(), size_t(12));
    QCOMPARE(cache.lookup(ha), int64_t(0));
    cache.commit(ha, 4);  // checkpoint at 64 tokens
    QCOMPARE(cache.lookup(ha), int64_t(64));
    cache.commit(ha, 12);
    QCOMPARE(cache.lookup(ha), int64_t(192));
    std::vector<TokenId> b = a;
    b[100] = 999;  // diverges in block 6: only the 64-token checkpoint is shared
    QCOMPARE(cache.lookup(cache.block_hashes(b)), int64_t(64));
  }

  void prefix_cache_evicts_least_recently_used() {
    PrefixCache cache(8, 16);
    std::vector<TokenId> a(128, 1), b(128, 2);
    const auto ha = cache.block_hashes(a), hb = cache.block_hashes(b);
    cache.commit(ha, 8);
    QCOMPARE(cache.lookup(ha), int64_t(128));
    cache.commit(hb, 8);  // needs all 8 blocks: a is evicted
    QCOMPARE(cache.lookup(hb), int64_t(128));
    QCOMPARE(cache.lookup(ha), int64_t(0));
    QCOMPARE(cache.size_blocks(), int64_t(8));
    cache.set_capacity_blocks(4);  // running requests took half: the tail of b goes first
    QCOMPARE(cache.size_blocks(), int64_t(4));
    QCOMPARE(cache.lookup(hb), int64_t(0));  // its checkpoint (block 7) was evicted
  }

  void lane_spec_parses_and_names_errors() {
    auto ok = parse_lane_spec("fp8-mtp3?time_scale=0.05&flip_facts=1&max_num_seqs=64");
    QVERIFY(std::holds_alternative<SimConfig>(ok));
    const auto& c = std::get<SimConfig>(ok);
    QCOMPARE(c.time_scale, 0.05);
    QVERIFY(c.flip_facts);
    QCOMPARE(c.profile.max_num_seqs, 64);
    QCOMPARE(c.profile.num_speculative_tokens, 3);

    auto bad_profile = parse_lane_spec("fp16");
    QVERIFY(std::holds_alternative<std::string>(bad_profile));
    QVERIFY(std::get<std::string>(bad_profile).find("unknown simulator profile \"fp16\"") == 0);

    auto bad_key = parse_lane_spec("fp8?speed=3");
    QVERIFY(std::get<std::string>(bad_key).find("unknown option \"speed\"") == 0);

    auto bad_value = parse_lane_spec("bf16?time_scale=fast");
    QVERIFY(std::get<std::string>(bad_value).find("time_scale") != std::string::npos);

    auto no_value = parse_lane_spec("bf16?prefix_caching");
    QVERIFY(std::get<std::string>(no_value).find("needs a value") != std::string::npos);
  }

  // 1 + P(draft 1 accepted) + P(drafts 1 and 2 accepted) + ...
  void expected_tokens_per_step_chains_the_acceptances() {
    Profile p;
    QCOMPARE(p.expected_tokens_per_step(), 1.0);
    p.num_speculative_tokens = 3;
    p.acceptance = {0.5, 0.5, 0.5};
    QCOMPARE(p.expected_tokens_per_step(), 1.875);
    p.num_speculative_tokens = 2;  // positions past num_speculative_tokens do not count
    QCOMPARE(p.expected_tokens_per_step(), 1.75);
  }

  void schema_instance_matches_types() {
    const auto schema = nlohmann::json::parse(R"({"type":"object","properties":{
      "city":{"type":"string"},"unit":{"type":"string","enum":["celsius","fahrenheit"]},
      "days":{"type":"integer","minimum":3},"tags":{"type":"array","items":{"type":"string"}},
      "ok":{"type":"boolean"}},"required":["city"]})");
    const auto v = schema_instance(schema, proper_nouns("What is the weather in Tokyo today?"));
    QCOMPARE(v["city"].get<std::string>(), std::string("Tokyo"));
    QCOMPARE(v["unit"].get<std::string>(), std::string("celsius"));
    QCOMPARE(v["days"].get<int>(), 3);
    QVERIFY(v["tags"].is_array() && v["tags"][0].is_string());
    QVERIFY(v["ok"].is_boolean());
  }
};

LANEBENCH_TEST_GUILESS_MAIN(SimUnitsTest)
#include "sim_units_test.moc"
