"""Speed of the token and span conveniences (``token._.negated`` and friends) on
synthetic docs with many negations.

For each case it prints the time to read ``doc._.negations`` once, and to read
``token._.negated`` (then ``token._.negations``, ``token._.is_neg_cue``) for every token,
and ``span._.negated`` for every 5-token span; the first read of a doc builds its index,
every later read looks it up.

    python bench/bench_extensions.py [--repeat 3]

Cases: a 500-token doc with 100 negations, a 20,000-token doc with 4,000 negations
(every negation: a one-token cue, a 3-token scope, one of them the event; a fifth of the
cues affixal).
"""
import argparse
import time
from typing import List, Tuple

import spacy
from spacy.tokens import Doc

from spacy_negation import register_extensions
from spacy_negation.metrics.core import markdown_row, markdown_table

from timing import best_of


def make_doc(n_tokens: int, n_negations: int) -> Doc:
    """A doc of n_tokens words with n_negations evenly spaced instances."""
    nlp = spacy.blank("en")
    words = ["unhappy" if i % 25 == 0 else "word" for i in range(n_tokens)]
    doc = Doc(nlp.vocab, words=words)
    step = n_tokens // n_negations
    negations = []
    for k in range(n_negations):
        i = k * step
        if words[i] == "unhappy":
            cue = [(i, 0, 2)]
            scope = [(i, 2, 7), (i + 1, 0, 4), (i + 2, 0, 4)]
        else:
            cue = [(i, 0, 4)]
            scope = [(j, 0, 4) for j in (i + 1, i + 2, i + 3)]
        negations.append({"cue": cue, "scope": scope, "event": scope[:1]})
    doc._.negations = negations
    return doc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    register_extensions()
    cases: List[Tuple[int, int]] = [(500, 100), (20_000, 4_000)]
    print("\n".join(markdown_table(["tokens", "negations", "first token._.negated (index build)", "doc._.negations",
                                    "token._.negated, all tokens", "token._.negations, all",
                                    "token._.is_neg_cue, all", "span._.negated, all 5-token spans"])))
    for n_tokens, n_negations in cases:
        doc = make_doc(n_tokens, n_negations)
        start = time.perf_counter()
        doc[0]._.negated
        build = time.perf_counter() - start
        spans = [doc[i : i + 5] for i in range(0, n_tokens - 5, 5)]
        row = [
            best_of(lambda: doc._.negations, args.repeat),
            best_of(lambda: [t._.negated for t in doc], args.repeat),
            best_of(lambda: [t._.negations for t in doc], args.repeat),
            best_of(lambda: [t._.is_neg_cue for t in doc], args.repeat),
            best_of(lambda: [s._.negated for s in spans], args.repeat),
        ]
        assert sum(t._.negated for t in doc) > 0
        print(markdown_row([f"{n_tokens:,}", f"{n_negations:,}", f"{build * 1000:.1f} ms",
                            *(f"{t * 1000:.2f} ms" for t in row)]))


if __name__ == "__main__":
    main()
