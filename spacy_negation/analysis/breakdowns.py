"""Scores broken down by gold scope length and by cue type, from *SEM system sentences
re-scored against the gold with the spaCy scorer's conventions.

The corpus measures are those of *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al.
2021) and FairEval (Ortmann 2022), counted by :class:`spacy_negation.scoring.scorers.NegationCounter`.
Scores by gold scope length: each gold instance falls into the bucket of its scope length
L = the number of its scope tokens that are not punctuation (reference ``token.is_punct``,
the NIS rule); buckets 0, 1-2, 3-5, 6-10, 11-20, 21+. Per bucket:

* NIS_tok P/R/F1 = the corpus NIS_tok formulas on the bucket's gold instances G_b and the
  system instances S_b exact-cue-matched to them (the NIS matching of the whole sentence):
  P_b = sum of the pairs' instance precision / |S_b|, R_b = sum of the pairs' instance
  recall / |G_b| (an unmatched gold instance adds 0). System instances matched to no gold
  instance have no gold length and count in no bucket.
* Scope-tokens P/R/F1 = the *SEM "Scope tokens" row counted on the bucket's gold
  instances and the system instances the *SEM scorer pairs with them (first unpaired
  system instance sharing a cue token, gold in column order). Undefined (None) when the
  bucket has no gold scope token (e.g. bucket 0).

The buckets' counts plus those of the unattributed system instances add up to the corpus
counts. Cue scores by group (e.g. by review domain for NEGES 2018, Jiménez-Zafra et al.
2018) sum the *SEM cue counts per group first, then divide.
"""
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

from spacy.tokens import Doc
from spacy.training import Example

from ..corpora.docbin import read_docbin
from ..corpora.starsem import Sentence, read_starsem
from ..corpora.starsem_docs import read_starsem_docs
from ..errors import Errors, NegationFormatError
from ..metrics.faireval import FAIR_TYPES
from ..metrics.nis import NisCounts, NisInstance, cue_type, nis_instances, nis_scores
from ..metrics.nis import count_sentence as nis_count_sentence
from ..metrics.starsem.evaluation import StarsemCounts, count_starsem, greedy_pairs, starsem_scores
from ..metrics.starsem.evaluation import count_sentence as starsem_count_sentence
from ..scoring.scorers import CUE_TYPES, NegationCounter, example_sentences

#: Scope-length buckets: (lowest, highest or None, label).
BUCKETS: Tuple[Tuple[int, Optional[int], str], ...] = (
    (0, 0, "0"), (1, 2, "1-2"), (3, 5, "3-5"), (6, 10, "6-10"), (11, 20, "11-20"), (21, None, "21+"))
#: Scorer keys compared by :func:`check_consistency`, as (output key, key of
#: ``score_negations``), in output order.
SCORE_KEYS: Tuple[Tuple[str, str], ...] = (
    ("cues_b_f", "neg_cue_b_f"), ("scm_f", "neg_scm_f"), ("scm_b_f", "neg_scm_b_f"),
    ("st_p", "neg_st_p"), ("st_r", "neg_st_r"), ("st_f", "neg_st_f"),
    ("nis_tok_p", "neg_nis_tok_p"), ("nis_tok_r", "neg_nis_tok_r"), ("nis_tok_f", "neg_nis_tok_f"),
    ("nis_ex_f", "neg_nis_ex_f"), ("fair_trad_f", "neg_fair_trad_f"), ("fair_f", "neg_fair_f"),
    ("fair_weighted_f", "neg_fair_weighted_f"),
)
#: Largest difference between a reported and a re-scored score that counts as equal.
TOLERANCE = 1e-8


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
        """The number of gold negation instances."""
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
    RAISES (NegationFormatError): the file does not match the gold (E740, E741).
    """
    system = read_starsem(path)
    gold_names = ", ".join(str(p) for p in ref.paths)
    if len(system) != len(ref.sentences):
        raise NegationFormatError(Errors.E740.format(path=path, n=len(system), gold=gold_names,
                                                     n_gold=len(ref.sentences)), path)
    for k, (g, s) in enumerate(zip(ref.sentences, system)):
        if g.forms != s.forms:
            j = next((j for j, (a, b) in enumerate(zip(g.forms, s.forms)) if a != b),
                     min(len(g.forms), len(s.forms)))
            raise NegationFormatError(Errors.E741.format(
                path=path, line=s.line + j, k=k + 1, gold=gold_names, j=j,
                system_form=s.forms[j] if j < len(s.forms) else "<end>",
                gold_form=g.forms[j] if j < len(g.forms) else "<end>"), path, s.line + j)
    return system


def bucket_of(length: int) -> int:
    """The index in BUCKETS of a scope length.

    length (int): scope tokens without punctuation.
    RETURNS (int): the bucket index.
    RAISES (ValueError): a negative length (E742).
    """
    for k, (lo, hi, _) in enumerate(BUCKETS):
        if length >= lo and (hi is None or length <= hi):
            return k
    raise ValueError(Errors.E742.format(length=length))


@dataclass
class SystemEval:
    """A system re-scored on one split.

    scores (Dict[str, Any]): the recomputed scorer keys (those of SCORE_KEYS and
        "neg_cue_per_type").
    faireval_counts (Dict[str, int]): the fair evaluation's error counts (FAIR_TYPES).
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


