// The regression check's non-identical pairs with both outputs, for
// side-by-side reading in the report. Pairs that need review (divergent,
// flipped facts) come first.
#include <algorithm>
#include <map>

#include "core/compare/texts_file.h"
#include "core/report/report_model.h"

namespace lb::report {
namespace {

// Long outputs are shortened in the report (the full texts are copied next to
// it).
constexpr size_t kMaxTextBytes = 3000;

std::string cut_utf8(const std::string& text, size_t max_bytes, bool* cut) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  *cut = true;
  return text.substr(0, end);
}

class LaneTexts {
 public:
  explicit LaneTexts(std::string dir) : dir_(std::move(dir)) {}
  const std::vector<std::string>& of(const std::string& lane) {
    auto it = cache_.find(lane);
    if (it == cache_.end()) {
      auto loaded = compare::load_texts_file(compare::lane_texts_path(dir_, lane));
      it = cache_.emplace(lane, loaded.texts.value_or(std::vector<std::string>{})).first;
    }
    return it->second;
  }

 private:
  std::string dir_;
  std::map<std::string, std::vector<std::string>> cache_;
};

ReviewedPair make_pair(const compare::ReviewRecord& review, const compare::PairReview& p,
                       LaneTexts& texts) {
  ReviewedPair out;
  out.baseline = review.lane_a;
  out.candidate = review.lane_b;
  out.index = p.comparison.index;
  out.prompt_id = p.comparison.prompt_id;
  out.triage = compare::triage_name(p.comparison.triage.triage);
  out.ratio = p.comparison.triage.ratio;
  out.verdict = compare::verdict_name(p.verdict);
  out.note = p.note;
  const auto& a = texts.of(review.lane_a);
  const auto& b = texts.of(review.lane_b);
  if (out.index < a.size()) out.text_a = cut_utf8(a[out.index], kMaxTextBytes, &out.text_cut);
  if (out.index < b.size()) out.text_b = cut_utf8(b[out.index], kMaxTextBytes, &out.text_cut);
  return out;
}

}  // namespace

std::vector<ReviewedPair> reviewed_pairs(const RunFolder& folder, size_t max_pairs,
                                         size_t* left_out) {
  LaneTexts texts(folder.dir);
  std::vector<std::pair<int, ReviewedPair>> ranked;
  for (const auto& review : folder.reviews)
    for (const auto& p : review.pairs) {
      if (p.comparison.triage.triage == compare::TriageClass::Identical) continue;
      const int rank = p.verdict == compare::Verdict::Blocker ? 0
                       : p.comparison.review_required()       ? 1
                                                              : 2;
      ranked.emplace_back(rank, make_pair(review, p, texts));
    }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<ReviewedPair> out;
  for (auto& [rank, pair] : ranked)
    if (out.size() < max_pairs) out.push_back(std::move(pair));
  if (left_out) *left_out = ranked.size() - out.size();
  return out;
}

}  // namespace lb::report
