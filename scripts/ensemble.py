"""Evaluate an ensemble of trained negation pipelines on a gold .spacy file.

python scripts/ensemble.py GOLD.spacy SYSTEM_OUT.txt SCORES_OUT.json MODEL MODEL [MODEL ...]
    [--gold-cues] [--tag-punct]

The pipelines must have the same cue and scope labels (trained on the same data, e.g.
with different seeds); how they are averaged: :mod:`spacy_negation.analysis.ensemble`.
Output as in ``evaluate_model.py``.
"""
import argparse
import sys
import time
from pathlib import Path

import spacy

from spacy_negation import register_extensions
from spacy_negation.analysis.ensemble import annotate, check_compatible
from spacy_negation.analysis.evaluation import (blank_copy, resolves_speculation_on, summary_line, tag_punct,
                                                write_results)
from spacy_negation.corpora.docbin import read_docbin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path)
    parser.add_argument("system_out", type=Path)
    parser.add_argument("scores_out", type=Path)
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--gold-cues", action="store_true", help="scope resolution on gold cues")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--tag-punct", action="store_true", help="as in evaluate_model.py")
    args = parser.parse_args()
    if len(args.models) < 2:
        parser.error("an ensemble needs at least two models")
    register_extensions()
    nlps = [spacy.load(m) for m in args.models]
    check_compatible(nlps)
    gold = read_docbin(args.gold, vocab=nlps[0].vocab)
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    # on gold cues: the speculation cues too where the first pipeline resolves their scopes
    system = [blank_copy(nlps[0].vocab, g, args.gold_cues,
                         speculation_cues=args.gold_cues and resolves_speculation_on(nlps[0], g)) for g in gold]
    start = time.perf_counter()
    for b in range(0, len(system), args.batch_size):
        annotate(nlps, system[b:b + args.batch_size], args.gold_cues)
    seconds = time.perf_counter() - start
    result = write_results(system, gold, args.system_out, args.scores_out, seconds, args.gold_cues)
    mode = "gold cues" if args.gold_cues else "end to end"
    models = " + ".join(str(m) for m in args.models)
    print(f"ensemble {models} on {args.gold} ({mode}): {summary_line(result)}", file=sys.stderr)


if __name__ == "__main__":
    main()
