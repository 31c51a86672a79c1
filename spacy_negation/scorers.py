"""spaCy scorers for negation resolution, registered in ``@scorers``.

The scorers turn ``Doc`` objects into the plain records of
:mod:`spacy_negation.metrics.records` (:func:`example_records`, the counterpart of the
*SEM file reader) and count on those. ``spacy_negation.negation_cue_scorer.v1`` (default
of ``negation_cue``) scores the cues, ``spacy_negation.negation_scope_scorer.v1`` (default
of ``negation_scope``) the scopes and whole instances, so that ``nlp.evaluate`` computes
each score once; ``spacy_negation.negation_scorer.v1`` gives both in one pass.
``spacy_negation.faireval_spans_scorer.v1`` applies FairEval to any span source
(``doc.ents`` or ``doc.spans[key]``).
"""
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span
from spacy.training import Example
from spacy.util import registry

from .alignment import TokenOffsets, char_map, map_range
from .errors import Errors, Warnings
from .metrics import faireval
from .metrics.core import f1, safe_div
from .metrics.faireval import FairEvalCounts, FSpan, count_into, record_spans, scores_from_counts
from .metrics.nis import NisCounts, NisInstance, nis_scores
from .metrics.nis import count_record as nis_count_record
from .metrics.nis import count_sentence as nis_count_sentence
from .metrics.records import (NegationRecord, Part, SentenceRecord, cells, cue_type,
                              normalize_parts)
from .metrics.starsem_eval import StarsemCounts, count_cue_record, starsem_scores
from .metrics.starsem_eval import count_record as starsem_count_record
from .metrics.starsem_io import punct_pos, sentence_record
from .negation import ROLES, get_negations
from .starsem import Instance, Sentence, TokenRow

CUE_TYPES = ("normal", "affixal", "multiword")
ScoreFunc = Callable[..., Dict[str, Any]]
_PAPERS = ("*SEM 2012 (Morante & Blanco 2012, \"*SEM 2012 Shared Task: Resolving the Scope "
           "and Focus of Negation\"; scorer eval.cd-sco.pl v2.2), NIS (Sineva, Grünewald, "
           "Friedrich & Kuhn 2021, \"Negation-Instance Based Evaluation of End-to-End Negation "
           "Resolution\", CoNLL 2021) and FairEval (Ortmann 2022, \"Fine-Grained Error "
           "Analysis and Fair Evaluation of Labeled Spans\", LREC 2022)")


@registry.scorers("spacy-negation.negation_scorer.v1")
def make_negation_scorer() -> ScoreFunc:
    """The negation scorer with every key of the cue and the scope scorer, in one pass:
    *SEM 2012 (Morante & Blanco 2012, "*SEM 2012 Shared Task: Resolving the Scope and
    Focus of Negation", *SEM 2012; scorer eval.cd-sco.pl v2.2), NIS (Sineva, Grünewald,
    Friedrich & Kuhn 2021, "Negation-Instance Based Evaluation of End-to-End Negation
    Resolution", CoNLL 2021) and FairEval on negation spans (Ortmann 2022, "Fine-Grained
    Error Analysis and Fair Evaluation of Labeled Spans", LREC 2022). See
    :func:`score_negations`.

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negations(examples, **kwargs)``.
    """
    return score_negations


@registry.scorers("spacy-negation.negation_cue_scorer.v1")
def make_negation_cue_scorer() -> ScoreFunc:
    """The cue scores of :func:`score_negations` (*SEM 2012 "Cues" and "Cues B" rows,
    Morante & Blanco 2012; NIS exact cue match, Sineva et al. 2021; per cue type).

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negation_cues(examples, **kwargs)``.
    """
    return score_negation_cues


@registry.scorers("spacy-negation.negation_scope_scorer.v1")
def make_negation_scope_scorer() -> ScoreFunc:
    """The scope and instance scores of :func:`score_negations` (*SEM 2012 scope, scope
    token and full negation rows, Morante & Blanco 2012; NIS_tok, NIS_ex and token mode,
    Sineva et al. 2021; FairEval on negation spans, Ortmann 2022).

    RETURNS (Callable[..., Dict[str, Any]]): ``score_negation_scopes(examples, **kwargs)``.
    """
    return score_negation_scopes


