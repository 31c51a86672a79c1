"""results/systems.md: the systems report (:func:`systems_stats.build_report`, with the
sections that ``scripts/systems_report.py --speed`` and ``--distilled`` add) as Markdown, in
percent, mean ± sample sd over seeds.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence

from spacy_negation.metrics.core import markdown_table, pct
from spacy_negation.scoring.counts import CUE_TYPES

from general_compare import NAMES as SPLIT_NAMES
from report_lib import mean_sd
from systems_grid import (ALL_SYSTEMS, CORPORA, CROSS_PAIRS, MEASURES, SCOPE_COMPONENT, SYSTEMS, TRAINED,
                          VARIANT_DESCRIPTIONS, split_system)
from systems_inputs import SCOPE_OUTCOMES

CORPUS_NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review"}
SYSTEM_NAMES = {"punct_baseline": "Punct-BL (gold cues)", "bilstm_tagger": "BiLSTM-Tagger",
                "negbert": "NegBERT", "dp_direct": "DP-direct", "dp_nested": "DP-nested",
                "dp_direct_synt": "DP-direct-synt", "dp_nested_synt": "DP-nested-synt"}
PUBLISHED_LABELS = {"punct_baseline": "Punct-BL"}
MEASURE_NAMES = {"cues_b_f": "Cues-B F1", "scm_b_f": "SCM-B F1", "st_f": "Scope-tokens F1",
                 "nis_tok_f": "NIS_tok F1", "nis_ex_f": "NIS_ex F1"}
#: The column heads of the tables of seed means: the system, its seeds, the measures.
HEAD = ["System", "seeds", *MEASURE_NAMES.values()]
#: The column heads of the scope outcomes.
OUTCOME_NAMES = {"cue_missed": "cue missed", "exact": "exact", "too_short": "too short",
                 "too_long": "too long", "crossing": "crossing"}
#: The column heads of a paired test's values (:func:`_comparison_cells`).
COMPARISON_HEAD = ["A (%)", "B (%)", "B-A", "CI low", "CI high", "p boot", "p AR"]


def system_name(name: str) -> str:
    """The printed name of a system of ALL_SYSTEMS (``negbert@mpnet`` -> ``NegBERT@mpnet``)."""
    system, label = split_system(name)
    return SYSTEM_NAMES[system] + ("" if label is None else f"@{label}")


def _present(systems: Sequence[str], *cells: Mapping[str, Any]) -> List[str]:
    """The systems of the default backbone, then those on other backbones that have a cell."""
    return [s for s in systems if split_system(s)[1] is None or any(s in c for c in cells)]


def _mean_sd(cell: Optional[Mapping[str, Any]], key: str) -> str:
    return "-" if cell is None else mean_sd(cell["mean"][key], cell["sd"][key])


def _published_row(system: str, values: Mapping[str, float], width: int = 0) -> List[str]:
    """A published row: the values as printed (one decimal), no seeds, ``width`` empty cells."""
    return ([f"{PUBLISHED_LABELS.get(system, SYSTEM_NAMES[system])} (published)", ""]
            + [f"{values[k] * 100:.1f}" if k in values else "-" for k in MEASURES] + [""] * width)


def _rows(cells: Mapping[str, Any], published: Mapping[str, Mapping[str, float]],
          systems: Sequence[str] = SYSTEMS, extra: Optional[Mapping[str, List[str]]] = None) -> List[List[str]]:
    """Table rows: ours (mean ± sd, the seeds' count, extra cells), then the published."""
    rows = []
    width = 0
    for system in systems:
        cell = cells.get(system)
        more = list((extra or {}).get(system, []))
        width = len(more)
        rows.append([system_name(system), "-" if cell is None else f"{len(cell['seeds'])}"]
                    + [_mean_sd(cell, k) for k in MEASURES] + more)
    return rows + [_published_row(system, values, width) for system, values in published.items()]


def _comparison_cells(c: Mapping[str, Any]) -> List[str]:
    """The values of a paired test (``compare``'s comparison): A and B in percent, B-A and its
    interval in points, the p-values."""
    return [pct(c["value_a"]), pct(c["value_b"]), pct(c["diff"], signed=True), pct(c["ci_low"], signed=True),
            pct(c["ci_high"], signed=True), f"{c['p_bootstrap']:.4f}", f"{c['p_ar']:.4f}"]


def _goal_cells(row: Mapping[str, Any], ours: str = "") -> List[str]:
    """A measure against the best published number (:func:`systems_stats.goal_rows`): the
    published number and its system, our mean (with ``ours`` after it), the difference and
    the 95% interval of our mean."""
    return [f"{100 * row['published']:.1f} ({SYSTEM_NAMES[row['published_system']]})", pct(row["mean"]) + ours,
            pct(row["diff"], signed=True), f"{pct(row['ci']['low'])}-{pct(row['ci']['high'])}"]


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
    head = ["System", "seeds", *(f"{t}: {what}" for t in CUE_TYPES for what in ("found", "spurious"))]
    for corpus in CORPORA:
        cells = cue_types.get(corpus)
        if not cells:
            continue
        rows = []
        for system, cell in cells.items():
            row = [system_name(system), str(len(cell["seeds"]))]
            for t in CUE_TYPES:
                c = cell[t]
                recall = "" if not c["gold"] else f" ({100 * c['found'] / c['gold']:.1f}%)"
                row += [f"{c['found']:.1f} of {c['gold']}{recall}", f"{c['spurious']:.1f}"]
            rows.append(row)
        lines += [f"### {CORPUS_NAMES[corpus]}", "", *markdown_table(head, rows), ""]
    return lines


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
             "out, *seeds*); each row sums to the gold instances.", ""]
    lines += markdown_table(["Corpus", "System", "seeds", *(OUTCOME_NAMES[o] for o in SCOPE_OUTCOMES)],
                            [[CORPUS_NAMES[corpus], system_name(system), str(len(cell["seeds"]))]
                             + [f"{cell[o]:.1f}" for o in SCOPE_OUTCOMES]
                             for corpus in CORPORA for system, cell in (outcomes.get(corpus) or {}).items()])
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
             "components on the gold cues.", ""]
    lines += markdown_table(["System", "model", "stage", "wall s", "words/s", "CPU s", "words/CPU-s"],
                            [[SYSTEM_NAMES[system], f"`{entry['path']}`", row["stage"], f"{row['wall_s']:.2f}",
                              f"{row['words_per_second']:.0f}", f"{row['cpu_s']:.2f}",
                              f"{row['words_per_cpu_second']:.0f}"]
                             for system, entry in speed["systems"].items() for row in entry["stages"]])
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
                          f"seed {entry['seed']}.", ""]
                lines += markdown_table(["metric", *COMPARISON_HEAD],
                                        [[c["metric"], *_comparison_cells(c)] for c in entry["comparisons"]])
            else:
                lines.append(f"{system_name(entry['against'])} has no run on {CORPUS_NAMES[corpus]}.")
            lines.append("")
            lines += markdown_table(["measure", "published best", "ours", "difference", "95% CI of ours"],
                                    [[MEASURE_NAMES[key], *_goal_cells(row)] for key, row in entry["measures"].items()])
            lines.append("")
    return lines


