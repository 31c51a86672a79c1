"""Report the CD-SCO results: a JSON, a markdown page beside Table 1 of Sineva et al. (2021)
and three plots.

python scripts/report.py [--metrics-dir metrics] [--gold-dev corpus/dev.spacy]
    [--gold-test corpus/test.spacy] [--meta RUN.json] [--out-dir results] [--plot-split test]

Inputs, for SPLIT in dev, test and SYSTEM in punct_baseline, model_end_to_end,
model_gold_cues: ``METRICS/SYSTEM_SPLIT.json`` ({"scores": the flat ``neg_*`` dict of
``spacy_negation.scorers.score_negations``, "detail": ..., optional "speed", "gold_cues"}),
written by scripts/punct_baseline.py and scripts/evaluate_model.py, and the system *SEM
file ``METRICS/SYSTEM_SPLIT.txt`` written beside it; the gold of each split (one or more
.spacy or *SEM files, concatenated in the order given; test = cardboard + circle); and
optionally ``--meta``, a JSON object with run metadata (machine, duration, seed, config,
training words/s, ...), copied to ``meta.run``.

Outputs in OUT: ``cdsco.json`` (scores as fractions, taken from the scores JSONs),
``cdsco.md`` (tables in percent), ``cdsco_scope_length.png``, ``cdsco_faireval_errors.png``
and ``cdsco_cue_types.png`` (plots of --plot-split). Everything is computed before the
first file is written; each file is written atomically.

Consistency check: every system is re-scored from its *SEM file against the gold, with the
spaCy scorer's conventions (reference tokens; *SEM rows and FairEval spans drop
punctuation by the *SEM gold-POS rule on the reference tag, NIS by the reference
``token.is_punct``) and the same counting functions; a reported score that differs from
the re-scored one by more than 1e-8 is an error (stale or mixed-up inputs). The re-scoring
also gives the FairEval error counts and the per-bucket scores, which the scores JSONs do
not hold.

Scores by gold scope length (plot a, tables "By gold scope length"): each gold instance
falls into the bucket of its scope length L = the number of its scope tokens that are not
punctuation (reference ``token.is_punct``, the NIS rule); buckets 0, 1-2, 3-5, 6-10, 11-20,
21+. Per bucket and system:

* NIS_tok P/R/F1 = the corpus NIS_tok formulas on the bucket's gold instances G_b and the
  system instances S_b exact-cue-matched to them (the NIS matching of the whole sentence):
  P_b = sum of the pairs' instance precision / |S_b|, R_b = sum of the pairs' instance
  recall / |G_b| (an unmatched gold instance adds 0). System instances matched to no gold
  instance have no gold length and count in no bucket.
* Scope-tokens P/R/F1 = the *SEM "Scope tokens" row counted on the bucket's gold
  instances and the system instances the *SEM scorer pairs with them (first unpaired
  system instance sharing a cue token, gold in column order): TP = gold scope tokens the
  paired system scope has (same token, same normalised string), FN = the other gold scope
  tokens, FP = system scope tokens of the paired instances not in the gold scope.
  Undefined ("-") when the bucket has no gold scope token (e.g. bucket 0).

Both use the counting functions of :mod:`spacy_negation.metrics` on the sub-sentences; the
buckets' counts plus those of the unattributed system instances add up to the corpus
counts (tested).
"""
import argparse
import io
import json
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from spacy.tokens import Doc
from spacy.training import Example

from spacy_negation.about import __version__
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.starsem import Sentence, read_starsem
from spacy_negation.corpora.starsem_docs import read_starsem_docs
from spacy_negation.errors import Errors, NegationFormatError
from spacy_negation.metrics.faireval import FAIR_TYPES
from spacy_negation.metrics.nis import NisCounts, NisInstance, cue_type, nis_instances, nis_scores
from spacy_negation.metrics.nis import count_sentence as nis_count_sentence
from spacy_negation.metrics.starsem_eval import StarsemCounts, greedy_pairs, starsem_scores
from spacy_negation.metrics.starsem_eval import count_sentence as starsem_count_sentence
from spacy_negation.published import SINEVA2021_CITATION, sineva2021
from spacy_negation.scorers import CUE_TYPES, NegationCounter, example_sentences
from spacy_negation.util import atomic_write_bytes, atomic_write_text

