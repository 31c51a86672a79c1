"""``evaluate``: score a *SEM system file against a gold file with the three metric
families: *SEM 2012 (eval.cd-sco.pl v2.2 semantics), NIS (Sineva et al. 2021) and FairEval
on negation spans (Ortmann 2022)."""
import argparse
import json
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from ..errors import Errors
from ..starsem import Sentence

FAIR_KEYS = ("TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE", "p", "r", "f")
TRAD_KEYS = ("TP", "FP", "FN", "p", "r", "f")


def add_parser(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser(
        "evaluate", help="score a *SEM system file against a gold file",
        description="Score a *SEM 2012 CoNLL system file against the gold file with the *SEM "
                    "2012 scorer's metrics (eval.cd-sco.pl v2.2), the negation-instance based "
                    "scores (NIS) and FairEval on negation spans. The files must be "
                    "token-aligned (columns 0-3 equal, line by line).")
    p.add_argument("gold", type=Path, help="the gold *SEM file")
    p.add_argument("system", type=Path, help="the system *SEM file")
    p.add_argument("--json", action="store_true",
                   help="print the scores as JSON (fractions; tp = the TP used for P/R)")
    p.add_argument("--starsem-compat", action="store_true",
                   help="print the *SEM table exactly as eval.cd-sco.pl v2.2 does (F1 from "
                        "rounded P/R, the SCM tp in the 'no cue match' rows)")
    p.set_defaults(func=run)


def read_pair(gold_path: Path, system_path: Path) -> Tuple[List[Sentence], List[Sentence]]:
    """Read and align-check a gold and a system file.

    gold_path (Path): the gold file.
    system_path (Path): the system file.
    RETURNS (Tuple[List[Sentence], List[Sentence]]): the gold and system sentences.
    RAISES (FileNotFoundError, NegationFormatError): missing, malformed or misaligned files.
    """
    from ..metrics.starsem_eval import check_alignment
    from ..starsem import read_starsem

    for path in (gold_path, system_path):
        if not Path(path).is_file():
            raise FileNotFoundError(Errors.E130.format(path=path))
    gold = read_starsem(gold_path)
    system = read_starsem(system_path)
    check_alignment(gold, system, gold_path=str(gold_path), system_path=str(system_path))
    return gold, system


def evaluate_sentences(gold: Sequence[Sentence], system: Sequence[Sentence]) -> Dict[str, Any]:
    """All three metric families on aligned sentences.

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences (token-aligned with gold).
    RETURNS (Dict[str, Any]): {"starsem": counts (StarsemCounts), "nis": counts
        (NisCounts), "faireval": the FairEval result dict}.
    """
    from ..metrics import faireval as fe
    from ..metrics.nis import count_nis
    from ..metrics.starsem_eval import count_starsem

    return {
        "starsem": count_starsem(gold, system, check=False),
        "nis": count_nis(gold, system),
        "faireval": fe.faireval([fe.negation_spans(s) for s in gold],
                                [fe.negation_spans(s) for s in system]),
    }


def to_json(results: Dict[str, Any]) -> Dict[str, Any]:
    """The ``--json`` document.

    results (Dict[str, Any]): the output of :func:`evaluate_sentences`.
    RETURNS (Dict[str, Any]): {"starsem": {row: {gold, system, tp, fp, fn, p, r, f}, ...,
        "sentences": {...}}, "nis": {"counts": {...}, "cue"|"nis_tok"|"nis_ex"|"token_mode":
        {p, r, f}}, "faireval": {"traditional", "fair", "weighted", "per_label"}}.
    """
    from ..metrics.nis import nis_scores
    from ..metrics.starsem_eval import starsem_scores

    fe = results["faireval"]
    keys = {"traditional": TRAD_KEYS, "fair": FAIR_KEYS, "weighted": FAIR_KEYS}
    return {
        "starsem": starsem_scores(results["starsem"]),
        "nis": nis_scores(results["nis"]),
        "faireval": {
            **{m: {k: fe[m][k] for k in keys[m]} for m in keys},
            "per_label": {m: {label: {k: v[k] for k in keys[m]}
                              for label, v in fe["per_label"][m].items()} for m in keys},
        },
    }


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
    from ..metrics.nis import format_nis_table, nis_scores
    from ..metrics.starsem_eval import format_starsem_table

    gold, system = read_pair(args.gold, args.system)
    results = evaluate_sentences(gold, system)
    if args.json:
        print(json.dumps(to_json(results), indent=2, sort_keys=False))
        return 0
    title = "*SEM 2012 (eval.cd-sco.pl v2.2" + (
        ", compatible printout)" if args.starsem_compat else
        " counts; exact F1, tp = TP used for P/R)")
    print(title)
    print(format_starsem_table(results["starsem"], compat=args.starsem_compat), end="")
    print()
    print(format_nis_table(nis_scores(results["nis"])), end="")
    print()
    print(format_faireval_table(results["faireval"]), end="")
    return 0
