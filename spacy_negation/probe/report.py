"""Results files of the negation probe: ``probe.json`` (``{"models": {NAME: {...}}}``),
a Markdown report and plots in the manner of Figures 1-3 of Gubelmann & Handschuh (2022)."""
import json
from pathlib import Path
from typing import Any, Dict, List, Sequence, Tuple

from ..errors import Errors
from ..metrics.core import markdown_table
from ..util import atomic_write_bytes, atomic_write_text

#: Figures the paper reports in its text (Gubelmann & Handschuh 2022, sections 6-8 and
#: appendix G), for comparison: (model, what, %-ACT-repetition as stated).
PAPER_FIGURES: Tuple[Tuple[str, str, str], ...] = (
    ("neg-roberta-large", "exp. 1, negated (ranks 0 and 50)", "about 8"),
    ("neg-roberta-large", "exp. 1, positive (ranks 0 and 50)", "about 52"),
    ("neg-roberta-large", "exp. 1, negated, rank 0", "almost 14"),
    ("neg-roberta-large", "exp. 1, negated, ranks 50-200", "less than 3"),
    ("neg-bert-large", "exp. 1, negated, rank 0", "almost 40"),
    ("neg-bert-large", "exp. 1, negated, ranks 50-200", "about 2"),
    ("neg-roberta-large", "exp. 2, misprimes MP and MP_but", "at most 12"),
    ("neg-roberta-large", "exp. 2, random sentence (1rand)", "30"),
    ("neg-xlnet-large", "exp. 2, misprimes", "from 8 to 43 and beyond"),
    ("roberta-large, neg-roberta-large, neg-xlnet-large", "exp. 3, Cleopatra", "more than 85 (RoBERTas about 86)"),
    ("xlnet-large-cased", "all templates (ungrammatical predictions)", "between 2 and 57"),
)
#: Figure 1's categories: (negation/conjunction key, label).
FIG1 = (("not/none", "neg N"), ("not/does", "neg d"), ("not/contr_does", "neg c_d"),
        ("none/none", "pos N"), ("none/implic_does", "pos i_d"))