SPLITS: Tuple[str, ...] = ("dev", "test")
SYSTEMS: Tuple[str, ...] = ("punct_baseline", "model_end_to_end", "model_gold_cues")
SYSTEM_LABELS: Dict[str, str] = {
    "punct_baseline": "Punct-BL (gold cues; scope to the next punctuation)",
    "model_end_to_end": "spacy-negation, end to end",
    "model_gold_cues": "spacy-negation, gold cues (scope only)",
}
SHORT_LABELS: Dict[str, str] = {
    "punct_baseline": "Punct-BL",
    "model_end_to_end": "spacy-negation end to end",
    "model_gold_cues": "spacy-negation gold cues",
}
#: One colour per system in every plot.
SYSTEM_COLORS: Dict[str, str] = {
    "punct_baseline": "#8c8c8c",
    "model_end_to_end": "#1f77b4",
    "model_gold_cues": "#ff7f0e",
}
#: Which command writes each system's files (for the "missing input" message).
PRODUCERS: Dict[str, str] = {
    "punct_baseline": "scripts/punct_baseline.py (`spacy project run baseline`)",
    "model_end_to_end": "scripts/evaluate_model.py MODEL GOLD SYSTEM_OUT SCORES_OUT",
    "model_gold_cues": "scripts/evaluate_model.py MODEL GOLD SYSTEM_OUT SCORES_OUT --gold-cues",
}
#: Output key -> key of score_negations, in output order.
SCORE_KEYS: Tuple[Tuple[str, str], ...] = (
    ("cues_b_f", "neg_cue_b_f"), ("scm_f", "neg_scm_f"), ("scm_b_f", "neg_scm_b_f"),
    ("st_p", "neg_st_p"), ("st_r", "neg_st_r"), ("st_f", "neg_st_f"),
    ("nis_tok_p", "neg_nis_tok_p"), ("nis_tok_r", "neg_nis_tok_r"), ("nis_tok_f", "neg_nis_tok_f"),
    ("nis_ex_f", "neg_nis_ex_f"), ("fair_trad_f", "neg_fair_trad_f"), ("fair_f", "neg_fair_f"),
    ("fair_weighted_f", "neg_fair_weighted_f"),
)
#: FairEval error counts reported (fair evaluation, spans; BE = BES + BEL + BEO).
FAIR_COUNT_KEYS: Tuple[str, ...] = FAIR_TYPES
#: Error types plotted (BE is the sum of its three subtypes and left out).
PLOT_ERROR_TYPES: Tuple[str, ...] = tuple(t for t in FAIR_TYPES if t != "BE")
#: Scope-length buckets: (lowest, highest or None, label).
BUCKETS: Tuple[Tuple[int, Optional[int], str], ...] = (
    (0, 0, "0"), (1, 2, "1-2"), (3, 5, "3-5"), (6, 10, "6-10"), (11, 20, "11-20"), (21, None, "21+"))
TOLERANCE = 1e-8

CITATION = SINEVA2021_CITATION
TEST_SET = ("The official *SEM 2012 CD-SCO test release (Morante & Blanco 2012): the gold files "
            "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt and "
            "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt, concatenated in that order. "
            "Sineva et al. (2021) re-annotated ten `neither ... nor` cases for their "
            "experiments; we use the official release unchanged.")
DEV_SET = ("The official *SEM 2012 CD-SCO development release "
           "(SEM-2012-SharedTask-CD-SCO-dev-09032012.txt, The Adventure of Wisteria Lodge).")
