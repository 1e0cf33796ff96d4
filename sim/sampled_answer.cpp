#include "sampled_answer.h"

#include <algorithm>
#include <vector>

#include "text_filler.h"

namespace lb::sim {
namespace {

// A uniform number in [0, 1) from the sample seed and what it decides.
double draw_uniform(uint64_t sample_seed, std::string_view what) {
  return double(fnv1a64(what, sample_seed) >> 11) * 0x1.0p-53;
}

struct Variant {
  const std::string* text;
  double weight;
};

// Inverse-CDF draw over the nucleus (top_p) of the variants. Variants are kept in a fixed
// order (not re-sorted per lane), so one draw lands on the same variant in two lanes unless
// the mass moved.
const std::string& pick(std::vector<Variant> variants, double top_p, double u) {
  double total = 0;
  for (const auto& v : variants) total += v.weight;
  std::vector<Variant> by_mass = variants;
  std::stable_sort(by_mass.begin(), by_mass.end(),
                   [](const Variant& a, const Variant& b) { return a.weight > b.weight; });
  double kept = 0;
  size_t keep = 0;
  while (keep < by_mass.size() && kept < top_p * total) kept += by_mass[keep++].weight;
  const double cut = keep < by_mass.size() ? by_mass[keep - 1].weight : 0;
  double nucleus = 0;
  for (auto& v : variants) {
    if (v.weight < cut) v.weight = 0;
    nucleus += v.weight;
  }
  double acc = 0;
  for (const auto& v : variants) {
    acc += v.weight / nucleus;
    if (u < acc && v.weight > 0) return *v.text;
  }
  return *variants.front().text;
}

const char* const kClosings[] = {" That is the answer.", " I hope this helps.",
                                 " Let me know if you need more detail.",
                                 " This follows from the question.", " That settles it."};

// Prose only: a closing sentence after code, JSON or a one-word answer would break its format.
std::string closing(const std::string& text, const SamplingDraw& d) {
  if (text.size() < 12 || text.back() != '.' || text.find('\n') != std::string::npos ||
      text.front() == '{' || text.front() == '[')
    return "";
  const double p_closing = std::min(0.6, 0.5 * d.temperature);
  if (draw_uniform(d.sample_seed, "closing?") >= p_closing * std::min(1.0, d.top_p + 0.2))
    return "";
  const double u = draw_uniform(d.sample_seed, "closing");
  return kClosings[static_cast<size_t>(u * std::size(kClosings))];
}

}  // namespace

std::string sampled_reference(const ReferenceAnswer& ref, DriftKind drift,
                              const SamplingDraw& draw) {
  const double wording = ref.drift != ref.answer ? 0.25 * draw.temperature : 0;
  std::vector<Variant> variants = {{&ref.answer, 1.0}};
  if (wording > 0)
    variants.push_back({&ref.drift, drift == DriftKind::Wording ? 3 * wording : wording});
  if (drift == DriftKind::FlippedFact && ref.flipped != ref.answer)
    variants.push_back({&ref.flipped, 4.0 * (1.0 + wording)});
  const std::string& text = pick(variants, draw.top_p, draw_uniform(draw.sample_seed, "variant"));
  return text + closing(text, draw);
}

std::string sampled_filler(const std::string& text, const SamplingDraw& draw) {
  if (draw_uniform(draw.sample_seed, "swaps") >= std::min(0.8, draw.temperature)) return text;
  return drift_wording(text, draw.sample_seed % 97);
}

}  // namespace lb::sim
