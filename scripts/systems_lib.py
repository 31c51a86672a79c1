"""The systems of Sineva et al. (2021) side by side: the grid of training runs (corpus x
system x seed), the summary of each finished run, and the seed means, standard deviations
and significance tests of the systems report (``scripts/systems_run.py``,
``scripts/systems_report.py``).

A run folder is ``ROOT/{corpus}/{system}/seed{N}`` with ``model-best``, ``train.log``,
``train_seconds`` (wall seconds of ``spacy train``) and the outputs of
``scripts/evaluate_model.py``: ``{dev,test}.{txt,json}`` in domain, ``cross_{corpus}.*``
on the other corpora's test splits (Sineva et al. 2021, Table 3) and
``gold_cues_test.*`` (scope resolution on gold cues) for the systems with a separate
scope component. The punctuation baseline (gold cues, no training) has one folder,
``seed0``, per corpus. A run counts as finished when its ``test.json`` exists. A trained
system on another backbone (``systems_run.py --backbone``) or on other training data
(``systems_run.py --data``) is the system ``{system}@{label}`` (BACKBONE_LABELS,
DATA_VARIANTS), with folders and summaries of its own.

Significance: the best system of a corpus (highest mean dev NIS_tok F1 over its seeds,
end-to-end systems only) against each other end-to-end system on the test split, by the
paired bootstrap and approximate randomization over sentences of
:func:`spacy_negation.metrics.compare.compare`, each system's per-sentence counts averaged
over its seeds (so every seed's predictions weigh the same; Koehn 2004, Berg-Kirkpatrick et
al. 2012). No spaCy import.
"""
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy

from spacy_negation.metrics.compare import CountTable, columns, compare, count_table, families_of, parse_metric
from spacy_negation.metrics.nis import NisCounts
from spacy_negation.metrics.nis import count_record as nis_count_record
from spacy_negation.metrics.records import SentenceRecord
from spacy_negation.metrics.seeds import pooled_interval, seed_summary
from spacy_negation.metrics.starsem.io import iter_aligned
from spacy_negation.scoring.counts import CUE_TYPES, NegationCounter

from published import SINEVA2021_CITATION, sineva2021

#: The errors of the systems workflow (project code: plain messages, not codes of the
#: package's catalogue), by what went wrong.
BAD_RUN_SCORES = "{path}: cannot read the scores of a systems run ({reason})."
BAD_RUN_SUMMARY = "{path}: not a run summary of the systems report ({reason})."
BAD_SEED_FOLDER = "{path}: a run folder of the systems grid is named seedN (N an integer), found {name!r}."
NO_GOLD_FILE = ("{path}: the gold *SEM file of the {corpus} test split is missing; "
                "scripts/systems_run.py writes it beside the runs (or pass --gold-dir).")
RUN_FAILED = ("{command!r} failed with exit code {code}; see {log}. The run folder {run} is "
              "unfinished and is redone by the next run.")
SEEDS_DISAGREE = ("The runs of {system} on the {corpus} test split cover different numbers of "
                  "sentences ({counts}); they were not scored on the same gold file.")
BAD_SPEED_BENCH = "{path}: not a speed measurement of bench/bench_systems.py --json ({reason})."

