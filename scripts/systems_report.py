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
"scope_outcomes", "significance", "goal" and "backbones" (:func:`systems_lib.build_report`;
a system trained on another backbone or other training data, folder
``RUNS/{corpus}/{system}@{label}``, is a
system of its own, compared with the same system on the default backbone), and
with ``--speed`` "speed_one_run": the systems' speed measured in one run of
``bench/bench_systems.py --json`` (:func:`systems_lib.read_speed_bench`); with
``--distilled`` "distilled": the default general model against a student distilled from
another teacher, from ``scripts/general_compare.py``'s JSON (:func:`general_compare.read_comparison`).
All inputs are read and checked before the first file is written; each file is written
atomically.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from spacy_negation.errors import NegationFormatError
from spacy_negation.metrics.core import pct
from spacy_negation.util import atomic_write_text

from general_compare import NAMES as SPLIT_NAMES, read_comparison
from systems_lib import (ALL_SYSTEMS, CORPORA, CROSS_PAIRS, CUE_TYPES, MEASURES, SCOPE_COMPONENT, SCOPE_OUTCOMES,
                         SYSTEMS, TRAINED, VARIANT_DESCRIPTIONS, build_report, find_runs, read_speed_bench,
                         read_summary, split_system, summarize_run, summary_name)

CORPUS_NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review"}
SYSTEM_NAMES = {"punct_baseline": "Punct-BL (gold cues)", "bilstm_tagger": "BiLSTM-Tagger",
                "negbert": "NegBERT", "dp_direct": "DP-direct", "dp_nested": "DP-nested",
                "dp_direct_synt": "DP-direct-synt", "dp_nested_synt": "DP-nested-synt"}
PUBLISHED_LABELS = {"punct_baseline": "Punct-BL"}
MEASURE_NAMES = {"cues_b_f": "Cues-B F1", "scm_b_f": "SCM-B F1", "st_f": "Scope-tokens F1",
                 "nis_tok_f": "NIS_tok F1", "nis_ex_f": "NIS_ex F1"}


def system_name(name: str) -> str:
    """The printed name of a system of ALL_SYSTEMS (``negbert@mpnet`` -> ``NegBERT@mpnet``)."""
    system, label = split_system(name)
    return SYSTEM_NAMES[system] + ("" if label is None else f"@{label}")


def _present(systems: Sequence[str], *cells: Mapping[str, Any]) -> List[str]:
    """The systems of the default backbone, then those on other backbones that have a cell."""
    return [s for s in systems if split_system(s)[1] is None or any(s in c for c in cells)]


