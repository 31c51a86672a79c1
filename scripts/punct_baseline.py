"""Score the punctuation baseline (Sineva et al. 2021, "Punct-BL") on a gold .spacy file.

python scripts/punct_baseline.py GOLD.spacy SYSTEM_OUT.txt SCORES_OUT.json [--tag-punct]

Gold cues are kept; each scope becomes the tokens from the cue to the next punctuation
mark (spacy_negation.baselines). Writes the system's *SEM file and a JSON with the spaCy
scorer's flat ``neg_*`` scores and the full ``evaluate --json`` document.
"""
import argparse
import copy
import sys
import time
from pathlib import Path

import srsly

from spacy_negation.analysis import score_docs
from spacy_negation.analysis.evaluation import tag_punct
from spacy_negation.baselines import apply_punct_baseline
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.starsem_docs import write_starsem_docs
from spacy_negation.util import atomic_write_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path)
    parser.add_argument("system_out", type=Path)
    parser.add_argument("scores_out", type=Path)
    parser.add_argument("--tag-punct", action="store_true",
                        help="corpora without POS tags (BioScope, SFU): tag the untagged gold "
                             "tokens as scripts/evaluate_model.py --tag-punct does")
    args = parser.parse_args()
    start = time.time()
    gold = read_docbin(args.gold)
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    system = [apply_punct_baseline(copy.deepcopy(doc)) for doc in gold]
    write_starsem_docs(system, args.system_out)
    result = score_docs(system, gold)
    scores = result["scores"]
    atomic_write_text(args.scores_out, srsly.json_dumps(result, indent=2))
    print(f"punct baseline on {args.gold}: NIS_tok F1 {100 * scores['neg_nis_tok_f']:.2f}, "
          f"scope tokens F1 {100 * scores['neg_st_f']:.2f}, SCM-B F1 {100 * scores['neg_scm_b_f']:.2f} "
          f"({time.time() - start:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
