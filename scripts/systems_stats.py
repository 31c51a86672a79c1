"""The seed means, standard deviations and significance tests of the systems report
(``scripts/systems_report.py``) from the run summaries (:mod:`systems_inputs`), beside the
published numbers of Sineva et al. (2021).

Significance: the best system of a corpus (highest mean dev NIS_tok F1 over its seeds,
end-to-end systems only) against each other end-to-end system on the test split, by the
paired bootstrap and approximate randomization over sentences of
:func:`spacy_negation.metrics.compare.compare`, each system's per-sentence counts averaged
over its seeds (so every seed's predictions weigh the same; Koehn 2004, Berg-Kirkpatrick et
al. 2012). No spaCy import.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy

from spacy_negation.metrics.compare import CountTable, compare
from spacy_negation.metrics.seeds import pooled_interval, seed_summary
from spacy_negation.scoring.counts import CUE_TYPES

from published import SINEVA2021_CITATION, sineva2021
from systems_grid import ALL_SYSTEMS, CORPORA, CROSS_PAIRS, MEASURES, PUNCT, TRAINED, split_system
from systems_inputs import SCOPE_OUTCOMES, dense_counts

#: The seeds of a system do not cover the same sentences (project code: a plain message).
SEEDS_DISAGREE = ("The runs of {system} on the {corpus} test split cover different numbers of "
                  "sentences ({counts}); they were not scored on the same gold file.")
#: The system names of Sineva et al. (2021), Table 8 -> ours.
PUBLISHED_NAMES: Dict[str, str] = {
    "Punct-BL": PUNCT, "BiLSTM-Tagger": "bilstm_tagger", "NegBERT": "negbert",
    "DP-direct": "dp_direct", "DP-nested": "dp_nested", "DP-direct-synt": "dp_direct_synt",
    "DP-nested-synt": "dp_nested_synt",
}
#: Our measure -> the column of Table 8 (the paper prints no NIS_ex).
PUBLISHED_COLUMNS: Dict[str, str] = {"cues_b_f": "cues_b_f", "scm_b_f": "scm_b_f",
                                     "st_f": "st_f", "nis_tok_f": "nis_tok_f"}


def _cell(runs: Sequence[Mapping[str, Any]], part: str) -> Optional[Dict[str, Any]]:
    """{"seeds", "mean", "sd"} of the runs that have the scores ``part`` (None if none);
    sd is the sample standard deviation, None for one seed."""
    have = [r for r in runs if part in r["scores"]]
    if not have:
        return None
    mean: Dict[str, float] = {}
    sd: Dict[str, Optional[float]] = {}
    for key in MEASURES:
        values = [float(r["scores"][part][key]) for r in have]
        if len(values) > 1:
            summary = seed_summary(key, values)
            mean[key], sd[key] = summary.mean, summary.sd
        else:
            mean[key], sd[key] = values[0], None
    return {"seeds": [r["seed"] for r in have], "mean": mean, "sd": sd}


def _mean(values: Sequence[Optional[float]]) -> Optional[float]:
    have = [v for v in values if v is not None]
    return float(numpy.mean(have)) if have else None


def pooled_counts(runs: Sequence[Mapping[str, Any]], corpus: str, system: str) -> CountTable:
    """A system's per-sentence test counts averaged over its seeds.

    runs (Sequence[Mapping[str, Any]]): its run summaries.
    corpus (str): the corpus (for messages).
    system (str): the system (for messages).
    RETURNS (CountTable): the mean table.
    RAISES (ValueError): the seeds cover different sentences (SEEDS_DISAGREE).
    """
    return average_tables([dense_counts(r["test_counts"]) for r in runs], corpus, system)


def average_tables(tables: Sequence[CountTable], corpus: str, system: str) -> CountTable:
    """Per-sentence count tables of one system's seeds on one split, averaged.

    tables (Sequence[CountTable]): one table per seed.
    corpus (str): the split (for messages).
    system (str): the system (for messages).
    RETURNS (CountTable): the mean table.
    RAISES (ValueError): the tables cover different sentences (SEEDS_DISAGREE).
    """
    sizes = sorted({len(t.counts) for t in tables})
    if len(sizes) > 1:
        raise ValueError(SEEDS_DISAGREE.format(system=system, corpus=corpus,
                                            counts=", ".join(map(str, sizes))))
    return CountTable(tables[0].families, numpy.mean([t.counts for t in tables], axis=0))


def published_rows() -> Dict[str, Any]:
    """Sineva et al. (2021), Table 8, as fractions: in domain per test corpus and cross
    domain per "TRAIN->TEST" (Punct-BL under its test corpus), system -> measure."""
    in_domain: Dict[str, Dict[str, Dict[str, float]]] = {}
    cross: Dict[str, Dict[str, Dict[str, float]]] = {}
    for row in sineva2021():
        values = {k: row.scores[col] / 100 for k, col in PUBLISHED_COLUMNS.items()}
        if row.train is None or row.train == row.test:
            in_domain.setdefault(row.test, {})[PUBLISHED_NAMES[row.system]] = values
        else:
            cross.setdefault(f"{row.train}->{row.test}", {})[PUBLISHED_NAMES[row.system]] = values
    return {"citation": SINEVA2021_CITATION + " Table 8 (Tables 1-3), XLM-R-large backbone, "
                                              "their own BioScope and SFU splits.",
            "in_domain": in_domain, "cross_domain": cross}


def published_best(corpus: str) -> Dict[str, Tuple[float, str]]:
    """The best published number of each column on a corpus's test split, in domain,
    over the trained systems of Sineva et al. (2021), Table 8 (Punct-BL uses gold cues).

    corpus (str): one of CORPORA.
    RETURNS (Dict[str, Tuple[float, str]]): measure -> (fraction, our name of the system).
    """
    rows = [r for r in sineva2021(train=corpus, test=corpus)]
    out: Dict[str, Tuple[float, str]] = {}
    for key, col in PUBLISHED_COLUMNS.items():
        best = max(rows, key=lambda r: r.scores[col])
        out[key] = (best.scores[col] / 100, PUBLISHED_NAMES[best.system])
    return out


def goal_rows(runs: Sequence[Mapping[str, Any]], corpus: str, *, samples: int,
              seed: int) -> Dict[str, Dict[str, Any]]:
    """A system's seed mean on the test split against the best published number of each
    column, with the pooled bootstrap interval of the mean over sentences
    (:func:`spacy_negation.metrics.seeds.pooled_interval`).

    runs (Sequence[Mapping[str, Any]]): the system's run summaries on the corpus.
    corpus (str): the corpus.
    samples (int): bootstrap samples.
    seed (int): the random seed.
    RETURNS (Dict[str, Dict[str, Any]]): measure -> {"published", "published_system",
        "mean", "diff", "ci": {"value", "low", "high"}} (fractions; "value" is the mean of
        the seeds' scores of their system files).
    """
    tables = [dense_counts(r["test_counts"]) for r in runs]
    out: Dict[str, Dict[str, Any]] = {}
    for key, (value, system) in published_best(corpus).items():
        mean = float(numpy.mean([r["scores"]["test"][key] for r in runs]))
        ci = pooled_interval(tables, MEASURES[key][1], samples=samples, seed=seed)
        out[key] = {"published": value, "published_system": system, "mean": mean,
                    "diff": mean - value, "ci": {"value": ci.value, "low": ci.low, "high": ci.high}}
    return out


def cross_domain_means(cross: Mapping[str, Mapping[str, Mapping[str, Optional[float]]]]
                       ) -> Dict[str, Dict[str, float]]:
    """The mean over the six train->test pairs of CORPORA (Sineva et al. 2021, Table 3) of
    each system that has a value in all six, per measure that all six have: the single
    figure of a system's cross-domain robustness.

    cross (Mapping[str, Mapping[str, Mapping[str, Optional[float]]]]): "TRAIN->TEST" ->
        system -> measure -> value (a seed mean, or a published number).
    RETURNS (Dict[str, Dict[str, float]]): system -> measure -> the mean over the pairs.
    """
    systems = list(dict.fromkeys(s for p in CROSS_PAIRS for s in cross.get(p, {})))
    out: Dict[str, Dict[str, float]] = {}
    for system in systems:
        cells = [cross[p][system] for p in CROSS_PAIRS if system in cross.get(p, {})]
        if len(cells) < len(CROSS_PAIRS):
            continue
        values = {k: [c.get(k) for c in cells] for k in cells[0]}
        out[system] = {k: float(numpy.mean(v)) for k, v in values.items() if None not in v}
    return out


def build_report(summaries: Sequence[Mapping[str, Any]], *, samples: int = 10000,
                 ar_samples: int = 10000, seed: int = 0) -> Dict[str, Any]:
    """The systems report from the run summaries (partial grids allowed).

    summaries (Sequence[Mapping[str, Any]]): the run summaries (:func:`systems_inputs.read_summary`).
    samples (int): bootstrap samples of the significance tests.
    ar_samples (int): approximate randomization shuffles.
    seed (int): their random seed.
    RETURNS (Dict[str, Any]): {CORPUS: {SYSTEM: {"seeds", "mean", "sd"}} (test, in
        domain), "cross_domain": {"TRAIN->TEST": {SYSTEM: ...}}, "scope_only": {CORPUS:
        {SYSTEM: ...}} (gold cues, test), "dev": {CORPUS: {SYSTEM: ...}}, "speed": {CORPUS:
        {SYSTEM: mean words/s on test}}, "train_seconds": {CORPUS: {SYSTEM: mean}},
        "configs": {CORPUS: {SYSTEM: config}} (the seeds' distinct configs joined by "; "),
        "cue_types": {CORPUS: {SYSTEM: {"seeds", TYPE: {"gold", "found", "spurious"}}}} (test
        cues by type, counts averaged over the seeds, :func:`systems_inputs.cue_type_counts`), "scope_outcomes": {CORPUS: {SYSTEM: {"seeds",
        OUTCOME: mean gold instances}}} (:func:`systems_inputs.scope_outcome_counts`), "significance": {CORPUS: {"best",
        "chosen_by", "dev_nis_tok_f", "comparisons": [...]}}, "goal": {CORPUS: {"system",
        "seeds", "measures": the best system against the best published numbers
        (:func:`goal_rows`)}}, "backbones": {CORPUS: {SYSTEM@LABEL: {"against": SYSTEM,
        "seeds", "comparisons": [...] (B = SYSTEM@LABEL against A = SYSTEM on the default
        backbone, the seeds pooled as in "significance"; empty without SYSTEM's runs),
        "measures": against the best published numbers (:func:`goal_rows`)}}},
        "published": ...}; values are fractions, a missing cell is absent. The best system of
        "significance" and "goal" is chosen among the systems on the default backbone; the
        systems on other backbones are compared with their own system in "backbones".
        "cross_domain_mean": {SYSTEM: {"seeds": {PAIR: n}, "mean": {MEASURE: value}}} holds
        the systems with a cell in all six pairs (:func:`cross_domain_means`; "published"
        has the same of the published rows).
    """
    by_cell: Dict[Tuple[str, str], List[Mapping[str, Any]]] = {}
    for s in sorted(summaries, key=lambda s: s["seed"]):
        by_cell.setdefault((s["corpus"], s["system"]), []).append(s)
    doc: Dict[str, Any] = {c: {} for c in CORPORA}
    extra: Dict[str, Dict[str, Any]] = {k: {} for k in ("cross_domain", "scope_only", "dev", "speed",
                                                       "train_seconds", "configs", "cue_types",
                                                       "scope_outcomes", "significance", "goal",
                                                       "backbones")}
    for (corpus, system), runs in sorted(by_cell.items(),
                                         key=lambda kv: (CORPORA.index(kv[0][0]), ALL_SYSTEMS.index(kv[0][1]))):
        cells = {"test": _cell(runs, "test"), "dev": _cell(runs, "dev"),
                 "scope_only": _cell(runs, "gold_cues_test")}
        doc[corpus][system] = cells["test"]
        for part in ("dev", "scope_only"):
            if cells[part] is not None:
                extra[part].setdefault(corpus, {})[system] = cells[part]
        for other in CORPORA:
            cell = _cell(runs, f"cross_{other}")
            if cell is not None:
                extra["cross_domain"].setdefault(f"{corpus}->{other}", {})[system] = cell
        extra["speed"].setdefault(corpus, {})[system] = _mean([r["words_per_second"] for r in runs])
        extra["train_seconds"].setdefault(corpus, {})[system] = _mean([r["train_seconds"] for r in runs])
        configs = list(dict.fromkeys(r["config"] for r in runs if r["config"] is not None))
        extra["configs"].setdefault(corpus, {})[system] = "; ".join(configs) if configs else None
        typed = [r["test_cue_types"] for r in runs if r.get("test_cue_types") is not None]
        if typed:
            extra["cue_types"].setdefault(corpus, {})[system] = {
                "seeds": [r["seed"] for r in runs if r.get("test_cue_types") is not None],
                **{t: {"gold": typed[0][t][0], "found": float(numpy.mean([c[t][1] for c in typed])),
                       "spurious": float(numpy.mean([c[t][2] for c in typed]))} for t in CUE_TYPES}}
        outcomes = [r for r in runs if r.get("test_scope_outcomes") is not None]
        if outcomes:
            extra["scope_outcomes"].setdefault(corpus, {})[system] = {
                "seeds": [r["seed"] for r in outcomes],
                **{o: float(numpy.mean([r["test_scope_outcomes"][o] for r in outcomes])) for o in SCOPE_OUTCOMES}}
    for corpus in CORPORA:
        dev = extra["dev"].get(corpus, {})
        ranked = [(dev[s]["mean"]["nis_tok_f"], s) for s in TRAINED if s in dev]
        if not ranked:
            continue
        best_value, best = max(ranked, key=lambda r: (r[0], -TRAINED.index(r[1])))
        entry: Dict[str, Any] = {"best": best, "chosen_by": "highest mean dev NIS_tok F1 over seeds",
                                 "dev_nis_tok_f": best_value, "comparisons": []}
        others = [s for s in TRAINED if s != best and (corpus, s) in by_cell]
        if others:
            tables = [(s, pooled_counts(by_cell[(corpus, s)], corpus, s)) for s in [best] + others]
            results = compare(tables, [metric for _, metric in MEASURES.values()], samples=samples,
                              ar_samples=ar_samples, seed=seed)
            entry["comparisons"] = [c.as_dict() for c in results]
            entry.update({"samples": samples, "ar_samples": ar_samples, "seed": seed})
        extra["significance"][corpus] = entry
        extra["goal"][corpus] = {"system": best, "seeds": [r["seed"] for r in by_cell[(corpus, best)]],
                                 "measures": goal_rows(by_cell[(corpus, best)], corpus,
                                                       samples=samples, seed=seed)}
    for (corpus, name), runs in sorted(by_cell.items(),
                                       key=lambda kv: (CORPORA.index(kv[0][0]), ALL_SYSTEMS.index(kv[0][1]))):
        system = split_system(name)[0]
        if name == system:
            continue
        entry = {"against": system, "seeds": [r["seed"] for r in runs], "comparisons": [],
                 "measures": goal_rows(runs, corpus, samples=samples, seed=seed)}
        if (corpus, system) in by_cell:
            tables = [(s, pooled_counts(by_cell[(corpus, s)], corpus, s)) for s in (system, name)]
            entry["comparisons"] = [c.as_dict() for c in compare(
                tables, [metric for _, metric in MEASURES.values()], samples=samples, ar_samples=ar_samples,
                seed=seed)]
            entry.update({"samples": samples, "ar_samples": ar_samples, "seed": seed})
        extra["backbones"].setdefault(corpus, {})[name] = entry
    published = published_rows()
    means = cross_domain_means({p: {s: c["mean"] for s, c in cells.items()}
                                for p, cells in extra["cross_domain"].items()})
    extra["cross_domain_mean"] = {
        s: {"seeds": {p: len(cells[s]["seeds"]) for p, cells in extra["cross_domain"].items()}, "mean": m}
        for s, m in means.items()}
    return {**doc, **extra, "published": {**published,
                                          "cross_domain_mean": cross_domain_means(published["cross_domain"])}}
