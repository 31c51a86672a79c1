"""results/clinical.md and results/clinical.json: the clinical and the general model on real
clinical notes, BioScope's radiology reports (Vincze et al. 2008), over training seeds.

python scripts/clinical_report.py bench --seeds 0 1 2
python scripts/clinical_report.py report --out-dir results

``bench``: for every seed trained by both workflows (``training/clinical/seedN`` and
``training/general/seedN``), a copy of each checkpoint set up as its package is
(scripts/model_card.py: both with the sentence prefilter, the general model in its default
convention), then "is this word negated?" on
BioScope clinical test against the rule tools (bench/bench_vs_rules.py, paired bootstrap
intervals against each rule tool) into ``metrics/clinical/vs_rules/seedN/``.

``report``: per model, the mean and sample standard deviation over seeds of the *SEM 2012
measures and NIS on BioScope clinical test in the BioScope convention
(``metrics/MODEL/seedN/on_bioscope_clinical.json``, scripts/general_seeds.py evaluate), and of
the "is this word negated?" F1 and its difference to the best rule tool, with each seed's
paired interval. The project's own invented clinical sentences are reported apart
(results/clinical_invented.md, development only). Writes nothing it did not read.

``report --keep general --previous results/clinical.json``: a model retrained alone (say the
clinical one) is re-reported while the other model's rows are carried over from the previous
report, unchanged and labelled as such; refused if this run measured that model too or if the
best rule tool differs (its differences would be against another tool).
"""
import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import numpy

from spacy_negation.metrics.bootstrap import bootstrap_interval, f1_statistic
from spacy_negation.metrics.core import markdown_table

from report_lib import fail, mean_sd, write_report

SCRIPTS = Path(__file__).resolve().parent
REPO = SCRIPTS.parent
SPLIT = "bioscope_clinical"
GOLD = "corpus/bioscope_clinical/test.spacy"
#: model -> (training folder, metrics folder, package name, model_card.py options of its package)
MODELS: Dict[str, Any] = {
    "clinical": ("training/clinical", "metrics/clinical", "negation_clinical", ["--prefilter"]),
    # as project.yml's package-general packages it (vars.general_prefilter_window)
    "general": ("training/general", "metrics/general", "negation_general",
                ["--prefilter", "--prefilter-window", "15", "40"]),
}
MEASURES = (("Cues-B", "neg_cue_b_f"), ("SCM-B", "neg_scm_b_f"), ("Scope-tokens", "neg_st_f"),
            ("NIS_tok", "neg_nis_tok_f"), ("NIS_ex", "neg_nis_ex_f"))
RULE_NAMES = {"negspacy_en": "negspacy 1.1.0, en", "negspacy_en_clinical": "negspacy 1.1.0, en_clinical",
              "medspacy_context": "medspaCy 1.3.1 ConText"}
#: The goals of the clinical work, F1 points: the clinical model's margin over the best rule
#: tool on "is this word negated?", and its NIS_tok.
GOAL_MARGIN = 5.0
GOAL_NIS_TOK = 90.0


def _run(cmd: List[str]) -> None:
    print("+ " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, cwd=REPO)


def bench(seeds: Sequence[int], version: str, default_convention: str, venv_dir: Optional[Path],
          models: Sequence[str] = tuple(MODELS)) -> int:
    for seed in seeds:
        refs = {}
        for model, (training, metrics, name, options) in MODELS.items():
            if model not in models:
                continue
            best = REPO / training / f"seed{seed}" / "model-best"
            if not (best / "meta.json").is_file():
                return fail(f"{best} is not trained")
            if model == "general":
                options = [*options, "--default-convention", default_convention]
            copy = REPO / training / f"seed{seed}" / "model-package"
            _run([sys.executable, str(SCRIPTS / "model_card.py"), str(best), "--domain", model, "--name", name,
                  "--version", version, *options, "--model-out", str(copy),
                  "--out", str(REPO / metrics / f"seed{seed}" / "package-meta.json")])
            refs[model] = copy
        roles = (["--general", "general"] if "general" in refs else []) + (
            ["--recommend", f"{SPLIT}=clinical"] if "clinical" in refs else [])
        cmd = [sys.executable, str(REPO / "bench" / "bench_vs_rules.py"), "--split", f"{SPLIT}={GOLD}",
               *(arg for model, ref in refs.items() for arg in ("--model", f"{model}={ref}")),
               *roles, "--rows",
               "--out-dir", str(REPO / "metrics" / "clinical" / "vs_rules" / f"seed{seed}")]
        if venv_dir is not None:
            cmd += ["--venv-dir", str(venv_dir)]
        _run(cmd)
    return 0


