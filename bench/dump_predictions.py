"""Predictions and scores of a trained pipeline on a corpus, as JSON: proof that a change
of the model code changes no prediction (run it with the old code and the new code on
the same pipeline and corpus, then compare the two files with ``--compare``).

The scores are those of ``spacy evaluate`` (``nlp.evaluate`` on the corpus read by
``spacy.training.Corpus``, without the speed); the predictions are every negation
instance (``Negation.to_dict``: cue, scope and event parts) of every doc of a second
``nlp.pipe`` pass over the same corpus.

    python bench/dump_predictions.py PIPELINE CORPUS.spacy OUT.json
    python bench/dump_predictions.py --compare A.json B.json
"""
import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict

import spacy
from spacy.training import Corpus

from spacy_negation import get_negations


def dump(pipeline: Path, corpus: Path) -> Dict[str, Any]:
    """Scores and negation instances of the pipeline's predictions on the corpus."""
    nlp = spacy.load(pipeline)
    examples = list(Corpus(corpus)(nlp))
    start = time.process_time()
    scores = nlp.evaluate(examples)
    docs = list(nlp.pipe(eg.predicted.copy() for eg in examples))
    seconds = time.process_time() - start
    negations = [[neg.to_dict() for neg in get_negations(doc)] for doc in docs]
    return {
        "pipeline": str(pipeline),
        "corpus": str(corpus),
        "spacy_negation": str(Path(sys.modules["spacy_negation"].__file__ or "").parent),
        "cpu_seconds": round(seconds, 1),
        "n_docs": len(examples),
        "n_negations": sum(len(d) for d in negations),
        "scores": {k: v for k, v in scores.items() if k != "speed"},
        "negations": negations,
    }


def compare(a: Dict[str, Any], b: Dict[str, Any]) -> int:
    """Print whether two dumps agree; the number of differing docs (plus 1 if the scores
    differ)."""
    diff_docs = [i for i, (x, y) in enumerate(zip(a["negations"], b["negations"])) if x != y]
    diff_docs += list(range(min(a["n_docs"], b["n_docs"]), max(a["n_docs"], b["n_docs"])))
    same_scores = a["scores"] == b["scores"]
    print(f"{a['n_docs']} / {b['n_docs']} docs, {a['n_negations']} / {b['n_negations']} negations;"
          f" docs that differ: {len(diff_docs)} {diff_docs[:10]}; scores identical: {same_scores}")
    if not same_scores:
        for key in sorted(set(a["scores"]) | set(b["scores"])):
            if a["scores"].get(key) != b["scores"].get(key):
                print(f"  {key}: {a['scores'].get(key)} != {b['scores'].get(key)}")
    return len(diff_docs) + (not same_scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", action="store_true", help="compare two dumps")
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()
    if args.compare:
        a, b = (json.loads(p.read_text(encoding="utf8")) for p in args.paths)
        sys.exit(1 if compare(a, b) else 0)
    pipeline, corpus, out = args.paths
    result = dump(pipeline, corpus)
    out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf8")
    shown = {k: v for k, v in result["scores"].items() if isinstance(v, float)}
    print(json.dumps({k: result[k] for k in ("spacy_negation", "cpu_seconds", "n_docs", "n_negations")}))
    print(json.dumps(shown, sort_keys=True))


if __name__ == "__main__":
    main()
