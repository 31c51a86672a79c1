"""Report the CD-SCO results: a JSON, a markdown page beside Table 1 of Sineva et al. (2021)
and three plots.

python scripts/report.py [--metrics-dir metrics] [--gold-dev corpus/dev.spacy]
    [--gold-test corpus/test.spacy] [--meta RUN.json] [--out-dir results] [--plot-split test]

Inputs, for SPLIT in dev, test and SYSTEM in punct_baseline, model_end_to_end,
model_gold_cues: ``METRICS/SYSTEM_SPLIT.json`` ({"scores": the flat ``neg_*`` dict of
``spacy_negation.scoring.scorers.score_negations``, "detail": ..., optional "speed", "gold_cues"}),
written by scripts/punct_baseline.py and scripts/evaluate_model.py, and the system *SEM
file ``METRICS/SYSTEM_SPLIT.txt`` written beside it; the gold of each split (one or more
.spacy or *SEM files, concatenated in the order given; test = cardboard + circle); and
optionally ``--meta``, a JSON object with run metadata (machine, duration, seed, config,
training words/s, ...), copied to ``meta.run``.

Outputs in OUT: ``cdsco.json`` (scores as fractions, taken from the scores JSONs),
``cdsco.md`` (tables in percent), ``cdsco_scope_length.png``, ``cdsco_faireval_errors.png``
and ``cdsco_cue_types.png`` (plots of --plot-split). Everything is computed before the
first file is written; each file is written atomically.

The computing is in :mod:`spacy_negation.analysis.breakdowns` and
``scripts/cdsco_lib.py``): every system is re-scored from its *SEM file against
the gold with the spaCy scorer's conventions, and a reported score that differs from the
re-scored one is an error (stale or mixed-up inputs); the re-scoring also gives the
FairEval error counts and the scores by gold scope length, which the scores JSONs do not
hold. This script reads the files, checks them and renders the tables; the plots are
``scripts/cdsco_plots.py``'s.
"""
import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from spacy_negation.about import __version__
from spacy_negation.analysis.breakdowns import (BUCKETS, SCORE_KEYS, bucket_rows, build_reference,
                                                check_consistency, evaluate_system, read_system)
from spacy_negation.errors import Errors
from spacy_negation.metrics.core import markdown_table, pct
from spacy_negation.metrics.faireval import FAIR_TYPES
from spacy_negation.scoring.scorers import CUE_TYPES
from spacy_negation.util import atomic_write_bytes

from cdsco_lib import (CITATION, CONVENTIONS, SHORT_LABELS, SPLITS, SYSTEM_LABELS, SYSTEMS, SplitData, build_json,
                       published_rows)
from cdsco_plots import plot_cue_types, plot_faireval_errors, plot_scope_length
from report_lib import write_report

#: Which command writes each system's files (for the "missing input" message).
PRODUCERS: Dict[str, str] = {
    "punct_baseline": "scripts/punct_baseline.py (`spacy project run baseline`)",
    "model_end_to_end": "scripts/evaluate_model.py MODEL GOLD SYSTEM_OUT SCORES_OUT",
    "model_gold_cues": "scripts/evaluate_model.py MODEL GOLD SYSTEM_OUT SCORES_OUT --gold-cues",
}
#: FairEval error counts reported (fair evaluation, spans; BE = BES + BEL + BEO).
FAIR_COUNT_KEYS: Tuple[str, ...] = FAIR_TYPES
#: The columns of Sineva et al. (2021), Table 1: (key of cdsco.json, header).
TABLE1_COLUMNS: Tuple[Tuple[str, str], ...] = (
    ("cues_b_f", "Cues-B F1"), ("scm_f", "SCM F1"), ("scm_b_f", "SCM-B F1"),
    ("st_p", "Scope-tokens P"), ("st_r", "Scope-tokens R"), ("st_f", "Scope-tokens F1"),
    ("nis_tok_p", "NIS_tok P"), ("nis_tok_r", "NIS_tok R"), ("nis_tok_f", "NIS_tok F1"),
)