def _mean_sd(values: Sequence[float]) -> Dict[str, float]:
    return {"mean": statistics.fmean(values), "sd": statistics.stdev(values) if len(values) > 1 else 0.0}


def _seeds(folder: Path, name: str) -> Dict[int, Path]:
    out = {}
    for path in folder.glob(f"seed*/{name}"):
        seed = path.parent.name[4:]
        if seed.isdigit():
            out[int(seed)] = path
    return dict(sorted(out.items()))


def pooled_difference(model_rows: Sequence[Sequence[Sequence[int]]], tool_rows: Sequence[Sequence[int]],
                      resamples: int = 1000, seed: int = 0) -> Dict[str, float]:
    """The mean over training seeds of F1(model) - F1(tool), in points, with its paired
    percentile bootstrap interval over sentences: every resample draws the same sentences
    for all seeds and the tool, and averages the seeds' differences on them.

    model_rows: per seed, (TP, FP, FN) per sentence; tool_rows: the tool's.
    RETURNS (Dict[str, float]): diff, ci_low, ci_high.
    """
    k = len(model_rows)
    table = numpy.hstack([numpy.asarray(rows, dtype=float) for rows in model_rows]
                         + [numpy.asarray(tool_rows, dtype=float)])

    def statistic(totals: numpy.ndarray) -> numpy.ndarray:
        tool = f1_statistic(totals[:, 3 * k:])
        return sum(f1_statistic(totals[:, 3 * s:3 * s + 3]) - tool for s in range(k)) / k

    ci = bootstrap_interval(table, statistic, resamples=resamples, seed=seed)
    return {"diff": 100 * ci.value, "ci_low": 100 * ci.low, "ci_high": 100 * ci.high}


def build(root: Path) -> Dict[str, Any]:
    """The report's numbers, read from the metrics folders under ``root``."""
    report: Dict[str, Any] = {"split": SPLIT, "starsem": {}, "word": {}}
    for model, (_, metrics, _, _) in MODELS.items():
        for split in (SPLIT, "bioscope"):
            files = _seeds(root / metrics, f"on_{split}.json")
            if not files:
                continue
            runs = {seed: json.loads(p.read_text(encoding="utf-8"))["scores"] for seed, p in files.items()}
            report["starsem"].setdefault(model, {})[split] = {
                "seeds": sorted(runs),
                **{key: {**_mean_sd([100 * float(runs[s][key]) for s in runs]),
                         "runs": [100 * float(runs[s][key]) for s in sorted(runs)]} for _, key in MEASURES}}
        selected = root / metrics / "selected.json"
        if selected.is_file():
            report.setdefault("shipped", {})[model] = json.loads(selected.read_text(encoding="utf-8"))["seed"]
    runs = {seed: json.loads(p.read_text(encoding="utf-8"))[SPLIT]
            for seed, p in _seeds(root / "metrics" / "clinical" / "vs_rules", "vs_rules.json").items()}
    if runs:
        first = next(iter(runs.values()))
        rules = [name for name in RULE_NAMES if name in first]
        report["rules"] = {name: {"f": 100 * first[name]["f"], "ci_low": 100 * first[name]["ci_low"],
                                  "ci_high": 100 * first[name]["ci_high"]} for name in rules}
        best_rule = max(rules, key=lambda name: first[name]["f"])
        report["best_rule"] = best_rule
        for model in MODELS:
            role = "recommended" if model == "clinical" else "general"
            seeds = [s for s in runs if model in runs[s]]
            if not seeds:
                continue
            vs = [runs[s][role]["vs"][best_rule] for s in seeds]
            report["word"][model] = {
                "seeds": seeds, "f": _mean_sd([100 * runs[s][model]["f"] for s in seeds]),
                "vs_best_rule": {**_mean_sd([100 * d["diff"] for d in vs]),
                                 "runs": [{"seed": s, "diff": 100 * d["diff"], "ci_low": 100 * d["ci_low"],
                                           "ci_high": 100 * d["ci_high"]} for s, d in zip(seeds, vs)]}}
            rows = {seed: json.loads(p.read_text(encoding="utf-8"))[SPLIT]
                    for seed, p in _seeds(root / "metrics" / "clinical" / "vs_rules", "vs_rules_rows.json").items()}
            if seeds and all(s in rows and model in rows[s] for s in seeds):
                report["word"][model]["vs_best_rule"]["pooled"] = pooled_difference(
                    [rows[s][model] for s in seeds], rows[seeds[0]][best_rule])
    return report