CORPORA: Tuple[str, ...] = ("cdsco", "bioscope", "sfu")
#: The cross-domain pairs "TRAIN->TEST" of Sineva et al. (2021), Table 3, in report order.
CROSS_PAIRS: Tuple[str, ...] = tuple(f"{a}->{b}" for a in CORPORA for b in CORPORA if a != b)
#: The trained systems, in the order of the tables.
TRAINED: Tuple[str, ...] = ("bilstm_tagger", "negbert", "dp_direct", "dp_nested")
PUNCT = "punct_baseline"
SYSTEMS: Tuple[str, ...] = (PUNCT,) + TRAINED
#: The systems whose scope component runs alone on gold cues (``--gold-cues``).
SCOPE_COMPONENT: Tuple[str, ...] = ("bilstm_tagger", "negbert")
#: Corpora without POS tags: their tokens are tagged for the *SEM punctuation rule
#: (``evaluate_model.py --tag-punct``) wherever they are scored.
UNTAGGED: Tuple[str, ...] = ("bioscope", "sfu")
#: Report key -> (key of the flat ``neg_*`` scores, metric name of ``compare``).
MEASURES: Dict[str, Tuple[str, str]] = {
    "cues_b_f": ("neg_cue_b_f", "starsem.cues_b.f"),
    "scm_b_f": ("neg_scm_b_f", "starsem.scopes_cue_match_b.f"),
    "st_f": ("neg_st_f", "starsem.scope_tokens.f"),
    "nis_tok_f": ("neg_nis_tok_f", "nis.nis_tok.f"),
    "nis_ex_f": ("neg_nis_ex_f", "nis.nis_ex.f"),
}
#: The system names of Sineva et al. (2021), Table 8 -> ours.
PUBLISHED_NAMES: Dict[str, str] = {
    "Punct-BL": PUNCT, "BiLSTM-Tagger": "bilstm_tagger", "NegBERT": "negbert",
    "DP-direct": "dp_direct", "DP-nested": "dp_nested", "DP-direct-synt": "dp_direct_synt",
    "DP-nested-synt": "dp_nested_synt",
}
#: Our measure -> the column of Table 8 (the paper prints no NIS_ex).
PUBLISHED_COLUMNS: Dict[str, str] = {"cues_b_f": "cues_b_f", "scm_b_f": "scm_b_f",
                                     "st_f": "st_f", "nis_tok_f": "nis_tok_f"}
SUMMARY_VERSION = 1
#: The file of a run folder with the config and overrides of its ``spacy train`` command.
TRAIN_CONFIG = "train_config"
#: The project folder (the configs' paths are relative to it).
PROJECT = Path(__file__).resolve().parent.parent
_SEED_DIR = re.compile(r"seed(\d+)")
#: The optional backbones (``scripts/systems_run.py --backbone NAME``) -> their label in
#: system names: a trained system on another backbone is ``SYSTEM@LABEL``
#: (``negbert@mpnet``), its own row beside the system on the default backbone.
BACKBONE_LABELS: Dict[str, str] = {"all-mpnet-base-v2": "mpnet"}
#: Training-data variants (``scripts/systems_run.py --data LABEL``): label -> per training
#: corpus, the train split that replaces the corpus's own (built by the project command
#: ``augment-cdsco``); a run is ``SYSTEM@LABEL`` (``negbert@affixal``), compared with SYSTEM.
DATA_VARIANTS: Dict[str, Dict[str, str]] = {"affixal": {"cdsco": "corpus/cdsco_affixal/train.spacy"}}
#: Each label of a system variant, as the reports describe it.
VARIANT_DESCRIPTIONS: Dict[str, str] = {
    "mpnet": "on the all-mpnet-base-v2 backbone (MPNet-base, 110M)",
    "affixal": ("trained on CD-SCO train with two copies of each sentence with an affixal cue, the cue word "
                "replaced by another word with a negative affix (spacy_negation.corpora.cue_augment; never "
                "a word that is an affixal cue of dev or test)"),
}
#: Every system name of the grid, in the order of the tables: the systems on the default
#: backbone, then each trained system on each other backbone, then on each data variant.
ALL_SYSTEMS: Tuple[str, ...] = SYSTEMS + tuple(
    f"{system}@{label}" for label in (*BACKBONE_LABELS.values(), *DATA_VARIANTS) for system in TRAINED)


def split_system(name: str) -> Tuple[str, Optional[str]]:
    """The system and backbone label of a system name of ALL_SYSTEMS (``negbert@mpnet`` ->
    ``("negbert", "mpnet")``, ``negbert`` -> ``("negbert", None)``)."""
    system, _, label = name.partition("@")
    return system, label or None


def backbone_name(label: str) -> str:
    """The backbone of a label of BACKBONE_LABELS (``mpnet`` -> ``all-mpnet-base-v2``)."""
    return next(name for name, known in BACKBONE_LABELS.items() if known == label)


