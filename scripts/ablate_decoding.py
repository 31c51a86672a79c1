"""Score a trained negation pipeline end to end with each decoding setting of its
components that is on switched off in turn (the settings are load-time config, so one
model serves all rows); prints a table in percent. Each ``--set COMPONENT.SETTING=VALUE`` (VALUE as
JSON) adds a row with that setting instead of the rows switched off.

    python scripts/ablate_decoding.py training/cdsco/model-best corpus/dev.spacy
    python scripts/ablate_decoding.py training/bioscope/model-best corpus/bioscope/dev.spacy --tag-punct
    python scripts/ablate_decoding.py training/bioscope/model-best corpus/bioscope/dev.spacy --tag-punct \
        --set negation_cue.multiword_min_precision=0.6
"""
import argparse
from pathlib import Path

import spacy

from spacy_negation import register_extensions
from spacy_negation.analysis.ablation import ablate, parse_setting, settings_on
from spacy_negation.analysis.evaluation import tag_punct
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.metrics.core import markdown_row, markdown_table, pct

KEYS = [("Cues-B F1", "neg_cue_b_f"), ("SCM-B F1", "neg_scm_b_f"), ("Scope-tokens F1", "neg_st_f"),
        ("NIS_tok F1", "neg_nis_tok_f"), ("NIS_ex F1", "neg_nis_ex_f")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("gold")
    parser.add_argument("--tag-punct", action="store_true", help="as in evaluate_model.py (BioScope, SFU)")
    parser.add_argument("--set", action="append", default=[], metavar="COMPONENT.SETTING=VALUE",
                        help="score this setting (VALUE as JSON) instead of the default rows; repeatable")
    args = parser.parse_args()
    try:
        rows = [parse_setting(text) for text in args.set]
    except ValueError as err:
        parser.error(str(err))
    if not rows:
        rows = settings_on(spacy.util.load_config(Path(args.model) / "config.cfg")["components"])
    register_extensions()
    gold = read_docbin(args.gold)  # read once: every row is scored against it
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    print("\n".join(markdown_table(["decoding", *(name for name, _ in KEYS)])))
    for row, scores in ablate(args.model, gold, rows):  # each row as soon as it is scored
        label = "as configured" if row is None else f"{row[1]} = {row[2]}"
        print(markdown_row([label, *(pct(scores[key]) for _, key in KEYS)]), flush=True)


if __name__ == "__main__":
    main()
