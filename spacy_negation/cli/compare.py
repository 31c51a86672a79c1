"""``compare``: paired significance tests of *SEM system files against the first one.

Every system file is aligned to the gold file sentence by sentence (columns 0-3 equal, line
by line; else an error naming both files and lines) and counted once per sentence; the
paired bootstrap over sentences (Koehn 2004; Berg-Kirkpatrick et al. 2012) and approximate
randomization (Noreen 1989; Riezler & Maxwell 2005) then only sum count vectors
(:mod:`spacy_negation.metrics.compare`). No spaCy import.

``--json`` prints::

    {"gold": GOLD, "systems": [SYSTEM_A, SYSTEM_B, ...], "sentences": int,
     "metrics": [NAME, ...], "samples": int, "ar_samples": int, "seed": int,
     "confidence": float,
     "comparisons": [{"metric": NAME, "a": SYSTEM_A, "b": SYSTEM_X, "value_a": float,
                      "value_b": float, "diff": float, "ci_low": float, "ci_high": float,
                      "p_bootstrap": float, "p_ar": float}, ...]}

with values as fractions, diff = value_b - value_a, one comparison per metric and system
after the first (by metric, then system).
"""
import argparse
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from ..errors import Errors
from ..limits import MAX_SAMPLES
from ..metrics.core import pct, text_table
from ._args import bounded_int, input_file, seed_arg

__all__ = ["add_arguments", "run", "read_tables", "format_table"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``compare``."""
    p.add_argument("gold", type=input_file, help="the gold *SEM file")
    p.add_argument("systems", type=input_file, nargs="+", metavar="system",
                   help="two or more system *SEM files; the first is A")
    p.add_argument("--metric", action="append", dest="metrics", metavar="NAME",
                   help="a metric, e.g. nis.nis_tok.f, starsem.scopes_cue_match_b.f, "
                        "starsem.cues_b.f, starsem.scope_tokens.f, faireval.fair.f "
                        "(repeatable; default: nis.nis_tok.f, nis.nis_ex.f, "
                        "starsem.scopes_cue_match_b.f)")
    p.add_argument("--samples", type=bounded_int("--samples", 1, MAX_SAMPLES), default=10000,
                   help=f"bootstrap samples (default 10000, at most {MAX_SAMPLES})")
    p.add_argument("--ar-samples", type=bounded_int("--ar-samples", 1, MAX_SAMPLES), default=10000,
                   help=f"approximate randomization shuffles (default 10000, at most {MAX_SAMPLES})")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed (default 0; 0 to 2**32-1)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="coverage of the interval (default 0.95)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (fractions)")


def read_tables(gold: Path, systems: Sequence[Path], families: Sequence[str]
                ) -> List[Tuple[str, Any]]:
    """The per-sentence counts of each system file against the gold file, streamed.

    gold (Path): the gold file.
    systems (Sequence[Path]): the system files.
    families (Sequence[str]): the metric families to count.
    RETURNS (List[Tuple[str, CountTable]]): (file name as given, counts) per system.
    RAISES (NegationFormatError, FileNotFoundError): bad or misaligned input, with file
        and line.
    """
    from ..metrics.compare import count_table
    from ..metrics.starsem.io import iter_aligned

    return [(str(path), count_table(((g.get_record(), s.get_record())
                                     for g, s in iter_aligned(gold, path)), families))
            for path in systems]


def format_table(doc: Dict[str, Any]) -> str:
    """The comparison table (percentages; p-values as fractions).

    doc (Dict[str, Any]): the ``--json`` document.
    RETURNS (str): the table, ending with a newline.
    """
    head = ("metric", "A", "B", "A (%)", "B (%)", "B-A", "CI low", "CI high", "p boot", "p AR")
    rows = [(c["metric"], c["a"], c["b"], pct(c["value_a"]), pct(c["value_b"]),
             pct(c["diff"], True), pct(c["ci_low"], True), pct(c["ci_high"], True),
             f"{c['p_bootstrap']:.4f}", f"{c['p_ar']:.4f}") for c in doc["comparisons"]]
    title = (f"Paired tests over {doc['sentences']} sentences: {doc['samples']} bootstrap "
             f"samples, {doc['ar_samples']} approximate randomization shuffles, seed "
             f"{doc['seed']}; B-A with its {doc['confidence'] * 100:g}% paired bootstrap "
             f"interval (F1/P/R points), two-sided p-values")
    return "\n".join([title, *text_table(head, rows, left=3, rule=True)]) + "\n"


def run(args: argparse.Namespace) -> int:
    """Compare *SEM 2012 CoNLL system files on the same gold file: for each metric and each
    system B after the first (A), the values, the difference B - A with its paired bootstrap
    confidence interval over sentences, and the p-values of the paired bootstrap and of
    approximate randomization (two-sided). Metrics are named as in 'evaluate --json':
    FAMILY.ROW.VALUE."""
    from ..metrics.compare import DEFAULT_METRICS, compare, families_of

    if len(args.systems) < 2:
        raise ValueError(Errors.E702.format(n=len(args.systems)))
    metrics = list(dict.fromkeys(args.metrics or DEFAULT_METRICS))
    families = families_of(metrics)
    tables = read_tables(args.gold, args.systems, families)
    results = compare(tables, metrics, samples=args.samples, ar_samples=args.ar_samples,
                      seed=args.seed, confidence=args.confidence)
    doc = {"gold": str(args.gold), "systems": [name for name, _ in tables],
           "sentences": len(tables[0][1].counts), "metrics": metrics,
           "samples": args.samples, "ar_samples": args.ar_samples, "seed": args.seed,
           "confidence": args.confidence, "comparisons": [c.as_dict() for c in results]}
    if args.json:
        import json

        print(json.dumps(doc, indent=2))
    else:
        print(format_table(doc), end="")
    return 0