@registry.scorers("spacy-negation.faireval_spans_scorer.v1")
def make_faireval_spans_scorer(spans_key: Optional[str] = None) -> ScoreFunc:
    """FairEval (Ortmann 2022, "Fine-Grained Error Analysis and Fair Evaluation of
    Labeled Spans", LREC 2022) for labelled spans of any spaCy span source: traditional,
    fair and weighted (paper weights) precision, recall and F1, overall and per label.

    spans_key (Optional[str]): the ``doc.spans`` key to score; None scores ``doc.ents``.
    RETURNS (Callable[..., Dict[str, Any]]): ``score(examples, **kwargs)``.
    """

    def score_faireval_spans(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """Score the spans of the examples' predicted docs against the reference docs.

        examples (Iterable[Example]): the examples.
        kwargs (Any): ignored (spaCy passes scorer settings).
        RETURNS (Dict[str, Any]): the FairEval scores (see :func:`score_span_examples`).
        """
        return score_span_examples(list(examples), spans_key)

    return score_faireval_spans


# --- docs to records on the reference tokens ----------------------------------------------

class RefLayout:
    """The reference doc's sentences as records (without instances) and where each of
    its tokens sits. Whitespace tokens are left out of the records."""

    __slots__ = ("doc", "text", "offsets", "records", "position")

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.text = doc.text
        split = doc.has_annotation("SENT_START")
        self.offsets = TokenOffsets([t.idx for t in doc], [t.text for t in doc])
        #: token index -> (sentence number, position in the sentence's record)
        self.position: Dict[int, Tuple[int, int]] = {}
        self.records: List[SentenceRecord] = []
        tokens: List[str] = []
        punct: List[bool] = []
        nis: List[bool] = []
        for token in doc:
            if split and token.i and token.is_sent_start and tokens:
                self.records.append(SentenceRecord(tokens, punct, (), nis))
                tokens, punct, nis = [], [], []
            if token.is_space:
                continue
            self.position[token.i] = (len(self.records), len(tokens))
            tag = token.tag_
            # The *SEM gold-POS rule on the reference tag; without a tag, is_punct.
            punct.append(punct_pos(tag) if tag else token.is_punct)
            nis.append(token.is_punct)
            tokens.append(token.text)
        if tokens:
            self.records.append(SentenceRecord(tokens, punct, (), nis))

    def place(self, roles: Dict[str, List[Part]]) -> Optional[Tuple[int, NegationRecord]]:
        """An instance given by doc-level parts, in the sentence of its first cue token;
        parts in other sentences are left out. None for an instance without cue.

        roles (Dict[str, List[Part]]): per role the (doc token, start, end) parts.
        RETURNS (Optional[Tuple[int, NegationRecord]]): (sentence number, instance).
        """
        cue = [p for p in roles["cue"] if p[0] in self.position]
        if not cue:
            return None
        sent = self.position[min(i for i, _, _ in cue)][0]
        local = []
        for role in ROLES:
            parts = []
            for i, s, e in roles[role]:
                where = self.position.get(i)
                if where is not None and where[0] == sent:
                    parts.append((where[1], s, e))
            local.append(normalize_parts(parts))
        return sent, NegationRecord(*local)

    def with_instances(self, placed: Iterable[Optional[Tuple[int, NegationRecord]]]
                       ) -> List[SentenceRecord]:
        per: List[List[NegationRecord]] = [[] for _ in self.records]
        for item in placed:
            if item is not None:
                per[item[0]].append(item[1])
        return [r._replace(instances=insts) for r, insts in zip(self.records, per)]


def _gold_records(layout: RefLayout) -> List[SentenceRecord]:
    placed = []
    for neg in sorted(get_negations(layout.doc), key=lambda n: n.id):
        placed.append(layout.place({role: [(p.i, p.start, p.end) for p in neg.parts(role)]
                                    for role in ROLES}))
    return layout.with_instances(placed)


def _system_records(layout: RefLayout, pred: Doc) -> Tuple[List[SentenceRecord], int]:
    """The predicted negations projected onto the reference tokens by character offsets,
    and the number of parts not fully projectable (texts differ)."""
    negs = get_negations(pred)
    if not negs:
        return layout.with_instances(()), 0
    text = pred.text
    mapping = char_map(text, layout.text)
    dropped = 0
    placed = []
    for neg in sorted(negs, key=lambda n: n.id):
        roles: Dict[str, List[Part]] = {}
        for role in ROLES:
            parts: List[Part] = []
            for p in neg.parts(role):
                a, b = p.offsets(pred)
                ranges, complete = map_range(mapping, text, a, b)
                dropped += not complete
                for ra, rb in ranges:
                    parts.extend(layout.offsets.pieces(ra, rb))
            roles[role] = parts
        placed.append(layout.place(roles))
    return layout.with_instances(placed), dropped


def example_records(example: Example) -> Tuple[List[SentenceRecord], List[SentenceRecord], int]:
    """The gold and system records of an example, both on the reference tokens.

    Predicted negations are projected onto the reference tokens by character offsets
    (:mod:`spacy_negation.alignment`; texts may differ in whitespace and letter case): a
    reference token is covered by a part exactly where the part's characters are (an
    affix part of a predicted token becomes the matching characters of the reference
    token; a predicted token spanning two reference tokens covers both), never by token
    index. Parts outside the sentence of the instance's first cue token are dropped.

    example (Example): the example.
    RETURNS (Tuple[List[SentenceRecord], List[SentenceRecord], int]): gold records,
        system records (one per reference sentence each) and the number of predicted parts
        that could not be projected (texts differing beyond whitespace and case).
    """
    layout = RefLayout(example.reference)
    system, dropped = _system_records(layout, example.predicted)
    return _gold_records(layout), system, dropped


def score_negations(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """Score predicted negations (``doc.spans["negations"]``) against the reference docs
    with the *SEM 2012 (Morante & Blanco 2012), NIS (Sineva et al. 2021, CoNLL) and
    FairEval (Ortmann 2022, LREC) metrics, all on the reference tokens: the keys of
    :func:`score_negation_cues` and :func:`score_negation_scopes`, counted in one pass.

    Punctuation: the *SEM rows and the FairEval negation spans apply the *SEM gold-POS
    rule to the reference ``token.tag_`` (tokens without a tag: ``token.is_punct``), as the
    official scorer does with the gold POS column; NIS uses the reference
    ``token.is_punct``.

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): fractions under ``neg_*`` keys: *SEM ``neg_cue_p/r/f``,
        ``neg_cue_b_*``, ``neg_scm_*``, ``neg_scm_b_*``, ``neg_scnm_*`` (scopes, no cue
        match), ``neg_st_*`` (scope tokens), ``neg_full_*``, ``neg_full_b_f``; NIS
        ``neg_nis_cue_*``, ``neg_nis_tok_*``, ``neg_nis_ex_*``, ``neg_nis_tm_*`` (token
        mode); FairEval ``neg_fair_trad_f``, ``neg_fair_*``, ``neg_fair_weighted_*``;
        ``neg_cue_per_type`` ({type: {"p", "r", "f"}}, exact cue match, gold type for
        recall, system type for precision) and ``neg_faireval_per_label``
        ({label: {"trad_p", "trad_r", "trad_f", "fair_p", ..., "weighted_f"}}, labels
        CUE, AFFIX, MWCUE, SCOPE as present).
    """
    return _score(examples, NegationCounter())


def score_negation_cues(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """The cue keys of :func:`score_negations`: ``neg_cue_*``, ``neg_cue_b_*``,
    ``neg_nis_cue_*`` and ``neg_cue_per_type``.

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): the scores (fractions).
    """
    return _score(examples, NegationCounter(scopes=False))


def score_negation_scopes(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """The scope and instance keys of :func:`score_negations` (every key but those of
    :func:`score_negation_cues`).

    examples (Iterable[Example]): the examples.
    kwargs (Any): ignored (spaCy passes scorer settings).
    RETURNS (Dict[str, Any]): the scores (fractions).
    """
    return _score(examples, NegationCounter(cues=False))


def _score(examples: Iterable[Example], counter: "NegationCounter") -> Dict[str, Any]:
    dropped = 0
    for eg in examples:
        gold, system, d = example_records(eg)
        dropped += d
        for g, s in zip(gold, system):
            counter.add_records(g, s)
    if dropped:
        warnings.warn(Warnings.W002.format(n=dropped))
    return counter.scores()


class NegationCounter:
    """Corpus counts of the three metric families on pairs of records (counting only;
    :meth:`scores` divides). Shared by the scorers and the project's report.

    cues (bool): count and report the cue scores.
    scopes (bool): count and report the scope and instance scores.
    """

    def __init__(self, cues: bool = True, scopes: bool = True) -> None:
        self.cues = cues
        self.scopes = scopes
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
        """Count one pair of :class:`~spacy_negation.starsem.Sentence` objects (see
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
        """The flat ``neg_*`` scores (see :func:`score_negations`): the cue keys if
        counting cues, the scope and instance keys if counting scopes.

        fe (Optional[Dict[str, Any]]): the FairEval result, if already computed.
        RETURNS (Dict[str, Any]): the scores.
        """
        out: Dict[str, Any] = {}
        st = starsem_scores(self.starsem)
        nis = nis_scores(self.nis)
        if self.cues:
            for prefix, key in (("cue", "cues"), ("cue_b", "cues_b")):
                for m in "prf":
                    out[f"neg_{prefix}_{m}"] = st[key][m]
            for m in "prf":
                out[f"neg_nis_cue_{m}"] = nis["cue"][m]
            cue_types: Dict[str, Dict[str, float]] = {}
            for t, (ng, ns, nm) in self.per_type.items():
                p, r = safe_div(nm, ns), safe_div(nm, ng)
                cue_types[t] = {"p": p, "r": r, "f": f1(p, r)}
            out["neg_cue_per_type"] = cue_types
        if not self.scopes:
            return out
        for prefix, key in (("scm", "scopes_cue_match"), ("scm_b", "scopes_cue_match_b"),
                            ("scnm", "scopes_no_cue_match"), ("st", "scope_tokens"),
                            ("full", "full_negation")):
            for m in "prf":
                out[f"neg_{prefix}_{m}"] = st[key][m]
        out["neg_full_b_f"] = st["full_negation_b"]["f"]
        for prefix, key in (("nis_tok", "nis_tok"), ("nis_ex", "nis_ex"), ("nis_tm", "token_mode")):
            for m in "prf":
                out[f"neg_{prefix}_{m}"] = nis[key][m]
        fe = fe if fe is not None else self.faireval()
        out["neg_fair_trad_f"] = fe["traditional"]["f"]
        for m in "prf":
            out[f"neg_fair_{m}"] = fe["fair"][m]
        for m in "prf":
            out[f"neg_fair_weighted_{m}"] = fe["weighted"][m]
        per_label: Dict[str, Dict[str, float]] = {}
        for method, short in (("traditional", "trad"), ("fair", "fair"), ("weighted", "weighted")):
            for label, v in fe["per_label"][method].items():
                for m in "prf":
                    per_label.setdefault(label, {})[f"{short}_{m}"] = v[m]
        out["neg_faireval_per_label"] = per_label
        return out


# --- records as *SEM sentences, for the project's report script ----------------------------

class _Punct:
    """The punctuation masks of a doc's sentences (``starsem_punct``, ``nis_punct``)."""

    def __init__(self, records: Sequence[SentenceRecord]) -> None:
        self.starsem_punct = [list(r.punct) for r in records]
        self.nis_punct = [list(r.nis_punct or r.punct) for r in records]


def record_sentence(record: SentenceRecord, doc_id: str = "doc", sent_no: int = 0) -> Sentence:
    """A record as a *SEM :class:`~spacy_negation.starsem.Sentence` (for code that works
    on sentences; POS "." for punctuation, "_" otherwise).

    record (SentenceRecord): the record.
    doc_id (str): the document id of the rows.
    sent_no (int): the sentence number of the rows.
    RETURNS (Sentence): the sentence.
    """
    rows = [TokenRow(doc_id, str(sent_no), k, t, "_", "." if p else "_", "_")
            for k, (t, p) in enumerate(zip(record.tokens, record.punct))]
    insts = [Instance(list(cells(record.tokens, x.cue)), list(cells(record.tokens, x.scope)),
                      list(cells(record.tokens, x.event))) for x in record.instances]
    return Sentence(rows=rows, instances=insts)


def example_sentences(example: Example, index: int = 0) -> Tuple[List[Sentence], List[Sentence], _Punct, int]:
    """:func:`example_records` as *SEM sentences (see :func:`record_sentence`) plus the
    punctuation masks, for the project's report script.

    example (Example): the example.
    index (int): the example's number (for document ids).
    RETURNS (Tuple[List[Sentence], List[Sentence], _Punct, int]): gold sentences, system
        sentences, the masks (``starsem_punct``, ``nis_punct`` per sentence) and the
        number of predicted parts that could not be projected.
    """
    gold, system, dropped = example_records(example)
    doc_id = f"doc{index}"
    return ([record_sentence(r, doc_id, n) for n, r in enumerate(gold)],
            [record_sentence(r, doc_id, n) for n, r in enumerate(system)], _Punct(gold), dropped)


# --- FairEval on any spaCy span source -----------------------------------------------------

def _doc_spans(doc: Doc, spans_key: Optional[str]) -> Iterable[Span]:
    if spans_key is None:
        return doc.ents
    return doc.spans[spans_key] if spans_key in doc.spans else []


def _has_annotation(doc: Doc, spans_key: Optional[str]) -> bool:
    if spans_key is None:
        return doc.has_annotation("ENT_IOB")
    return spans_key in doc.spans


def example_spans(example: Example, spans_key: Optional[str] = None
                  ) -> Tuple[List[FSpan], List[FSpan]]:
    """The reference and predicted spans of an example as FSpans on the REFERENCE tokens.

    A predicted span covers every reference token that shares a character with it
    (:mod:`spacy_negation.alignment`: texts may differ in whitespace and letter case);
    begin/end are the first/last such token. A predicted span that covers no reference
    token is left out. The whole doc is one unit.

    example (Example): the example.
    spans_key (Optional[str]): None for ``doc.ents``, else the ``doc.spans`` key.
    RETURNS (Tuple[List[FSpan], List[FSpan]]): (reference spans, predicted spans).
    """
    ref_doc, pred_doc = example.reference, example.predicted
    ref = [FSpan.from_range(s.label_, s.start + 1, s.end) for s in _doc_spans(ref_doc, spans_key)
           if len(s)]
    offsets = TokenOffsets([t.idx for t in ref_doc], [t.text for t in ref_doc])
    text = pred_doc.text
    mapping = char_map(text, ref_doc.text)
    pred: List[FSpan] = []
    for s in _doc_spans(pred_doc, spans_key):
        if not len(s):
            continue
        ranges, _ = map_range(mapping, text, s.start_char, s.end_char)
        toks = sorted({i + 1 for a, b in ranges for i, _, _ in offsets.pieces(a, b)})
        if toks:
            pred.append(FSpan(s.label_, toks[0], toks[-1], frozenset(toks)))
    return ref, pred


def score_span_examples(examples: Iterable[Example], spans_key: Optional[str] = None, *,
                        focus: str = "target", weights: Any = faireval.PAPER_WEIGHTS,
                        prefix: str = "faireval") -> Dict[str, Any]:
    """FairEval (Ortmann 2022) of predicted against reference spans of spaCy examples,
    compared on the reference tokenization (see :func:`example_spans`). Examples whose
    reference doc lacks the annotation (no entity annotation for ``doc.ents``, no such key
    in ``doc.spans``) are skipped, as spaCy's own span scorers do; when no reference doc
    has the ``spans_key`` at all, that is an error (E214), not silent zeros.

    examples (Iterable[Example]): the examples.
    spans_key (Optional[str]): None for ``doc.ents``, else the ``doc.spans`` key.
    focus (str): "target" or "system" (LE/LBE attribution per label).
    weights (Union[str, Dict, None]): weights of "weighted" (default: the paper's).
    prefix (str): the prefix of every key (default "faireval", whatever the source).
    RETURNS (Dict[str, Any]): flat scores (fractions) ``{prefix}_trad_p/r/f``,
        ``{prefix}_fair_p/r/f``, ``{prefix}_weighted_p/r/f``, and ``{prefix}_per_label``:
        {label: {"trad_p", ..., "weighted_f"}}.
    RAISES (ValueError): a ``spans_key`` that no reference doc has (E214).
    """
    faireval.check_focus(focus)
    counts = FairEvalCounts()
    present: set = set()
    n_examples = 0
    for eg in examples:
        n_examples += 1
        present.update(eg.reference.spans.keys())
        if not _has_annotation(eg.reference, spans_key):
            continue
        ref, pred = example_spans(eg, spans_key)
        count_into(counts, ref, pred, focus)
    if spans_key is not None and n_examples and not counts.n_sentences:
        raise ValueError(Errors.E214.format(key=spans_key,
                                            present=", ".join(sorted(present)) or "none"))
    result = scores_from_counts(counts, weights)
    short = {"traditional": "trad", "fair": "fair", "weighted": "weighted"}
    out: Dict[str, Any] = {}
    for method in faireval.METHODS:
        for k in ("p", "r", "f"):
            out[f"{prefix}_{short[method]}_{k}"] = result[method][k]
    per_label: Dict[str, Dict[str, float]] = {}
    for method in faireval.METHODS:
        for label, d in result["per_label"][method].items():
            for k in ("p", "r", "f"):
                per_label.setdefault(label, {})[f"{short[method]}_{k}"] = d[k]
    out[f"{prefix}_per_label"] = per_label
    return out