#: The official release's sizes (Morante & Blanco 2012; recounted in
#: ../shared/corpora/cd-sco/PROVENANCE.md); the counted gold is compared with them.
OFFICIAL_SIZES: Dict[str, Dict[str, int]] = {
    "dev": {"sentences": 787, "negation_instances": 173},
    "test": {"sentences": 1089, "negation_instances": 264},
}
#: The systems of Sineva et al. (2021), Table 1 (CD-SCO test), shown as published rows.
PUBLISHED_SYSTEMS = ("Punct-BL", "NegBERT", "BiLSTM-Tagger", "DP-direct", "DP-nested",
                     "DP-direct-synt", "DP-nested-synt")


def published_rows() -> List[Tuple[str, Dict[str, float]]]:
    """The published CD-SCO test rows (Sineva et al. 2021, Table 1; percent), XLM-R-large."""
    return [(f"{row.system} (XLM-R-large)" if row.train else row.system, dict(row.scores))
            for name in PUBLISHED_SYSTEMS for row in sineva2021(system=name, test="cdsco")
            if row.train in (None, "cdsco")]


TABLE1_COLUMNS: Tuple[Tuple[str, str], ...] = (
    ("cues_b_f", "Cues-B F1"), ("scm_f", "SCM F1"), ("scm_b_f", "SCM-B F1"),
    ("st_p", "Scope-tokens P"), ("st_r", "Scope-tokens R"), ("st_f", "Scope-tokens F1"),
    ("nis_tok_p", "NIS_tok P"), ("nis_tok_r", "NIS_tok R"), ("nis_tok_f", "NIS_tok F1"),
)
CONVENTIONS = (
    "All scores come from the package's spaCy scorer (`spacy_negation.negation_scorer.v1`, "
    "`spacy_negation.scorers.score_negations`), applied to the system docs against the gold "
    "docs on the reference (gold) tokens. *SEM 2012 rows (Cues-B, SCM, SCM-B, Scope tokens) "
    "follow eval.cd-sco.pl v2.2 counting, with scope punctuation removed by the *SEM gold-POS "
    "rule on the reference tag, and exact F1 (not from rounded P/R); the B rows divide the "
    "same TP by all system instances (resp. scopes). NIS (NIS_tok, NIS_ex) matches gold and "
    "system instances on identical cues and removes scope punctuation by the reference "
    "`token.is_punct`. FairEval (Ortmann 2022) scores cue spans (CUE, AFFIX, MWCUE) and scope "
    "spans (SCOPE, punctuation removed by the gold-POS rule) with focus on the target and the "
    "paper's weights for the weighted F1; its error counts are span counts of the fair "
    "evaluation. Cue F1 per type: exact cue match; a gold cue counts for recall under its "
    "gold type, a system cue for precision under its system type (affixal: a cue string "
    "differs from its token; multiword: two or more cue tokens).")


class ReportError(Exception):
    """An input problem the report cannot work around (the message names the file)."""


# --- inputs ---------------------------------------------------------------------------------

@dataclass
class Reference:
    """The gold of one split on the scorer's reference layout.

    paths (List[Path]): the gold files, in order.
    sentences (List[Sentence]): the gold sentences (rows with the scorer's POS).
    starsem_punct (List[List[bool]]): per sentence and token: punctuation by the gold-POS rule.
    nis_punct (List[List[bool]]): per sentence and token: the reference ``token.is_punct``.
    """

    paths: List[Path]
    sentences: List[Sentence] = field(default_factory=list)
    starsem_punct: List[List[bool]] = field(default_factory=list)
    nis_punct: List[List[bool]] = field(default_factory=list)

    @property
    def n_instances(self) -> int:
        return sum(len(s.instances) for s in self.sentences)


def read_gold_docs(path: Path) -> List[Doc]:
    """Read gold docs from a .spacy file or a *SEM CoNLL file, in an English vocab (as
    ``read_docbin`` does): NIS drops the scope tokens whose ``is_punct`` is set, and a bare
    ``Vocab()`` sets it for no token.

    path (Path): the file (.spacy: DocBin; anything else: *SEM 2012 CoNLL).
    RETURNS (List[Doc]): the docs.
    """
    import spacy

    vocab = spacy.blank("en").vocab
    if path.suffix == ".spacy":
        return read_docbin(path, vocab=vocab)
    return read_starsem_docs(path, vocab=vocab)