def _cross_mean_lines(ours: Mapping[str, Any], published: Mapping[str, Mapping[str, float]]) -> List[str]:
    """The mean over the six pairs of the systems that have all six, then the published."""
    if not ours:
        return []
    lines = ["### Mean over the six pairs", "",
             "Each system's six cells above (seed means) averaged, for the systems that have all six; "
             "*seeds*: the runs of each pair, in the order of the sections above.", ""]
    rows = [[system_name(system), "/".join(str(ours[system]["seeds"][p]) for p in CROSS_PAIRS)]
            + [pct(ours[system]["mean"][k]) if k in ours[system]["mean"] else "-" for k in MEASURES]
            for system in ALL_SYSTEMS if system in ours]
    lines += markdown_table(HEAD, rows + [_published_row(system, mean) for system, mean in published.items()])
    return lines + [""]


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
             + ("." if goal is None else f"; the goal: B at least {goal['min_gain']:.1f} NIS_tok above A."), ""]
    rows = []
    for split, entry in distilled["splits"].items():
        diff = entry["nis_tok_diff"]
        for key in ("a", "b"):
            cell = entry[key]
            row = [SPLIT_NAMES[split], distilled[key], str(len(cell["seeds"]))]
            row += [mean_sd(cell[m]["mean"], cell[m]["sd"]) for m in MEASURES]
            row.append("" if key == "a" else f"{pct(diff['diff'], signed=True)} ({pct(diff['ci_low'], signed=True)} "
                                             f"to {pct(diff['ci_high'], signed=True)})")
            if goal is not None:
                row.append("" if key == "a" else ("met" if entry["goal_met"] else "not met"))
            rows.append(row)
    lines += markdown_table(["test split", "model", "seeds", *MEASURE_NAMES.values(), "NIS_tok B − A (95% CI)"]
                            + ([] if goal is None else ["goal"]), rows)
    return lines + [""]


