"""Report the cross-domain matrix: models trained on CD-SCO, BioScope abstracts and SFU
Review, each evaluated end to end on the three test sets (Sineva et al. 2021, Tables 2/3).

python scripts/cross_domain.py [--metrics-dir metrics/cross] [--meta metrics/cross/run_meta.json]
    [--out-dir results]

Inputs: ``METRICS/TRAIN_on_TEST.json`` for TRAIN, TEST in cdsco, bioscope, sfu, written by
``scripts/evaluate_model.py ... --tag-punct`` (the flat ``neg_*`` scores of
``spacy_negation.scoring.scorers.score_negations``), and optionally the run metadata written by
``scripts/timed.py``. Outputs in OUT: ``cross_domain.json`` (``{"meta": ..., "matrix":
{TRAIN: {TEST: {"cues_b_f", "nis_ex_f", "st_f", "nis_tok_f"}}}}``, fractions),
``cross_domain.md`` (percent, beside the published numbers of Sineva et al. 2021) and
``cross_domain.png`` (one heat map per measure). All inputs are read and checked before
the first file is written; each file is written atomically.
"""
import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from spacy_negation.metrics.core import markdown_table, pct
from spacy_negation.util import atomic_write_bytes

from published import SINEVA2021_CITATION, sineva2021
from report_lib import fail, write_report

CORPORA = ("cdsco", "bioscope", "sfu")
CORPUS_NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review"}
#: Output key -> key of the scorer's flat scores.
MEASURES = {"cues_b_f": "neg_cue_b_f", "nis_ex_f": "neg_nis_ex_f", "st_f": "neg_st_f",
            "nis_tok_f": "neg_nis_tok_f"}
MEASURE_NAMES = {"cues_b_f": "Cues-B F1", "nis_ex_f": "NIS_ex F1", "st_f": "Scope-tokens F1",
                 "nis_tok_f": "NIS_tok F1"}
#: Measure -> column of Sineva et al. (2021), Table 8 (their NIS_ex is the *SEM SCM-B).
PUBLISHED_COLUMN = {"cues_b_f": "cues_b_f", "nis_ex_f": "scm_b_f", "st_f": "st_f", "nis_tok_f": "nis_tok_f"}
#: The systems of Sineva et al. (2021), Tables 2 and 3, shown as published rows.
PUBLISHED_SYSTEMS = ("BiLSTM-Tagger", "NegBERT", "DP-nested-synt")


def published(system: str, train: str, test: str, key: str) -> float:
    """A published cell of Sineva et al. (2021), Table 8 (percent)."""
    (row,) = sineva2021(system=system, train=train, test=test)
    return row.scores[PUBLISHED_COLUMN[key]]


CITATION = SINEVA2021_CITATION


def read_matrix(metrics_dir: Path) -> Dict[str, Dict[str, Dict[str, float]]]:
    """The scores of every train/test pair.

    metrics_dir (Path): the folder of the ``TRAIN_on_TEST.json`` files.
    RETURNS (Dict[str, Dict[str, Dict[str, float]]]): TRAIN -> TEST -> measure -> fraction.
    RAISES (ValueError): a file is missing, not JSON, or lacks a measure.
    """
    matrix: Dict[str, Dict[str, Dict[str, float]]] = {}
    for train in CORPORA:
        for test in CORPORA:
            path = metrics_dir / f"{train}_on_{test}.json"
            try:
                scores = json.loads(path.read_text(encoding="utf-8"))["scores"]
            except (OSError, ValueError, KeyError, TypeError) as err:
                raise ValueError(f"{path}: cannot read the scores ({err}); run "
                                 f"'spacy project run cross-domain' first") from err
            row = {}
            for key, src in MEASURES.items():
                value = scores.get(src)
                if not isinstance(value, (int, float)):
                    raise ValueError(f"{path}: no numeric score {src!r}")
                row[key] = float(value)
            matrix.setdefault(train, {})[test] = row
    return matrix


