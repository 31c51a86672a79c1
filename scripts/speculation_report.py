"""The general English model with speculation over seeds: results/speculation.json and .md.

python scripts/speculation_report.py --metrics-dir metrics/general_spec --training-dir training/general_spec \
    --general results/general.json [--vs-rules metrics/general_spec/vs_rules/vs_rules.json] --out-dir results

Reads the end-to-end scores of every finished seed (its ``training-finished.json``:
``scripts/general_seeds.py``; ``METRICS_DIR/seedN/on_SPLIT.json``, written by
``general_seeds.py evaluate``; a scores file older than its seed's ``model-best`` is stale
and left out) and writes, per test split that annotates speculation (BioScope abstracts,
BioScope clinical, SFU Review, and BioScope full papers, a domain the model never trains
on), the mean, sample standard deviation and per-seed values (fractions) of the
speculation cue F1 (``spec_cue_f``), scope-token F1 (``spec_st_f``) and CoNLL-2010 scope F1
(``spec_conll2010_f``: cue and both scope boundaries exact), the same of the negation
NIS_tok F1 (``neg_nis_tok_f``) beside the default model's 3-seed mean of
``results/general.json`` (CD-SCO too, under "negation_only_splits"), and the goals of the
speculation work (issue #62) marked met or not.

Optional parts: with ``--vs-rules`` the "is this word uncertain?" comparison of
``bench/bench_vs_rules.py`` (its ``vs_rules.json``: per split "uncertain_word" and the
model's words per second, component alone); where seeds were evaluated on gold cues
(``seedN/on_SPLIT_goldcues.json``: ``general_seeds.py evaluate --gold-cues``), the
speculation scope-token F1 on gold cues beside the end-to-end one, with the published
reference (Khandelwal & Britto 2020) and why it is no comparison.

JSON: {split: {"cue_f", "scope_tokens_f", "conll2010_scope_f", "neg_nis_tok_f":
{"mean", "sd", "seeds"}, "neg_nis_tok_default" (the default's, or null), "negation_held",
"words_per_second" (the evaluation run's, end to end), "uncertain_word": {"model_f",
"context_f", "diff", "ci_low", "ci_high", ...} where ConText was run, "gold_cues":
{"cue_f", "scope_tokens_f", "conll2010_scope_f"} where evaluated}, "negation_only_splits",
"goals" (a list of {"goal", "split", "value", "threshold", "met"}), "seeds", ...}.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from general_seeds import GOLD_CUES_SUFFIX, seed_dirs
from lang_report import fmt, load_meta, measure, seed_scores, speed, summary
from report_lib import fail, write_report
from spacy_negation.metrics.core import markdown_table, pct

#: The test splits that annotate speculation, with their names in the report.
SPEC_SPLITS: Dict[str, str] = {
    "bioscope": "BioScope abstracts",
    "bioscope_clinical": "BioScope clinical",
    "sfu": "SFU Review",
    "bioscope_full_papers": "BioScope full papers",
}
#: The English test splits without speculation annotation: negation only.
NEGATION_ONLY_SPLITS: Dict[str, str] = {"cdsco": "CD-SCO"}
#: Report key -> the flat scores key of the scores files, and its column name.
MEASURES: Tuple[Tuple[str, str, str], ...] = (
    ("cue_f", "spec_cue_f", "Cue F1"),
    ("scope_tokens_f", "spec_st_f", "Scope tokens F1"),
    ("conll2010_scope_f", "spec_conll2010_f", "CoNLL-2010 scope F1"),
)
NEG_KEY = "neg_nis_tok_f"
#: The goals of the speculation scores (issue #62): split, report key, threshold, text.
GOALS: Tuple[Tuple[str, str, float, str], ...] = (
    ("bioscope", "cue_f", 0.90, "speculation cue F1 on BioScope abstracts ≥ 90"),
    ("bioscope_clinical", "cue_f", 0.85, "speculation cue F1 on BioScope clinical ≥ 85"),
    ("sfu", "cue_f", 0.85, "speculation cue F1 on SFU Review ≥ 85"),
    ("bioscope", "scope_tokens_f", 0.90, "speculation scope-token F1 on BioScope abstracts ≥ 90"),
    ("bioscope_full_papers", "conll2010_scope_f", 0.65,
     "CoNLL-2010 speculation scope F1 on BioScope full papers ≥ 65"),
)
#: Negation held: the NIS_tok mean at most this far below the default's 3-seed mean.
NEGATION_WITHIN = 0.005
#: "Is this word uncertain?": the model at least this far above ConText, the interval above 0.
UNCERTAIN_MARGIN = 0.20
UNCERTAIN_SPLITS = ("bioscope", "bioscope_clinical", "sfu")
#: The speed goal of the model with speculation on (words/s, component alone, per split).
SPEED_GOAL = 30000.0
#: The seeds the goals ask for.
GOAL_SEEDS = 3

REFERENCE = {
    "source": "Khandelwal & Britto (2020), NegBERT: speculation scope resolution with gold cues on BioScope "
              "abstracts, a random 70/15/15 split of sentences",
    "bioscope_scope_tokens_f": 0.9787,
}
NOT_COMPARABLE = (
    "Their number is no comparison for ours: they split BioScope abstracts at random by sentence (70/15/15), "
    "so sentences of one abstract (its topic, its wording, often its very hedges) fall in train and test alike, "
    "while this project's committed split is by document (whole abstracts in train, dev or test: "
    "spacy_negation/corpora/data/splits/), so that no test sentence has a sentence of its abstract in training; "
    "the test sentences are others too, and the scope tokens are counted as this project's readers store a "
    "scope (the cue outside its own scope, which BioScope's <xcope> includes).")


def finished_runs(metrics_dir: Path, split: str, seeds: Dict[int, Path]) -> Tuple[Dict[int, Dict[str, Any]], List[int]]:
    """The scores documents ``seedN/on_SPLIT.json`` of the finished seeds, and the seeds whose
    file is stale (older than the seed's ``model-best``: evaluated before it changed)."""
    runs: Dict[int, Dict[str, Any]] = {}
    stale: List[int] = []
    for seed, doc in seed_scores(metrics_dir, split).items():
        if seed not in seeds:
            continue
        path = metrics_dir / f"seed{seed}" / f"on_{split}.json"
        if path.stat().st_mtime < (seeds[seed] / "meta.json").stat().st_mtime:
            stale.append(seed)
            continue
        runs[seed] = doc
    return runs, stale


def default_negation(general: Optional[Dict[str, Any]], split: str) -> Optional[Dict[str, Any]]:
    """The default model's NIS_tok F1 over its seeds in ``results/general.json`` (the
    split's "general_seeds" row, written by ``general_report.py``) as {"mean", "sd",
    "seeds"}; None where there is none."""
    row = (general or {}).get(split, {}).get("general_seeds")
    if not row or "nis_tok_f" not in row.get("mean", {}):
        return None
    return {"mean": float(row["mean"]["nis_tok_f"]), "sd": float(row.get("sd", {}).get("nis_tok_f", 0.0)),
            "seeds": {str(seed): float(scores["nis_tok_f"]) for seed, scores in row.get("runs", {}).items()}}


def negation_entry(runs: Dict[int, Dict[str, Any]], general: Optional[Dict[str, Any]], split: str,
                   path: str) -> Dict[str, Any]:
    """The negation NIS_tok of the seeds, the default's, and whether it held (within 0.5)."""
    ours = measure(runs, NEG_KEY, path)
    default = default_negation(general, split)
    held = None if default is None else bool(ours["mean"] >= default["mean"] - NEGATION_WITHIN - 1e-12)
    return {NEG_KEY: ours, "neg_nis_tok_default": default, "negation_held": held}


def uncertain_entries(vs_rules: Optional[Dict[str, Any]]) -> Dict[str, Dict[str, Any]]:
    """Per split, the "uncertain_word" of bench_vs_rules.py where ConText was run, with the
    model's words per second (its negation pass: component alone)."""
    out: Dict[str, Dict[str, Any]] = {}
    for split, systems in (vs_rules or {}).items():
        word = systems.get("uncertain_word")
        if not word or word.get("context_f") is None:
            continue
        entry = {key: word.get(key) for key in ("model", "model_f", "context_f", "diff", "ci_low", "ci_high",
                                               "targets", "uncertain")}
        if "absent" in word:
            entry["absent"] = word["absent"]
        model = systems.get(word.get("model") or "", {})
        entry["words_per_second"] = model.get("words_per_second")
        out[split] = entry
    return out


def goal(text: str, split: str, value: Optional[float], threshold: float, met: Optional[bool]) -> Dict[str, Any]:
    return {"goal": text, "split": split, "value": value, "threshold": threshold, "met": met}


def build(metrics_dir: Path, training_dir: Path, general: Optional[Dict[str, Any]],
          vs_rules: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The report document (see the module docstring).

    RAISES (ValueError): no finished seed, a speculation split without an evaluated seed,
        a scores file without a measure, a gold-cue file that is not on gold cues.
    """
    seeds = seed_dirs(training_dir, metrics_dir)
    if not seeds:
        raise ValueError(f"no finished seed under {training_dir} (seedN/model-best and {training_dir}/seedN/"
                         "training-finished.json)")
    doc: Dict[str, Any] = {
        "metric": "speculation cue F1, scope-token F1 (*SEM 2012 measures on speculation instances) and the "
                  "CoNLL-2010 scope measure; negation NIS_tok F1; end to end (predicted cues), fractions, "
                  "mean and sample sd over the seeds",
        "seeds": sorted(seeds), "stale": {}, "negation_within": NEGATION_WITHIN}
    uncertain = uncertain_entries(vs_rules)
    missing = []
    for split in SPEC_SPLITS:
        runs, stale = finished_runs(metrics_dir, split, seeds)
        if stale:
            doc["stale"][split] = stale
        if not runs:
            missing.append(split)
            continue
        entry = {key: measure(runs, flat, str(metrics_dir)) for key, flat, _ in MEASURES}
        entry.update(negation_entry(runs, general, split, str(metrics_dir)))
        entry["words_per_second"] = speed(runs)
        if split in uncertain:
            entry["uncertain_word"] = uncertain[split]
        gold_runs, _ = finished_runs(metrics_dir, split + GOLD_CUES_SUFFIX, seeds)
        if gold_runs:
            wrong = [seed for seed, d in gold_runs.items() if d.get("gold_cues") is not True]
            if wrong:
                raise ValueError(f"{metrics_dir}: seedN/on_{split}{GOLD_CUES_SUFFIX}.json of seed(s) {wrong} "
                                 "is not an evaluation on gold cues (its gold_cues is not true)")
            entry["gold_cues"] = {key: measure(gold_runs, flat, str(metrics_dir)) for key, flat, _ in MEASURES}
        doc[split] = entry
    if missing:
        raise ValueError(f"{metrics_dir}: no finished seed evaluated on {', '.join(missing)} (seedN/on_SPLIT.json; "
                         "run general_seeds.py evaluate with those splits)")
    doc["negation_only_splits"] = {}
    for split in NEGATION_ONLY_SPLITS:
        runs, stale = finished_runs(metrics_dir, split, seeds)
        if stale:
            doc["stale"][split] = stale
        if runs:
            doc["negation_only_splits"][split] = negation_entry(runs, general, split, str(metrics_dir))
    doc["goals"] = goals(doc)
    doc["reference"] = {**REFERENCE, "note": NOT_COMPARABLE}
    doc.update(load_meta(metrics_dir))
    return doc


def goals(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The goals of issue #62 that these files can judge, each met or not (None: not measured)."""
    out = [goal(text, split, doc[split][key]["mean"], threshold, doc[split][key]["mean"] >= threshold)
           for split, key, threshold, text in GOALS]
    negation = {**{s: doc[s] for s in SPEC_SPLITS}, **doc["negation_only_splits"]}
    for split in (*NEGATION_ONLY_SPLITS, *SPEC_SPLITS):
        entry = negation.get(split)
        default = entry["neg_nis_tok_default"] if entry else None
        if default is None:
            continue  # no default row to hold to (BioScope full papers; CD-SCO not evaluated)
        name = {**SPEC_SPLITS, **NEGATION_ONLY_SPLITS}[split]
        out.append(goal(f"negation NIS_tok F1 on {name} within 0.5 of the default's {pct(default['mean'])} or better",
                        split, entry[NEG_KEY]["mean"], default["mean"] - NEGATION_WITHIN, entry["negation_held"]))
    for split in UNCERTAIN_SPLITS:
        word = doc[split].get("uncertain_word")
        name = SPEC_SPLITS[split]
        text = f"\"is this word uncertain?\" on {name}: the model ≥ ConText + 20 F1, the interval excluding 0"
        if word is None or word.get("diff") is None:
            out.append(goal(text, split, None, UNCERTAIN_MARGIN, None))
            continue
        out.append(goal(text, split, word["diff"], UNCERTAIN_MARGIN,
                        bool(word["diff"] >= UNCERTAIN_MARGIN and word["ci_low"] > 0)))
        wps = word.get("words_per_second")
        out.append(goal(f"speed with speculation on, {name}: ≥ 30,000 words/s (component alone)", split, wps,
                        SPEED_GOAL, None if wps is None else bool(wps >= SPEED_GOAL)))
    return out


def render(doc: Dict[str, Any]) -> str:
    seeds = doc["seeds"]
    lines = ["# Speculation: the general model resolving hedge cues and scopes beside negation", "",
             "Written by `scripts/speculation_report.py` (how: its docstring). End to end with predicted cues on "
             f"the committed document-level test splits, {len(seeds)} seed(s) ({', '.join(map(str, seeds))}), "
             "mean ± sample sd, percent. BioScope full papers is a domain the model never trains on (as in the "
             "CoNLL-2010 shared task's test, whose best system reached 57.3 with predicted cues).", ""]
    if len(seeds) < GOAL_SEEDS:
        lines += [f"**Provisional:** {len(seeds)} finished seed(s); the goals ask for {GOAL_SEEDS}.", ""]
    for split, stale in doc["stale"].items():
        lines.append(f"- {split}: seed(s) {', '.join(map(str, stale))} left out (scores older than the model: "
                     "evaluate again)")
    if doc["stale"]:
        lines.append("")
    lines += ["## Speculation, end to end", "",
              *markdown_table(["split", *(label for _, _, label in MEASURES), "seeds"],
                              [[name, *(fmt(doc[split][key]) for key, _, _ in MEASURES),
                                str(len(doc[split]["cue_f"]["seeds"]))] for split, name in SPEC_SPLITS.items()],
                              left=1), ""]
    gold = [(split, name) for split, name in SPEC_SPLITS.items() if "gold_cues" in doc[split]]
    if gold:
        lines += ["## Speculation scopes on gold cues", "",
                  "The scope component on the gold speculation (and negation) cues, the cue component off "
                  "(`general_seeds.py evaluate --gold-cues`), beside end to end.", "",
                  *markdown_table(["split", "scope tokens F1, gold cues", "scope tokens F1, end to end",
                                   "CoNLL-2010 scope F1, gold cues", "seeds"],
                                  [[name, fmt(doc[split]["gold_cues"]["scope_tokens_f"]),
                                    fmt(doc[split]["scope_tokens_f"]),
                                    fmt(doc[split]["gold_cues"]["conll2010_scope_f"]),
                                    str(len(doc[split]["gold_cues"]["scope_tokens_f"]["seeds"]))]
                                   for split, name in gold], left=1), "",
                  f"For reference: {REFERENCE['source']}, scope-token F1 {pct(REFERENCE['bioscope_scope_tokens_f'])}. "
                  + NOT_COMPARABLE, ""]
    words = [(split, doc[split]["uncertain_word"]) for split in UNCERTAIN_SPLITS if "uncertain_word" in doc[split]]
    if words:
        lines += ["## Is this word uncertain? Against medspaCy ConText", "",
                  "From `bench/bench_vs_rules.py` (the task: its docstring): F1 of \"uncertain\", the paired bootstrap "
                  "95% interval of the model minus ConText, and the model's words/s (component alone, both kinds in "
                  "one pass).", "",
                  *markdown_table(["split", "model", "model F1", "ConText F1", "difference (95% CI)", "words/s"],
                                  [[SPEC_SPLITS[split], str(w.get("model")), pct(w["model_f"]), pct(w["context_f"]),
                                    "-" if w.get("diff") is None else
                                    f"{pct(w['diff'], signed=True)} ({pct(w['ci_low'], signed=True)} to "
                                    f"{pct(w['ci_high'], signed=True)})",
                                    "-" if w.get("words_per_second") is None else f"{w['words_per_second']:,.0f}"]
                                   for split, w in words], left=2), ""]
        lines += [f"- {SPEC_SPLITS[split]}: {w['absent']}" for split, w in words if "absent" in w]
        if any("absent" in w for _, w in words):
            lines.append("")
    negation = [(name, doc[split]) for split, name in SPEC_SPLITS.items()]
    negation += [(NEGATION_ONLY_SPLITS[split], e) for split, e in doc["negation_only_splits"].items()]
    lines += ["## Negation: held?", "",
              "NIS_tok F1 of negation of these seeds beside the default model's (the seeds of `results/general.json`); "
              "held: within 0.5 points of the default's mean, or better.", "",
              *markdown_table(["split", "this model", "default", "difference", "held"],
                              [[name, fmt(e[NEG_KEY]),
                                "-" if e["neg_nis_tok_default"] is None else fmt(e["neg_nis_tok_default"]),
                                "-" if e["neg_nis_tok_default"] is None else
                                pct(e[NEG_KEY]["mean"] - e["neg_nis_tok_default"]["mean"], signed=True),
                                {True: "yes", False: "no", None: "-"}[e["negation_held"]]] for name, e in negation],
                              left=1), ""]
    lines += ["## Goals", ""]
    for g in doc["goals"]:
        verdict = {True: "PASS", False: "FAIL", None: "NOT MEASURED"}[g["met"]]
        if g["value"] is None:
            value = "not measured"
        elif g["threshold"] == SPEED_GOAL:
            value = f"{g['value']:,.0f} words/s"
        else:
            value = pct(g["value"], signed=g["threshold"] == UNCERTAIN_MARGIN)
        lines.append(f"- {verdict}: {g['goal']} ({value})")
    if len(seeds) < GOAL_SEEDS:
        lines.append(f"- (provisional: {len(seeds)} of {GOAL_SEEDS} seeds)")
    lines.append("")
    return "\n".join(lines)


def read_json(path: Optional[Path], what: str) -> Optional[Dict[str, Any]]:
    """A JSON file given on the command line (None: not given); a missing one is an error."""
    if path is None:
        return None
    if not path.is_file():
        raise ValueError(f"{what} {path} does not exist")
    data: Dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics-dir", type=Path, default=Path("metrics/general_spec"))
    parser.add_argument("--training-dir", type=Path, default=Path("training/general_spec"),
                        help="the seeds' trainings: only finished seeds count")
    parser.add_argument("--general", type=Path, default=Path("results/general.json"),
                        help="the default model's report (its 3-seed negation NIS_tok per split)")
    parser.add_argument("--vs-rules", type=Path, default=None,
                        help="bench_vs_rules.py's vs_rules.json with \"is this word uncertain?\" (optional)")
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    try:
        general = read_json(args.general, "--general")
        vs_rules = read_json(args.vs_rules, "--vs-rules")
        doc = build(args.metrics_dir, args.training_dir, general, vs_rules)
    except ValueError as err:  # no seed, a split not evaluated, a scores file without a measure
        return fail(err)
    write_report(args.out_dir, "speculation", doc, render(doc), ensure_ascii=False)
    print(f"wrote {args.out_dir / 'speculation.json'} and .md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