class ReportError(Exception):
    """An input problem the report cannot work around (the message names the file)."""


# --- inputs ---------------------------------------------------------------------------------

def _read_json(path: Path) -> Any:
    # the standard library parser: srsly's (ujson) turns 0.7391304348 into 0.7391304348000001
    return json.loads(path.read_text(encoding="utf8"))


def read_scores(path: Path) -> Dict[str, Any]:
    """Read a scores JSON and check its keys.

    path (Path): the file.
    RETURNS (Dict[str, Any]): the document.
    RAISES (ReportError): not a JSON object with the scorer's keys.
    """
    try:
        data = _read_json(path)
    except ValueError as err:
        raise ReportError(f"{path}: not valid JSON ({err}).") from err
    if not isinstance(data, dict) or not isinstance(data.get("scores"), dict):
        raise ReportError(f"{path}: expected a JSON object with a 'scores' object (the flat neg_* "
                          f"scores of score_negations).")
    needed = [k for _, k in SCORE_KEYS] + ["neg_cue_per_type"]
    missing = [k for k in needed if k not in data["scores"]]
    if missing:
        raise ReportError(f"{path}: 'scores' lacks {', '.join(missing)}.")
    per_type = data["scores"]["neg_cue_per_type"]
    if not isinstance(per_type, dict) or any(t not in per_type for t in CUE_TYPES):
        raise ReportError(f"{path}: 'scores.neg_cue_per_type' needs the types {', '.join(CUE_TYPES)}.")
    return data


def input_paths(metrics_dir: Path, split: str, system: str) -> Tuple[Path, Path]:
    """The scores JSON and the system *SEM file of a system on a split.

    metrics_dir (Path): the metrics folder.
    split (str): "dev" or "test".
    system (str): a name of SYSTEMS.
    RETURNS (Tuple[Path, Path]): (scores JSON, system *SEM file).
    """
    return metrics_dir / f"{system}_{split}.json", metrics_dir / f"{system}_{split}.txt"


def check_inputs(metrics_dir: Path, gold: Dict[str, List[Path]], meta: Optional[Path]) -> None:
    """Fail, naming every missing input, before any work is done.

    metrics_dir (Path): the metrics folder.
    gold (Dict[str, List[Path]]): the gold files per split.
    meta (Optional[Path]): the run metadata file, if given.
    RAISES (ReportError): an input is missing.
    """
    missing: List[str] = []
    for split in SPLITS:
        for path in gold[split]:
            if not path.is_file():
                missing.append(f"{Errors.E130.format(path=path)} (gold {split}; `spacy project run convert`)")
        for system in SYSTEMS:
            for path in input_paths(metrics_dir, split, system):
                if not path.is_file():
                    missing.append(f"{Errors.E130.format(path=path)} ({system} on {split}; written by "
                                   f"{PRODUCERS[system]})")
    if meta is not None and not meta.is_file():
        missing.append(f"{Errors.E130.format(path=meta)} (--meta)")
    if missing:
        raise ReportError("missing input(s):\n  " + "\n  ".join(missing))


def read_meta(path: Optional[Path]) -> Dict[str, Any]:
    """Read the run metadata.

    path (Optional[Path]): a JSON object file, or None.
    RETURNS (Dict[str, Any]): the metadata ({} without a file).
    RAISES (ReportError): not a JSON object.
    """
    if path is None:
        return {}
    try:
        data = _read_json(path)
    except ValueError as err:
        raise ReportError(f"{path}: not valid JSON ({err}).") from err
    if not isinstance(data, dict):
        raise ReportError(f"{path}: the run metadata must be a JSON object.")
    return data


