"""What the systems report reads (``scripts/systems_report.py``): the scores of a run's
evaluations, the per-sentence counts of its test system file, its committed summary, the
finished runs of a grid (the folders of :mod:`systems_grid`) and the systems' speed
measured by ``bench/bench_systems.py``. No spaCy import.
"""
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy

from spacy_negation.metrics.compare import CountTable, columns, count_table, families_of, parse_metric
from spacy_negation.metrics.nis import NisCounts
from spacy_negation.metrics.nis import count_record as nis_count_record
from spacy_negation.metrics.records import SentenceRecord
from spacy_negation.metrics.starsem.io import iter_aligned
from spacy_negation.scoring.counts import CUE_TYPES, NegationCounter

from systems_grid import (ALL_SYSTEMS, BACKBONE_LABELS, CORPORA, MEASURES, PROJECT, PUNCT, TRAIN_CONFIG, TRAINED,
                          backbone_name, backbone_overrides, evaluations, gold_file, split_system, train_config)

#: The errors of the report's inputs (project code: plain messages, not codes of the
#: package's catalogue), by what went wrong.
BAD_RUN_SCORES = "{path}: cannot read the scores of a systems run ({reason})."
BAD_RUN_SUMMARY = "{path}: not a run summary of the systems report ({reason})."
BAD_SEED_FOLDER = "{path}: a run folder of the systems grid is named seedN (N an integer), found {name!r}."
NO_GOLD_FILE = ("{path}: the gold *SEM file of the {corpus} test split is missing; "
                "scripts/systems_run.py writes it beside the runs (or pass --gold-dir).")
BAD_SPEED_BENCH = "{path}: not a speed measurement of bench/bench_systems.py --json ({reason})."

SUMMARY_VERSION = 1
_SEED_DIR = re.compile(r"seed(\d+)")


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
    gold_dir (Path): the folder of the gold test files (:func:`systems_grid.gold_file`).
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