def backbone_overrides(config: str, backbone: str, project: Path) -> List[str]:
    """``spacy train`` overrides that put every transformer of a config on a backbone:
    ``--PATH.name NAME`` for each block of ``spacy-negation.TransformerModel.v1``.

    config (str): the config's path, relative to the project folder or the working folder.
    backbone (str): the backbone's name (as ``resolve_backbone`` takes it).
    project (Path): the project folder.
    RETURNS (List[str]): the overrides, in the config's order.
    """
    from thinc.api import Config

    found: List[str] = []

    def walk(node: Dict[str, Any], path: List[str]) -> None:
        if node.get("@architectures") == "spacy-negation.TransformerModel.v1":
            found.extend([f"--{'.'.join(path + ['name'])}", backbone])
        for key, value in node.items():
            if isinstance(value, dict):
                walk(value, path + [key])

    path = Path(config) if Path(config).exists() else project / config
    walk(Config().from_disk(path, interpolate=False), [])
    return found


def train_config(corpus: str, system: str) -> Tuple[str, List[str]]:
    """The training config of a trained system on a corpus and the overrides its
    ``spacy train`` command adds (besides ``--output`` and ``--system.seed``): on CD-SCO
    the system's config with the corpus paths (and the step counts of the project's
    CD-SCO runs), elsewhere the per-corpus config of ``scripts/corpus_configs.py``.

    corpus (str): one of CORPORA.
    system (str): one of TRAINED.
    RETURNS (Tuple[str, List[str]]): the config path (relative to the project folder) and
        the overrides.
    """
    if corpus != "cdsco":
        name = corpus if system == "bilstm_tagger" else f"{system}_{corpus}"
        return f"configs/{name}.cfg", []
    paths = ["--paths.train", "corpus/train.spacy", "--paths.dev", "corpus/dev.spacy"]
    if system == "bilstm_tagger":
        return "configs/negation_trf.cfg", paths + ["--training.max_steps", "2400",
                                                    "--training.eval_frequency", "200"]
    if system == "negbert":
        return "configs/negbert.cfg", paths + ["--training.max_steps", "2400"]
    return f"configs/{system}.cfg", paths


def split_file(corpus: str, split: str) -> str:
    """The converted split of a corpus (``spacy project run convert`` / ``convert-cross``).

    corpus (str): one of CORPORA.
    split (str): "train", "dev" or "test".
    RETURNS (str): its path relative to the project folder.
    """
    return f"corpus/{split}.spacy" if corpus == "cdsco" else f"corpus/{corpus}/{split}.spacy"


def run_dir(root: Path, corpus: str, system: str, seed: int) -> Path:
    """The folder of one run: ``ROOT/{corpus}/{system}/seed{N}``."""
    return root / corpus / system / f"seed{seed}"


def gold_file(gold_dir: Path, corpus: str) -> Path:
    """The gold *SEM file of a corpus's test split that the runs' system files align to."""
    return gold_dir / f"{corpus}_test.txt"


def evaluations(corpus: str, system: str) -> List[Tuple[str, str, bool]]:
    """The evaluations of a run, in order: (output name, test corpus, gold cues); the
    output files are ``NAME.txt`` and ``NAME.json`` in the run folder, ``test`` last of
    the in-domain ones (it marks the run finished).

    corpus (str): the training corpus.
    system (str): the system (of ALL_SYSTEMS: a backbone does not change the evaluations).
    RETURNS (List[Tuple[str, str, bool]]): the evaluations.
    """
    system = split_system(system)[0]
    out = [("dev", corpus, False), ("test", corpus, False)]
    if system == PUNCT:
        return out
    out += [(f"cross_{other}", other, False) for other in CORPORA if other != corpus]
    if system in SCOPE_COMPONENT:
        out.append(("gold_cues_test", corpus, True))
    return out


