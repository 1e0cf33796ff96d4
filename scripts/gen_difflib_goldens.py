#!/usr/bin/env python3
"""Generates tests/fixtures/difflib/*.json: CPython difflib results that lb::compare must match.

Each case holds two texts (or, for long texts, the seed of a deterministic generator that
tests/core/compare/generated_text.cpp reimplements), the options, and what CPython computed:
ratio (repr, exact), matching blocks and opcodes.

Usage: scripts/gen_difflib_goldens.py [--out tests/fixtures/difflib]
"""
import argparse
import difflib
import json
import os
import random
import sys

MASK = (1 << 64) - 1

# Shared with generated_text.cpp: change both or neither.
VOCAB = [
    "the", "model", "output", "is", "a", "of", "and", "to", "in", "for", "with", "on", "that",
    "token", "tokens", "latency", "throughput", "GPU", "FP8", "BF16", "cache", "prefix",
    "decode", "prefill", "request", "server", "answer", "42", "3.14", "1,725", "2024", "-7",
    "naïve", "café", "über", "Straße", "日本語", "中文", "Привет", "мир", "Ελληνικά", "عربى",
    "🎉", "👍🏽", "👨‍👩‍👧", "😀", "e\u0301", "x²", "—", "«quote»", "(", ")", ",", ".", ":", ";",
    "{", "}", "\"key\"", "def", "return", "if", "else", "\t", "\n",
]


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


LETTERS = "etaoinshrdlu"


def generated_word(rng):
    # Mostly popular letters (dropped by autojunk, so CPython stays fast enough to make goldens),
    # rare CJK characters from a wide range, and a few vocabulary words.
    r = rng.next() % 10
    if r < 6:
        n = 2 + rng.next() % 7
        return "".join(LETTERS[rng.next() % len(LETTERS)] for _ in range(n))
    if r < 9:
        n = 1 + rng.next() % 3
        return "".join(chr(0x4E00 + rng.next() % 8000) for _ in range(n))
    return VOCAB[rng.next() % len(VOCAB)]


def generated_pair(seed, words, mutation_permille):
    """A text of `words` words and a mutated copy (same algorithm as generated_text.cpp)."""
    rng = SplitMix64(seed)
    base = [generated_word(rng) for _ in range(words)]
    other = []
    for w in base:
        if rng.next() % 1000 < mutation_permille:
            op = rng.next() % 3
            if op == 0:
                other.append(generated_word(rng))
            elif op == 2:
                other.extend([w, generated_word(rng)])
        else:
            other.append(w)
    return " ".join(base), " ".join(other)


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & MASK
    return format(h, "016x")


# Word tokens, as lb::compare::tokenize_words: runs of word chars, runs of whitespace, or one
# other code point. Classes as char_classes.cpp.
def is_space(c):
    cp = ord(c)
    return (0x09 <= cp <= 0x0D or 0x1C <= cp <= 0x20 or cp in (0x85, 0xA0, 0x1680, 0x2028, 0x2029,
            0x202F, 0x205F, 0x3000) or 0x2000 <= cp <= 0x200A)


def is_word(c):
    cp = ord(c)
    if cp < 0x80:
        return c.isascii() and (c.isalnum() or c == "_")
    if is_space(c):
        return False
    symbol = (0x80 <= cp <= 0xBF or cp in (0xD7, 0xF7) or 0x2010 <= cp <= 0x206F or
              0x2190 <= cp <= 0x2BFF or 0x3000 <= cp <= 0x303F or 0xFF01 <= cp <= 0xFF0F or
              0x1F000 <= cp <= 0x1FAFF)
    return not symbol


def tokenize(text):
    def cls(c):
        return 1 if is_space(c) else (0 if is_word(c) else 2)
    out, i = [], 0
    while i < len(text):
        k = cls(text[i])
        j = i + 1
        if k != 2:
            while j < len(text) and cls(text[j]) == k:
                j += 1
        out.append(text[i:j])
        i = j
    return out


def run_case(case, a, b):
    mode = case.get("mode", "char")
    junk = case.get("junk")
    isjunk = (lambda c: c in junk) if junk else None
    sa, sb = (a, b) if mode == "char" else (tokenize(a), tokenize(b))
    sm = difflib.SequenceMatcher(isjunk, sa, sb, autojunk=case.get("autojunk", True))
    case["len_a"], case["len_b"] = len(sa), len(sb)
    case["ratio"] = repr(sm.ratio())
    case["blocks"] = [list(m) for m in sm.get_matching_blocks()]
    case["opcodes"] = [list(op) for op in sm.get_opcodes()]
    return case


def sentence(rng, lo, hi, vocab=VOCAB):
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(lo, hi)))


def mutate_words(rng, text, rate):
    words = text.split(" ")
    out = []
    for w in words:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice(VOCAB))
        elif r < 2 * rate / 3:
            continue
        elif r < rate:
            out.extend([w, rng.choice(VOCAB)])
        else:
            out.append(w)
    return " ".join(out)


