#include "engine_model.h"

#include <algorithm>
#include <cmath>

namespace lb::sim {
namespace {

constexpr double kGoldenFraction = 0.6180339887498949;

double frac(double x) { return x - std::floor(x); }

}  // namespace

EngineModel::EngineModel(Profile profile, SimClock& clock)
    : profile_(std::move(profile)),
      clock_(clock),
      cache_(profile_.num_gpu_blocks(), profile_.block_size) {
  counters_.spec_accepted_per_pos.assign(static_cast<size_t>(profile_.num_speculative_tokens), 0);
}

int64_t EngineModel::blocks_for(int64_t tokens) const {
  return (tokens + profile_.block_size - 1) / profile_.block_size;
}

uint64_t EngineModel::submit(SeqSpec spec, StepCallback on_step) {
  auto seq = std::make_unique<Seq>();
  seq->id = next_id_++;
  seq->prompt_len = spec.prompt ? static_cast<int64_t>(spec.prompt->size()) : 0;
  seq->spec = std::move(spec);
  seq->spec.output_tokens = std::max<int64_t>(1, seq->spec.output_tokens);
  seq->on_step = std::move(on_step);
  // The golden-ratio sequence spreads acceptance outcomes evenly, so short requests already
  // show the profile's mean acceptance instead of a noisy sample of it.
  seq->spec_phase = frac(static_cast<double>(seq->spec.seed % 1'000'003) * 0.000'997'3);
  if (profile_.prefix_caching && seq->spec.prompt) {
    seq->hashes = cache_.block_hashes(*seq->spec.prompt);
  }
  const uint64_t id = seq->id;
  seqs_.emplace(id, std::move(seq));
  clock_.call_at(clock_.now_s() + profile_.api_latency_s + seqs_.at(id)->spec.encoder_s,
                 [this, id] { enqueue_waiting(id); });
  return id;
}

void EngineModel::enqueue_waiting(uint64_t id) {
  auto it = seqs_.find(id);
  if (it == seqs_.end()) return;
  it->second->state = State::Waiting;
  waiting_.push_back(id);
  try_admit();
}

void EngineModel::try_admit() {
  const int64_t total_blocks = profile_.num_gpu_blocks();
  while (!waiting_.empty()) {
    const int running = static_cast<int>(prefill_queue_.size()) + decoding_;
    if (running >= profile_.max_num_seqs) break;
    Seq& seq = *seqs_.at(waiting_.front());
    const int64_t need = blocks_for(seq.prompt_len + seq.spec.output_tokens);
    // A request larger than the whole cache is still admitted alone rather than starving.
    if (reserved_blocks_ + need > total_blocks && running > 0) break;
    waiting_.pop_front();
    seq.blocks_reserved = need;
    reserved_blocks_ += need;
    cache_.set_capacity_blocks(total_blocks - reserved_blocks_);
    seq.state = State::Prefill;
    prefill_queue_.push_back(seq.id);
  }
  maybe_start_prefill_step();
}

double EngineModel::schedule_chunk(Seq& seq, int64_t tokens) {
  const double c0 = static_cast<double>(seq.computed);
  const double c1 = c0 + static_cast<double>(tokens);
  const double e = profile_.attention_exponent;
  return (static_cast<double>(tokens) / profile_.prefill_tok_s +
          profile_.attention_coeff * (std::pow(c1, e) - std::pow(c0, e))) /
         seq.spec.speed_factor;
}

void EngineModel::maybe_start_prefill_step() {
  if (prefill_step_running_ || prefill_queue_.empty()) return;
  int64_t budget = profile_.max_num_batched_tokens;
  double cost_s = 0.0;
  std::vector<Chunk> chunks;
  for (uint64_t id : prefill_queue_) {
    if (budget <= 0) break;
    Seq& seq = *seqs_.at(id);
    if (!seq.lookup_done) {
      seq.lookup_done = true;
      if (profile_.prefix_caching) {
        // The last prompt token is always recomputed so that prefill yields a token.
        const int64_t max_reuse = (seq.prompt_len - 1) / profile_.block_size * profile_.block_size;
        seq.cached = std::min(cache_.lookup(seq.hashes), std::max<int64_t>(0, max_reuse));
        counters_.prefix_cache_queries += seq.prompt_len;
        counters_.prefix_cache_hits += seq.cached;
        seq.computed = seq.cached;
        cost_s += static_cast<double>(seq.cached) / profile_.cached_tok_s;
      }
    }
    const int64_t tokens = std::min(budget, std::max<int64_t>(0, seq.prompt_len - seq.computed));
    cost_s += schedule_chunk(seq, tokens);
    budget -= std::max<int64_t>(1, tokens);
    chunks.push_back(Chunk{id, tokens});
  }
  prefill_step_running_ = true;
  note_load();
  clock_.call_at(clock_.now_s() + cost_s, [this, chunks] { finish_prefill_step(chunks); });
}

void EngineModel::commit_progress(Seq& seq, int64_t old_computed) {
  if (!profile_.prefix_caching) return;
  const int64_t bs = profile_.block_size;
  const int64_t every = std::max<int64_t>(bs, profile_.checkpoint_tokens);
  for (int64_t m = (old_computed / every + 1) * every; m <= seq.computed; m += every) {
    cache_.commit(seq.hashes, m / bs);
  }
  if (seq.computed >= seq.prompt_len) cache_.commit(seq.hashes, seq.prompt_len / bs);
}

void EngineModel::finish_prefill_step(const std::vector<Chunk>& chunks) {
  prefill_step_running_ = false;
  note_load();
  std::vector<uint64_t> completed;
  for (const Chunk& chunk : chunks) {
    auto it = seqs_.find(chunk.seq_id);
    if (it == seqs_.end() || it->second->state != State::Prefill) continue;
    Seq& seq = *it->second;
    const int64_t old = seq.computed;
    seq.computed += chunk.tokens;
    commit_progress(seq, old);
    if (seq.computed >= seq.prompt_len) completed.push_back(seq.id);
  }
  for (uint64_t id : completed) {
    prefill_queue_.erase(std::find(prefill_queue_.begin(), prefill_queue_.end(), id));
    seqs_.at(id)->state = State::Decode;
    ++decoding_;
  }
  note_load();
  maybe_start_prefill_step();
  // The engine's output processor hands finished prefills to the API server one by one; the
  // stagger keeps their streams from sharing one write instant for the rest of their decode.
  double offset_s = 0.0;
  for (uint64_t id : completed) {
    auto start = [this, id] {
      auto it = seqs_.find(id);
      if (it != seqs_.end()) start_decode(*it->second);
    };
    if (offset_s == 0.0) {
      start();
    } else {
      clock_.call_at(clock_.now_s() + offset_s, start);
    }
    offset_s += profile_.output_stagger_s;
  }
}

void EngineModel::start_decode(Seq& seq) {
  counters_.prompt_tokens += seq.prompt_len;
  counters_.generation_tokens += 1;
  seq.generated = 1;
  StepOutput out;
  out.tokens = 1;
  out.first = true;
  out.cached_tokens = seq.cached;
  out.last = seq.generated >= seq.spec.output_tokens;
  const uint64_t id = seq.id;
  if (out.last) {
    auto callback = seq.on_step;
    finish(id);
    callback(out);
    return;
  }
  schedule_decode(seq);
  // A copy: the callback may abort this sequence, which destroys the stored one.
  auto callback = seq.on_step;
  callback(out);
}

void EngineModel::schedule_decode(Seq& seq) {
  const double n = static_cast<double>(std::max(1, decoding_));
  const double context = static_cast<double>(seq.prompt_len + seq.generated);
  double step_s = profile_.expected_tokens_per_step() / profile_.decode_tok_s;
  step_s *= 1.0 + profile_.batch_slowdown * (n - 1.0);
  if (prefill_step_running_) step_s *= 1.0 + profile_.prefill_interference;
  step_s *= 1.0 + profile_.context_slowdown_per_100k * context / 100'000.0;
  step_s /= seq.spec.speed_factor;
  const uint64_t id = seq.id;
  clock_.call_at(clock_.now_s() + step_s, [this, id] { decode_step(id); });
}

int EngineModel::accepted_drafts(Seq& seq) {
  const double u = frac(seq.spec_phase + static_cast<double>(seq.spec_steps++) * kGoldenFraction);
  int accepted = 0;
  double chain = 1.0;
  for (int i = 0; i < profile_.num_speculative_tokens; ++i) {
    chain *= profile_.acceptance[static_cast<size_t>(i)];
    if (u >= chain) break;
    ++accepted;
  }
  return accepted;
}

void EngineModel::decode_step(uint64_t id) {
  auto it = seqs_.find(id);
  if (it == seqs_.end()) return;
  Seq& seq = *it->second;
  StepOutput out;
  if (profile_.num_speculative_tokens > 0) {
    const int accepted = accepted_drafts(seq);
    const int64_t remaining = seq.spec.output_tokens - seq.generated;
    out.tokens = static_cast<int>(std::min<int64_t>(1 + accepted, remaining));
    out.drafted = profile_.num_speculative_tokens;
    out.accepted = accepted;
    counters_.spec_drafts += 1;
    counters_.spec_draft_tokens += out.drafted;
    counters_.spec_accepted_tokens += accepted;
    for (int i = 0; i < accepted; ++i) ++counters_.spec_accepted_per_pos[static_cast<size_t>(i)];
  } else {
    out.tokens = 1;
  }
  seq.generated += out.tokens;
  counters_.generation_tokens += out.tokens;
  out.last = seq.generated >= seq.spec.output_tokens;
  if (out.last) {
    auto callback = std::move(seq.on_step);
    finish(id);
    callback(out);
    return;
  }
  schedule_decode(seq);
  // A copy: the callback may abort this sequence, which destroys the stored one.
  auto callback = seq.on_step;
  callback(out);
}

void EngineModel::release(Seq& seq) {
  reserved_blocks_ -= seq.blocks_reserved;
  seq.blocks_reserved = 0;
  cache_.set_capacity_blocks(profile_.num_gpu_blocks() - reserved_blocks_);
}

void EngineModel::finish(uint64_t id) {
  auto it = seqs_.find(id);
  if (it == seqs_.end()) return;
  Seq& seq = *it->second;
  switch (seq.state) {
    case State::Latency:
      break;
    case State::Waiting:
      waiting_.erase(std::find(waiting_.begin(), waiting_.end(), id));
      break;
    case State::Prefill:
      prefill_queue_.erase(std::find(prefill_queue_.begin(), prefill_queue_.end(), id));
      break;
    case State::Decode:
      --decoding_;
      note_load();
      break;
  }
  release(seq);
  seqs_.erase(it);
  try_admit();
}

void EngineModel::abort(uint64_t seq_id) { finish(seq_id); }

EngineSnapshot EngineModel::snapshot() const {
  EngineSnapshot snap;
  snap.running = static_cast<int>(prefill_queue_.size()) + decoding_;
  snap.waiting = static_cast<int>(waiting_.size());
  int64_t held = 0;
  for (const auto& [id, seq] : seqs_) {
    if (seq->state == State::Prefill) held += blocks_for(seq->computed);
    if (seq->state == State::Decode) held += blocks_for(seq->prompt_len + seq->generated);
  }
  const int64_t total = std::max<int64_t>(1, profile_.num_gpu_blocks());
  snap.kv_cache_usage = static_cast<double>(held) / static_cast<double>(total);
  snap.counters = counters_;
  snap.energy_j = power_.joules(clock_.now_s());
  snap.watts = power_.watts() < 0 ? profile_.idle_watts : power_.watts();
  return snap;
}

int64_t EngineModel::cached_prefix_tokens(const std::vector<TokenId>& prompt) const {
  if (!profile_.prefix_caching || prompt.empty()) return 0;
  const auto max_reuse =
      static_cast<int64_t>(prompt.size() - 1) / profile_.block_size * profile_.block_size;
  return std::min(cache_.peek(cache_.block_hashes(prompt)), max_reuse);
}

}  // namespace lb::sim
