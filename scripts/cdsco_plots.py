"""The plots of the CD-SCO report (``scripts/report.py``): gold instances by scope length
with the end-to-end model's per-length F1, the FairEval error types of the three systems,
and cue F1 per cue type; each a PNG (matplotlib, Agg).
"""
import io
from typing import Any, Dict, Tuple

from spacy_negation.analysis.breakdowns import bucket_rows
from spacy_negation.metrics.faireval import FAIR_TYPES
from spacy_negation.scoring.scorers import CUE_TYPES

from cdsco_lib import SHORT_LABELS, SYSTEMS, SplitData

#: One colour per system in every plot.
SYSTEM_COLORS: Dict[str, str] = {
    "punct_baseline": "#8c8c8c",
    "model_end_to_end": "#1f77b4",
    "model_gold_cues": "#ff7f0e",
}
#: Error types plotted (BE is the sum of its three subtypes and left out).
PLOT_ERROR_TYPES: Tuple[str, ...] = tuple(t for t in FAIR_TYPES if t != "BE")


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    return buf.getvalue()


def plot_scope_length(data: SplitData, split: str) -> bytes:
    """Gold instances per scope-length bucket (bars) and the end-to-end model's per-bucket
    NIS_tok and Scope-tokens F1 (lines, right axis).

    data (SplitData): the split's data.
    split (str): the split name (for the title).
    RETURNS (bytes): the PNG.
    """
    rows = bucket_rows(data.evals["model_end_to_end"])
    labels = [r.label for r in rows]
    x = list(range(len(rows)))
    fig = _figure(8.0, 4.8)
    ax = fig.add_subplot()
    bars = ax.bar(x, [r.gold_instances for r in rows], color="#c6d4e1", edgecolor="#5b7a99",
                  label="gold instances (left axis)")
    ax.bar_label(bars, padding=2, fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_xlabel("gold scope length (tokens without punctuation)")
    ax.set_ylabel("gold negation instances")
    ax.set_ylim(0, max([r.gold_instances for r in rows] + [1]) * 1.15)
    ax2 = ax.twinx()
    for key, name, style, color in (("nis_tok", "NIS_tok F1", "o-", SYSTEM_COLORS["model_end_to_end"]),
                                    ("scope_tokens", "Scope-tokens F1", "s--", "#d62728")):
        ys = [100 * getattr(r, key)["f"] if getattr(r, key) else float("nan") for r in rows]
        ax2.plot(x, ys, style, color=color, linewidth=2,
                 label=f"{SHORT_LABELS['model_end_to_end']}: {name} (right axis)")
    ax2.set_ylim(0, 105)
    ax2.set_ylabel("F1 (%)")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=1, fontsize=9,
              frameon=False)
    ax.set_title(f"CD-SCO {split}: gold negation instances by scope length\n"
                 f"and per-length F1 of the end-to-end model")
    return _png(fig)


def plot_faireval_errors(entries: Dict[str, Dict[str, Any]], split: str) -> bytes:
    """FairEval error-type counts of the three systems as grouped bars.

    entries (Dict[str, Dict[str, Any]]): the split's JSON entries per system.
    split (str): the split name (for the title).
    RETURNS (bytes): the PNG.
    """
    fig = _figure(9.0, 4.8)
    ax = fig.add_subplot()
    n = len(SYSTEMS)
    width = 0.8 / n
    x = list(range(len(PLOT_ERROR_TYPES)))
    for k, system in enumerate(SYSTEMS):
        counts = [entries[system]["faireval_counts"][t] for t in PLOT_ERROR_TYPES]
        bars = ax.bar([i + (k - (n - 1) / 2) * width for i in x], counts, width,
                      label=SHORT_LABELS[system], color=SYSTEM_COLORS[system])
        ax.bar_label(bars, padding=1, fontsize=7)
    ax.set_xticks(x, PLOT_ERROR_TYPES)
    ax.set_xlabel("FairEval error type (TP, FP, FN; LE label error; BES/BEL/BEO boundary error: "
                  "system span smaller/larger/overlapping; LBE label and boundary error)",
                  fontsize=8)
    ax.set_ylabel("cue and scope spans")
    ax.legend(title="system")
    ax.set_title(f"CD-SCO {split}: FairEval error types (fair evaluation, cue and scope spans)")
    return _png(fig)


def plot_cue_types(entries: Dict[str, Dict[str, Any]], gold_types: Dict[str, int], split: str) -> bytes:
    """Cue F1 per cue type: end-to-end model vs the punctuation baseline (gold cues).

    entries (Dict[str, Dict[str, Any]]): the split's JSON entries per system.
    gold_types (Dict[str, int]): gold cues per type.
    split (str): the split name (for the title).
    RETURNS (bytes): the PNG.
    """
    systems = ("model_end_to_end", "punct_baseline")
    fig = _figure(7.0, 4.5)
    ax = fig.add_subplot()
    width = 0.38
    x = list(range(len(CUE_TYPES)))
    for k, system in enumerate(systems):
        ys = [100 * entries[system]["cue_f_by_type"][t] for t in CUE_TYPES]
        label = SHORT_LABELS[system] + (" (gold cues)" if system == "punct_baseline" else "")
        bars = ax.bar([i + (k - 0.5) * width for i in x], ys, width, label=label,
                      color=SYSTEM_COLORS[system])
        ax.bar_label(bars, fmt="%.1f", padding=1, fontsize=8)
    ax.set_xticks(x, [f"{t}\n(gold: {gold_types[t]})" for t in CUE_TYPES])
    ax.set_xlabel("cue type")
    ax.set_ylabel("cue F1 (%), exact cue match")
    ax.set_ylim(0, 115)
    ax.legend(loc="upper center", ncol=2, fontsize=9)
    ax.set_title(f"CD-SCO {split}: cue F1 per cue type")
    return _png(fig)
