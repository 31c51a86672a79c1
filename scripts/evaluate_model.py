"""Evaluate a trained negation pipeline on a gold .spacy file.

python scripts/evaluate_model.py MODEL GOLD.spacy SYSTEM_OUT.txt SCORES_OUT.json [--gold-cues]
    [--set components.negation_graph.decoder.cue_decoding=affix_groups ...]

End to end (default): the pipeline runs on the gold tokens and sentence boundaries and
predicts cues, scopes and events. With --gold-cues the doc carries the gold cues and only
the scope components (and the transformer they listen to) run, every cue component off:
scope resolution on gold cues; the gold speculation cues too where the corpus annotates
speculation and the model resolves it (the reference comparison of speculation scopes on
gold cues). Writes the system *SEM file and a JSON with the spaCy scorer's flat ``neg_*``
scores, the full ``evaluate --json`` document and the speed.
"""
import argparse
import json
import sys
from pathlib import Path

import spacy

from spacy_negation import register_extensions
from spacy_negation.analysis.evaluation import annotate_gold, summary_line, write_results
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.pipeline.base import with_decoder_overrides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("gold", type=Path)
    parser.add_argument("system_out", type=Path)
    parser.add_argument("scores_out", type=Path)
    parser.add_argument("--gold-cues", action="store_true", help="scope resolution on gold cues")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--tag-punct", action="store_true",
                        help="corpora without POS tags (BioScope, SFU): tag the untagged gold "
                             "tokens '.' if spaCy's Token.is_punct, else 'XX', so that the *SEM "
                             "punctuation rule (a tag without letters or digits) applies")
    parser.add_argument("--convention", default=None,
                        help="mark the docs with this annotation convention (a model with "
                             "components per convention annotates them in it)")
    parser.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                        help="override a setting of the model's config when loading it (a "
                             "prediction setting such as a component's decoding; VALUE is read "
                             "as JSON, else as a string); repeatable")
    args = parser.parse_args()
    overrides = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--set expects SECTION.KEY=VALUE, got {item!r}")
        try:
            overrides[key] = json.loads(value)
        except json.JSONDecodeError:
            overrides[key] = value
    register_extensions()
    if overrides:  # decoder settings hold whether or not the saved config has decoder blocks
        overrides = with_decoder_overrides(spacy.util.load_config(args.model / "config.cfg")["components"], overrides)
    nlp = spacy.load(args.model, config=overrides)
    gold = read_docbin(args.gold, vocab=nlp.vocab)
    system, seconds = annotate_gold(nlp, gold, convention=args.convention, gold_cues=args.gold_cues,
                                    punct_tags=args.tag_punct, batch_size=args.batch_size)
    mode = "gold cues" if args.gold_cues else "end to end"
    result = write_results(system, gold, args.system_out, args.scores_out, seconds, args.gold_cues)
    print(f"{args.model} on {args.gold} ({mode}): {summary_line(result)}", file=sys.stderr)


if __name__ == "__main__":
    main()
