"""results/general.md and results/general.json: the general English model against the
in-domain models, each English test split scored in its own convention, and the cues each
model predicts in test sentences that have no negation at all (the off-domain cue
hallucinations of a model trained on one corpus).

python scripts/general_report.py --general-dir metrics/general --cross-dir metrics/cross \
    [--fast-dir metrics/general_fast] \
    --gold cdsco=corpus/test.spacy --gold bioscope=corpus/bioscope/test.spacy \
    --gold sfu=corpus/sfu/test.spacy --gold bioscope_clinical=corpus/bioscope_clinical/test.spacy \
    --out-dir results

Reads the scores and system *SEM files of scripts/evaluate_model.py: metrics/general/on_SPLIT.*
(the shipped seed of the general model, --convention SPLIT), metrics/general/seedN/on_SPLIT.json
(every trained seed: their mean and standard deviation), metrics/general/selected.json (which
seed is shipped, scripts/general_seeds.py), the same of the fast model, and
metrics/cross/MODEL_on_SPLIT.* (the models of the cross-domain workflow, when it has run).
Writes nothing it did not read or count.
"""
import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from spacy_negation.metrics.core import markdown_table, pct

from report_lib import fail, mean_sd, write_report

SPLITS = ("cdsco", "bioscope", "sfu", "bioscope_clinical")
#: The in-domain models of the cross-domain workflow (BioScope clinical has none of its own).
CROSS_MODELS = ("cdsco", "bioscope", "sfu")
NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review",
         "bioscope_clinical": "BioScope clinical"}
MEASURES = (("cues_b_f", "neg_cue_b_f"), ("scm_b_f", "neg_scm_b_f"), ("st_f", "neg_st_f"),
            ("nis_tok_f", "neg_nis_tok_f"), ("nis_ex_f", "neg_nis_ex_f"))
#: The column heads of MEASURES.
MEASURE_NAMES = ("Cues-B F1", "SCM-B F1", "Scope-tokens F1", "NIS_tok F1", "NIS_ex F1")
#: The row labels of the models that are not a cross-domain model.
LABELS = {"general": "general", "fast": "fast (en_negation_fast, CNN)"}
#: The goal of the general model: within this many NIS_tok F1 points of the in-domain model.
WITHIN = 1.5


def cue_counts(gold_path: Path, system_path: Path) -> Dict[str, Any]:
    """Predicted cues in the test sentences without a gold negation, and affixal cues.

    gold_path (Path): the gold .spacy file of the split.
    system_path (Path): the system *SEM file evaluate_model.py wrote for that split.
    RETURNS (Dict[str, Any]): {"sentences", "unnegated_sentences", "sentences_with_false_cue",
        "cues_in_unnegated", "affixal_cues", "top": [[cue, count], ...]}.
    """
    import spacy

    from spacy_negation.corpora.docbin import read_docbin
    from spacy_negation.corpora.starsem import read_starsem
    from spacy_negation.corpora.starsem_docs import doc_to_sentences

    vocab = spacy.blank("en").vocab
    gold = [s for i, doc in enumerate(read_docbin(gold_path, vocab=vocab)) for s in doc_to_sentences(doc, i)]
    system = list(read_starsem(system_path))
    if len(gold) != len(system):
        raise ValueError(f"{system_path}: {len(system)} sentences, gold {gold_path}: {len(gold)}")
    unnegated = with_false = in_unnegated = affixal = 0
    top: Counter = Counter()
    for g, s in zip(gold, system):
        forms = s.forms
        for inst in s.instances:
            if any(cell != forms[i] for i, cell in inst.cue):
                affixal += 1
        if g.instances:
            continue
        unnegated += 1
        if s.instances:
            with_false += 1
            in_unnegated += len(s.instances)
            top.update(" ".join(cell for _, cell in inst.cue).lower() for inst in s.instances)
    return {"sentences": len(gold), "unnegated_sentences": unnegated, "sentences_with_false_cue": with_false,
            "cues_in_unnegated": in_unnegated, "affixal_cues": affixal, "top": top.most_common(8)}


def _scores(path: Path) -> Dict[str, float]:
    scores = json.loads(path.read_text(encoding="utf-8"))["scores"]
    return {key: float(scores[source]) for key, source in MEASURES}