def _fmt_value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def build_markdown(doc: Dict[str, Any], data: Dict[str, SplitData], plot_split: str,
                   plot_names: Sequence[str]) -> str:
    """The cdsco.md page.

    doc (Dict[str, Any]): the cdsco.json document.
    data (Dict[str, SplitData]): per split the data.
    plot_split (str): the split the plots show.
    plot_names (Sequence[str]): the plot file names.
    RETURNS (str): the markdown.
    """
    meta = doc["meta"]
    out = ["# spacy-negation on CD-SCO (*SEM 2012)", "",
           "Scores in percent (2 decimals; `cdsco.json` holds the same numbers as fractions). "
           "Written by `scripts/report.py`; how to reproduce every number: `results/README.md`.", ""]
    out += ["## Data and run", ""]
    for split, key in (("test", "test_set"), ("dev", "dev_set")):
        s = meta[key]
        check = ("matches the official release" if s["matches_official_release"] else
                 f"**differs from the official release ({s['official']['sentences']:,} sentences, "
                 f"{s['official']['negation_instances']:,} instances)**")
        out.append(f"- **{split}**: {s['description']} Counted: {s['sentences']:,} sentences, "
                   f"{s['negation_instances']:,} negation instances ({check}). Files: "
                   + ", ".join(f"`{p}`" for p in s["files"]) + ".")
    run = meta["run"]
    if run:
        out.append("- **run**: " + "; ".join(f"{k}: {_fmt_value(v)}" for k, v in run.items()) + ".")
    else:
        out.append("- **run**: no run metadata given (`--meta`).")
    speeds = []
    for split in SPLITS:
        for system in SYSTEMS:
            sp = data[split].reported[system].get("speed")
            if isinstance(sp, dict) and "words_per_second" in sp:
                speeds.append(f"{SHORT_LABELS[system]} on {split}: {sp['words_per_second']:,.0f} words/s")
    if speeds:
        out.append("- **inference speed** (`scripts/evaluate_model.py`, gold tokens): "
                   + "; ".join(speeds) + ".")
    out.append("")
    for split in ("test", "dev"):
        out += _split_section(split, doc[split], data[split])
    out += ["## Plots", "", f"On {plot_split}:", ""]
    for name in plot_names:
        out.append(f"![{name}]({name})")
    out += ["", "## Scorer conventions", "", CONVENTIONS, "",
            "Scores by gold scope length: a gold instance's bucket is its number of scope tokens "
            "that are not punctuation (reference `token.is_punct`). NIS_tok of a bucket: the "
            "bucket's gold instances and the system instances exact-cue-matched to them (P = sum "
            "of instance precisions / matched system instances; R = sum of instance recalls / "
            "gold instances). Scope tokens of a bucket: the *SEM Scope-tokens counts of the "
            "bucket's gold instances and the system instances the *SEM scorer pairs with them "
            "(shared cue token); '-' when the bucket has no gold scope token. System instances "
            "paired with no gold instance belong to no bucket.", "",
            "## Citation", "", CITATION, "",
            "The published rows are from that paper's Table 1 (CD-SCO test). Sineva et al. "
            "re-annotated ten `neither ... nor` cases of the test set; the rows above use the "
            "official *SEM 2012 release, so the published numbers are close but not strictly "
            "comparable. *SEM 2012: Roser Morante and Eduardo Blanco (2012), *SEM 2012 Shared "
            "Task: Resolving the Scope and Focus of Negation. FairEval: Katrin Ortmann (2022), "
            "Fine-Grained Error Analysis and Fair Evaluation of Labeled Spans, LREC 2022.", ""]
    return "\n".join(out)