def build_reference(paths: Sequence[Path]) -> Reference:
    """The gold sentences of one split as the spaCy scorer lays them out.

    paths (Sequence[Path]): the gold files, concatenated in this order.
    RETURNS (Reference): the reference.
    """
    ref = Reference(paths=list(paths))
    n = 0
    for path in paths:
        for doc in read_gold_docs(path):
            gold, _, layout, _ = example_sentences(Example(doc, doc), n)
            ref.sentences.extend(gold)
            ref.starsem_punct.extend(layout.starsem_punct)
            ref.nis_punct.extend(layout.nis_punct)
            n += 1
    return ref


def read_system(path: Path, ref: Reference) -> List[Sentence]:
    """Read a system *SEM file and check it has the gold's sentences and tokens.

    Only the token forms are compared: system files written from blank copies of the gold
    docs carry other document ids and sentence numbers.

    path (Path): the system file.
    ref (Reference): the gold.
    RETURNS (List[Sentence]): the system sentences.
    RAISES (ReportError): the file does not match the gold.
    """
    system = read_starsem(path)
    gold_names = ", ".join(str(p) for p in ref.paths)
    if len(system) != len(ref.sentences):
        raise ReportError(f"{path}: {len(system)} sentences, but the gold ({gold_names}) has "
                          f"{len(ref.sentences)}; the system file belongs to another split or run.")
    for k, (g, s) in enumerate(zip(ref.sentences, system)):
        if g.forms != s.forms:
            j = next((j for j, (a, b) in enumerate(zip(g.forms, s.forms)) if a != b),
                     min(len(g.forms), len(s.forms)))
            raise ReportError(
                f"{path}:{s.line + j}: sentence {k + 1} differs from the gold ({gold_names}, sentence "
                f"{k + 1}) at token {j}: system {s.forms[j] if j < len(s.forms) else '<end>'!r}, gold "
                f"{g.forms[j] if j < len(g.forms) else '<end>'!r}; the system file belongs to another "
                f"split or run.")
    return system


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


# --- re-scoring and scope-length buckets ------------------------------------------------------

def bucket_of(length: int) -> int:
    """The index in BUCKETS of a scope length.

    length (int): scope tokens without punctuation.
    RETURNS (int): the bucket index.
    """
    for k, (lo, hi, _) in enumerate(BUCKETS):
        if length >= lo and (hi is None or length <= hi):
            return k
    raise ValueError(length)


@dataclass
class SystemEval:
    """A system re-scored on one split.

    scores (Dict[str, Any]): the recomputed scorer keys (those of SCORE_KEYS and
        "neg_cue_per_type").
    faireval_counts (Dict[str, int]): the fair evaluation's error counts (FAIR_COUNT_KEYS).
    bucket_starsem (List[StarsemCounts]): per bucket the *SEM counts (Scope tokens row).
    bucket_nis (List[NisCounts]): per bucket the NIS counts.
    total_starsem (StarsemCounts): the corpus *SEM counts.
    total_nis (NisCounts): the corpus NIS counts.
    unattributed_st_fp (int): scope tokens of system instances the *SEM scorer pairs with
        no gold instance (counted as FP in no bucket).
    unattributed_nis_system (int): system instances matched to no gold instance (NIS).
    """

    scores: Dict[str, Any]
    faireval_counts: Dict[str, int]
    bucket_starsem: List[StarsemCounts]
    bucket_nis: List[NisCounts]
    total_starsem: StarsemCounts
    total_nis: NisCounts
    unattributed_st_fp: int = 0
    unattributed_nis_system: int = 0


def gold_lengths(ref: Reference) -> List[List[int]]:
    """Per sentence, the scope length of each gold instance (NIS rule: scope tokens that
    are not ``token.is_punct``).

    ref (Reference): the gold.
    RETURNS (List[List[int]]): the lengths.
    """
    out = []
    for g, np_ in zip(ref.sentences, ref.nis_punct):
        out.append([len(x.scope) for x in _nis(g, np_)])
    return out