CODE = [
    "def add(a, b):\n    return a + b\n",
    "for (int i = 0; i < n; ++i) {\n  total += values[i];\n}\n",
    "SELECT COUNT(*) FROM orders WHERE status = 'shipped';",
    "fn main() {\n    let x = vec![1, 2, 3];\n    println!(\"{:?}\", x);\n}\n",
    "const answer = items.filter(x => x.ok).map(x => x.id);\n",
    "import json\n\ndata = json.loads(text)\nprint(data['name'])\n",
    "class Cache:\n    def __init__(self, size=128):\n        self.size = size\n        self.items = {}\n",
]
UNICODE = [
    "naïve café über Straße", "日本語のテキストを比較する", "Привет, мир! Как дела?",
    "Ελληνικά γράμματα", "مرحبا بالعالم", "🎉 party 🎉 time 👍🏽", "family 👨‍👩‍👧 emoji",
    "e\u0301 combining vs é precomposed", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math 𝟙𝟚𝟛", "中文和English混合 text 😀",
    "\u00a0non-breaking\u2003em space\u3000ideographic", "😀😃😄😁😆😅🤣😂",
]


def short_cases(rng):
    cases = []

    def add(kind, a, b, **opts):
        cases.append(dict(id=f"{kind}-{len(cases):03d}", a=a, b=b, **opts))

    for a, b in [("", ""), ("", "abc"), ("abc", ""), ("", "🎉"), ("🎉", ""), ("x", "x")]:
        add("empty", a, b)
    for _ in range(120):
        a = sentence(rng, 3, 60)
        add("prose", a, mutate_words(rng, a, rng.choice([0.02, 0.1, 0.3, 0.8])))
    for _ in range(80):
        a = " ".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 4)))
        b = mutate_words(rng, a, 0.3) if rng.random() < 0.7 else rng.choice(UNICODE)
        add("unicode", a, b)
    for _ in range(60):
        a = "".join(rng.choice(CODE) for _ in range(rng.randint(1, 3)))
        b = a.replace(rng.choice(["a", "x", "i", "data", "size", "1", "total"]),
                      rng.choice(["b", "y", "j", "payload", "capacity", "2", "sum"]))
        if rng.random() < 0.5:
            b = mutate_words(rng, b, 0.1)
        add("code", a, b)
    for _ in range(40):
        a = sentence(rng, 5, 40)
        b = a.replace(" ", rng.choice(["  ", "\n", "\t", " \n"]), rng.randint(1, 5))
        add("whitespace", a, b)
    for _ in range(40):
        a = sentence(rng, 5, 40)
        b = a.upper() if rng.random() < 0.3 else "".join(
            c.swapcase() if rng.random() < 0.2 else c for c in a)
        add("case", a, b)
    for _ in range(40):
        n = rng.randint(0, 10 ** rng.randint(1, 6))
        a = f"The answer is {n} and the total is {n * 3} units."
        b = a.replace(str(n), str(n + rng.randint(1, 99)), 1)
        add("numbers", a, b)
    for _ in range(100):
        alphabet = rng.choice(["ab", "abc", "ab ", "aab", "xyz \n"])
        la, lb = rng.randint(0, 320), rng.randint(0, 320)
        a = "".join(rng.choice(alphabet) for _ in range(la))
        b = "".join(rng.choice(alphabet) for _ in range(lb))
        add("alphabet", a, b)
    for _ in range(20):
        a = sentence(rng, 10, 80)
        add("junk", a, mutate_words(rng, a, 0.2), junk=" \t\n")
    for _ in range(20):
        a = sentence(rng, 40, 120)
        add("noautojunk", a, mutate_words(rng, a, 0.2), autojunk=False)
    for _ in range(60):
        a = sentence(rng, 5, 400)
        add("word", a, mutate_words(rng, a, rng.choice([0.05, 0.2, 0.5])), mode="word")
    for _ in range(30):
        a = sentence(rng, 60, 700)
        add("medium", a, mutate_words(rng, a, rng.choice([0.01, 0.05, 0.2])))
    return cases


LONG = [
    # (seed, words, mutation per mille, mode)
    (1, 30000, 1, "char"),
    (2, 30000, 5, "char"),
    (3, 30000, 30, "char"),
    (4, 30000, 5, "word"),
]


def long_cases():
    cases = []
    for seed, words, permille, mode in LONG:
        a, b = generated_pair(seed, words, permille)
        case = dict(id=f"long-{mode}-{seed}", mode=mode,
                    generated=dict(seed=seed, words=words, mutation_permille=permille),
                    utf8_bytes_a=len(a.encode()), fnv1a64_a=fnv1a64(a), fnv1a64_b=fnv1a64(b))
        cases.append(run_case(case, a, b))
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests",
                                                      "fixtures", "difflib"))
    args = parser.parse_args()
    rng = random.Random(20261129)
    short = [run_case(c, c["a"], c["b"]) for c in short_cases(rng)]
    long = long_cases()
    header = dict(python=sys.version.split()[0], generator="scripts/gen_difflib_goldens.py")
    for name, cases in (("short_pairs.json", short), ("long_pairs.json", long)):
        with open(os.path.join(args.out, name), "w", encoding="utf-8") as f:
            json.dump(dict(header, cases=cases), f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
    print(f"{len(short)} short and {len(long)} long cases written to {args.out}")


if __name__ == "__main__":
    main()