def collect(runs_dir: Path, gold_dir: Path, summaries_dir: Path
            ) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    """The summaries of the finished runs in runs_dir, and those of the committed
    summaries whose run folder is not there.

    RETURNS (Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]): (fresh, kept).
    RAISES (ValueError, NegationFormatError): a bad run or summary (the messages of
        systems_lib.py; E2xx of the package).
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


def _mean_sd(cell: Optional[Mapping[str, Any]], key: str) -> str:
    if cell is None:
        return "-"
    mean, sd = cell["mean"][key], cell["sd"][key]
    return pct(mean) + ("" if sd is None else f" ± {pct(sd)}")


def _rows(cells: Mapping[str, Any], published: Mapping[str, Mapping[str, float]],
          systems: Sequence[str] = SYSTEMS, extra: Optional[Mapping[str, List[str]]] = None) -> List[str]:
    """Table rows: ours (mean ± sd, the seeds' count, extra cells), then the published."""
    lines = []
    width = 0
    for system in systems:
        cell = cells.get(system)
        seeds = "-" if cell is None else f"{len(cell['seeds'])}"
        more = list((extra or {}).get(system, []))
        width = len(more)
        lines.append("| " + " | ".join([system_name(system), seeds] + [_mean_sd(cell, k) for k in MEASURES]
                                       + more) + " |")
    for system, values in published.items():
        row = [f"{PUBLISHED_LABELS.get(system, SYSTEM_NAMES[system])} (published)", ""]
        row += [f"{values[k] * 100:.1f}" if k in values else "-" for k in MEASURES]
        lines.append("| " + " | ".join(row + [""] * width) + " |")
    return lines


def _cue_type_lines(cue_types: Mapping[str, Any]) -> List[str]:
    """The section on test cues by type (none without counts)."""
    if not cue_types:
        return []
    lines = ["## Cues by type (test)", "",
             "The gold cue instances of each type (*normal*: one word; *multiword*: two or more "
             "tokens; *affixal*: part of a word, as *un* in *unhappy*) that the system finds with "
             "exactly the same cue (mean over its seeds, with the recall), and its cues of that type "
             "that no gold instance has (*spurious*, mean over seeds). Summaries written before these "
             "counts existed are left out (*seeds*).", ""]
    head = "| System | seeds | " + " | ".join(f"{t}: found | {t}: spurious" for t in CUE_TYPES) + " |"
    for corpus in CORPORA:
        cells = cue_types.get(corpus)
        if not cells:
            continue
        lines += [f"### {CORPUS_NAMES[corpus]}", "", head, "|---|---|" + "---|---|" * len(CUE_TYPES)]
        for system, cell in cells.items():
            row = [system_name(system), str(len(cell["seeds"]))]
            for t in CUE_TYPES:
                c = cell[t]
                recall = "" if not c["gold"] else f" ({100 * c['found'] / c['gold']:.1f}%)"
                row += [f"{c['found']:.1f} of {c['gold']}{recall}", f"{c['spurious']:.1f}"]
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return lines


#: The column heads of the scope outcomes.
OUTCOME_NAMES = {"cue_missed": "cue missed", "exact": "exact", "too_short": "too short",
                 "too_long": "too long", "crossing": "crossing"}


def _scope_outcome_lines(outcomes: Mapping[str, Any]) -> List[str]:
    """The section on how the scopes of the gold instances compare (none without counts)."""
    if not outcomes:
        return []
    lines = ["## Where scopes go wrong (test)", "",
             "Each gold instance, paired with a system instance by NIS's exact cue match, by how "
             "the two scopes compare (punctuation removed): *cue missed* (no system instance has "
             "its cue), *exact*, *too short* (some gold scope tokens missing, none added; an empty "
             "system scope included), *too long* (tokens added, none missing), *crossing* (both). "
             "Mean gold instances over the seeds (summaries written before these counts are left "
             "out, *seeds*); each row sums to the gold instances.", "",
             "| Corpus | System | seeds | " + " | ".join(OUTCOME_NAMES[o] for o in SCOPE_OUTCOMES) + " |",
             "|---|---|---|" + "---|" * len(SCOPE_OUTCOMES)]
    for corpus in CORPORA:
        cells = outcomes.get(corpus)
        if not cells:
            continue
        for system, cell in cells.items():
            row = [CORPUS_NAMES[corpus], system_name(system), str(len(cell["seeds"]))]
            row += [f"{cell[o]:.1f}" for o in SCOPE_OUTCOMES]
            lines.append("| " + " | ".join(row) + " |")
    return lines + [""]


def _speed_lines(speed: Optional[Mapping[str, Any]]) -> List[str]:
    """The section on the speed of one ``bench/bench_systems.py`` run (none without it)."""
    if speed is None:
        return []
    load = [speed.get("load_average_start"), speed.get("load_average_end")]
    lines = ["## Speed, one run", "",
             f"One model per system in one run of `bench/bench_systems.py` on `{speed['data']}` "
             f"({speed['docs']} docs, {speed['sentences']} sentences, {speed['words']} words, "
             f"{speed['cue_instances']} gold cue instances), {speed['threads']} torch thread(s), "
             + ("best of the runs" if speed.get("repeat") is None else f"best of {speed['repeat']} run(s)")
             + "; words per CPU-second are the steadier figure on a shared machine "
             "(load average "
             + " and ".join("?" if v is None else f"{v:.2f}" for v in load)
             + " at the start and end). *end to end*: `nlp.pipe` from raw tokens, the scopes of "
             "the predicted cues; the other stages run one component at a time, the scope "
             "components on the gold cues.", "",
             "| System | model | stage | wall s | words/s | CPU s | words/CPU-s |",
             "|---|---|---|---|---|---|---|"]
    for system, entry in speed["systems"].items():
        for row in entry["stages"]:
            lines.append(f"| {SYSTEM_NAMES[system]} | `{entry['path']}` | {row['stage']} | {row['wall_s']:.2f} | "
                         f"{row['words_per_second']:.0f} | {row['cpu_s']:.2f} | {row['words_per_cpu_second']:.0f} |")
    return lines + [""]


def _backbone_lines(backbones: Mapping[str, Any]) -> List[str]:
    """The section on the systems trained on other backbones (none without runs)."""
    if not backbones:
        return []
    present = {split_system(name)[1] for entries in backbones.values() for name in entries}
    labels = "; ".join(f"*{label}*: {VARIANT_DESCRIPTIONS[label]}" for label in VARIANT_DESCRIPTIONS
                       if label in present)
    lines = ["## Other backbones and training data", "",
             f"Each system variant ({labels}) against the same system on the default backbone and "
             "training data, on the test split: the paired tests of *Significance* (A: the system, "
             "B: its variant; each system's seeds pooled), then its mean over seeds against the "
             "best published numbers as in the section above.", ""]
    for corpus in CORPORA:
        for name, entry in backbones.get(corpus, {}).items():
            lines += [f"### {CORPUS_NAMES[corpus]}: {system_name(name)} ({len(entry['seeds'])} seed(s)) "
                      f"against {system_name(entry['against'])}", ""]
            if entry["comparisons"]:
                lines += [f"{entry['samples']} bootstrap samples, {entry['ar_samples']} shuffles, "
                          f"seed {entry['seed']}.", "",
                          "| metric | A (%) | B (%) | B-A | CI low | CI high | p boot | p AR |",
                          "|---|---|---|---|---|---|---|---|"]
                for c in entry["comparisons"]:
                    lines.append(f"| {c['metric']} | {100 * c['value_a']:.2f} | {100 * c['value_b']:.2f} | "
                                 f"{100 * c['diff']:+.2f} | {100 * c['ci_low']:+.2f} | {100 * c['ci_high']:+.2f} | "
                                 f"{c['p_bootstrap']:.4f} | {c['p_ar']:.4f} |")
            else:
                lines.append(f"{system_name(entry['against'])} has no run on {CORPUS_NAMES[corpus]}.")
            lines += ["", "| measure | published best | ours | difference | 95% CI of ours |", "|---|---|---|---|---|"]
            for key, row in entry["measures"].items():
                lines.append(f"| {MEASURE_NAMES[key]} | {100 * row['published']:.1f} "
                             f"({SYSTEM_NAMES[row['published_system']]}) | {100 * row['mean']:.2f} | "
                             f"{100 * row['diff']:+.2f} | {100 * row['ci']['low']:.2f}-{100 * row['ci']['high']:.2f} |")
            lines.append("")
    return lines


def _cross_mean_lines(ours: Mapping[str, Any], published: Mapping[str, Mapping[str, float]]) -> List[str]:
    """The mean over the six pairs of the systems that have all six, then the published."""
    if not ours:
        return []
    lines = ["### Mean over the six pairs", "",
             "Each system's six cells above (seed means) averaged, for the systems that have all six; "
             "*seeds*: the runs of each pair, in the order of the sections above.", "",
             "| System | seeds | " + " | ".join(MEASURE_NAMES.values()) + " |",
             "|---|---|" + "---|" * len(MEASURES)]
    for system in [s for s in ALL_SYSTEMS if s in ours]:
        mean = ours[system]["mean"]
        seeds = "/".join(str(ours[system]["seeds"][p]) for p in CROSS_PAIRS)
        lines.append("| " + " | ".join([system_name(system), seeds]
                                       + [pct(mean[k]) if k in mean else "-" for k in MEASURES]) + " |")
    for system, mean in published.items():
        lines.append("| " + " | ".join([f"{PUBLISHED_LABELS.get(system, SYSTEM_NAMES[system])} (published)", ""]
                                       + [f"{mean[k] * 100:.1f}" if k in mean else "-" for k in MEASURES]) + " |")
    return lines + [""]


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


def _distilled_lines(distilled: Optional[Mapping[str, Any]]) -> List[str]:
    """The section on the default general model and a distilled student (none without it)."""
    if distilled is None:
        return []
    goal = distilled["goal"]
    lines = ["## The default general model and a distilled student", "",
             f"From `{distilled['path']}` (`scripts/general_compare.py`): the general English model "
             "(one pipeline for every corpus, not one of the systems above), A: "
             f"{distilled['a']}, B: {distilled['b']}; each English test split in its corpus's "
             "convention, mean ± sd over each side's seeds; B − A in NIS_tok F1 with the paired "
             "bootstrap interval over sentences"
             + ("." if goal is None else f"; the goal: B at least {goal['min_gain']:.1f} NIS_tok above A."), "",
             "| test split | model | seeds | " + " | ".join(MEASURE_NAMES.values()) + " | NIS_tok B − A (95% CI) |"
             + ("" if goal is None else " goal |"),
             "|---|---|---|" + "---|" * (len(MEASURES) + 1 + (goal is not None))]
    for split, entry in distilled["splits"].items():
        diff = entry["nis_tok_diff"]
        for key in ("a", "b"):
            cell = entry[key]
            row = [SPLIT_NAMES[split], distilled[key], str(len(cell["seeds"]))]
            row += [pct(cell[m]["mean"]) + ("" if cell[m]["sd"] is None else f" ± {pct(cell[m]['sd'])}")
                    for m in MEASURES]
            row.append("" if key == "a" else f"{100 * diff['diff']:+.2f} ({100 * diff['ci_low']:+.2f} to "
                                             f"{100 * diff['ci_high']:+.2f})")
            if goal is not None:
                row.append("" if key == "a" else ("met" if entry["goal_met"] else "not met"))
            lines.append("| " + " | ".join(row) + " |")
    return lines + [""]


def render_markdown(report: Mapping[str, Any]) -> str:
    """The report as Markdown (percent, mean ± sample sd over seeds)."""
    head = "| System | seeds | " + " | ".join(MEASURE_NAMES.values())
    pub = report["published"]
    lines = [
        "# The systems of Sineva et al. (2021) on one backbone",
        "",
        "Every system on the backbone of `configs/negation_trf.cfg` (all-MiniLM-L6-v2), trained "
        "over seeds and evaluated end to end (predicted cues) on the test split, as in Tables 1-3 "
        "of Sineva et al. (2021). Cells are the mean ± the sample standard deviation over the "
        "seeds, in percent (`systems.json` holds fractions); *seeds* is the number of runs, `-` "
        "where there is none (a single run has no sd). Punct-BL uses gold cues and is not "
        "trained (one run). Written by `scripts/systems_report.py`; reproduce with `spacy "
        "project run systems` (docs/systems.md). A row *SYSTEM@LABEL* is the same system "
        "on another backbone (`scripts/systems_run.py --backbone`; *mpnet*: all-mpnet-base-v2, "
        "MPNet-base) or other training data (`--data`; *affixal*: CD-SCO train with affixal cue "
        "copies), compared with its own row in *Other backbones and training data*.",
        "",
        "*words/s*: the annotation speed of `scripts/evaluate_model.py` on the test split "
        "(gold tokens, mean over seeds, CPU shared with other jobs, so not comparable across "
        "rows; the section *Speed, one run* compares the systems in one run); *train min*: "
        "wall minutes of `spacy train`, mean over seeds.",
        "",
        f"Published rows: {pub['citation']} Their NIS_ex column is not printed (`-`).",
        "",
    ]
    trained = [s for s in ALL_SYSTEMS if split_system(s)[0] in TRAINED]
    for corpus in CORPORA:
        cells = report[corpus]
        extra = {}
        for system in _present(ALL_SYSTEMS, cells):
            dev = report["dev"].get(corpus, {}).get(system)
            wps = report["speed"].get(corpus, {}).get(system)
            secs = report["train_seconds"].get(corpus, {}).get(system)
            extra[system] = [_mean_sd(dev, "nis_tok_f"), "-" if wps is None else f"{wps:.0f}",
                             "-" if secs is None else f"{secs / 60:.1f}"]
        lines += [f"## {CORPUS_NAMES[corpus]}, test, in domain", "",
                  head + " | dev NIS_tok F1 | words/s | train min |",
                  "|---|---|" + "---|" * (len(MEASURES) + 3)]
        lines += _rows(cells, pub["in_domain"].get(corpus, {}), _present(ALL_SYSTEMS, cells), extra)
        lines.append("")
    lines += _cue_type_lines(report.get("cue_types", {}))
    lines += _scope_outcome_lines(report.get("scope_outcomes", {}))
    lines += ["## Scope resolution on gold cues (test)", "",
              "The scope component alone on the gold cues (`evaluate_model.py --gold-cues`), for "
              "the systems that have one.", ""]
    for corpus in CORPORA:
        cells = report["scope_only"].get(corpus, {})
        lines += [f"### {CORPUS_NAMES[corpus]}", "", head + " |", "|---|---|" + "---|" * len(MEASURES)]
        lines += _rows(cells, {}, _present([s for s in ALL_SYSTEMS if split_system(s)[0] in SCOPE_COMPONENT],
                                            cells))
        lines.append("")
    lines += _speed_lines(report.get("speed_one_run"))
    lines += ["## Cross-domain (Table 3)", "",
              "Each in-domain model on the other corpora's test splits, no extra training.", ""]
    for train in CORPORA:
        for test in CORPORA:
            if train == test:
                continue
            pair = f"{train}->{test}"
            cells = report["cross_domain"].get(pair, {})
            lines += [f"### Trained on {CORPUS_NAMES[train]}, tested on {CORPUS_NAMES[test]}", "",
                      head + " |", "|---|---|" + "---|" * len(MEASURES)]
            lines += _rows(cells, pub["cross_domain"].get(pair, {}), _present(trained, cells))
            lines.append("")
    lines += _cross_mean_lines(report.get("cross_domain_mean", {}), pub.get("cross_domain_mean", {}))
    lines += ["## Significance", "",
              "Per corpus, the best system (highest mean dev NIS_tok F1 over its seeds, end-to-end "
              "systems only) against each other end-to-end system on the test split: paired "
              "bootstrap and approximate randomization over sentences (`python -m spacy_negation "
              "compare`'s tests), each system's per-sentence counts averaged over its seeds, so A "
              "and B below are the scores of those pooled counts, not the seed means. B-A with its "
              "95% interval in points; two-sided p-values.", ""]
    for corpus in CORPORA:
        entry = report["significance"].get(corpus)
        lines += [f"### {CORPUS_NAMES[corpus]}", ""]
        if entry is None:
            lines += ["No run with dev scores yet.", ""]
            continue
        lines.append(f"Best on dev: **{SYSTEM_NAMES[entry['best']]}** (mean dev NIS_tok F1 "
                     f"{100 * entry['dev_nis_tok_f']:.2f}).")
        if not entry["comparisons"]:
            lines += ["", "No other system has a run yet.", ""]
            continue
        lines += ["", f"{entry['samples']} bootstrap samples, {entry['ar_samples']} shuffles, seed {entry['seed']}.", "",
                  "| metric | B | A (%) | B (%) | B-A | CI low | CI high | p boot | p AR |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for c in entry["comparisons"]:
            lines.append(f"| {c['metric']} | {system_name(c['b'])} | {100 * c['value_a']:.2f} | "
                         f"{100 * c['value_b']:.2f} | {100 * c['diff']:+.2f} | {100 * c['ci_low']:+.2f} | "
                         f"{100 * c['ci_high']:+.2f} | {c['p_bootstrap']:.4f} | {c['p_ar']:.4f} |")
        lines.append("")
    lines += ["## Against the best published numbers", "",
              "The best system of each corpus (on dev, as above): its mean over seeds on the test "
              "split against the best number of each column that Sineva et al. (2021) publish "
              "for a trained system on that corpus, with the 95% bootstrap interval of our mean "
              "over test sentences (the seeds' system files resampled together, `python -m "
              "spacy_negation seeds`' pooled interval).", "",
              "| corpus | measure | published best | ours | difference | 95% CI of ours |",
              "|---|---|---|---|---|---|"]
    for corpus in CORPORA:
        goal = report["goal"].get(corpus)
        if goal is None:
            continue
        ours = f"{SYSTEM_NAMES[goal['system']]}, {len(goal['seeds'])} seed(s)"
        for key, row in goal["measures"].items():
            lines.append(f"| {CORPUS_NAMES[corpus]} | {MEASURE_NAMES[key]} | {100 * row['published']:.1f} "
                         f"({SYSTEM_NAMES[row['published_system']]}) | {100 * row['mean']:.2f} ({ours}) | "
                         f"{100 * row['diff']:+.2f} | {100 * row['ci']['low']:.2f}-{100 * row['ci']['high']:.2f} |")
    lines += [""] + _backbone_lines(report.get("backbones", {}))
    lines += _distilled_lines(report.get("distilled"))
    lines += ["## Training configs", "", "| corpus | system | config and overrides |", "|---|---|---|"]
    for corpus in CORPORA:
        for system in trained:
            config = report["configs"].get(corpus, {}).get(system)
            if config is not None:
                lines.append(f"| {CORPUS_NAMES[corpus]} | {system_name(system)} | `{config}` |")
    lines.append("")
    return "\n".join(lines)


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
        print(f"error: {err}", file=sys.stderr)
        return 1
    markdown = render_markdown(report)
    for summary in fresh:
        path = args.summaries_dir / summary_name(summary["corpus"], summary["system"], summary["seed"])
        atomic_write_text(path, summary_text(summary))
    atomic_write_text(args.out_dir / "systems.json", json.dumps(report, indent=2) + "\n")
    atomic_write_text(args.out_dir / "systems.md", markdown)
    print(f"{len(fresh)} runs read, {len(kept)} from summaries; wrote {args.out_dir}/systems.{{json,md}}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