def _nis(sentence: Sentence, punct: Sequence[bool]) -> List[NisInstance]:
    return nis_instances(sentence, lambda _s, p, _c: punct[p])


def _cue_set(cells: Sequence[Tuple[int, str]]) -> frozenset:
    return frozenset(p for p, _ in cells)


def evaluate_system(ref: Reference, system: Sequence[Sentence]) -> SystemEval:
    """Re-score a system's *SEM sentences against the gold with the spaCy scorer's
    conventions, and count the scope-length buckets (see the module docstring).

    ref (Reference): the gold.
    system (Sequence[Sentence]): the system sentences, token-aligned with the gold.
    RETURNS (SystemEval): the scores, FairEval counts and bucket counts.
    """
    counter = NegationCounter()
    b_st = [StarsemCounts() for _ in BUCKETS]
    b_nis = [NisCounts() for _ in BUCKETS]
    unattributed_fp = 0
    unattributed_sys = 0
    for g, s_file, sp, np_ in zip(ref.sentences, system, ref.starsem_punct, ref.nis_punct):
        s = Sentence(rows=g.rows, instances=s_file.instances)  # the reference rows decide
        gi, si, pairs = counter.add(g, s, sp, np_)
        if not (g.instances or s.instances):
            continue
        # buckets: the pairs of the whole sentence decide which system instances go along
        st_pairs = greedy_pairs([_cue_set(x.cue) for x in g.instances],
                                 [_cue_set(y.cue) for y in s.instances])
        nis_matched = {z for _, z in pairs}
        unattributed_sys += len(si) - len(nis_matched)
        st_paired = {z for z in st_pairs if z >= 0}
        for z, y in enumerate(s.instances):
            if z not in st_paired:
                unattributed_fp += sum(1 for p, _ in y.scope if not sp[p])
        by_bucket: Dict[int, List[int]] = {}
        for i, x in enumerate(gi):
            by_bucket.setdefault(bucket_of(len(x.scope)), []).append(i)
        for b, idx in by_bucket.items():
            members = set(idx)
            nis_sys = sorted({z for i, z in pairs if i in members})
            nis_count_sentence([gi[i] for i in idx], [si[z] for z in nis_sys], b_nis[b])
            st_sys = sorted({st_pairs[i] for i in idx if st_pairs[i] >= 0})
            starsem_count_sentence(Sentence(rows=g.rows, instances=[g.instances[i] for i in idx]),
                                   Sentence(rows=g.rows, instances=[s.instances[z] for z in st_sys]),
                                   b_st[b], punct=sp)
    fe = counter.faireval()
    scores = counter.scores(fe)
    st, nis = counter.starsem, counter.nis
    counts = {k: fe["fair"][k] for k in FAIR_COUNT_KEYS}
    return SystemEval(scores, counts, b_st, b_nis, st, nis, unattributed_fp, unattributed_sys)


def check_consistency(reported: Dict[str, Any], recomputed: Dict[str, Any], scores_path: Path,
                      system_path: Path) -> None:
    """Compare the reported scores with those re-scored from the system file.

    reported (Dict[str, Any]): the scores JSON's "scores".
    recomputed (Dict[str, Any]): SystemEval.scores.
    scores_path (Path): the scores JSON (for the message).
    system_path (Path): the system file (for the message).
    RAISES (ReportError): a score differs by more than TOLERANCE.
    """
    diffs = []
    for _, key in SCORE_KEYS:
        if abs(float(reported[key]) - recomputed[key]) > TOLERANCE:
            diffs.append(f"{key} {reported[key]!r} vs {recomputed[key]!r}")
    for t in CUE_TYPES:
        a, b = float(reported["neg_cue_per_type"][t]["f"]), recomputed["neg_cue_per_type"][t]["f"]
        if abs(a - b) > TOLERANCE:
            diffs.append(f"neg_cue_per_type.{t}.f {a!r} vs {b!r}")
    if diffs:
        raise ReportError(f"{scores_path} does not match {system_path} re-scored against the gold "
                          f"(reported vs re-scored): {'; '.join(diffs)}. Are the files from the same "
                          f"run? Re-run the command that writes them.")