def read_scores(path: Path) -> Dict[str, Any]:
    """The report's measures (fractions) and the speed of an ``evaluate_model.py`` or
    ``punct_baseline.py`` scores JSON.

    path (Path): the JSON file.
    RETURNS (Dict[str, Any]): {"scores": {measure: float}, "words_per_second": float or None}.
    RAISES (ValueError): unreadable, not JSON or a measure missing (BAD_RUN_SCORES).
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        flat = doc["scores"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(BAD_RUN_SCORES.format(path=path, reason=f"{type(err).__name__}: {err}")) from None
    scores: Dict[str, float] = {}
    for key, (src, _) in MEASURES.items():
        value = flat.get(src) if isinstance(flat, Mapping) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(BAD_RUN_SCORES.format(path=path, reason=f"no numeric score {src!r}"))
        scores[key] = float(value)
    speed = doc.get("speed")
    wps = speed.get("words_per_second") if isinstance(speed, Mapping) else None
    return {"scores": scores,
            "words_per_second": float(wps) if isinstance(wps, (int, float)) and wps else None}


def sparse_counts(table: CountTable) -> Dict[str, Any]:
    """The per-sentence counts the report's measures need, JSON-ready: only the columns
    those metrics use and only the sentences with a count.

    table (CountTable): the counts of a system file against its gold file.
    RETURNS (Dict[str, Any]): {"families", "sentences", "columns", "rows": [[index,
        value, ...], ...]}.
    """
    cols = table.columns
    used = numpy.zeros(len(cols), dtype=bool)
    for _, metric in MEASURES.values():
        used |= parse_metric(metric).matrix(cols).any(axis=1)
    keep = [k for k in range(len(cols)) if used[k]]
    sub = table.counts[:, keep]
    rows: List[List[float]] = [[int(i)] + [int(v) if float(v).is_integer() else float(v) for v in sub[i]]
                               for i in numpy.flatnonzero(sub.any(axis=1))]
    return {"families": list(table.families), "sentences": int(len(table.counts)),
            "columns": [cols[k] for k in keep], "rows": rows}


def dense_counts(data: Mapping[str, Any]) -> CountTable:
    """The count table of :func:`sparse_counts` back (zeros where nothing was stored).

    data (Mapping[str, Any]): the stored counts.
    RETURNS (CountTable): the table.
    RAISES (KeyError, TypeError, ValueError): malformed data.
    """
    families = tuple(str(f) for f in data["families"])
    cols = columns(families)
    index = [cols.index(c) for c in data["columns"]]
    counts = numpy.zeros((int(data["sentences"]), len(cols)))
    for row in data["rows"]:
        if len(row) != len(index) + 1:
            raise ValueError(f"a row of {len(row)} values for {len(index)} columns")
        counts[int(row[0]), index] = [float(v) for v in row[1:]]
    return CountTable(families, counts)


def read_pairs(gold: Path, system_file: Path) -> List[Tuple[SentenceRecord, SentenceRecord]]:
    """The (gold, system) records of a run's system file, sentence by sentence.

    gold (Path): the gold *SEM file.
    system_file (Path): the system *SEM file.
    RETURNS (List[Tuple[SentenceRecord, SentenceRecord]]): the records, in order.
    RAISES (NegationFormatError, FileNotFoundError): bad or misaligned files.
    """
    return [(g.get_record(), s.get_record()) for g, s in iter_aligned(gold, system_file)]


def count_run(pairs: Sequence[Tuple[SentenceRecord, SentenceRecord]]) -> CountTable:
    """The per-sentence counts of the report's measures' families (:func:`read_pairs`)."""
    return count_table(pairs, families_of([metric for _, metric in MEASURES.values()]))


def cue_type_counts(pairs: Sequence[Tuple[SentenceRecord, SentenceRecord]]) -> Dict[str, List[int]]:
    """Cues by type (:func:`spacy_negation.metrics.records.cue_type`), counted by the
    scorers' :class:`spacy_negation.scoring.counts.NegationCounter`: per type, the gold
    cue instances, those of them a system instance matches by exactly the same cue cells,
    and the system's cue instances of that type that match none.

    pairs (Sequence[Tuple[SentenceRecord, SentenceRecord]]): the records (:func:`read_pairs`).
    RETURNS (Dict[str, List[int]]): type -> [gold, found, spurious].
    """
    counter = NegationCounter(scopes=False)
    for gold, system in pairs:
        counter.add_records(gold, system)
    return {t: [n_gold, matched, n_system - matched] for t, (n_gold, n_system, matched) in counter.per_type.items()}


#: How the scope of a gold instance compares with the system's (:func:`scope_outcome_counts`).
SCOPE_OUTCOMES: Tuple[str, ...] = ("cue_missed", "exact", "too_short", "too_long", "crossing")


def scope_outcome_counts(pairs: Sequence[Tuple[SentenceRecord, SentenceRecord]]) -> Dict[str, int]:
    """Where scopes go wrong: each gold instance, paired with a system instance by NIS's
    exact cue match (Sineva et al. 2021; :func:`spacy_negation.metrics.nis.count_record`),
    by how the two scopes' cells (punctuation removed, as NIS counts them) compare:
    ``cue_missed`` (no system instance has its cue), ``exact`` (the same cells),
    ``too_short`` (a strict subset, the empty scope included), ``too_long`` (a strict
    superset) or ``crossing`` (cells missing and cells added).

    pairs (Sequence[Tuple[SentenceRecord, SentenceRecord]]): the records (:func:`read_pairs`).
    RETURNS (Dict[str, int]): outcome -> gold instances, in the order of SCOPE_OUTCOMES.
    """
    out = dict.fromkeys(SCOPE_OUTCOMES, 0)
    for gold, system in pairs:
        gi, si, matched = nis_count_record(gold, system, NisCounts())
        partner = dict(matched)
        for i, instance in enumerate(gi):
            if i not in partner:
                out["cue_missed"] += 1
                continue
            g, s = set(instance.scope), set(si[partner[i]].scope)
            out["exact" if g == s else "too_short" if s < g else "too_long" if s > g else "crossing"] += 1
    return out


def summarize_run(folder: Path, corpus: str, system: str, seed: int,
                  gold_dir: Path) -> Dict[str, Any]:
    """The committed summary of a finished run: its scores (dev, test, cross-domain,
    gold cues), speed, training time, config and test counts.

    folder (Path): the run folder (its ``test.json`` exists).
    corpus (str): the training corpus.
    system (str): the system, of ALL_SYSTEMS.
    seed (int): the seed.
    gold_dir (Path): the folder of the gold test files (:func:`gold_file`).
    RETURNS (Dict[str, Any]): the summary (see :func:`read_summary`).
    RAISES (ValueError): a scores file is unreadable (BAD_RUN_SCORES) or the gold file missing
        (NO_GOLD_FILE).
    """
    scores: Dict[str, Dict[str, float]] = {}
    speed: Optional[float] = None
    for name, _, _ in evaluations(corpus, system):
        path = folder / f"{name}.json"
        if path.exists():
            result = read_scores(path)
            scores[name] = result["scores"]
            if name == "test":
                speed = result["words_per_second"]
    seconds: Optional[float] = None
    if (folder / "train_seconds").exists():
        text = (folder / "train_seconds").read_text(encoding="utf-8").strip()
        try:
            seconds = float(text)
        except ValueError:
            raise ValueError(BAD_RUN_SCORES.format(path=folder / "train_seconds",
                                                reason=f"not a number of seconds: {text!r}")) from None
    gold = gold_file(gold_dir, corpus)
    if not gold.exists():
        raise ValueError(NO_GOLD_FILE.format(path=gold, corpus=corpus))
    pairs = read_pairs(gold, folder / "test.txt")
    config = None
    base, label = split_system(system)
    if (folder / TRAIN_CONFIG).exists():
        config = (folder / TRAIN_CONFIG).read_text(encoding="utf-8").strip()
    elif base != PUNCT:  # a run of before the file was written: the grid's training
        config_path, overrides = train_config(corpus, base)
        if label in BACKBONE_LABELS.values():
            overrides = overrides + backbone_overrides(config_path, backbone_name(label), PROJECT)
        elif label is not None:  # a data variant's runs always write their train_config
            raise ValueError(BAD_RUN_SCORES.format(path=folder / TRAIN_CONFIG, reason="missing"))
        config = " ".join([config_path] + overrides)
    return {"version": SUMMARY_VERSION, "corpus": corpus, "system": system, "seed": seed,
            "config": config, "train_seconds": seconds, "words_per_second": speed,
            "scores": scores, "test_counts": sparse_counts(count_run(pairs)), "test_cue_types": cue_type_counts(pairs),
            "test_scope_outcomes": scope_outcome_counts(pairs)}


def summary_name(corpus: str, system: str, seed: int) -> str:
    """The file name of a run's summary: ``{corpus}__{system}__seed{N}.json``."""
    return f"{corpus}__{system}__seed{seed}.json"


