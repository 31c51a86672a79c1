"""Report the systems of Sineva et al. (2021) trained over seeds: results/systems.md and
results/systems.json, and one committed summary per finished run.

python scripts/systems_report.py [--runs-dir training/systems] [--gold-dir RUNS/gold]
    [--summaries-dir results/systems/runs] [--out-dir results] [--samples 10000]
    [--ar-samples 10000] [--seed 0] [--speed results/systems/speed.json]
    [--distilled results/general_mpnet.json]

Reads every finished run of ``scripts/systems_run.py`` (``RUNS/{corpus}/{system}/seed{N}``
with ``test.json``; partial grids are normal) and writes its summary to
``SUMMARIES/{corpus}__{system}__seed{N}.json`` (scores of dev, test, cross-domain and gold
cues, speed, training time, config, per-sentence test counts). Runs whose folder is gone
are taken from their committed summaries, so the report rebuilds from the summaries alone
when ``training/`` is absent. The JSON's shape (fractions):
``{CORPUS: {SYSTEM: {"seeds", "mean", "sd"}}, "cross_domain": {"TRAIN->TEST": ...},
"published": ...}`` plus "scope_only", "dev", "speed", "train_seconds", "configs", "cue_types",
"scope_outcomes", "significance", "goal" and "backbones" (:func:`systems_stats.build_report`;
a system trained on another backbone or other training data, folder
``RUNS/{corpus}/{system}@{label}``, is a
system of its own, compared with the same system on the default backbone), and
with ``--speed`` "speed_one_run": the systems' speed measured in one run of
``bench/bench_systems.py --json`` (:func:`systems_inputs.read_speed_bench`); with
``--distilled`` "distilled": the default general model against a student distilled from
another teacher, from ``scripts/general_compare.py``'s JSON (:func:`general_compare.read_comparison`).
All inputs are read and checked before the first file is written; each file is written
atomically. The Markdown: :func:`systems_markdown.render_markdown`.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from spacy_negation.errors import NegationFormatError
from spacy_negation.util import atomic_write_text

from general_compare import read_comparison
from report_lib import fail, write_report
from systems_grid import ALL_SYSTEMS, CORPORA, MEASURES
from systems_inputs import find_runs, read_speed_bench, read_summary, summarize_run, summary_name
from systems_markdown import render_markdown
from systems_stats import build_report


def collect(runs_dir: Path, gold_dir: Path, summaries_dir: Path
            ) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """The summaries of the finished runs in runs_dir, and those of the committed
    summaries whose run folder is not there.

    RETURNS (Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]): (fresh, kept).
    RAISES (ValueError, NegationFormatError): a bad run or summary (the messages of
        systems_inputs.py; E2xx of the package).
    """
    if runs_dir.is_dir():
        known = {*CORPORA, gold_dir.name} if gold_dir.parent == runs_dir else set(CORPORA)
        for path in sorted(runs_dir.iterdir()):
            if path.name not in known:
                print(f"note: {path} is not a corpus of the grid; not read", file=sys.stderr)
        for corpus in CORPORA:
            if (runs_dir / corpus).is_dir():
                for path in sorted((runs_dir / corpus).iterdir()):
                    if path.name not in ALL_SYSTEMS:
                        print(f"note: {path} is not a system of the grid; not read", file=sys.stderr)
    fresh = [summarize_run(folder, corpus, system, seed, gold_dir)
             for corpus, system, seed, folder in (find_runs(runs_dir) if runs_dir.is_dir() else [])]
    names = {summary_name(s["corpus"], s["system"], s["seed"]) for s in fresh}
    kept = [read_summary(path) for path in sorted(summaries_dir.glob("*.json"))
            if path.name not in names] if summaries_dir.is_dir() else []
    return fresh, kept


def distilled_rows(path: Path) -> Dict[str, Any]:
    """The report's "distilled": per English test split each side's seeds and measures (mean,
    sd) and B - A in NIS_tok F1 (the difference of the means) with the paired test's 95%
    interval, from a comparison JSON."""
    doc = read_comparison(path)
    metric = MEASURES["nis_tok_f"][1]
    splits = {}
    for split, entry in doc["splits"].items():
        test = next(c for c in entry["comparisons"] if c.get("metric") == metric)
        splits[split] = {**{key: {"seeds": entry[key]["seeds"],
                                  **{m: {"mean": entry[key][m]["mean"], "sd": entry[key][m].get("sd")}
                                     for m in MEASURES}} for key in ("a", "b")},
                         "nis_tok_diff": {"diff": entry["diff"]["nis_tok_f"], "ci_low": test["ci_low"],
                                          "ci_high": test["ci_high"]},
                         "goal_met": entry.get("goal_met")}
    return {"path": str(path), "a": doc["a"]["label"], "b": doc["b"]["label"], "goal": doc.get("goal"),
            "splits": splits}


def summary_text(summary: Mapping[str, Any]) -> str:
    """A run summary as JSON text, one top-level key a line (small diffs, compact rows)."""
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in summary.items()) + "\n}\n"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs-dir", type=Path, default=Path("training/systems"))
    parser.add_argument("--gold-dir", type=Path, default=None,
                        help="the gold test files (default: RUNS/gold, written by systems_run.py)")
    parser.add_argument("--summaries-dir", type=Path, default=Path("results/systems/runs"))
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    parser.add_argument("--samples", type=int, default=10000, help="bootstrap samples")
    parser.add_argument("--ar-samples", type=int, default=10000, help="approximate randomization shuffles")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the tests")
    parser.add_argument("--speed", type=Path, default=None,
                        help="the systems' speed in one run (bench/bench_systems.py --json)")
    parser.add_argument("--distilled", type=Path, default=None,
                        help="the default general model against a distilled student (scripts/general_compare.py's JSON)")
    args = parser.parse_args(argv)
    gold_dir = args.gold_dir if args.gold_dir is not None else args.runs_dir / "gold"
    try:
        fresh, kept = collect(args.runs_dir, gold_dir, args.summaries_dir)
        report = build_report(fresh + kept, samples=args.samples, ar_samples=args.ar_samples,
                              seed=args.seed)
        if args.speed is not None:
            report["speed_one_run"] = read_speed_bench(args.speed)
        if args.distilled is not None:
            report["distilled"] = distilled_rows(args.distilled)
    except (ValueError, NegationFormatError, FileNotFoundError) as err:
        return fail(err)
    markdown = render_markdown(report)
    for summary in fresh:
        path = args.summaries_dir / summary_name(summary["corpus"], summary["system"], summary["seed"])
        atomic_write_text(path, summary_text(summary))
    write_report(args.out_dir, "systems", report, markdown)
    print(f"{len(fresh)} runs read, {len(kept)} from summaries; wrote {args.out_dir}/systems.{{json,md}}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