@dataclass
class BucketRow:
    """The scores of one scope-length bucket.

    label (str): the bucket label.
    gold_instances (int): gold instances in the bucket.
    nis_tok (Optional[Dict[str, float]]): NIS_tok {"p","r","f"}; None without gold instances.
    scope_tokens (Optional[Dict[str, float]]): Scope-tokens {"p","r","f"}; None without
        gold scope tokens.
    """

    label: str
    gold_instances: int
    nis_tok: Optional[Dict[str, float]]
    scope_tokens: Optional[Dict[str, float]]


def bucket_rows(ev: SystemEval) -> List[BucketRow]:
    """The per-bucket scores of a re-scored system (divisions of the bucket counts).

    ev (SystemEval): the re-scored system.
    RETURNS (List[BucketRow]): one row per bucket, in BUCKETS order.
    """
    rows = []
    for (_, _, label), cst, cn in zip(BUCKETS, ev.bucket_starsem, ev.bucket_nis):
        tok = cst.scope_tokens
        rows.append(BucketRow(
            label, cn.gold,
            nis_scores(cn)["nis_tok"] if cn.gold else None,
            {m: starsem_scores(cst)["scope_tokens"][m] for m in "prf"} if tok.tp + tok.fn else None,
        ))
    return rows


# --- the report -----------------------------------------------------------------------------

@dataclass
class SplitData:
    """Everything reported for one split.

    ref (Reference): the gold.
    reported (Dict[str, Dict[str, Any]]): per system the scores JSON document.
    evals (Dict[str, SystemEval]): per system the re-scored evaluation.
    paths (Dict[str, Tuple[Path, Path]]): per system (scores JSON, system file).
    """

    ref: Reference
    reported: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    evals: Dict[str, SystemEval] = field(default_factory=dict)
    paths: Dict[str, Tuple[Path, Path]] = field(default_factory=dict)

    def gold_type_counts(self) -> Dict[str, int]:
        counts = {t: 0 for t in CUE_TYPES}
        for g, np_ in zip(self.ref.sentences, self.ref.nis_punct):
            for x in _nis(g, np_):
                counts[cue_type(g, x.cue)] += 1
        return counts


def system_entry(reported: Dict[str, Any], ev: SystemEval) -> Dict[str, Any]:
    """The JSON entry of one system on one split.

    reported (Dict[str, Any]): the scores JSON document.
    ev (SystemEval): the re-scored evaluation (for the FairEval counts).
    RETURNS (Dict[str, Any]): the entry (scores as fractions).
    """
    scores = reported["scores"]
    entry: Dict[str, Any] = {out: scores[key] for out, key in SCORE_KEYS}
    entry["cue_f_by_type"] = {t: scores["neg_cue_per_type"][t]["f"] for t in CUE_TYPES}
    entry["faireval_counts"] = {k: ev.faireval_counts[k] for k in FAIR_COUNT_KEYS}
    return entry


def set_description(split: str, data: SplitData) -> Dict[str, Any]:
    """What a split's gold is, with its counted and official sizes.

    split (str): "dev" or "test".
    data (SplitData): the split's data.
    RETURNS (Dict[str, Any]): the description.
    """
    counted = {"sentences": len(data.ref.sentences), "negation_instances": data.ref.n_instances}
    return {
        "description": TEST_SET if split == "test" else DEV_SET,
        "files": [str(p) for p in data.ref.paths],
        **counted,
        "official": OFFICIAL_SIZES[split],
        "matches_official_release": counted == OFFICIAL_SIZES[split],
    }