def render_markdown(report: Mapping[str, Any]) -> str:
    """The report as Markdown (percent, mean ± sample sd over seeds)."""
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
        extra: Dict[str, List[str]] = {}
        for system in _present(ALL_SYSTEMS, cells):
            dev = report["dev"].get(corpus, {}).get(system)
            wps = report["speed"].get(corpus, {}).get(system)
            secs = report["train_seconds"].get(corpus, {}).get(system)
            extra[system] = [_mean_sd(dev, "nis_tok_f"), "-" if wps is None else f"{wps:.0f}",
                             "-" if secs is None else f"{secs / 60:.1f}"]
        lines += [f"## {CORPUS_NAMES[corpus]}, test, in domain", ""]
        lines += markdown_table(HEAD + ["dev NIS_tok F1", "words/s", "train min"],
                                _rows(cells, pub["in_domain"].get(corpus, {}), _present(ALL_SYSTEMS, cells), extra))
        lines.append("")
    lines += _cue_type_lines(report.get("cue_types", {}))
    lines += _scope_outcome_lines(report.get("scope_outcomes", {}))
    lines += ["## Scope resolution on gold cues (test)", "",
              "The scope component alone on the gold cues (`evaluate_model.py --gold-cues`), for "
              "the systems that have one.", ""]
    for corpus in CORPORA:
        cells = report["scope_only"].get(corpus, {})
        systems = _present([s for s in ALL_SYSTEMS if split_system(s)[0] in SCOPE_COMPONENT], cells)
        lines += [f"### {CORPUS_NAMES[corpus]}", "", *markdown_table(HEAD, _rows(cells, {}, systems)), ""]
    lines += _speed_lines(report.get("speed_one_run"))
    lines += ["## Cross-domain (Table 3)", "",
              "Each in-domain model on the other corpora's test splits, no extra training.", ""]
    for pair in CROSS_PAIRS:
        train, test = pair.split("->")
        cells = report["cross_domain"].get(pair, {})
        lines += [f"### Trained on {CORPUS_NAMES[train]}, tested on {CORPUS_NAMES[test]}", ""]
        lines += markdown_table(HEAD, _rows(cells, pub["cross_domain"].get(pair, {}), _present(trained, cells)))
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
                     f"{pct(entry['dev_nis_tok_f'])}).")
        if not entry["comparisons"]:
            lines += ["", "No other system has a run yet.", ""]
            continue
        lines += ["", f"{entry['samples']} bootstrap samples, {entry['ar_samples']} shuffles, seed {entry['seed']}.", ""]
        lines += markdown_table(["metric", "B", *COMPARISON_HEAD],
                                [[c["metric"], system_name(c["b"]), *_comparison_cells(c)] for c in entry["comparisons"]])
        lines.append("")
    lines += ["## Against the best published numbers", "",
             "The best system of each corpus (on dev, as above): its mean over seeds on the test "
             "split against the best number of each column that Sineva et al. (2021) publish "
             "for a trained system on that corpus, with the 95% bootstrap interval of our mean "
             "over test sentences (the seeds' system files resampled together, `python -m "
             "spacy_negation seeds`' pooled interval).", ""]
    rows = []
    for corpus in CORPORA:
        goal = report["goal"].get(corpus)
        if goal is None:
            continue
        ours = f" ({SYSTEM_NAMES[goal['system']]}, {len(goal['seeds'])} seed(s))"
        rows += [[CORPUS_NAMES[corpus], MEASURE_NAMES[key], *_goal_cells(row, ours)]
                 for key, row in goal["measures"].items()]
    lines += markdown_table(["corpus", "measure", "published best", "ours", "difference", "95% CI of ours"], rows)
    lines += [""] + _backbone_lines(report.get("backbones", {}))
    lines += _distilled_lines(report.get("distilled"))
    lines += ["## Training configs", ""]
    lines += markdown_table(["corpus", "system", "config and overrides"],
                            [[CORPUS_NAMES[corpus], system_name(system), f"`{config}`"]
                             for corpus in CORPORA for system in trained
                             for config in [report["configs"].get(corpus, {}).get(system)] if config is not None])
    lines.append("")
    return "\n".join(lines)