def load_results(path: Path) -> Dict[str, Any]:
    """The results file, or an empty one if it does not exist.

    RAISES (ValueError): E608 if the file is not a results file of this command.
    """
    path = Path(path)
    if not path.exists():
        return {"models": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(Errors.E608.format(path=path, reason=err)) from err
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise ValueError(Errors.E608.format(path=path, reason='no "models" object'))
    return data


def write_results(path: Path, data: Dict[str, Any], plot: bool = True) -> List[Path]:
    """Write the JSON, the Markdown (same stem, ``.md``) and, with ``plot``, the PNG.

    RETURNS (List[Path]): the files written.
    """
    path = Path(path)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    md = path.with_suffix(".md")
    atomic_write_text(md, markdown(data))
    written = [path, md]
    if plot:
        png = path.with_suffix(".png")
        atomic_write_bytes(png, plot_png(data))
        written.append(png)
    return written


def _repetition_cell(table: Dict[str, Any], key: str) -> str:
    cell = table.get(key)
    return f"{cell['act_repetition']:.1f}" if cell else "–"


def _row_table(models: Dict[str, Any], rows: Sequence[Tuple[str, str, str]]) -> List[str]:
    names = list(models)
    cells = []
    for label, exp, key in rows:
        section, _, sub = key.partition(":")
        cells.append([label] + [_repetition_cell(models[n].get(exp, {}).get(section, {}), sub) for n in names])
    return markdown_table([None, *names], cells, left=1)


def markdown(data: Dict[str, Any]) -> str:
    """The Markdown report of all models in the results."""
    models = data["models"]
    lines = ["# Pragmatic negation probe (Gubelmann & Handschuh 2022)", "",
             "%-ACT-repetition: the percentage of filled templates whose top-1 prediction "
             "for the final mask repeats one of the ACT tokens: exactly wrong after a "
             "negation (neg), fine after a positive context (pos). Written by "
             "`python -m spacy_negation probe`. Names and professions are our own lists "
             "(the paper's US name statistics and 91 professions are not available "
             "offline).", ""]
    for name, res in models.items():
        meta = res.get("meta", {})
        gram = meta.get("grammaticality", {})
        lines += [f"- **{name}**: `{meta.get('model')}`; tied head: {meta.get('tied_head')}; "
                  f"{meta.get('sample_per_gender')} name-profession pairs per gender, seed "
                  f"{meta.get('seed')}, ranks {meta.get('ranks')}, {meta.get('n_sentences')} "
                  f"sentences; alphabetic words among the ACT tokens {gram.get('act_tokens_words_pct')} %, "
                  f"among the predictions {gram.get('predictions_words_pct')} %; "
                  f"{gram.get('distinct_predictions')} distinct predictions, the most frequent "
                  f"one {gram.get('top_prediction_pct')} % of them; most frequent "
                  f"predictions: {', '.join(str(t) for t, _ in meta.get('top_predictions', [])[:6])}"]
    lines += ["", "## Experiment 1: negated vs positive (ranks 0 and 50; Figure 1)", ""]
    lines += _row_table(models, [(lab, "experiment_1", f"by_negation_conjunction:{k}") for k, lab in FIG1]
                        + [("all negated", "experiment_1", "by_negation:not"),
                           ("all positive", "experiment_1", "by_negation:none")])
    ranks = sorted({int(r.split("/")[1]) for res in models.values()
                    for r in res.get("experiment_1", {}).get("by_negation_rank", {})})
    lines += ["", "## Experiment 1: negated templates by probability rank (Figure 2)", ""]
    lines += _row_table(models, [(f"rank {r}", "experiment_1", f"by_negation_rank:not/{r}") for r in ranks])
    lines += ["", "## Experiment 1: by number of ACTs and gender (ranks 0 and 50, negated and positive)", ""]
    lines += _row_table(models, [(f"{n} ACT(s)", "experiment_1", f"by_n_acts:{n}") for n in (1, 2, 3)]
                        + [(f"gender {g}", "experiment_1", f"by_gender:{g}") for g in ("m", "f")])
    lines += ["", "## Experiments 2 and 3: misprimes and referent change (ranks 0 and 50; Figure 3)", ""]
    lines += _row_table(models, [("MP (misprime)", "experiment_2", "by_added:MP"),
                                 ("MP_but (\"but not NAME\")", "experiment_2", "by_added:MP_but"),
                                 ("1rand (unrelated sentence)", "experiment_2", "by_added:1rand"),
                                 ("Cleo (another referent)", "experiment_3", "by_added:Cleo")])
    lines += ["", "## The paper's figures (as stated in its text)", ""]
    lines += markdown_table(["model", "what", "%-ACT-repetition"], PAPER_FIGURES)
    return "\n".join(lines) + "\n"


def plot_png(data: Dict[str, Any]) -> bytes:
    """Figures 1-3 of the paper as one PNG: experiment 1 by negation and conjunction,
    negated templates by rank, and experiments 2-3 by added element."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = data["models"]
    names = list(models)
    panels = [
        ("Exp. 1 (ranks 0, 50)", [(lab, "experiment_1", "by_negation_conjunction", k) for k, lab in FIG1]),
        ("Exp. 1, negated, by rank", [
            (f"rank {r}", "experiment_1", "by_negation_rank", f"not/{r}")
            for r in sorted({int(k.split("/")[1]) for res in models.values()
                             for k in res.get("experiment_1", {}).get("by_negation_rank", {})})]),
        ("Exp. 2-3 (ranks 0, 50)", [("MP", "experiment_2", "by_added", "MP"),
                                    ("MP_but", "experiment_2", "by_added", "MP_but"),
                                    ("1rand", "experiment_2", "by_added", "1rand"),
                                    ("Cleo", "experiment_3", "by_added", "Cleo")]),
    ]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    width = 0.8 / max(1, len(names))
    for ax, (title, cats) in zip(axes, panels):
        for m, name in enumerate(names):
            vals = [models[name].get(exp, {}).get(sec, {}).get(key, {}).get("act_repetition", 0.0)
                    for _lab, exp, sec, key in cats]
            xs = [i + (m - (len(names) - 1) / 2) * width for i in range(len(cats))]
            ax.bar(xs, vals, width, label=name)
        ax.set_xticks(range(len(cats)))
        ax.set_xticklabels([c[0] for c in cats], rotation=20)
        ax.set_ylim(0, 100)
        ax.set_title(title)
        ax.set_ylabel("%-ACT-repetition")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()
