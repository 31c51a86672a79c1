"""``seeds``: mean and standard deviation of metrics over runs (e.g. training seeds).

Reads one metrics JSON file per run -- the document ``evaluate --json`` prints, or a file
holding it under "detail" (as the project's ``metrics/*.json``) -- and reports per metric
the mean and the sample standard deviation over the runs. With ``--gold`` and one
``--system`` file per run (same order), also the pooled bootstrap interval of the mean over
sentences (:func:`spacy_negation.metrics.seeds.pooled_interval`); each system file must
give the metric its run's JSON file holds (to 0.05 points), or the command stops with a
coded error. Metric values must be finite fractions in [0, 1]. No spaCy import.

``--json`` prints::

    {"runs": [METRICS_JSON, ...], "systems": [SYSTEM, ...] or null, "samples": int,
     "seed": int, "confidence": float,
     "metrics": {NAME: {"values": [float, ...], "mean": float, "sd": float,
                        "ci": {"value": float, "low": float, "high": float} or null}}}

with values as fractions.
"""
import argparse
from pathlib import Path
from typing import Any, Dict, List

from ..errors import Errors
from ..limits import MAX_SAMPLES
from ..metrics.core import pct, text_table
from ._args import bounded_int, input_file, seed_arg
from .compare import read_tables

__all__ = ["add_arguments", "run", "read_metrics_json", "format_table"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``seeds``."""
    p.add_argument("runs", type=input_file, nargs="+", metavar="METRICS_JSON",
                   help="two or more metrics JSON files, one per run")
    p.add_argument("--metric", action="append", dest="metrics", metavar="NAME",
                   help="a metric named as in 'evaluate --json', e.g. nis.nis_tok.f "
                        "(repeatable; default: nis.nis_tok.f, nis.nis_ex.f, "
                        "starsem.scopes_cue_match_b.f)")
    p.add_argument("--gold", type=input_file, help="the gold *SEM file of the runs' system files")
    p.add_argument("--system", type=input_file, nargs="+", dest="systems", metavar="SYSTEM",
                   help="the runs' system *SEM files, in the order of the JSON files")
    p.add_argument("--samples", type=bounded_int("--samples", 1, MAX_SAMPLES), default=10000,
                   help=f"bootstrap samples (default 10000, at most {MAX_SAMPLES})")
    p.add_argument("--seed", type=seed_arg, default=0, help="random seed (default 0; 0 to 2**32-1)")
    p.add_argument("--confidence", type=float, default=0.95,
                   help="coverage of the interval (default 0.95)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (fractions)")


def read_metrics_json(path: Path) -> Any:
    """A parsed metrics JSON file.

    path (Path): the file.
    RETURNS (Any): the parsed document.
    RAISES (FileNotFoundError): no such file (E130).
    RAISES (NegationFormatError): not a regular file (E210, E970; never opened), unreadable
        or invalid JSON (E706, with the line), JSON nested too deeply or with an integer of
        more digits than Python converts (E706).
    """
    import json

    from ..errors import NegationFormatError
    from ..util import read_utf8

    text = read_utf8(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise NegationFormatError(Errors.E706.format(path=path, line=err.lineno, reason=err.msg),
                                  path, err.lineno) from None
    except RecursionError:
        raise NegationFormatError(Errors.E706.format(path=path, line=1, reason="nested too deeply"),
                                  path, 1) from None
    except ValueError as err:  # an integer of more than 4300 digits
        raise NegationFormatError(Errors.E706.format(path=path, line=1, reason=err), path, 1) from None


def format_table(doc: Dict[str, Any]) -> str:
    """The summary table (percentages).

    doc (Dict[str, Any]): the ``--json`` document.
    RETURNS (str): the table, ending with a newline.
    """
    pooled = doc["systems"] is not None
    head = ["metric", "runs", "mean (%)", "sd"] + (["CI low", "CI high"] if pooled else [])
    rows = []
    for name, s in doc["metrics"].items():
        row = [name, str(len(s["values"])), pct(s["mean"]), pct(s["sd"])]
        if pooled:
            row += [pct(s["ci"]["low"]), pct(s["ci"]["high"])]
        rows.append(row)
    title = (f"Over {len(doc['runs'])} runs: mean and sample standard deviation (points)"
             + (f"; {doc['confidence'] * 100:g}% pooled bootstrap interval of the mean over "
                f"sentences ({doc['samples']} samples, seed {doc['seed']})" if pooled else ""))
    return "\n".join([title, *text_table(head, rows, left=1, rule=True)]) + "\n"


def run(args: argparse.Namespace) -> int:
    """Mean and sample standard deviation of metrics over runs, from one 'evaluate --json'
    document per run; with --gold and the runs' system files, also the pooled bootstrap
    interval of the mean over sentences."""
    from ..metrics.compare import DEFAULT_METRICS, families_of
    from ..metrics.seeds import check_runs_match, metric_value, pooled_interval, seed_summary

    if len(args.runs) < 2:
        raise ValueError(Errors.E709.format(n=len(args.runs)))
    if (args.systems is None) != (args.gold is None):
        raise ValueError(Errors.E712)
    if args.systems is not None and len(args.systems) != len(args.runs):
        raise ValueError(Errors.E710.format(n=len(args.systems), m=len(args.runs)))
    metrics = list(dict.fromkeys(args.metrics or DEFAULT_METRICS))
    documents = [(str(p), read_metrics_json(p)) for p in args.runs]
    values = {m: [metric_value(d, m, name) for name, d in documents] for m in metrics}
    tables: List[Any] = []
    if args.systems is not None:
        tables = [t for _, t in read_tables(args.gold, args.systems, families_of(metrics))]
        names = [(str(j), str(s)) for j, s in zip(args.runs, args.systems)]
        for m in metrics:
            check_runs_match(m, values[m], tables, names)
    summaries = {m: seed_summary(m, values[m], pooled_interval(
        tables, m, samples=args.samples, seed=args.seed, confidence=args.confidence)
        if tables else None) for m in metrics}
    doc = {"runs": [name for name, _ in documents],
           "systems": None if args.systems is None else [str(p) for p in args.systems],
           "samples": args.samples, "seed": args.seed, "confidence": args.confidence,
           "metrics": {m: s.as_dict() for m, s in summaries.items()}}
    if args.json:
        import json

        print(json.dumps(doc, indent=2))
    else:
        print(format_table(doc), end="")
    return 0