def keep_rows(report: Dict[str, Any], previous: Dict[str, Any], models: Sequence[str]) -> Optional[str]:
    """Carry ``models``' rows over from ``previous`` (a report this script wrote) into ``report``;
    the error message if that cannot be done honestly, else None."""
    for model in models:
        if model in report["starsem"] or model in report["word"]:
            return f"--keep {model}: this run measured {model} itself"
        if model not in previous.get("starsem", {}) and model not in previous.get("word", {}):
            return f"--keep {model}: the previous report has no rows of {model}"
        if model in previous.get("word", {}) and previous.get("best_rule") != report.get("best_rule"):
            return (f"--keep {model}: the previous report's best rule tool ({previous.get('best_rule')}) is not "
                    f"this run's ({report.get('best_rule')})")
        if model in previous.get("starsem", {}):
            report["starsem"][model] = previous["starsem"][model]
        if model in previous.get("word", {}):
            report["word"][model] = previous["word"][model]
        if model in previous.get("shipped", {}):
            report.setdefault("shipped", {})[model] = previous["shipped"][model]
        report.setdefault("kept", []).append(model)
    return None


def _ms(entry: Dict[str, float], signed: bool = False) -> str:
    """An entry's mean ± sd over seeds (in points)."""
    return mean_sd(entry["mean"], entry["sd"], signed, scale=1)


def goals(report: Dict[str, Any]) -> List[str]:
    """The goal lines: each goal, what was reached, met or not."""
    lines = []
    word, starsem = report.get("word", {}), report.get("starsem", {})
    if "clinical" in word:
        vs = word["clinical"]["vs_best_rule"]
        pooled = vs.get("pooled")
        met = vs["mean"] >= GOAL_MARGIN and pooled is not None and pooled["ci_low"] > 0
        pooled_text = (f"pooled over seeds {pooled['diff']:+.2f} ({pooled['ci_low']:+.1f} to {pooled['ci_high']:+.1f})"
                       if pooled else "no pooled interval (run bench again)")
        lines.append(f"- Clinical model ≥ best rule tool + {GOAL_MARGIN:.0f} F1, paired CI excluding 0: "
                     f"{_ms(vs, signed=True)} over {len(vs['runs'])} seeds, {pooled_text}; "
                     f"each seed's own CI excludes 0 in {sum(r['ci_low'] > 0 for r in vs['runs'])} of "
                     f"{len(vs['runs'])}: {'met' if met else 'not met'}")
    if "general" in word:
        vs = word["general"]["vs_best_rule"]
        lines.append(f"- General model at least matches the best rule tool: {_ms(vs, signed=True)} "
                     f"({sum(r['ci_high'] < 0 for r in vs['runs'])} of {len(vs['runs'])} seeds below it with a "
                     f"CI excluding 0): {'met' if vs['mean'] >= 0 and not any(r['ci_high'] < 0 for r in vs['runs']) else 'not met'}")
    if SPLIT in starsem.get("clinical", {}):
        nis = starsem["clinical"][SPLIT]["neg_nis_tok_f"]
        lines.append(f"- Clinical model NIS_tok ≥ {GOAL_NIS_TOK:.0f}: {_ms(nis)}: "
                     f"{'met' if nis['mean'] >= GOAL_NIS_TOK else 'not met'}")
    return lines


