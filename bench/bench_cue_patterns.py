"""Cost of a user cue list (``cue_patterns``) at prediction time, on CD-SCO documents
with the gold tokens, sentences and negations.

It times, best of --repeat runs: reading and compiling the list; the cue side
(``CuePatterns.apply``: matching, dropping and adding cues, writing the matches) on the
gold cues; the scope side (``constrain_scopes``) on the gold negations; and prints the
number of matches of each kind.

    python bench/bench_cue_patterns.py [--list en_clinical] [--split dev] [--repeat 3]
"""
import argparse
from collections import Counter
from pathlib import Path
from typing import List

import spacy
from spacy.tokens import Doc

from spacy_negation import get_negations
from spacy_negation.corpora.starsem_docs import CDSCO_FILES, read_starsem_docs
from spacy_negation.pipeline.cue.pattern_lists import load_cue_patterns
from spacy_negation.pipeline.cue.patterns import PATTERNS_KEY, CuePatterns, constrain_scopes

from timing import best_of

REPO = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    parser.add_argument("--split", default="dev", choices=sorted(CDSCO_FILES))
    parser.add_argument("--list", default="en_clinical", help="a shipped list's name or a JSONL path")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    nlp = spacy.blank("en")
    docs: List[Doc] = read_starsem_docs(args.shared / "corpora" / "cd-sco" / CDSCO_FILES[args.split],
                                        nlp.vocab, n_sents=10)
    n_words = sum(len(doc) for doc in docs)
    holder: List[CuePatterns] = []
    t_load = best_of(lambda: holder.append(CuePatterns(nlp.vocab, load_cue_patterns(args.list, nlp.make_doc))), args.repeat)
    patterns = holder[-1]
    gold = [[list(neg.cue) for neg in get_negations(doc)] for doc in docs]
    negations = [get_negations(doc) for doc in docs]

    def cue_side() -> None:
        for doc, cues in zip(docs, gold):
            patterns.apply(doc, cues)

    def scope_side() -> None:
        for doc, negs in zip(docs, negations):
            constrain_scopes(doc, negs)

    t_cue = best_of(cue_side, args.repeat)
    t_scope = best_of(scope_side, args.repeat)
    kinds = Counter(span.label_ for doc in docs for span in doc.spans[PATTERNS_KEY])
    n_sents = sum(1 for doc in docs for _ in doc.sents)
    print(f"CD-SCO {args.split}: {len(docs)} docs, {n_sents} sentences, {n_words} words; "
          f"list {args.list!r}: {len(patterns)} entries; best of {args.repeat}")
    print(f"{'stage':<40}{'seconds':>10}{'words/s':>12}")
    print(f"{'read and compile the list':<40}{t_load:>10.3f}")
    print(f"{'cue side (CuePatterns.apply)':<40}{t_cue:>10.3f}{n_words / t_cue:>12.0f}")
    print(f"{'scope side (constrain_scopes)':<40}{t_scope:>10.3f}{n_words / t_scope:>12.0f}")
    print("matches: " + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
