#pragma once
// Character classes used by tokenizing and triage. Whitespace is exactly Python's str.isspace()
// set, so "whitespace-only difference" means what a Python user expects.
namespace lb::compare {

bool is_space(char32_t cp);
// Word characters: ASCII letters, digits and '_', and letters of other scripts (any code point
// from U+0080 that is not whitespace, punctuation or a symbol block listed in char_classes.cpp).
bool is_word_char(char32_t cp);
// Simple lower-case mapping for ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic; other code
// points map to themselves. Enough to recognise "case-only" differences in common text.
char32_t simple_lower(char32_t cp);

}  // namespace lb::compare
