"""Corpus counts of the three negation metric families -- *SEM 2012 (Morante & Blanco
2012), NIS (Sineva et al. 2021) and FairEval on negation spans (Ortmann 2022) -- and of
the CoNLL-2010 scope measure (Farkas et al. 2010) on pairs of plain records
(:mod:`spacy_negation.metrics.records`), as the spaCy scorers report them: flat ``neg_*``
keys for negations, ``spec_*`` for speculations (the same counts on their instances). The
counting itself is :mod:`spacy_negation.metrics`'s; this module accumulates it (cues only,
scopes only, or both) and names the keys. No spaCy import.
"""
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..corpora.starsem import Sentence
from ..metrics.conll2010 import Conll2010Counts, conll2010_scores
from ..metrics.conll2010 import count_record as conll2010_count_record
from ..metrics.core import f1, safe_div
from ..metrics.faireval import METHODS, FairEvalCounts, count_into, record_spans, scores_from_counts
from ..metrics.nis import NisCounts, NisInstance, nis_scores
from ..metrics.nis import count_record as nis_count_record
from ..metrics.nis import count_sentence as nis_count_sentence
from ..metrics.records import SentenceRecord, cells, cue_type
from ..metrics.starsem.evaluation import StarsemCounts, count_cue_record, starsem_scores
from ..metrics.starsem.evaluation import count_record as starsem_count_record
from ..metrics.starsem.io import sentence_record

CUE_TYPES = ("normal", "affixal", "multiword")
#: The short name of each FairEval method in the flat keys.
SHORT_METHODS = {"traditional": "trad", "fair": "fair", "weighted": "weighted"}


def flat_per_label(result: Dict[str, Any]) -> Dict[str, Dict[str, float]]:
    """The per-label FairEval scores of a result as {label: {"trad_p", ..., "weighted_f"}}.

    result (Dict[str, Any]): a result of
        :func:`~spacy_negation.metrics.faireval.scores_from_counts`.
    RETURNS (Dict[str, Dict[str, float]]): the flat per-label scores.
    """
    per_label: Dict[str, Dict[str, float]] = {}
    for method in METHODS:
        for label, v in result["per_label"][method].items():
            for m in "prf":
                per_label.setdefault(label, {})[f"{SHORT_METHODS[method]}_{m}"] = v[m]
    return per_label