def seed_stats(general_dir: Path, split: str) -> Optional[Dict[str, Any]]:
    """The general model's scores on a split over its trained seeds
    (``general_dir/seedN/on_SPLIT.json``): per seed, mean and sample standard deviation
    (0 for one seed); None without any."""
    runs: Dict[int, Dict[str, float]] = {}
    for path in general_dir.glob(f"seed*/on_{split}.json"):
        name = path.parent.name
        if name[4:].isdigit():
            runs[int(name[4:])] = _scores(path)
    if not runs:
        return None
    keys = [key for key, _ in MEASURES]
    values = {key: [runs[seed][key] for seed in sorted(runs)] for key in keys}
    return {"seeds": sorted(runs), "runs": {str(seed): runs[seed] for seed in sorted(runs)},
            "mean": {key: statistics.fmean(v) for key, v in values.items()},
            "sd": {key: statistics.stdev(v) if len(v) > 1 else 0.0 for key, v in values.items()}}


def build(general_dir: Path, cross_dir: Path, gold: Dict[str, Path], fast_dir: Optional[Path] = None) -> Dict[str, Any]:
    """The report's numbers: per split the general model (the shipped seed, and every
    seed's mean and sd), the fast model (from ``fast_dir``, when given) and every
    cross-domain model."""
    out: Dict[str, Any] = {"within": WITHIN}
    selected = general_dir / "selected.json"
    if selected.is_file():
        out["selected"] = json.loads(selected.read_text(encoding="utf-8"))
    for split in SPLITS:
        entry: Dict[str, Any] = {}
        systems: List[Tuple[str, Path]] = [("general", general_dir / f"on_{split}")]
        if fast_dir is not None:
            systems.append(("fast", fast_dir / f"on_{split}"))
        systems += [(model, cross_dir / f"{model}_on_{split}") for model in CROSS_MODELS]
        for name, stem in systems:
            scores_path, system_path = stem.with_suffix(".json"), stem.with_suffix(".txt")
            if not scores_path.is_file():
                continue
            entry[name] = {"scores": _scores(scores_path)}
            if split in gold and system_path.is_file():
                entry[name]["cues"] = cue_counts(gold[split], system_path)
        seeds = seed_stats(general_dir, split)
        if seeds is not None:
            entry["general_seeds"] = seeds
        out[split] = entry
    return out


def keep_earlier(earlier: Dict[str, Any], report: Dict[str, Any]) -> Dict[str, Any]:
    """The report with the rows of an earlier one that it lacks, each marked ``"run":
    "earlier"``. The general model's rows (its shipped seed, its seeds' statistics and which
    seed is shipped) are kept together, first, only where the report has no general model's
    row at all (a report of the fast model alone: ``--general-dir`` without outputs)."""
    for split in SPLITS:
        entry = report.get(split, {})
        kept: Dict[str, Any] = {}
        if "general" not in entry:
            kept = {name: {**row, "run": row.get("run", "earlier")} if name == "general" else row
                    for name, row in earlier.get(split, {}).items() if name in ("general", "general_seeds")}
        rest = {name: {**row, "run": row.get("run", "earlier")} for name, row in earlier.get(split, {}).items()
                if name not in entry and name not in ("general", "general_seeds")}
        report[split] = {**kept, **entry, **rest}
    if "selected" not in report and "selected" in earlier and any(
            "general" in report[split] and report[split]["general"].get("run") for split in SPLITS):
        report["selected"] = earlier["selected"]
    return report


def _systems(report: Dict[str, Any]) -> Iterator[Tuple[str, str, Dict[str, Any]]]:
    """(split, system, entry) of every system of every split, in the report's order."""
    for split in SPLITS:
        for name, entry in report.get(split, {}).items():
            if name != "general_seeds":
                yield split, name, entry


