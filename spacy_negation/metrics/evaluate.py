"""File-level evaluation: a *SEM system file against its gold file with any of the three
metric families -- *SEM 2012 (Morante & Blanco 2012; ``eval.cd-sco.pl`` v2.2 semantics),
NIS (Sineva et al. 2021) and FairEval on negation spans (Ortmann 2022) -- streamed
sentence by sentence (:mod:`.starsem.io`): memory holds one sentence per file plus the
running counts.
"""
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Optional, Sequence, Tuple, Union


from ..errors import Errors
from .faireval.spans import FAIR_TYPES, TRADITIONAL_TYPES
from .records import SentenceRecord
from .starsem.io import iter_aligned, sentence_record

if TYPE_CHECKING:  # pragma: no cover
    from ..corpora.starsem import Sentence
    from .faireval import FairEvalCounts
    from .nis import NisCounts
    from .starsem.evaluation import StarsemCounts

#: The metric families, in output order.
FAMILIES: Tuple[str, ...] = ("starsem", "nis", "faireval")
FAIR_KEYS = FAIR_TYPES + ("p", "r", "f")
TRAD_KEYS = TRADITIONAL_TYPES + ("p", "r", "f")


def parse_families(value: Union[str, Sequence[str], None]) -> Tuple[str, ...]:
    """The families named in a comma-separated list (any subset, in output order).

    value (Union[str, Sequence[str], None]): e.g. "starsem,nis"; None or "all" = all.
    RETURNS (Tuple[str, ...]): the families.
    RAISES (ValueError): an unknown name (E215).
    """
    if value is None:
        return FAMILIES
    names = [v.strip() for v in (value.split(",") if isinstance(value, str) else value)]
    names = [n for n in names if n]
    if names == ["all"]:
        return FAMILIES
    for name in names:
        if name not in FAMILIES:
            raise ValueError(Errors.E215.format(name=name, options=", ".join(FAMILIES)))
    if not names:
        raise ValueError(Errors.E215.format(name=value, options=", ".join(FAMILIES)))
    return tuple(f for f in FAMILIES if f in names)


class Evaluation:
    """Running counts of the chosen families over pairs of records.

    families (Sequence[str]): the families to count (see :data:`FAMILIES`).
    """

    def __init__(self, families: Sequence[str] = FAMILIES) -> None:
        # Each family's module is imported only when it is counted (start-up time).
        self.families = tuple(families)
        self.starsem: Optional["StarsemCounts"] = None
        self.nis: Optional["NisCounts"] = None
        self.faireval: Optional["FairEvalCounts"] = None
        if "starsem" in families:
            from .starsem.evaluation import StarsemCounts, count_record

            self.starsem = StarsemCounts()
            self._count_starsem = count_record
        if "nis" in families:
            from .nis import NisCounts
            from .nis import count_record as nis_count_record

            self.nis = NisCounts()
            self._count_nis = nis_count_record
        if "faireval" in families:
            from .faireval import FairEvalCounts, count_into, record_spans

            self.faireval = FairEvalCounts()
            self._count_into = count_into
            self._record_spans = record_spans

    def add_empty(self) -> None:
        """Count a sentence without negation on either side."""
        if self.starsem is not None:
            self.starsem.sentences += 1
        if self.faireval is not None:
            self.faireval.n_sentences += 1

    def add(self, gold: SentenceRecord, system: SentenceRecord) -> None:
        """Count one pair of records on the same tokens.

        gold (SentenceRecord): the gold record (its punctuation decides for both).
        system (SentenceRecord): the system record.
        """
        if self.starsem is not None:
            self._count_starsem(gold, system, self.starsem)
        if self.nis is not None:
            self._count_nis(gold, system, self.nis)
        if self.faireval is not None:
            spans = self._record_spans(gold)
            self._count_into(self.faireval, spans,
                             spans if system is gold else self._record_spans(system, gold.punct))

    def results(self) -> Dict[str, Any]:
        """The counts per family: "starsem" (StarsemCounts), "nis" (NisCounts), "faireval"
        (the FairEval result dict, focus target, paper weights); chosen families only."""
        out: Dict[str, Any] = {}
        if self.starsem is not None:
            out["starsem"] = self.starsem
        if self.nis is not None:
            out["nis"] = self.nis
        if self.faireval is not None:
            from .faireval import scores_from_counts

            out["faireval"] = scores_from_counts(self.faireval)
        return out


def evaluate_files(gold: Union[str, Path], system: Union[str, Path],
                   families: Sequence[str] = FAMILIES) -> Dict[str, Any]:
    """Score a *SEM system file against the gold file, streamed.

    gold (Union[str, Path]): the gold file.
    system (Union[str, Path]): the system file, token-aligned with gold.
    families (Sequence[str]): the families to compute.
    RETURNS (Dict[str, Any]): see :meth:`Evaluation.results`.
    RAISES (NegationFormatError, FileNotFoundError): bad or misaligned input, with file and
        line.
    """
    ev = Evaluation(families)
    for g, s in iter_aligned(gold, system):
        if g.has_negation or s.has_negation:
            ev.add(g.get_record(), s.get_record())
        else:
            ev.add_empty()
    return ev.results()


def evaluate_sentences(gold: Sequence["Sentence"], system: Sequence["Sentence"],
                       families: Sequence[str] = FAMILIES) -> Dict[str, Any]:
    """All (or the chosen) families on aligned :class:`~spacy_negation.corpora.starsem.Sentence`
    lists (see :func:`evaluate_files`).

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences (token-aligned with gold).
    families (Sequence[str]): the families to compute.
    RETURNS (Dict[str, Any]): see :meth:`Evaluation.results`.
    """
    ev = Evaluation(families)
    for g, s in zip(gold, system):
        ev.add(sentence_record(g), sentence_record(s, ()))
    return ev.results()


def to_json(results: Dict[str, Any]) -> Dict[str, Any]:
    """The ``--json`` document of the computed families.

    results (Dict[str, Any]): the output of :func:`evaluate_files`.
    RETURNS (Dict[str, Any]): {"starsem": {row: {gold, system, tp, fp, fn, p, r, f}, ...,
        "sentences": {...}}, "nis": {"counts": {...}, "cue"|"nis_tok"|"nis_ex"|"token_mode":
        {p, r, f}}, "faireval": {"traditional", "fair", "weighted", "per_label"}}.
    """
    out: Dict[str, Any] = {}
    if "starsem" in results:
        from .starsem.evaluation import starsem_scores

        out["starsem"] = starsem_scores(results["starsem"])
    if "nis" in results:
        from .nis import nis_scores

        out["nis"] = nis_scores(results["nis"])
    if "faireval" in results:
        fe = results["faireval"]
        keys = {"traditional": TRAD_KEYS, "fair": FAIR_KEYS, "weighted": FAIR_KEYS}
        out["faireval"] = {
            **{m: {k: fe[m][k] for k in keys[m]} for m in keys},
            "per_label": {m: {label: {k: v[k] for k in keys[m]}
                              for label, v in fe["per_label"][m].items()} for m in keys},
        }
    return out

