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
import json
import sys
from pathlib import Path

import spacy
from spacy.training import Example

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate_model import blank_copy, tag_punct  # noqa: E402

from spacy_negation import register_extensions  # noqa: E402
from spacy_negation.corpora.docbin import read_docbin  # noqa: E402
from spacy_negation.scorers import score_negations  # noqa: E402

SETTINGS = [
    ("negation_cue", "affix_over_whole", False),
    ("negation_cue", "affix_threshold", None),
    ("negation_cue", "multiword_cues", False),
    ("negation_scope", "split_at_other_cues", False),
    ("negation_cue", "min_word_precision", None),
    ("negation_scope", "contiguous", False),
    ("negation_scope", "scope_bias", 0.0),
]
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
    if args.set:
        rows = [parse_setting(text, parser) for text in args.set]
    else:  # the settings that are on (a model trained before a setting existed has it off)
        components = spacy.util.load_config(Path(args.model) / "config.cfg")["components"]
        rows = [row for row in SETTINGS if components.get(row[0], {}).get(row[1], row[2]) != row[2]]
    register_extensions()
    gold = read_docbin(args.gold)  # read once: every row is scored against it
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    print("| decoding | " + " | ".join(name for name, _ in KEYS) + " |")
    print("|---" * (len(KEYS) + 1) + "|")
    for row in [None] + rows:
        overrides = {} if row is None else {f"components.{row[0]}.{row[1]}": row[2]}
        nlp = spacy.load(args.model, config=overrides)
        system = list(nlp.pipe([blank_copy(nlp, doc, False) for doc in gold], batch_size=32))
        scores = score_negations([Example(p, g) for p, g in zip(system, gold)])
        label = "as configured" if row is None else f"{row[1]} = {row[2]}"
        print(f"| {label} | " + " | ".join(f"{100 * scores[key]:.2f}" for _, key in KEYS) + " |", flush=True)


def parse_setting(text: str, parser: argparse.ArgumentParser) -> tuple:
    """(component, setting, value) of a ``COMPONENT.SETTING=VALUE`` argument."""
    key, sep, value = text.partition("=")
    component, dot, setting = key.partition(".")
    if not sep or not dot or not component or not setting:
        parser.error(f"--set {text!r}: expected COMPONENT.SETTING=VALUE")
    try:
        return component, setting, json.loads(value)
    except json.JSONDecodeError:
        parser.error(f"--set {text!r}: VALUE is not JSON (e.g. 0.6, true, null)")


if __name__ == "__main__":
    main()
