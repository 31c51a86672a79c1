"""results/NAME.md and results/NAME.json: two trainings of the general model over seeds side
by side on the English test splits, e.g. the default model's student distilled from the
6-layer MiniLM teacher (A) against the same student distilled from an MPNet-base teacher (B).

python scripts/general_compare.py --a "MiniLM teacher=metrics/general" \
    --b "MPNet teacher=metrics/general_mpnet" [--single "MPNet teacher itself=metrics/general_teacher_mpnet"] \
    --gold cdsco=corpus/test.spacy --gold bioscope=corpus/bioscope/test.spacy \
    --gold sfu=corpus/sfu/test.spacy --gold bioscope_clinical=corpus/bioscope_clinical/test.spacy \
    [--goal 1.0] --name general_mpnet --out-dir results

Each of A and B is a folder of seeds as ``scripts/general_seeds.py evaluate`` writes it:
``DIR/seedN/on_SPLIT.json`` (scores) and ``DIR/seedN/on_SPLIT.txt`` (the system *SEM file).
Per split: the mean and sample standard deviation over the seeds of each measure, the
difference of the means (B - A), and the paired bootstrap and approximate randomization
tests over sentences with each side's per-sentence counts averaged over its seeds
(:func:`spacy_negation.metrics.compare.compare`; Koehn 2004, Berg-Kirkpatrick et al. 2012),
as the systems report compares systems over seeds. The goal (``--goal``, NIS_tok F1 points)
holds on a split when B's mean NIS_tok exceeds A's by at least that much; without it the
report states no goal (a change made for another reason than accuracy). A ``--single``
folder (``DIR/on_SPLIT.json``, one run, e.g. the teacher) adds its scores as a row of its
own. A gold file is a .spacy file (written as *SEM, untagged tokens tagged for the
punctuation rule as ``evaluate_model.py --tag-punct`` does) or a *SEM file.
Writes nothing it did not read or count; a missing file is an error naming it.
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy

from spacy_negation.metrics.compare import CountTable, compare
from spacy_negation.metrics.core import markdown_table, pct

from report_lib import fail, mean_sd, write_report
from systems_grid import MEASURES
from systems_inputs import count_run, read_pairs, read_scores
from systems_stats import average_tables
from systems_run import write_starsem_gold

NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review",
         "bioscope_clinical": "BioScope clinical"}
LABELS = {"cues_b_f": "Cues-B F1", "scm_b_f": "SCM-B F1", "st_f": "Scope-tokens F1",
          "nis_tok_f": "NIS_tok F1", "nis_ex_f": "NIS_ex F1"}
GOAL_MEASURE = "nis_tok_f"
BAD_COMPARISON = "{path}: not a comparison written by scripts/general_compare.py ({reason})."


class InputError(ValueError):
    """A missing or unreadable input (the message names the file)."""


def parse_named(text: str) -> Tuple[str, str]:
    """LABEL=VALUE."""
    label, sep, value = text.partition("=")
    if not sep or not label or not value:
        raise argparse.ArgumentTypeError(f"expected LABEL=PATH, got {text!r}")
    return label, value


def seed_folders(folder: Path) -> Dict[int, Path]:
    """The seedN folders under a metrics folder, by seed."""
    found = {int(p.name[4:]): p for p in folder.glob("seed*") if p.is_dir() and p.name[4:].isdigit()}
    if not found:
        raise InputError(f"{folder}: no seedN folder (scripts/general_seeds.py evaluate writes them)")
    return dict(sorted(found.items()))


def gold_starsem(path: Path, work: Path, split: str) -> Path:
    """A *SEM gold file: the file itself, or a .spacy file written as *SEM."""
    if not path.is_file():
        raise InputError(f"{path}: the gold file of {split} is missing")
    if path.suffix != ".spacy":
        return path
    out = work / f"{split}_gold.txt"
    write_starsem_gold(path, out, tag=True)
    return out


def _read_scores(path: Path) -> Dict[str, float]:
    if not path.is_file():
        raise InputError(f"{path}: missing (run scripts/general_seeds.py evaluate)")
    return read_scores(path)["scores"]


def summarize(values: Sequence[float]) -> Dict[str, Any]:
    arr = numpy.asarray(values, dtype=float)
    return {"values": [float(v) for v in arr], "mean": float(arr.mean()),
            "sd": float(arr.std(ddof=1)) if len(arr) > 1 else None}


def side(folder: Path, split: str, gold: Path) -> Tuple[Dict[str, Any], CountTable]:
    """One side's seeds on a split: the measures over seeds and the per-sentence counts
    averaged over the seeds."""
    seeds = seed_folders(folder)
    scores = {seed: _read_scores(path / f"on_{split}.json") for seed, path in seeds.items()}
    tables = []
    for seed, path in seeds.items():
        system = path / f"on_{split}.txt"
        if not system.is_file():
            raise InputError(f"{system}: missing (run scripts/general_seeds.py evaluate)")
        tables.append(count_run(read_pairs(gold, system)))
    pooled = average_tables(tables, split, str(folder))
    cell = {"seeds": list(seeds), **{m: summarize([scores[s][m] for s in seeds]) for m in MEASURES}}
    return cell, pooled


def build(a: Tuple[str, Path], b: Tuple[str, Path], golds: Dict[str, Path], singles: Sequence[Tuple[str, Path]],
          goal: Optional[float], samples: int, ar_samples: int, seed: int) -> Dict[str, Any]:
    doc: Dict[str, Any] = {"a": {"label": a[0], "dir": str(a[1])}, "b": {"label": b[0], "dir": str(b[1])},
                           "goal": None if goal is None else {"measure": GOAL_MEASURE, "min_gain": goal},
                           "samples": samples,
                           "ar_samples": ar_samples, "seed": seed, "splits": {}, "single": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for split, gold_path in golds.items():
            gold = gold_starsem(gold_path, Path(tmp), split)
            cell_a, table_a = side(a[1], split, gold)
            cell_b, table_b = side(b[1], split, gold)
            comparisons = compare([(a[0], table_a), (b[0], table_b)], [metric for _, metric in MEASURES.values()],
                                  samples=samples, ar_samples=ar_samples, seed=seed)
            diff = {m: cell_b[m]["mean"] - cell_a[m]["mean"] for m in MEASURES}
            doc["splits"][split] = {"a": cell_a, "b": cell_b, "diff": diff,
                                    "comparisons": [c.as_dict() for c in comparisons]}
            if goal is not None:
                doc["splits"][split]["goal_met"] = diff[GOAL_MEASURE] * 100 >= goal - 1e-9
    for label, folder in singles:
        doc["single"][label] = {"dir": str(folder),
                                **{split: _read_scores(folder / f"on_{split}.json") for split in golds}}
    return doc


def render(doc: Dict[str, Any]) -> str:
    a, b = doc["a"]["label"], doc["b"]["label"]
    lines = [f"# {b} against {a}", "",
             f"A = {a} (`{doc['a']['dir']}`), B = {b} (`{doc['b']['dir']}`); each English test split in its "
             "corpus's convention; mean ± sample sd over the seeds; B − A the difference of the means; the "
             "interval and p-values are the paired bootstrap and approximate randomization over sentences "
             f"with each side's per-sentence counts averaged over its seeds ({doc['samples']} resamples, "
             f"{doc['ar_samples']} shuffles, seed {doc['seed']}). Written by `scripts/general_compare.py`.", ""]
    goal = doc["goal"]
    for split, entry in doc["splits"].items():
        lines += [f"## {NAMES.get(split, split)}", "",
                  f"A seeds {entry['a']['seeds']}, B seeds {entry['b']['seeds']}.", ""]
        by_metric = {c["metric"]: c for c in entry["comparisons"]}
        rows = []
        for key, (_, metric) in MEASURES.items():
            c = by_metric[metric]
            rows.append([LABELS[key], *(mean_sd(entry[side][key]["mean"], entry[side][key]["sd"]) for side in "ab"),
                         pct(entry["diff"][key], signed=True),
                         f"{pct(c['ci_low'], signed=True)} to {pct(c['ci_high'], signed=True)}",
                         f"{c['p_bootstrap']:.4f}", f"{c['p_ar']:.4f}"])
        lines += markdown_table(["measure", "A", "B", "B − A", "95% interval", "p (bootstrap)", "p (AR)"], rows)
        lines.append("")
        if goal is not None:
            lines += [f"Goal (B's mean {LABELS[goal['measure']]} at least {goal['min_gain']:.1f} above A's): "
                      + ("met." if entry["goal_met"] else "not met."), ""]
    if doc["single"]:
        lines += ["## Single runs", ""]
        lines += markdown_table(["split", "run", *(LABELS[m] for m in MEASURES)],
                                [[NAMES.get(split, split), label, *(pct(entry[split][m]) for m in MEASURES)]
                                 for split in doc["splits"] for label, entry in doc["single"].items()])
        lines.append("")
    return "\n".join(lines)


def read_comparison(path: Path) -> Dict[str, Any]:
    """A results/NAME.json that this script wrote, checked for what a reader of it uses: the
    labels of A and B, the goal, and per split each side's seeds and measures (fractions,
    mean and sd), the difference of the means and the paired test of NIS_tok F1, and
    whether the goal is met where one is stated.

    path (Path): the JSON file.
    RETURNS (Dict[str, Any]): the document as :func:`build` made it.
    RAISES (ValueError): not such a file (BAD_COMPARISON).
    """
    def bad(reason: object) -> ValueError:
        return ValueError(BAD_COMPARISON.format(path=path, reason=reason))

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise bad(err) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("splits"), dict) or not doc["splits"]:
        raise bad("no 'splits'")
    for key in ("a", "b"):
        if not isinstance(doc.get(key), dict) or not isinstance(doc[key].get("label"), str):
            raise bad(f"no label of {key!r}")
    goal_metric = MEASURES[GOAL_MEASURE][1]
    for split, entry in doc["splits"].items():
        if split not in NAMES:
            raise bad(f"unknown split {split!r} (known: {', '.join(NAMES)})")
        for key in ("a", "b"):
            cell = entry.get(key) if isinstance(entry, dict) else None
            if not isinstance(cell, dict) or not isinstance(cell.get("seeds"), list) or not cell["seeds"]:
                raise bad(f"{split}: {key!r} has no seeds")
            for measure in MEASURES:
                value = cell.get(measure)
                if not isinstance(value, dict) or not isinstance(value.get("mean"), (int, float)):
                    raise bad(f"{split}: {key!r} has no mean {measure!r}")
        diff = entry.get("diff")
        if not isinstance(diff, dict) or not isinstance(diff.get(GOAL_MEASURE), (int, float)):
            raise bad(f"{split}: no difference of the means of {GOAL_MEASURE!r}")
        if doc.get("goal") is not None and not isinstance(entry.get("goal_met"), bool):
            raise bad(f"{split}: a goal is stated but 'goal_met' is not true or false")
        tests = [c for c in entry.get("comparisons", []) if isinstance(c, dict) and c.get("metric") == goal_metric]
        if not tests or not all(isinstance(tests[0].get(k), (int, float)) for k in ("diff", "ci_low", "ci_high")):
            raise bad(f"{split}: no paired test of {goal_metric!r}")
    return doc


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=parse_named, required=True, metavar="LABEL=DIR", help="the baseline's seeds")
    parser.add_argument("--b", type=parse_named, required=True, metavar="LABEL=DIR", help="the candidate's seeds")
    parser.add_argument("--single", type=parse_named, action="append", default=[], metavar="LABEL=DIR",
                        help="a folder of one run's on_SPLIT.json (repeatable)")
    parser.add_argument("--gold", type=parse_named, action="append", required=True, metavar="SPLIT=FILE",
                        help="a test split's gold .spacy or *SEM file (repeatable)")
    parser.add_argument("--goal", type=float, default=None,
                        help="the least NIS_tok F1 gain of B over A (points) that B aims at; without it no goal is stated")
    parser.add_argument("--name", required=True, help="the output files' name (results/NAME.md, .json)")
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    parser.add_argument("--samples", type=int, default=10000)
    parser.add_argument("--ar-samples", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    golds = {split: Path(path) for split, path in args.gold}
    try:
        doc = build((args.a[0], Path(args.a[1])), (args.b[0], Path(args.b[1])), golds,
                    [(label, Path(path)) for label, path in args.single], args.goal, args.samples,
                    args.ar_samples, args.seed)
    except (InputError, ValueError) as err:
        return fail(err)
    write_report(args.out_dir, args.name, doc, render(doc))
    print(f"wrote {args.out_dir / (args.name + '.md')} and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