class NegationCounter:
    """Corpus counts of the three metric families on pairs of records (counting only;
    :meth:`scores` divides). Shared by the scorers and the project's report.

    cues (bool): count and report the cue scores.
    scopes (bool): count and report the scope and instance scores.
    prefix (str): the prefix of the keys: "neg" for negations, "spec" for speculations.
    """

    def __init__(self, cues: bool = True, scopes: bool = True, prefix: str = "neg") -> None:
        self.cues = cues
        self.scopes = scopes
        self.prefix = prefix
        self.conll2010 = Conll2010Counts()
        self.starsem = StarsemCounts()
        self.nis = NisCounts()
        self.per_type = {t: [0, 0, 0] for t in CUE_TYPES}  # gold, system, matched
        self.fe_counts = FairEvalCounts()

    def add_records(self, gold: SentenceRecord, system: SentenceRecord
                    ) -> Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]:
        """Count one pair of records on the same tokens.

        gold (SentenceRecord): the reference record (its punctuation masks are used).
        system (SentenceRecord): the system record.
        RETURNS (Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]): the
            gold and system NIS instances and their exact-cue-match pairs.
        """
        if self.scopes:
            starsem_count_record(gold, system, self.starsem)
            conll2010_count_record(gold, system, self.conll2010)
            gi, si, pairs = nis_count_record(gold, system, self.nis)
            count_into(self.fe_counts, record_spans(gold), record_spans(system, gold.punct))
        else:
            count_cue_record(gold, system, self.starsem.cues)
            gi = [NisInstance(cells(gold.tokens, x.cue), ()) for x in gold.instances]
            si = [NisInstance(cells(system.tokens, y.cue), ()) for y in system.instances]
            pairs = nis_count_sentence(gi, si, self.nis)
        if self.cues:
            for x in gi:
                self.per_type[cue_type(gold.tokens, x.cue)][0] += 1
            for y in si:
                self.per_type[cue_type(system.tokens, y.cue)][1] += 1
            for i, _ in pairs:
                self.per_type[cue_type(gold.tokens, gi[i].cue)][2] += 1
        return gi, si, pairs

    def add(self, gold: Sentence, system: Sentence, starsem_punct: Sequence[bool],
            nis_punct: Sequence[bool]) -> Tuple[List[NisInstance], List[NisInstance], List[Tuple[int, int]]]:
        """Count one pair of :class:`~spacy_negation.corpora.starsem.Sentence` objects (see
        :meth:`add_records`).

        gold (Sentence): the reference sentence.
        system (Sentence): the system sentence on the same tokens.
        starsem_punct (Sequence[bool]): per token, punctuation for *SEM and FairEval.
        nis_punct (Sequence[bool]): per token, punctuation for NIS.
        RETURNS: as :meth:`add_records`.
        """
        return self.add_records(sentence_record(gold, starsem_punct, nis_punct),
                                sentence_record(system, starsem_punct, nis_punct))

    def faireval(self) -> Dict[str, Any]:
        """FairEval on the negation spans counted so far (focus target, paper weights)."""
        return scores_from_counts(self.fe_counts)

    def scores(self, fe: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """The flat ``neg_*`` (``spec_*``) scores (see :func:`score_negations`): the cue
        keys if counting cues, the scope and instance keys if counting scopes.

        fe (Optional[Dict[str, Any]]): the FairEval result, if already computed.
        RETURNS (Dict[str, Any]): the scores.
        """
        out: Dict[str, Any] = {}
        pre = self.prefix
        st = starsem_scores(self.starsem)
        nis = nis_scores(self.nis)
        if self.cues:
            for prefix, key in (("cue", "cues"), ("cue_b", "cues_b")):
                for m in "prf":
                    out[f"{pre}_{prefix}_{m}"] = st[key][m]
            for m in "prf":
                out[f"{pre}_nis_cue_{m}"] = nis["cue"][m]
            cue_types: Dict[str, Dict[str, float]] = {}
            for t, (ng, ns, nm) in self.per_type.items():
                p, r = safe_div(nm, ns), safe_div(nm, ng)
                cue_types[t] = {"p": p, "r": r, "f": f1(p, r)}
            out[f"{pre}_cue_per_type"] = cue_types
        if not self.scopes:
            return out
        for prefix, key in (("scm", "scopes_cue_match"), ("scm_b", "scopes_cue_match_b"),
                            ("scnm", "scopes_no_cue_match"), ("st", "scope_tokens"),
                            ("full", "full_negation")):
            for m in "prf":
                out[f"{pre}_{prefix}_{m}"] = st[key][m]
        out[f"{pre}_full_b_f"] = st["full_negation_b"]["f"]
        for prefix, key in (("nis_tok", "nis_tok"), ("nis_ex", "nis_ex"), ("nis_tm", "token_mode")):
            for m in "prf":
                out[f"{pre}_{prefix}_{m}"] = nis[key][m]
        fe = fe if fe is not None else self.faireval()
        out[f"{pre}_fair_trad_f"] = fe["traditional"]["f"]
        for m in "prf":
            out[f"{pre}_fair_{m}"] = fe["fair"][m]
        for m in "prf":
            out[f"{pre}_fair_weighted_{m}"] = fe["weighted"][m]
        out[f"{pre}_faireval_per_label"] = flat_per_label(fe)
        conll = conll2010_scores(self.conll2010)
        for m in "prf":
            out[f"{pre}_conll2010_{m}"] = conll[m]
        return out