def _nis(sentence: Sentence, punct: Sequence[bool]) -> List[NisInstance]:
    return nis_instances(sentence, lambda _s, p, _c: punct[p])


def _cue_set(cells: Sequence[Tuple[int, str]]) -> FrozenSet[int]:
    return frozenset(p for p, _ in cells)


def gold_lengths(ref: Reference) -> List[List[int]]:
    """Per sentence, the scope length of each gold instance (NIS rule: scope tokens that
    are not ``token.is_punct``).

    ref (Reference): the gold.
    RETURNS (List[List[int]]): the lengths.
    """
    return [[len(x.scope) for x in _nis(g, np_)] for g, np_ in zip(ref.sentences, ref.nis_punct)]


def gold_cue_type_counts(ref: Reference) -> Dict[str, int]:
    """The gold cues per cue type (normal, affixal, multiword; Sineva et al. 2021).

    ref (Reference): the gold.
    RETURNS (Dict[str, int]): cue type -> count, in CUE_TYPES order.
    """
    counts = {t: 0 for t in CUE_TYPES}
    for g, np_ in zip(ref.sentences, ref.nis_punct):
        for x in _nis(g, np_):
            counts[cue_type(g, x.cue)] += 1
    return counts


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
    counts = {k: fe["fair"][k] for k in FAIR_TYPES}
    return SystemEval(scores, counts, b_st, b_nis, counter.starsem, counter.nis, unattributed_fp,
                      unattributed_sys)


def check_consistency(reported: Dict[str, Any], recomputed: Dict[str, Any], scores_path: Path,
                      system_path: Path) -> None:
    """Compare reported scores with those re-scored from the system file.

    reported (Dict[str, Any]): the flat ``neg_*`` scores as reported.
    recomputed (Dict[str, Any]): SystemEval.scores.
    scores_path (Path): the file of the reported scores (for the message).
    system_path (Path): the system file (for the message).
    RAISES (ValueError): a score differs by more than TOLERANCE (E743).
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
        raise ValueError(Errors.E743.format(scores=scores_path, system=system_path,
                                            diffs="; ".join(diffs)))


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


#: The keys of a row of :func:`cue_scores_by_group`.
CUE_ROW_KEYS: Tuple[str, ...] = ("p", "r", "f", "tp", "fp", "fn", "gold", "system")


def domain_of(doc_id: str) -> str:
    """The review domain of a NEGES 2018 document id (``coches_yes_4_20`` -> ``coches``).

    doc_id (str): the document id.
    RETURNS (str): the domain.
    """
    return doc_id.split("_", 1)[0]


def cue_scores_by_group(gold: Sequence[Sentence], system: Sequence[Sentence],
                        group: Callable[[Sentence], str] = lambda s: domain_of(s.doc_id)
                        ) -> Dict[str, Any]:
    """The *SEM 2012 cue measure ("Cues", not "Cues B": a partial match counts only as an
    FN; Morante & Blanco 2012, as used by NEGES 2018, Jiménez-Zafra et al. 2018) overall
    and per group of gold sentences; counts are summed per group, then divided (0 when a
    denominator is 0).

    gold (Sequence[Sentence]): gold sentences.
    system (Sequence[Sentence]): system sentences, aligned with gold.
    group (Callable[[Sentence], str]): a gold sentence's group (default: its NEGES domain).
    RETURNS (Dict[str, Any]): {"overall": row, "per_domain": {group: row}} (groups sorted),
        a row holding CUE_ROW_KEYS (scores as fractions).
    """
    by_group: Dict[str, List[int]] = defaultdict(list)
    for k, sent in enumerate(gold):
        by_group[group(sent)].append(k)

    def row(indices: List[int]) -> Dict[str, Any]:
        counts = count_starsem([gold[k] for k in indices], [system[k] for k in indices], check=False)
        cues = starsem_scores(counts)["cues"]
        return {key: cues[key] for key in CUE_ROW_KEYS}

    return {"overall": row(list(range(len(gold)))),
            "per_domain": {d: row(ix) for d, ix in sorted(by_group.items())}}