def render(report: Dict[str, Any]) -> str:
    """results/clinical.md: the report in percent, mean ± sample sd over seeds."""
    lines = ["# Real clinical notes: BioScope radiology reports", "",
             "Written by `scripts/clinical_report.py` (how: its docstring). BioScope's clinical "
             "sub-corpus (Vincze et al. 2008; radiology reports, words restored from the CMC 2007 "
             "challenge texts by `convert --format bioscope_clinical`), the project's document-level "
             "test split, annotated by the BioScope authors. Mean ± sample sd over training seeds; "
             "percent.", ""]
    if report.get("shipped"):
        lines.append("Shipped seeds (median dev): " + ", ".join(
            f"{model} seed {seed}" for model, seed in report["shipped"].items()) + ".")
        lines.append("")
    if report.get("kept"):
        lines.append("Not re-measured in this run, carried over from the previous report unchanged: "
                     + ", ".join(f"the {model} model's rows" for model in report["kept"]) + ".")
        lines.append("")
    lines += ["## End to end, BioScope convention (*SEM 2012 measures and NIS)", ""]
    lines += markdown_table(["model", "test split", "seeds", *(name for name, _ in MEASURES)],
                            [[model, "BioScope clinical" if split == SPLIT else "BioScope abstracts",
                              str(len(entry["seeds"]))] + [_ms(entry[key]) for _, key in MEASURES]
                             for model, splits in report["starsem"].items() for split, entry in splits.items()])
    if report.get("word"):
        lines += ["", "## Is this word negated? Against the rule tools", "",
                  "The task of `bench/bench_vs_rules.py` (content words as entities, gold tokens and "
                  "sentences); each model set up as its package is (both with the "
                  "sentence prefilter, the general model in its default convention); F1 of \"negated\" with "
                  "its 95% bootstrap interval for the rule tools (the same in every seed's run). Speed: "
                  "results/vs_rules.md.", ""]
        lines += markdown_table(["system", "seeds", "F1"],
                                [[RULE_NAMES[name], "-", f"{rule['f']:.2f} ({rule['ci_low']:.1f}-{rule['ci_high']:.1f})"]
                                 for name, rule in report["rules"].items()]
                                + [[model, str(len(entry["seeds"])), _ms(entry["f"])]
                                   for model, entry in report["word"].items()])
        lines += ["", f"Each model minus the best rule tool ({RULE_NAMES[report['best_rule']]}), F1 points: "
                  "the mean over seeds pooled, its paired bootstrap 95% interval drawing the same sentences "
                  "for every seed and the tool; then per seed with its own paired interval (\"beats\" only "
                  "where it excludes 0):", ""]
        for model, entry in report["word"].items():
            runs = "; ".join(f"seed {r['seed']} {r['diff']:+.1f} ({r['ci_low']:+.1f} to {r['ci_high']:+.1f})"
                             for r in entry["vs_best_rule"]["runs"])
            vs = entry["vs_best_rule"]
            pooled = vs.get("pooled")
            pooled_text = f" (pooled {pooled['ci_low']:+.1f} to {pooled['ci_high']:+.1f})" if pooled else ""
            lines.append(f"- {model}: {_ms(vs, signed=True)}{pooled_text}; {runs}")
    goal_lines = goals(report)
    if goal_lines:
        lines += ["", "## Goals", "", *goal_lines]
    lines += ["", "## The project's own invented sentences (development only)", "",
              "`results/clinical_invented.md` (`bench/bench_clinical.py` on `data/clinical`, written "
              "by the project following its own guidelines) is a development set, not evidence: a model "
              "scoring 100.0 there was level with negspacy on real notes.", ""]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=("bench", "report"))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--version", default="0.1.0")
    parser.add_argument("--default-convention", default="sfu", help="the general package's default convention")
    parser.add_argument("--venv-dir", type=Path, default=None, help="the rule tools' virtualenvs (bench_vs_rules.py)")
    parser.add_argument("--models", nargs="+", choices=list(MODELS), default=list(MODELS),
                        help="bench: these models only (e.g. one retrained alone; its seeds' files are rewritten "
                             "without the others)")
    parser.add_argument("--root", type=Path, default=REPO, help="report: the project folder to read metrics from")
    parser.add_argument("--out-dir", type=Path, default=REPO / "results")
    parser.add_argument("--keep", nargs="+", choices=list(MODELS), default=[],
                        help="report: carry these models' rows over from --previous instead of measuring them")
    parser.add_argument("--previous", type=Path, default=None,
                        help="report: the earlier clinical.json for --keep (default: OUT_DIR/clinical.json)")
    args = parser.parse_args(argv)
    if args.action == "bench":
        return bench(args.seeds, args.version, args.default_convention, args.venv_dir, args.models)
    report = build(args.root)
    if not report["starsem"] and not report["word"]:
        return fail(f"no clinical or general seed evaluated under {args.root}/metrics")
    if args.keep:
        previous_path = args.previous or args.out_dir / "clinical.json"
        try:
            previous = json.loads(previous_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            return fail(f"--keep needs the previous report {previous_path}: {err}")
        problem = keep_rows(report, previous, args.keep)
        if problem is not None:
            return fail(problem)
    write_report(args.out_dir, "clinical", report, render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
