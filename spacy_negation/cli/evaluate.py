"""``evaluate``: score a *SEM system file against a gold file (*SEM 2012, NIS, FairEval).

The three metric families: *SEM 2012 (eval.cd-sco.pl v2.2 semantics, Morante & Blanco
2012), NIS (Sineva et al. 2021) and FairEval on negation spans (Ortmann 2022), computed by
:mod:`spacy_negation.metrics.evaluate` while the files are read sentence by sentence; the
same document from Python: :func:`spacy_negation.analysis.evaluate`.
"""
import argparse
from pathlib import Path
from typing import Any, Dict

from ..metrics.evaluate import FAIR_KEYS, FAMILIES, evaluate_files, to_json

__all__ = ["add_arguments", "run", "format_faireval_table"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``evaluate``."""
    p.add_argument("gold", type=Path, help="the gold *SEM file")
    p.add_argument("system", type=Path, help="the system *SEM file")
    p.add_argument("--metrics", default=",".join(FAMILIES), metavar="FAMILIES",
                   help="comma-separated metric families to compute, any of "
                        f"{','.join(FAMILIES)} (default: all)")
    p.add_argument("--json", action="store_true",
                   help="print the scores as JSON (fractions; tp = the TP used for P/R)")
    p.add_argument("--starsem-compat", action="store_true",
                   help="print the *SEM table exactly as eval.cd-sco.pl v2.2 does (F1 from "
                        "rounded P/R, the SCM tp in the 'no cue match' rows)")


def format_faireval_table(result: Dict[str, Any]) -> str:
    """A readable FairEval table: per method the overall and per-label counts and P/R/F
    (percentages).

    result (Dict[str, Any]): a FairEval result dict.
    RETURNS (str): the table, ending with a newline.
    """
    lines = ["FairEval on negation spans (Ortmann 2022; focus target, paper weights)"]
    head = f"{'':<22}" + "".join(f"{k:>7}" for k in FAIR_KEYS[:9]) + \
        f" | {'P (%)':>7} {'R (%)':>7} {'F1 (%)':>7}"
    lines.append(head)
    lines.append("-" * len(head))
    for method in ("traditional", "fair", "weighted"):
        rows = [("overall", result[method])]
        rows += sorted(result["per_label"][method].items())
        for label, d in rows:
            name = f"{method} {label}"
            counts = "".join(f"{_num(d.get(k)):>7}" for k in FAIR_KEYS[:9])
            lines.append(f"{name:<22}{counts} | {d['p'] * 100:7.2f} {d['r'] * 100:7.2f} "
                         f"{d['f'] * 100:7.2f}")
    return "\n".join(lines) + "\n"


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:g}"
    return str(int(x))


def run(args: argparse.Namespace) -> int:
    """Score a *SEM 2012 CoNLL system file against the gold file with the *SEM 2012 scorer's
    metrics (eval.cd-sco.pl v2.2), the negation-instance based scores (NIS) and FairEval on
    negation spans. The files must be token-aligned (columns 0-3 equal, line by line); they
    are read sentence by sentence."""
    from ..metrics.evaluate import parse_families

    results = evaluate_files(args.gold, args.system, parse_families(args.metrics))
    if args.json:
        import json

        print(json.dumps(to_json(results), indent=2, sort_keys=False))
        return 0
    blocks = []
    if "starsem" in results:
        from ..metrics.starsem.evaluation import format_starsem_table

        title = "*SEM 2012 (eval.cd-sco.pl v2.2" + (
            ", compatible printout)" if args.starsem_compat else
            " counts; exact F1, tp = TP used for P/R)")
        blocks.append(title + "\n" + format_starsem_table(results["starsem"],
                                                          compat=args.starsem_compat))
    if "nis" in results:
        from ..metrics.nis import format_nis_table, nis_scores

        blocks.append(format_nis_table(nis_scores(results["nis"])))
    if "faireval" in results:
        blocks.append(format_faireval_table(results["faireval"]))
    print("\n".join(blocks), end="")
    return 0