def _split_section(split: str, entries: Dict[str, Dict[str, Any]], data: SplitData) -> List[str]:
    title = {"test": "Test (Cardboard Box + Red Circle)", "dev": "Dev (Wisteria Lodge)"}[split]
    out = [f"## {title}", "", "### Table 1 columns (Sineva et al. 2021)", ""]
    rows = [[SYSTEM_LABELS[s]] + [pct(entries[s][k]) for k, _ in TABLE1_COLUMNS] for s in SYSTEMS]
    if split == "test":
        for name, vals in published_rows():
            rows.append([f"{name}, published (Sineva et al. 2021, Table 1)"]
                        + [f"{vals[k]:.1f}" for k, _ in TABLE1_COLUMNS])
    out += markdown_table(["System"] + [h for _, h in TABLE1_COLUMNS], rows)
    if split == "test":
        out += ["", "Published rows: Sineva et al. (2021), Table 1, as printed (XLM-R-large backbone; "
                "their test set re-annotates ten `neither ... nor` cases; Punct-BL uses gold cues)."]
    out += ["", "### NIS_ex and FairEval (F1; fair-evaluation error counts, spans)", ""]
    head = ["System", "NIS_ex F1", "FairEval trad. F1", "FairEval fair F1", "FairEval weighted F1"]
    head += list(FAIR_COUNT_KEYS)
    rows = [[SYSTEM_LABELS[s]] + [pct(entries[s][k]) for k in
                                  ("nis_ex_f", "fair_trad_f", "fair_f", "fair_weighted_f")]
            + [_fmt_value(entries[s]["faireval_counts"][k]) for k in FAIR_COUNT_KEYS] for s in SYSTEMS]
    out += markdown_table(head, rows)
    gold_types = data.gold_type_counts()
    out += ["", "### Cue F1 per cue type (exact cue match)", ""]
    out += markdown_table(["System"] + [f"{t} (gold {gold_types[t]})" for t in CUE_TYPES],
                  [[SYSTEM_LABELS[s]] + [pct(entries[s]["cue_f_by_type"][t]) for t in CUE_TYPES]
                   for s in SYSTEMS])
    out += ["", "### By gold scope length (tokens without punctuation)", ""]
    per_system = {s: bucket_rows(data.evals[s]) for s in SYSTEMS}
    head = ["Scope length", "Gold instances"]
    for s in SYSTEMS:
        head += [f"{SHORT_LABELS[s]} NIS_tok F1", f"{SHORT_LABELS[s]} Scope-tokens F1"]
    rows = []
    for k, (_, _, label) in enumerate(BUCKETS):
        row = [label, str(per_system[SYSTEMS[0]][k].gold_instances)]
        for s in SYSTEMS:
            b = per_system[s][k]
            row += [pct(b.nis_tok["f"] if b.nis_tok else None),
                    pct(b.scope_tokens["f"] if b.scope_tokens else None)]
        rows.append(row)
    out += markdown_table(head, rows)
    out.append("")
    return out


# --- main -------------------------------------------------------------------------------------

@contextmanager
def step(label: str) -> Iterator[List[str]]:
    """Print one line per step with its duration; notes appended to the yielded list are
    printed after the label.

    label (str): the step's name.
    YIELDS (List[str]): notes.
    """
    notes: List[str] = []
    start = time.perf_counter()
    yield notes
    extra = f": {'; '.join(notes)}" if notes else ""
    print(f"[report] {label}{extra} ({time.perf_counter() - start:.2f} s)", flush=True)


OUTPUT_NAMES = ("cdsco.json", "cdsco.md", "cdsco_scope_length.png", "cdsco_faireval_errors.png",
                "cdsco_cue_types.png")