def render_markdown(matrix: Dict[str, Dict[str, Dict[str, float]]], meta: Dict[str, Any]) -> str:
    """The matrix as Markdown (percent, 2 decimals), one table per measure.

    matrix (Dict[str, Dict[str, Dict[str, float]]]): TRAIN -> TEST -> measure -> fraction.
    meta (Dict[str, Any]): the run metadata.
    RETURNS (str): the Markdown text.
    """
    lines = [
        "# Cross-domain negation resolution",
        "",
        "Models trained on one corpus (rows) and evaluated end to end (predicted cues) on the "
        "test split of each corpus (columns), as in Tables 2 and 3 of Sineva et al. (2021). "
        "Scores in percent; `cross_domain.json` holds fractions. Written by "
        "`scripts/cross_domain.py`; reproduce with `spacy project run cross-domain` "
        "(see `results/README.md`).",
        "",
        "## Data and run",
        "",
        "- **CD-SCO**: official *SEM 2012 train / dev; test = Cardboard Box + Red Circle.",
        "- **BioScope abstracts** and **SFU Review**: the committed document-level 80/10/10 "
        "splits in `spacy_negation/corpora/data/splits/` (statistics in `corpus_stats.md`). BioScope is tokenized "
        "with spaCy's English tokenizer and converted to the CD-SCO convention (the cue is not "
        "part of its scope; no events), so NIS_ex and the event-free measures compare like "
        "with like; neither BioScope nor SFU annotates negated events.",
        "- **Punctuation**: CD-SCO has gold POS tags; BioScope and SFU have none, so their "
        "tokens are tagged `.` when spaCy's `Token.is_punct` holds and `XX` otherwise "
        "(`evaluate_model.py --tag-punct`), and the *SEM rule (punctuation is not scored in "
        "scopes) applies to all three corpora alike.",
        "- **Training**: the transformer config (`configs/negation_trf.cfg`) for every corpus; "
        "BioScope and SFU with `unnegated_ratio = 1.0` (all training sentences with a "
        "negation and a random sample of as many without, drawn once: spaCy reads the "
        "corpus once with `max_epochs = 0`), with the step counts below (`max_steps` for SFU "
        "Review, and for BioScope unless `bioscope_max_steps` is given).",
    ]
    hard = meta.get("bioscope_hard_negatives")
    if hard not in (None, "null", "None"):
        lines.append(
            "- **Hard negatives** (BioScope): besides that sample, every unnegated training "
            "sentence that holds a word that is a single-token cue in at least "
            f"{hard} of its training occurrences (`hard_negatives = {hard}`: *not* in "
            "\"not only\", *absence* outside a negation), so that the cue tagger sees the "
            "cue words where they are no cue.")
    decoding = []
    word = meta.get("bioscope_min_word_precision")
    if word not in (None, "null", "None"):
        decoding.append(f"a predicted single-word cue is kept only if the word was a cue in at least "
                        f"{word} of its occurrences in the training file (`min_word_precision`)")
    if str(meta.get("bioscope_contiguous", "false")).lower() == "true":
        decoding.append("each scope is the best-scoring span that joins its cue without a gap "
                        "(`contiguous`; every BioScope training scope does)")
    bias = meta.get("bioscope_scope_bias")
    if bias not in (None, "null", "None") and float(bias) != 0.0:
        decoding.append(f"{bias} is subtracted from the scope labels' log-odds (`scope_bias`)")
    if decoding:
        lines.append("- **Decoding** (BioScope, chosen on its dev split): " + "; ".join(decoding) + ".")
    for key in ("machine", "seed", "config", "max_steps", "bioscope_max_steps", "learn_rate",
                "bioscope_hard_negatives", "bioscope_min_word_precision", "bioscope_contiguous",
                "bioscope_scope_bias", "steps_seconds", "note"):
        if key in meta:
            value = json.dumps(meta[key]) if isinstance(meta[key], dict) else meta[key]
            lines.append(f"- **{key}**: {value}")
    lines += ["", f"Published: {CITATION} Tables 1-3 (Table 8 in full), XLM-R-large backbone, on "
              "the authors' own BioScope and SFU splits; as printed.", ""]
    for key, name in MEASURE_NAMES.items():
        rows = [[f"{CORPUS_NAMES[train]} (ours)"] + [pct(matrix[train][test][key]) for test in CORPORA]
                for train in CORPORA]
        rows += [[f"{CORPUS_NAMES[train]} ({system}, published)"]
                 + [f"{published(system, train, test, key):.1f}" for test in CORPORA]
                 for system in PUBLISHED_SYSTEMS for train in CORPORA]
        lines += [f"## {name}", "", *markdown_table(["trained on \\ tested on", *(CORPUS_NAMES[c] for c in CORPORA)], rows),
                  ""]
    rows = []
    for corpus in ("bioscope", "sfu"):
        ours = 100 * matrix[corpus][corpus]["nis_tok_f"]
        target = published("BiLSTM-Tagger", corpus, corpus, "nis_tok_f")
        rows.append([CORPUS_NAMES[corpus], f"{ours:.2f}", f"{target:.1f}", f"{ours - target:+.2f}"])
    lines += ["## In-domain targets (NIS_tok F1)", "", *markdown_table(["corpus", "ours", "target", "difference"], rows),
              ""]
    return "\n".join(lines)


def render_heatmap(matrix: Dict[str, Dict[str, Dict[str, float]]]) -> bytes:
    """One heat map per measure (rows: training corpus, columns: test corpus), as PNG.

    matrix (Dict[str, Dict[str, Dict[str, float]]]): TRAIN -> TEST -> measure -> fraction.
    RETURNS (bytes): the PNG.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(MEASURES), figsize=(4.2 * len(MEASURES), 4.2))
    labels = [CORPUS_NAMES[c].replace(" abstracts", "") for c in CORPORA]
    image = None
    for ax, key in zip(axes, MEASURES):
        values = [[100 * matrix[train][test][key] for test in CORPORA] for train in CORPORA]
        image = ax.imshow(values, cmap="viridis", vmin=0, vmax=100)
        ax.set_title(MEASURE_NAMES[key])
        ax.set_xticks(range(len(CORPORA)), labels)
        ax.set_yticks(range(len(CORPORA)), labels)
        ax.set_xlabel("tested on")
        ax.set_ylabel("trained on")
        for r, row in enumerate(values):
            for c, value in enumerate(row):
                ax.text(c, r, f"{value:.1f}", ha="center", va="center",
                        color="black" if value > 60 else "white", fontsize=11)
    fig.colorbar(image, ax=list(axes), shrink=0.8, label="F1 (%)")
    fig.suptitle("Cross-domain negation resolution, end to end (spacy-negation, transformer)")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metrics-dir", type=Path, default=Path("metrics/cross"))
    parser.add_argument("--meta", type=Path, default=Path("metrics/cross/run_meta.json"))
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    try:
        matrix = read_matrix(args.metrics_dir)
    except ValueError as err:
        return fail(err)
    meta: Dict[str, Any] = {}
    if args.meta.exists():
        meta = json.loads(args.meta.read_text(encoding="utf-8"))
    doc = {"meta": {"citation": CITATION, "measures": MEASURE_NAMES, "run": meta}, "matrix": matrix}
    markdown = render_markdown(matrix, meta)
    png = render_heatmap(matrix)
    write_report(args.out_dir, "cross_domain", doc, markdown)
    atomic_write_bytes(args.out_dir / "cross_domain.png", png)
    print(f"wrote {args.out_dir}/cross_domain.{{json,md,png}}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
