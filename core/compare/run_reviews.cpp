#include "core/compare/run_reviews.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/files/regular_file.h"

namespace lb::compare {
namespace {

namespace fs = std::filesystem;

bool holds(const StoredReview& s, const std::string& a, const std::string& b) {
  return s.record.lane_a == a && s.record.lane_b == b;
}

// Lower is preferred: the run's own file for a candidate, then review.json, then the rest.
int preference(const StoredReview& s) {
  if (s.file == "review." + s.record.lane_b + ".json") return 0;
  if (s.file == "review.json") return 1;
  return 2;
}

std::string file_safe(std::string name) {
  for (char& c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!(std::isalnum(u) || c == '-' || c == '_' || c == '.')) c = '_';
  }
  return name;
}

// The files holding (a, b), preferred first.
std::vector<const StoredReview*> holding(const std::vector<StoredReview>& files,
                                         const std::string& a, const std::string& b) {
  std::vector<const StoredReview*> out;
  for (const auto& s : files)
    if (holds(s, a, b)) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [](const StoredReview* x, const StoredReview* y) {
    return preference(*x) < preference(*y);
  });
  return out;
}

// A verdict given later wins; one never given (no time) loses to any that was.
bool later(const PairReview& candidate, const PairReview& current) {
  if (!candidate.reviewed_at) return false;
  return !current.reviewed_at || *candidate.reviewed_at > *current.reviewed_at;
}

void take_later_verdicts(ReviewRecord& base, const ReviewRecord& other) {
  for (PairReview& p : base.pairs) {
    const auto it = std::find_if(other.pairs.begin(), other.pairs.end(), [&p](const PairReview& o) {
      return o.comparison.index == p.comparison.index &&
             o.comparison.prompt_id == p.comparison.prompt_id;
    });
    if (it == other.pairs.end() || !later(*it, p)) continue;
    p.verdict = it->verdict;
    p.note = it->note;
    p.reviewed_at = it->reviewed_at;
  }
}

}  // namespace

std::vector<StoredReview> read_review_files(const std::string& run_dir,
                                            std::vector<std::string>* warnings,
                                            std::vector<std::string>* damage) {
  std::vector<fs::path> paths;
  std::error_code ec;
  for (fs::directory_iterator it(run_dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("review", 0) == 0 && it->path().extension() == ".json")
      paths.push_back(it->path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<StoredReview> out;
  for (const auto& path : paths) {
    std::string error;
    const std::string name = path.filename().string();
    if (auto record = load_review(path.string(), &error)) {
      out.push_back({name, std::move(*record)});
      continue;
    }
    if (warnings) warnings->push_back(name + " cannot be read: " + error);
    if (damage)
      damage->push_back("damaged: " + name + ": " + files::error_reason(error, path.string()));
  }
  return out;
}

std::optional<ReviewRecord> review_for_pair(const std::vector<StoredReview>& files,
                                            const std::string& lane_a, const std::string& lane_b) {
  const auto found = holding(files, lane_a, lane_b);
  if (found.empty()) return std::nullopt;
  ReviewRecord merged = found.front()->record;
  for (size_t i = 1; i < found.size(); ++i) take_later_verdicts(merged, found[i]->record);
  return merged;
}

std::vector<ReviewRecord> reviews_by_pair(const std::vector<StoredReview>& files) {
  std::vector<ReviewRecord> out;
  for (const auto& s : files) {
    const bool seen = std::any_of(out.begin(), out.end(), [&s](const ReviewRecord& r) {
      return r.lane_a == s.record.lane_a && r.lane_b == s.record.lane_b;
    });
    if (!seen) out.push_back(*review_for_pair(files, s.record.lane_a, s.record.lane_b));
  }
  return out;
}

std::string review_file_for_pair(const std::vector<StoredReview>& files, const std::string& lane_a,
                                 const std::string& lane_b) {
  const auto found = holding(files, lane_a, lane_b);
  if (!found.empty()) return found.front()->file;
  return "review." + file_safe(lane_a) + "." + file_safe(lane_b) + ".json";
}

void put_review(std::vector<ReviewRecord>& records, ReviewRecord record) {
  for (ReviewRecord& r : records) {
    if (r.lane_a == record.lane_a && r.lane_b == record.lane_b) {
      r = std::move(record);
      return;
    }
  }
  records.push_back(std::move(record));
}

}  // namespace lb::compare