def make_report(metrics_dir: Path, gold: Dict[str, List[Path]], out_dir: Path,
                meta_path: Optional[Path] = None, plot_split: str = "test") -> Dict[str, Any]:
    """Build and write the report.

    metrics_dir (Path): the folder with SYSTEM_SPLIT.json / .txt.
    gold (Dict[str, List[Path]]): per split the gold files (.spacy or *SEM), in order.
    out_dir (Path): the output folder.
    meta_path (Optional[Path]): the run metadata JSON.
    plot_split (str): the split the plots show.
    RETURNS (Dict[str, Any]): the cdsco.json document.
    RAISES (ReportError, ValueError): missing or inconsistent inputs (ValueError: coded,
        from the library).
    """
    with step("check inputs"):
        check_inputs(metrics_dir, gold, meta_path)
        run_meta = read_meta(meta_path)
    data: Dict[str, SplitData] = {}
    for split in SPLITS:
        with step(f"read gold {split}") as notes:
            ref = build_reference(gold[split])
            notes.append(f"{len(ref.sentences)} sentences, {ref.n_instances} negation instances")
        d = data[split] = SplitData(ref)
        for system in SYSTEMS:
            with step(f"re-score {system} on {split}") as notes:
                scores_path, system_path = input_paths(metrics_dir, split, system)
                reported = read_scores(scores_path)
                flag = reported.get("gold_cues")
                if flag is not None and system != "punct_baseline" and bool(flag) != (system == "model_gold_cues"):
                    raise ReportError(f"{scores_path}: \"gold_cues\": {json.dumps(flag)}, but {system} "
                                      f"is {'scope resolution on gold cues' if flag is False else 'end to end'}"
                                      f"; are the files swapped?")
                ev = evaluate_system(ref, read_system(system_path, ref))
                check_consistency(reported["scores"], ev.scores, scores_path, system_path)
                d.reported[system], d.evals[system], d.paths[system] = reported, ev, (scores_path, system_path)
                notes.append(f"NIS_tok F1 {pct(reported['scores']['neg_nis_tok_f'])}, consistent with "
                             f"{system_path.name}")
    with step("build JSON and markdown"):
        doc = build_json(data, run_meta, f"scripts/report.py (spacy-negation {__version__})")
        plot_names = OUTPUT_NAMES[2:]
        markdown = build_markdown(doc, data, plot_split, plot_names)
    pngs: Dict[str, bytes] = {}
    plots: Dict[str, Callable[[], bytes]] = {
        "cdsco_scope_length.png": lambda: plot_scope_length(data[plot_split], plot_split),
        "cdsco_faireval_errors.png": lambda: plot_faireval_errors(doc[plot_split], plot_split),
        "cdsco_cue_types.png": lambda: plot_cue_types(doc[plot_split], data[plot_split].gold_type_counts(),
                                                      plot_split),
    }
    for name, make in plots.items():
        with step(f"plot {name}"):
            pngs[name] = make()
    with step(f"write {out_dir}") as notes:
        write_report(out_dir, "cdsco", doc, markdown, ensure_ascii=False)
        for name, png in pngs.items():
            atomic_write_bytes(out_dir / name, png)
        notes.append(", ".join(OUTPUT_NAMES))
    return doc


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics-dir", type=Path, default=Path("metrics"),
                        help="folder with SYSTEM_SPLIT.json and SYSTEM_SPLIT.txt (default: metrics)")
    parser.add_argument("--gold-dev", type=Path, nargs="+", default=[Path("corpus/dev.spacy")],
                        help="gold dev: .spacy or *SEM files, concatenated (default: corpus/dev.spacy)")
    parser.add_argument("--gold-test", type=Path, nargs="+", default=[Path("corpus/test.spacy")],
                        help="gold test: .spacy or *SEM files, concatenated; the official test is "
                             "cardboard then circle (default: corpus/test.spacy)")
    parser.add_argument("--meta", type=Path, default=None,
                        help="JSON object with run metadata (machine, duration, seed, config, "
                             "training words/s), copied to meta.run")
    parser.add_argument("--out-dir", type=Path, default=Path("results"), help="output folder (default: results)")
    parser.add_argument("--plot-split", choices=SPLITS, default="test", help="split the plots show")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        make_report(args.metrics_dir, {"dev": args.gold_dev, "test": args.gold_test}, args.out_dir,
                    args.meta, args.plot_split)
    except (ReportError, ValueError, OSError) as err:  # NegationFormatError is a ValueError
        print(f"[report] error: {err}", file=sys.stderr)
        return 1
    print(f"[report] done ({time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