def read_summary(path: Path) -> Dict[str, Any]:
    """A committed run summary, checked.

    path (Path): the file (named by :func:`summary_name`).
    RETURNS (Dict[str, Any]): {"version", "corpus", "system", "seed", "config",
        "train_seconds", "words_per_second", "scores": {NAME: {measure: float}},
        "test_counts": the data of :func:`sparse_counts`, "test_cue_types" and
        "test_scope_outcomes": the data of :func:`cue_type_counts` and
        :func:`scope_outcome_counts` (each absent from summaries written before it)}.
    RAISES (ValueError): not such a summary, or not the run its name says (BAD_RUN_SUMMARY).
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        key = (doc["corpus"], doc["system"], doc["seed"])
        dense_counts(doc["test_counts"])
        for name, row in doc["scores"].items():
            if set(row) != set(MEASURES) or not all(isinstance(v, (int, float)) for v in row.values()):
                raise ValueError(f"the scores {name!r} are not the measures {', '.join(MEASURES)}")
        if "test" not in doc["scores"]:
            raise ValueError("no test scores")
        types = doc.get("test_cue_types")
        if types is not None and (set(types) != set(CUE_TYPES) or not all(
                isinstance(row, list) and len(row) == 3 and all(type(v) is int and v >= 0 for v in row)
                for row in types.values())):
            raise ValueError(f"'test_cue_types' is not [gold, found, spurious] counts of {', '.join(CUE_TYPES)}")
        outcomes = doc.get("test_scope_outcomes")
        if outcomes is not None and (set(outcomes) != set(SCOPE_OUTCOMES) or not all(
                type(v) is int and v >= 0 for v in outcomes.values())):
            raise ValueError(f"'test_scope_outcomes' is not counts of {', '.join(SCOPE_OUTCOMES)}")
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as err:
        raise ValueError(BAD_RUN_SUMMARY.format(path=path, reason=f"{type(err).__name__}: {err}")) from None
    if key[0] not in CORPORA or key[1] not in ALL_SYSTEMS or not isinstance(key[2], int) \
            or summary_name(*key) != path.name:
        raise ValueError(BAD_RUN_SUMMARY.format(path=path, reason=f"it holds the run {key!r}"))
    return doc


def find_runs(root: Path) -> List[Tuple[str, str, int, Path]]:
    """The finished runs under a runs folder (those with ``test.json``).

    root (Path): the folder of the grid.
    RETURNS (List[Tuple[str, str, int, Path]]): (corpus, system, seed, folder), sorted.
    RAISES (ValueError): a folder in a system's folder that is not ``seed{N}``
        (BAD_SEED_FOLDER).
    """
    out = []
    for corpus in CORPORA:
        for system in ALL_SYSTEMS:
            parent = root / corpus / system
            if not parent.is_dir():
                continue
            for folder in sorted(parent.iterdir()):
                match = _SEED_DIR.fullmatch(folder.name)
                if match is None:
                    raise ValueError(BAD_SEED_FOLDER.format(path=folder, name=folder.name))
                if (folder / "test.json").exists():
                    out.append((corpus, system, int(match.group(1)), folder))
    return sorted(out, key=lambda r: (CORPORA.index(r[0]), ALL_SYSTEMS.index(r[1]), r[2]))


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

    summaries (Sequence[Mapping[str, Any]]): the run summaries (:func:`read_summary`).
    samples (int): bootstrap samples of the significance tests.
    ar_samples (int): approximate randomization shuffles.
    seed (int): their random seed.
    RETURNS (Dict[str, Any]): {CORPUS: {SYSTEM: {"seeds", "mean", "sd"}} (test, in
        domain), "cross_domain": {"TRAIN->TEST": {SYSTEM: ...}}, "scope_only": {CORPUS:
        {SYSTEM: ...}} (gold cues, test), "dev": {CORPUS: {SYSTEM: ...}}, "speed": {CORPUS:
        {SYSTEM: mean words/s on test}}, "train_seconds": {CORPUS: {SYSTEM: mean}},
        "configs": {CORPUS: {SYSTEM: config}} (the seeds' distinct configs joined by "; "),
        "cue_types": {CORPUS: {SYSTEM: {"seeds", TYPE: {"gold", "found", "spurious"}}}} (test
        cues by type, counts averaged over the seeds, :func:`cue_type_counts`), "scope_outcomes": {CORPUS: {SYSTEM: {"seeds",
        OUTCOME: mean gold instances}}} (:func:`scope_outcome_counts`), "significance": {CORPUS: {"best",
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


#: The stage of ``bench/bench_systems.py`` that runs the whole pipeline.
END_TO_END = "nlp.pipe end to end"


def read_speed_bench(path: Path) -> Dict[str, Any]:
    """The measurements of one ``bench/bench_systems.py --json`` run over the systems'
    models (one model per system, named by its system), as the report's ``speed_one_run``:
    the corpus counts, threads and load averages, and per system the seconds and words per
    second (wall clock and CPU time) of each stage, end to end first.

    path (Path): the JSON file.
    RETURNS (Dict[str, Any]): {"data", "docs", "sentences", "words", "cue_instances",
        "threads", "load_average_start", "load_average_end", "repeat", "systems": {SYSTEM: {"path",
        "stages": [{"stage", "wall_s", "cpu_s", "words_per_second", "words_per_cpu_second"}]}}}.
    RAISES (ValueError): not such a file (BAD_SPEED_BENCH).
    """
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(BAD_SPEED_BENCH.format(path=path, reason=err)) from None
    if not isinstance(doc, dict):
        raise ValueError(BAD_SPEED_BENCH.format(path=path, reason="not a JSON object"))
    counts = ("docs", "sentences", "words", "cue_instances", "threads")
    for key in counts:
        if not isinstance(doc.get(key), int) or isinstance(doc.get(key), bool) or doc[key] < 0:
            raise ValueError(BAD_SPEED_BENCH.format(path=path, reason=f"{key!r} is not a count"))
    if doc["words"] == 0:
        raise ValueError(BAD_SPEED_BENCH.format(path=path, reason="no words were timed"))
    models = doc.get("models")
    if not isinstance(models, dict) or not models:
        raise ValueError(BAD_SPEED_BENCH.format(path=path, reason="no 'models'"))
    systems: Dict[str, Any] = {}
    for name in TRAINED:
        model = models.get(name)
        if model is None:
            continue
        stages = model.get("stages") if isinstance(model, dict) else None
        if not isinstance(stages, dict) or END_TO_END not in stages:
            raise ValueError(BAD_SPEED_BENCH.format(path=path, reason=f"{name!r} has no stage {END_TO_END!r}"))
        rows = []
        for stage in [END_TO_END] + [k for k in stages if k != END_TO_END]:
            times = stages[stage]
            if not isinstance(times, dict) or not all(
                    isinstance(times.get(k), (int, float)) and not isinstance(times.get(k), bool)
                    and times[k] > 0 for k in ("wall_s", "cpu_s")):
                raise ValueError(BAD_SPEED_BENCH.format(path=path, reason=f"{name!r}, {stage!r}: no positive "
                                                                      "'wall_s' and 'cpu_s'"))
            rows.append({"stage": stage, "wall_s": times["wall_s"], "cpu_s": times["cpu_s"],
                         "words_per_second": doc["words"] / times["wall_s"],
                         "words_per_cpu_second": doc["words"] / times["cpu_s"]})
        systems[name] = {"path": str(model.get("path", "")), "stages": rows}
    unknown = sorted(set(models) - set(TRAINED))
    if unknown:
        raise ValueError(BAD_SPEED_BENCH.format(path=path, reason=f"models {unknown} are not systems of the grid "
                                                              f"({', '.join(TRAINED)})"))
    return {**{k: doc[k] for k in counts}, "data": str(doc.get("data", "")),
            "load_average_start": doc.get("load_average_start"), "load_average_end": doc.get("load_average_end"),
            "repeat": doc.get("repeat") if isinstance(doc.get("repeat"), int) else None, "systems": systems}
