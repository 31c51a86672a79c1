"""The Norwegian and Spanish clinical models over seeds: results/norec.* and results/nubes.*.

python scripts/lang_report.py norec --metrics-dir metrics/norec --out-dir results
python scripts/lang_report.py nubes --metrics-dir metrics/nubes --out-dir results

Reads every seed's end-to-end scores (``METRICS_DIR/seedN/on_SPLIT.json``, written by
``scripts/general_seeds.py evaluate``), the choice of ``select`` (``selected.json``) and the
training times (``run_meta.json``), and writes the mean, sample standard deviation and
per-seed values of each measure (fractions) beside the published reference numbers, with
the goals of the workflow marked met or not. Nothing is typed by hand but the published
numbers, each with its source.

NoReC_neg (Mæhlum et al. 2021): the *SEM 2012 measures (Morante & Blanco 2012) in their
standard form (P = TP / (TP + FP)), as the corpus's published graph-parser scores are, and
NIS_tok (Sineva et al. 2021). NUBes (Lima Lopez et al. 2020): negation and uncertainty
(read as speculation) cue and scope-token F1 on the project's split by file, and on IULA+
(Marimon et al. 2017) as an out-of-sample test.
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from spacy_negation.metrics.core import markdown_table, pct
from report_lib import fail, mean_sd, write_report

#: Report key -> flat scores key, per kind prefix.
NOREC_MEASURES: Tuple[Tuple[str, str, str], ...] = (
    ("cues_f", "neg_cue_f", "Cues F1"),
    ("scm_f", "neg_scm_f", "Scopes (cue match) F1"),
    ("st_f", "neg_st_f", "Scope tokens F1"),
    ("full_f", "neg_full_f", "Full negation F1"),
    ("nis_tok_f", "neg_nis_tok_f", "NIS_tok F1"),
)
NUBES_MEASURES: Tuple[Tuple[str, str, str], ...] = (
    ("cue_f", "cue_f", "Cue F1"),
    ("st_f", "st_f", "Scope tokens F1"),
    ("scm_f", "scm_f", "Scopes (cue match) F1"),
    ("nis_tok_f", "nis_tok_f", "NIS_tok F1"),
)
#: NUBes kind -> the prefix of its keys in the scores files.
NUBES_KINDS = (("negation", "neg"), ("uncertainty", "spec"))

#: Published NoReC_neg test results: the mean of the 5 runs of the corpus repository's own
#: *SEM scorer outputs (ltgoslo/norec_neg, modeling/evaluation/starsem; the corpus's
#: PROVENANCE.md).
NOREC_PUBLISHED = {
    "source": "Mæhlum et al. (2021), ltgoslo/norec_neg: mean of 5 runs of the repository's *SEM scorer outputs, test split",
    "graph_parser": {"cues_f": 0.9336, "scm_f": 0.6707, "st_f": 0.8356, "full_f": 0.6680},
    "graph_parser_norbert": {"cues_f": 0.9215, "scm_f": 0.6577, "st_f": 0.8358, "full_f": 0.6554},
    "graph_parser_mbert": {"cues_f": 0.9278, "scm_f": 0.6612, "st_f": 0.8409, "full_f": 0.6589},
}
NOREC_GOALS = {"cues_f": 0.934, "scm_f": 0.671, "st_f": 0.836, "full_f": 0.668}

NUBES_PUBLISHED = {
    "source": "Solarte-Pabón et al. (2022): scope F1 about 0.92 (negation) and 0.80 (uncertainty) with "
              "BiLSTM-CRF and mBERT on their own split of NUBes; the split differs from this project's, "
              "so the numbers are a reference, not a comparison",
    "negation_scope_f": 0.92, "uncertainty_scope_f": 0.80,
}
NUBES_GOALS = {("negation", "cue_f"): 0.95, ("negation", "st_f"): 0.92,
               ("uncertainty", "cue_f"): 0.85, ("uncertainty", "st_f"): 0.80}


def seed_scores(metrics_dir: Path, split: str) -> Dict[int, Dict[str, Any]]:
    """Seed -> the flat scores of ``seedN/on_SPLIT.json``."""
    out: Dict[int, Dict[str, Any]] = {}
    for path in sorted(metrics_dir.glob(f"seed*/on_{split}.json")):
        name = path.parent.name
        if name[4:].isdigit():
            out[int(name[4:])] = json.loads(path.read_text(encoding="utf-8"))
    return dict(sorted(out.items()))


def summary(values: Dict[int, float]) -> Dict[str, Any]:
    """{"mean", "sd", "seeds"} of per-seed values (sd: n - 1 in the denominator)."""
    arr = numpy.asarray(list(values.values()), dtype=float)
    return {"mean": float(arr.mean()), "sd": float(arr.std(ddof=1)) if len(arr) > 1 else 0.0,
            "seeds": {str(seed): float(v) for seed, v in values.items()}}


def measure(runs: Dict[int, Dict[str, Any]], key: str, path: str) -> Dict[str, Any]:
    values = {}
    for seed, doc in runs.items():
        scores = doc["scores"]
        if key not in scores:
            raise ValueError(f"{path}: seed {seed} has no {key!r} (evaluate the seeds again with this version)")
        values[seed] = float(scores[key])
    return summary(values)


def speed(runs: Dict[int, Dict[str, Any]]) -> Dict[str, Any]:
    return summary({seed: float(doc["speed"]["words_per_second"]) for seed, doc in runs.items()})


def fmt(s: Dict[str, Any]) -> str:
    return mean_sd(s["mean"], s["sd"])


def load_meta(metrics_dir: Path) -> Dict[str, Any]:
    meta: Dict[str, Any] = {}
    for name in ("selected.json", "run_meta.json"):
        path = metrics_dir / name
        if path.is_file():
            meta[name[:-5]] = json.loads(path.read_text(encoding="utf-8"))
    return meta


def norec(metrics_dir: Path) -> Tuple[Dict[str, Any], List[str]]:
    runs = seed_scores(metrics_dir, "norec")
    if len(runs) < 3:
        raise ValueError(f"{metrics_dir}: {len(runs)} evaluated seed(s) on NoReC_neg test (seedN/on_norec.json); 3 needed")
    test = {key: measure(runs, flat, str(metrics_dir)) for key, flat, _ in NOREC_MEASURES}
    test["cues_b_f"] = measure(runs, "neg_cue_b_f", str(metrics_dir))
    goals = {key: {"goal": goal, "met": test[key]["mean"] >= goal} for key, goal in NOREC_GOALS.items()}
    doc = {"corpus": "NoReC_neg test (Mæhlum et al. 2021), the corpus's own split",
           "metric": "*SEM 2012 measures (standard P = TP/(TP+FP)) and NIS_tok, end to end (predicted cues), fractions",
           "test": test, "words_per_second": speed(runs), "published": NOREC_PUBLISHED, "goals": goals,
           **load_meta(metrics_dir)}
    rows = [[label, fmt(test[key]),
             pct(NOREC_PUBLISHED["graph_parser"][key]) if key in NOREC_PUBLISHED["graph_parser"] else "",
             pct(NOREC_PUBLISHED["graph_parser_mbert"][key]) if key in NOREC_PUBLISHED["graph_parser_mbert"] else ""]
            for key, _, label in NOREC_MEASURES]
    lines = ["# nb_negation_norec on NoReC_neg test", "",
             f"End to end, {len(runs)} seeds ({', '.join(map(str, runs))}), mean ± sd, percent. "
             "The published graph parser's numbers are the mean of its 5 runs (computed from the "
             "corpus repository's *SEM scorer outputs).", "",
             *markdown_table(["measure", "nb_negation_norec (CNN)", "graph parser", "graph parser + mBERT"], rows), "",
             f"Speed in the evaluation run: {speed(runs)['mean']:,.0f} words/s end to end on the test split (2 CPU cores).", "",
             "Goals (the graph parser's means): " + "; ".join(
                 f"{key} {pct(g['goal'])}: {'met' if g['met'] else 'not met'}" for key, g in goals.items()), ""]
    return doc, lines


def nubes(metrics_dir: Path) -> Tuple[Dict[str, Any], List[str]]:
    doc: Dict[str, Any] = {"corpus": "NUBes (Lima Lopez et al. 2020), the project's split by file "
                                     "(test = SAMPLE-001); IULA+ (Marimon et al. 2017) as an extra test",
                           "metric": "*SEM 2012 cue and scope-token measures and NIS_tok per kind, end to end, fractions"}
    lines = ["# es_negation_clinical on NUBes", ""]
    for split, title in (("nubes", "test"), ("nubes_iula", "iula_test")):
        runs = seed_scores(metrics_dir, split)
        if split == "nubes" and len(runs) < 3:
            raise ValueError(f"{metrics_dir}: {len(runs)} evaluated seed(s) on NUBes test (seedN/on_nubes.json); 3 needed")
        if not runs:
            continue
        part = {kind: {key: measure(runs, f"{prefix}_{flat}", str(metrics_dir)) for key, flat, _ in NUBES_MEASURES}
                for kind, prefix in NUBES_KINDS}
        doc[title] = part
        doc[f"{title}_words_per_second"] = speed(runs)
        rows = [[label] + [fmt(part[kind][key]) for kind, _ in NUBES_KINDS] for key, _, label in NUBES_MEASURES]
        lines += [f"## {'NUBes test (SAMPLE-001)' if split == 'nubes' else 'IULA+'}", "",
                  f"End to end, {len(runs)} seeds, mean ± sd, percent.", "",
                  *markdown_table(["measure", "negation", "uncertainty"], rows), "",
                  f"Speed in the evaluation run: {speed(runs)['mean']:,.0f} words/s (2 CPU cores).", ""]
    doc["goals"] = {f"{kind}.{key}": {"goal": goal, "met": doc["test"][kind][key]["mean"] >= goal}
                    for (kind, key), goal in NUBES_GOALS.items()}
    doc["published"] = NUBES_PUBLISHED
    doc.update(load_meta(metrics_dir))
    lines += [f"Reference: {NUBES_PUBLISHED['source']}.", "",
              "Goals: " + "; ".join(f"{k} {pct(g['goal'])}: {'met' if g['met'] else 'not met'}"
                                    for k, g in doc["goals"].items()), ""]
    return doc, lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", choices=("norec", "nubes"))
    parser.add_argument("--metrics-dir", type=Path, required=True)
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    try:
        doc, lines = (norec if args.corpus == "norec" else nubes)(args.metrics_dir)
    except ValueError as err:  # too few seeds, a scores file without a measure
        return fail(err)
    write_report(args.out_dir, args.corpus, doc, "\n".join(lines).rstrip("\n") + "\n")
    print(f"wrote {args.out_dir / (args.corpus + '.json')} and .md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