def render(report: Dict[str, Any]) -> str:
    """results/general.md: the report in percent."""
    selected = report.get("selected")
    lines = ["# The general English model", "",
             "`en_negation_general` (configs/general_l3_distil.cfg: one transformer of 3 layers, "
             "distilled from the 6-layer configs/general.cfg, one cue and one scope component per "
             "annotation convention) against the model trained on each corpus alone. "
             "Each test split is scored end to end in its own convention (`--convention`); the "
             "in-domain and cross-domain rows are the cross-domain workflow's models. Percent; "
             "the general model's row is the shipped seed, the others one seed each.", ""]
    if any("general_seeds" in report.get(split, {}) for split in SPLITS):
        first = next(report[split]["general_seeds"] for split in SPLITS if "general_seeds" in report.get(split, {}))
        lines += ["## The general model over training seeds", "",
                  f"Mean ± sd over seeds {', '.join(map(str, first['seeds']))} (one training each)"
                  + (f"; the package ships seed {selected['seed']} ({selected['rule']})." if selected else ".")
                  + "", ""]
        lines += markdown_table(["test split", "seeds", *MEASURE_NAMES],
                                [[NAMES[split], str(len(seeds["seeds"]))]
                                 + [mean_sd(seeds["mean"][k], seeds["sd"][k]) for k, _ in MEASURES]
                                 for split, seeds in ((split, report.get(split, {}).get("general_seeds"))
                                                      for split in SPLITS) if seeds])
        lines.append("")
    lines += ["## The shipped model beside the single-corpus models", ""]
    rows = []
    for split, name, entry in _systems(report):
        label = LABELS.get(name) or f"{NAMES[name]} model" + (" (in domain)" if name == split else "")
        if entry.get("run") == "earlier":
            label += " (earlier run)"
        rows.append([NAMES[split], label] + [pct(entry["scores"][k]) for k, _ in MEASURES])
    lines += markdown_table(["test split", "model", *MEASURE_NAMES], rows)
    lines += ["", f"Goal: NIS_tok F1 within {report['within']} points of the in-domain model on every split, "
              "no split below 80.", ""]
    rows = []
    for split in SPLITS:
        entry = report.get(split, {})
        if "general" in entry and split in entry:
            g, d = entry["general"]["scores"]["nis_tok_f"], entry[split]["scores"]["nis_tok_f"]
            rows.append([NAMES[split], pct(g), pct(d), pct(g - d, signed=True)])
    lines += markdown_table(["test split", "general", "in domain", "difference"], rows)
    lines += ["", "## Cues in sentences without negation", "",
              "Predicted cues in the test sentences that have no gold negation (the off-domain "
              "hallucinations of a model trained on one corpus, e.g. the CD-SCO model's `T` of "
              "\"T cell\" on BioScope), and affixal cues predicted anywhere.", ""]
    lines += markdown_table(["test split", "model", "sentences without negation", "with a predicted cue", "cues there",
                             "affixal cues", "most frequent"],
                            [[NAMES[split], name, str(c["unnegated_sentences"]), str(c["sentences_with_false_cue"]),
                              str(c["cues_in_unnegated"]), str(c["affixal_cues"]),
                              ", ".join(f"{cue} ({n})" for cue, n in c["top"][:5])]
                             for split, name, c in ((split, name, entry.get("cues"))
                                                    for split, name, entry in _systems(report)) if c is not None])
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--general-dir", type=Path, required=True)
    parser.add_argument("--cross-dir", type=Path, required=True)
    parser.add_argument("--fast-dir", type=Path, default=None,
                        help="the fast model's evaluate_model.py outputs (on_SPLIT.*), if any")
    parser.add_argument("--gold", action="append", default=[], help="SPLIT=GOLD.spacy")
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--keep", action="store_true",
                        help="keep the rows of OUT/general.json whose outputs are not here (the fast "
                             "and single-corpus models of earlier runs), marked as such; the general "
                             "model's rows only when --general-dir has none (a report of the fast model)")
    args = parser.parse_args(argv)
    try:
        gold = {}
        for text in args.gold:
            split, sep, path = text.partition("=")
            if not sep or split not in SPLITS:
                raise ValueError(f"--gold {text!r}: expected SPLIT=GOLD.spacy with SPLIT one of {SPLITS}")
            gold[split] = Path(path)
        report = build(args.general_dir, args.cross_dir, gold, args.fast_dir)
        if args.keep and (args.out_dir / "general.json").is_file():
            report = keep_earlier(json.loads((args.out_dir / "general.json").read_text(encoding="utf-8")), report)
    except (OSError, ValueError, KeyError) as err:
        return fail(err)
    write_report(args.out_dir, "general", report, render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
