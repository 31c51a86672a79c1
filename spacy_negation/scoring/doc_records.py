"""Negation annotation of spaCy docs as the plain records the metrics count on
(:mod:`spacy_negation.metrics.records`), on the reference tokens: the counterpart of the
*SEM file reader, as spaCy's coreference turns docs into cluster lists
(``doc2clusters``). Predicted annotation is projected onto the reference tokens by
character offsets (:mod:`spacy_negation.alignment`). The speculations of the docs become
records the same way (their event is empty): :func:`example_records` takes the kind.
"""
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc, Span
from spacy.training import Example

from ..alignment import CharProjection, TokenOffsets
from ..corpora.starsem import Instance, Sentence, TokenRow
from ..metrics.faireval import FSpan
from ..metrics.records import NegationRecord, Part, SentenceRecord, cells, normalize_parts
from ..metrics.starsem.io import punct_pos
from ..negation import NEGATIONS, ROLES, Kind, get_instances


Roles = Dict[str, List[Part]]


class RefLayout:
    """The reference doc's sentences as records (without instances) and where each of
    its tokens sits. Whitespace tokens are left out of the records, except those in
    ``keep`` (a whitespace token that is a cue: it is scored like any cue token).

    doc (Doc): the reference doc.
    keep (Iterable[int]): whitespace tokens to keep in the records.
    """

    __slots__ = ("doc", "text", "offsets", "records", "position")

    def __init__(self, doc: Doc, keep: Iterable[int] = ()) -> None:
        self.doc = doc
        self.text = doc.text
        self.offsets = TokenOffsets.of(doc)
        self.records: List[SentenceRecord] = []
        #: token index -> (sentence number, position in the sentence's record)
        self.position: Dict[int, Tuple[int, int]] = {}
        self.layout(keep)

    def layout(self, keep: Iterable[int] = ()) -> None:
        """(Re)build the records and positions, keeping the whitespace tokens ``keep``."""
        doc = self.doc
        kept = set(keep)
        split = doc.has_annotation("SENT_START")
        self.position = {}
        self.records = []
        tokens: List[str] = []
        punct: List[bool] = []
        nis: List[bool] = []
        for token in doc:
            if split and token.i and token.is_sent_start and tokens:
                self.records.append(SentenceRecord(tokens, punct, (), nis))
                tokens, punct, nis = [], [], []
            if token.is_space and token.i not in kept:
                continue
            self.position[token.i] = (len(self.records), len(tokens))
            tag = token.tag_
            # The *SEM gold-POS rule on the reference tag; without a tag, is_punct.
            punct.append(punct_pos(tag) if tag else token.is_punct)
            nis.append(token.is_punct)
            tokens.append(token.text)
        if tokens:
            self.records.append(SentenceRecord(tokens, punct, (), nis))

    def place(self, roles: Roles) -> Optional[Tuple[int, NegationRecord]]:
        """An instance given by doc-level parts, in the sentence of its first cue token;
        parts in other sentences are left out (:meth:`build` joins the sentences an
        instance spans first, so that none is). None for an instance without cue.

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

    def join_spanned_sentences(self, instances: Iterable[Roles]) -> None:
        """Join into one record the consecutive sentences that an instance (with a cue)
        has parts in, so that every part is scored: a predicted scope token in another
        sentence than its cue is a false positive, a gold one missed a false negative
        (rather than both being left out, which would score a wrong prediction 1.0)."""
        joins: List[Tuple[int, int]] = []
        for roles in instances:
            if not any(i in self.position for i, _, _ in roles["cue"]):
                continue
            sents = [self.position[i][0] for role in ROLES for i, _, _ in roles[role]
                     if i in self.position]
            if min(sents) < max(sents):
                joins.append((min(sents), max(sents)))
        if not joins:
            return
        group = list(range(len(self.records)))  # sentence -> first sentence of its group
        for lo, hi in sorted(joins):
            for k in range(lo + 1, hi + 1):
                group[k] = group[lo]
        records: List[SentenceRecord] = []
        new_index: Dict[int, Tuple[int, int]] = {}  # sentence -> (record, token offset)
        for k, record in enumerate(self.records):
            if group[k] == k or not records:
                records.append(record)
                new_index[k] = (len(records) - 1, 0)
                continue
            last = records[-1]
            new_index[k] = (len(records) - 1, len(last.tokens))
            records[-1] = SentenceRecord(
                list(last.tokens) + list(record.tokens), list(last.punct) + list(record.punct), (),
                list(last.nis_punct or last.punct) + list(record.nis_punct or record.punct))
        self.records = records
        self.position = {i: (new_index[sent][0], new_index[sent][1] + pos)
                         for i, (sent, pos) in self.position.items()}

    def build(self, gold: Sequence[Roles], system: Sequence[Roles]
              ) -> Tuple[List[SentenceRecord], List[SentenceRecord]]:
        """The gold and system records: whitespace cue tokens kept, the sentences that an
        instance spans joined, each instance in the record of its first cue token.

        gold (Sequence[Roles]): the gold instances as doc-level parts.
        system (Sequence[Roles]): the system instances (projected onto the doc's tokens).
        RETURNS (Tuple[List[SentenceRecord], List[SentenceRecord]]): gold and system records.
        """
        space_cues = {i for roles in (*gold, *system) for i, _, _ in roles["cue"]
                      if self.doc[i].is_space}
        if space_cues:
            self.layout(space_cues)
        self.join_spanned_sentences((*gold, *system))
        return (self.with_instances(self.place(r) for r in gold),
                self.with_instances(self.place(r) for r in system))


def _gold_roles(doc: Doc, kind: Kind = NEGATIONS) -> List[Roles]:
    """The instances of a kind of the reference doc as doc-level parts per role (an empty
    event for a speculation)."""
    return [{role: [(p.i, p.start, p.end) for p in neg.parts(role)] if role in kind.roles else []
             for role in ROLES}
            for neg in sorted(get_instances(doc, kind), key=lambda n: n.id)]


def _system_roles(layout: RefLayout, pred: Doc, kind: Kind = NEGATIONS) -> Tuple[List[Roles], int]:
    """The predicted instances of a kind projected onto the reference tokens by character
    offsets, and the number of parts not fully projectable (texts differ)."""
    negs = get_instances(pred, kind)
    if not negs:
        return [], 0
    projection = CharProjection(pred.text, layout.text, layout.offsets)
    dropped = 0
    out = []
    for neg in sorted(negs, key=lambda n: n.id):
        roles: Roles = {}
        for role in ROLES:
            parts: List[Part] = []
            for p in (neg.parts(role) if role in kind.roles else ()):
                pieces, complete = projection.pieces(*p.offsets(pred))
                dropped += not complete
                parts.extend(pieces)
            roles[role] = parts
        out.append(roles)
    return out, dropped


def example_records(example: Example, kind: Kind = NEGATIONS
                    ) -> Tuple[List[SentenceRecord], List[SentenceRecord], int]:
    """The gold and system records of an example, both on the reference tokens: its
    negations, or its speculations (``kind``, :data:`~spacy_negation.negation.SPECULATIONS`).

    Predicted negations are projected onto the reference tokens by character offsets
    (:mod:`spacy_negation.alignment`; texts may differ in whitespace and letter case): a
    reference token is covered by a part exactly where the part's characters are (an
    affix part of a predicted token becomes the matching characters of the reference
    token; a predicted token spanning two reference tokens covers both), never by token
    index. An instance with parts in several reference sentences is scored on those
    sentences joined into one record, so that its out-of-sentence parts count (a
    predicted scope token in another sentence is a false positive). Whitespace tokens
    are not scored, except a whitespace token that is a cue (gold or predicted).

    example (Example): the example.
    kind (Kind): the kind of instance (default: the negations).
    RETURNS (Tuple[List[SentenceRecord], List[SentenceRecord], int]): gold records,
        system records (one per reference sentence, or group of joined sentences, each)
        and the number of predicted parts that could not be projected (texts differing
        beyond whitespace and case).
    """
    layout = RefLayout(example.reference)
    system, dropped = _system_roles(layout, example.predicted, kind)
    gold_records, system_records = layout.build(_gold_roles(example.reference, kind), system)
    return gold_records, system_records, dropped


# --- records as *SEM sentences, for the project's report script ----------------------------

class _Punct:
    """The punctuation masks of a doc's sentences (``starsem_punct``, ``nis_punct``)."""

    def __init__(self, records: Sequence[SentenceRecord]) -> None:
        self.starsem_punct = [list(r.punct) for r in records]
        self.nis_punct = [list(r.nis_punct or r.punct) for r in records]


def record_sentence(record: SentenceRecord, doc_id: str = "doc", sent_no: int = 0) -> Sentence:
    """A record as a *SEM :class:`~spacy_negation.corpora.starsem.Sentence` (for code that works
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


def has_annotation(doc: Doc, spans_key: Optional[str]) -> bool:
    """Whether a doc has the annotation of a span source (entity annotation for
    ``doc.ents``, the key in ``doc.spans``).

    doc (Doc): the doc.
    spans_key (Optional[str]): None for ``doc.ents``, else the ``doc.spans`` key.
    RETURNS (bool): whether the source is annotated.
    """
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
    projection = CharProjection(pred_doc.text, ref_doc.text, TokenOffsets.of(ref_doc))
    pred: List[FSpan] = []
    for s in _doc_spans(pred_doc, spans_key):
        if not len(s):
            continue
        pieces, _ = projection.pieces(s.start_char, s.end_char)
        toks = sorted({i + 1 for i, _, _ in pieces})
        if toks:
            pred.append(FSpan(s.label_, toks[0], toks[-1], frozenset(toks)))
    return ref, pred

