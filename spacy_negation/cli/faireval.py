"""``faireval``: FairEval span scores (traditional, fair, weighted) of system against target spans.

FairEval (Ortmann 2022) from the FairEval tool's own input files (span files or
CoNLL2000; see :mod:`spacy_negation.metrics.faireval.io`), read sentence by sentence.
"""
import argparse
import json
from typing import Any, List, Mapping, Optional

from ..errors import Errors
from ..metrics.core import pct, text_table
from ._args import input_path
from ..metrics.faireval import (METHODS, PAPER_WEIGHTS_FORMULA, TRADITIONAL_TYPES,
                                format_weights, parse_weights, scores_from_counts)
from ..metrics.faireval.files import count_files
from ..metrics.faireval.io import DEFAULT_EXCLUDE

_TITLES = {"traditional": "Traditional", "fair": "Fair", "weighted": "Weighted"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``faireval``."""
    p.add_argument("target", type=input_path, help="target (gold) file or folder")
    p.add_argument("system", type=input_path, help="system file or folder")
    p.add_argument("--focus", choices=("target", "system"), default="target",
                   help="count LE and LBE per label under the target's or the system's label "
                        "(default: target)")
    p.add_argument("--weights", default=PAPER_WEIGHTS_FORMULA,
                   help="weights of the weighted evaluation, e.g. 'LE = 0.5 FP + 0.5 FN, "
                        "BE = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN' "
                        "(default: the paper's weights)")
    p.add_argument("--ignore-punct", action="store_true",
                   help="remove punctuation tokens (by POS) from CoNLL2000 spans")
    p.add_argument("--punct-compat", action="store_true",
                   help="with --ignore-punct: remove punctuation exactly as the reference tool "
                        "(its tag list; an end on two trailing punctuation tokens stays on the "
                        "first)")
    p.add_argument("--labels", default=None,
                   help="comma-separated labels to evaluate (default: all; an empty list is an error)")
    p.add_argument("--exclude", default=",".join(DEFAULT_EXCLUDE),
                   help="comma-separated labels to ignore (default: NONE,EMPTY)")
    p.add_argument("--json", action="store_true", help="print the scores as JSON (fractions)")


def _split(value: Optional[str]) -> Optional[List[str]]:
    if value is None:
        return None
    return [v.strip() for v in value.split(",") if v.strip()]


def run(args: argparse.Namespace) -> int:
    """FairEval (Ortmann 2022): traditional, fair and weighted precision, recall and F1 per
    label, and the confusion matrix, from FairEval span files (label TAB begin TAB end TAB
    tok, tok, ...) or CoNLL2000 files (form POS BIO-tag). Two files are compared whatever
    their names; two folders file by file (same names)."""
    weights = parse_weights(args.weights)
    if args.labels is not None and not _split(args.labels):
        raise ValueError(Errors.E955.format(value=args.labels))
    counts = count_files(args.target, args.system, focus=args.focus,
                         ignore_punct=args.ignore_punct, punct_compat=args.punct_compat,
                         labels=_split(args.labels), exclude=_split(args.exclude) or [])
    result = scores_from_counts(counts, weights)
    settings = {"target": str(args.target), "system": str(args.system), "focus": args.focus,
                "weights": format_weights(weights), "ignore_punct": args.ignore_punct,
                "punct_compat": args.punct_compat, "labels": _split(args.labels) or "all",
                "exclude": _split(args.exclude) or [], "sentences": counts.n_sentences}
    if args.json:
        out = dict(result)
        out["target_labels"] = dict(counts.target_labels)
        out["settings"] = settings
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(format_report(result, weights, counts.target_labels, settings))
    return 0


def format_report(result: Mapping[str, Any], weights: Mapping[str, Any],
                  target_labels: Mapping[str, int], settings: Mapping[str, Any]) -> str:
    """The readable report: settings, one table per method (counts, P/R/F1 in percent),
    the comparison, the confusion matrix and the target label frequencies.

    result (Mapping[str, Any]): the scores (``scores_from_counts``).
    weights (Mapping[str, Any]): the weights of the weighted evaluation (column order).
    target_labels (Mapping[str, int]): target span frequencies per label.
    settings (Mapping[str, Any]): settings printed at the top.
    RETURNS (str): the report.
    """
    out = ["FairEval (Ortmann 2022)"]
    out += [f"{k}: {v}" for k, v in settings.items()]
    extra = [k for k in weights if k not in TRADITIONAL_TYPES]
    columns = {
        "traditional": list(TRADITIONAL_TYPES),
        "fair": ["TP", "FP", "LE", "BE", "LBE", "FN"],
        "weighted": extra + list(TRADITIONAL_TYPES),
    }
    for method in METHODS:
        cols = columns[method]
        rows = [[label] + [str(d[c]) for c in cols] + [pct(d[k]) for k in ("p", "r", "f")]
                for label, d in sorted(result["per_label"][method].items())]
        d = result[method]
        rows.append(["overall"] + [str(d[c]) for c in cols] + [pct(d[k]) for k in ("p", "r", "f")])
        out += ["", f"{_TITLES[method]} evaluation", *text_table(["Label", *cols, "P", "R", "F1"], rows)]
    out += ["", "Comparison", *text_table(
        ["Method", "P", "R", "F1"],
        [[_TITLES[m]] + [pct(result[m][k]) for k in ("p", "r", "f")] for m in METHODS])]
    conf = result["confusion"]
    labels = list(conf)
    out += ["", "Confusion matrix (rows: target, columns: system, _ = none; TP not counted)",
            *text_table(["Target\\System", *labels], [[t] + [str(conf[t][s]) for s in labels] for t in labels])]
    total = sum(target_labels.values())
    out += ["", "Target label frequencies", *text_table(
        ["Label", "Freq", "%"], [[lab, str(n), pct(n / total)] for lab, n in target_labels.items()])]
    return "\n".join(out)