def build_json(data: Dict[str, SplitData], run_meta: Dict[str, Any]) -> Dict[str, Any]:
    """The cdsco.json document.

    data (Dict[str, SplitData]): per split the data.
    run_meta (Dict[str, Any]): the --meta object.
    RETURNS (Dict[str, Any]): {"meta": {...}, "dev": {system: entry}, "test": {...}}.
    """
    inputs = {split: {system: {"scores": str(d.paths[system][0]), "system": str(d.paths[system][1]),
                               "gold_cues": d.reported[system].get("gold_cues"),
                               "speed": d.reported[system].get("speed")}
                      for system in SYSTEMS} for split, d in data.items()}
    meta = {
        "title": "spacy-negation on CD-SCO (*SEM 2012), in the columns of Sineva et al. (2021), Table 1",
        "scores": "fractions (0-1)",
        "test_set": set_description("test", data["test"]),
        "dev_set": set_description("dev", data["dev"]),
        "run": run_meta,
        "systems": {s: SYSTEM_LABELS[s] for s in SYSTEMS},
        "inputs": inputs,
        "scorer_conventions": CONVENTIONS,
        "published": {
            "source": "Sineva et al. (2021), Table 1, CD-SCO test (their re-annotated test set); percent",
            "rows": [{"system": name, "scores_pct": vals} for name, vals in published_rows()],
        },
        "citation": CITATION,
        "generated_by": f"scripts/report.py (spacy-negation {__version__})",
    }
    out: Dict[str, Any] = {"meta": meta}
    for split in SPLITS:
        d = data[split]
        out[split] = {system: system_entry(d.reported[system], d.evals[system]) for system in SYSTEMS}
    return out


def _pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.2f}"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> List[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


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
    rows = [[SYSTEM_LABELS[s]] + [_pct(entries[s][k]) for k, _ in TABLE1_COLUMNS] for s in SYSTEMS]
    if split == "test":
        for name, vals in published_rows():
            rows.append([f"{name}, published (Sineva et al. 2021, Table 1)"]
                        + [f"{vals[k]:.1f}" for k, _ in TABLE1_COLUMNS])
    out += _table(["System"] + [h for _, h in TABLE1_COLUMNS], rows)
    if split == "test":
        out += ["", "Published rows: Sineva et al. (2021), Table 1, as printed (XLM-R-large backbone; "
                "their test set re-annotates ten `neither ... nor` cases; Punct-BL uses gold cues)."]
    out += ["", "### NIS_ex and FairEval (F1; fair-evaluation error counts, spans)", ""]
    head = ["System", "NIS_ex F1", "FairEval trad. F1", "FairEval fair F1", "FairEval weighted F1"]
    head += list(FAIR_COUNT_KEYS)
    rows = [[SYSTEM_LABELS[s]] + [_pct(entries[s][k]) for k in
                                  ("nis_ex_f", "fair_trad_f", "fair_f", "fair_weighted_f")]
            + [_fmt_value(entries[s]["faireval_counts"][k]) for k in FAIR_COUNT_KEYS] for s in SYSTEMS]
    out += _table(head, rows)
    gold_types = data.gold_type_counts()
    out += ["", "### Cue F1 per cue type (exact cue match)", ""]
    out += _table(["System"] + [f"{t} (gold {gold_types[t]})" for t in CUE_TYPES],
                  [[SYSTEM_LABELS[s]] + [_pct(entries[s]["cue_f_by_type"][t]) for t in CUE_TYPES]
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
            row += [_pct(b.nis_tok["f"] if b.nis_tok else None),
                    _pct(b.scope_tokens["f"] if b.scope_tokens else None)]
        rows.append(row)
    out += _table(head, rows)
    out.append("")
    return out


# --- plots ----------------------------------------------------------------------------------

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
    RAISES (ReportError): missing or inconsistent inputs.
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
                notes.append(f"NIS_tok F1 {_pct(reported['scores']['neg_nis_tok_f'])}, consistent with "
                             f"{system_path.name}")
    with step("build JSON and markdown"):
        doc = build_json(data, run_meta)
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
        atomic_write_text(out_dir / "cdsco.json", json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        atomic_write_text(out_dir / "cdsco.md", markdown)
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
    except (ReportError, NegationFormatError, OSError) as err:
        print(f"[report] error: {err}", file=sys.stderr)
        return 1
    print(f"[report] done ({time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
