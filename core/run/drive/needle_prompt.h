#pragma once
// Long prompts for the context sweep: varied filler with one random fact (the needle) hidden at a
// chosen depth and a closing question asking for it. The fact reads "The secret <thing> is
// <VALUE>." and the question "... what is the secret <thing>?": plain sentences a real model
// answers from its context, and the format the simulator recognises.
#include <cstdint>
#include <string>

namespace lb::run {

struct Needle {
  std::string thing;  // "harbor code"
  std::string value;  // "ORCHID-4827"
  std::string sentence() const { return "The secret " + thing + " is " + value + "."; }
  std::string question() const;
};

Needle make_needle(uint64_t seed);

// filler_tokens (estimated) of filler from seed with the needle inserted at depth (0 = start,
// 1 = end) of it, at a sentence boundary, then the question.
std::string needle_prompt(const Needle& needle, int64_t filler_tokens, uint64_t seed, double depth);

// Whether an answer gives the needle's value.
bool needle_retrieved(const std::string& answer, const Needle& needle);

}  // namespace lb::run
