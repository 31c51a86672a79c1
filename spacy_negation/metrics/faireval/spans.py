"""FairEval spans (Ortmann 2022): the span record, the boundary overlap types, and the
negation spans of a sentence record. See :mod:`spacy_negation.metrics.faireval` for the whole family.
"""
from dataclasses import dataclass
from typing import FrozenSet, List, Optional, Sequence, Tuple

from ...errors import Errors
from ..records import SentenceRecord, cells

#: Error categories of the fair evaluation, in output order (BE = BES + BEL + BEO).
FAIR_TYPES: Tuple[str, ...] = ("TP", "FP", "FN", "LE", "BE", "BES", "BEL", "BEO", "LBE")
#: Error categories of the traditional evaluation.
TRADITIONAL_TYPES: Tuple[str, ...] = ("TP", "FP", "FN")
#: The boundary-error subtypes (system span smaller, larger, crossing).
BE_TYPES: Tuple[str, ...] = ("BES", "BEL", "BEO")
#: The three evaluation methods, in output order.
METHODS: Tuple[str, ...] = ("traditional", "fair", "weighted")
#: Focus settings for the per-label attribution of LE and LBE.
FOCUS_VALUES: Tuple[str, ...] = ("target", "system")
#: The label of "no span" in the confusion matrix (FN row / FP column).
NONE_LABEL = "_"

#: Negation span labels (see :func:`record_spans`).
CUE_LABEL, AFFIX_LABEL, MWCUE_LABEL, SCOPE_LABEL = "CUE", "AFFIX", "MWCUE", "SCOPE"


@dataclass(frozen=True)
class FSpan:
    """A FairEval span.

    label (str): the span label.
    begin (int): the first token, 1-based.
    end (int): the last token, 1-based, >= begin.
    tokens (FrozenSet[int]): the span's tokens (1-based), non-empty, inside [begin, end];
        may have gaps (discontinuous spans). Any iterable of ints is accepted.
    """

    label: str
    begin: int
    end: int
    tokens: FrozenSet[int]

    def __post_init__(self) -> None:
        toks = self.tokens if isinstance(self.tokens, frozenset) else frozenset(self.tokens)
        object.__setattr__(self, "tokens", toks)
        ok = (isinstance(self.begin, int) and isinstance(self.end, int)
              and 1 <= self.begin <= self.end and bool(toks)
              and all(isinstance(i, int) and self.begin <= i <= self.end for i in toks))
        if not ok or not self.label:
            raise ValueError(Errors.E250.format(span=self))

    @classmethod
    def checked(cls, label: str, begin: int, end: int, tokens: FrozenSet[int]) -> "FSpan":
        """A span from values the caller has already checked (a non-empty label,
        1 <= begin <= end, a non-empty frozenset of tokens inside [begin, end]): no
        second check, for readers that check in bulk.

        label (str): the label.
        begin (int): the first token, 1-based.
        end (int): the last token, 1-based.
        tokens (FrozenSet[int]): the tokens.
        RETURNS (FSpan): the span.
        """
        span = object.__new__(cls)
        span.__dict__.update(label=label, begin=begin, end=end, tokens=tokens)
        return span

    @classmethod
    def from_range(cls, label: str, begin: int, end: int) -> "FSpan":
        """A continuous span covering every token from begin to end.

        label (str): the label.
        begin (int): the first token, 1-based.
        end (int): the last token, 1-based.
        RETURNS (FSpan): the span.
        """
        return cls(label, begin, end, frozenset(range(begin, end + 1)))

    @property
    def length(self) -> int:
        """end - begin, the reference's sort key."""
        return self.end - self.begin


def overlap_type(target: Tuple[int, int], system: Tuple[int, int]) -> Optional[str]:
    """How a system range relates to a target range, by boundaries only (Ortmann 2022).

    target (Tuple[int, int]): (begin, end) of the target span.
    system (Tuple[int, int]): (begin, end) of the system span.
    RETURNS (Optional[str]): "TP" (identical), "BES" (system smaller/inside), "BEL" (system
        larger), "BEO" (crossing) or None (no overlap).
    """
    b1, e1 = target
    b2, e2 = system
    if b1 == b2 and e1 == e2:
        return "TP"
    if b1 == b2:
        return "BES" if b1 <= e2 < e1 else "BEL"
    if b2 < b1:
        if e2 < b1:
            return None
        return "BEO" if e2 < e1 else "BEL"
    if b2 <= e1:
        return "BES" if e2 <= e1 else "BEO"
    return None



def record_spans(record: SentenceRecord, punct: Optional[Sequence[bool]] = None) -> List[FSpan]:
    """FairEval negation spans of a record:
    per instance (column order) one cue span -- ``MWCUE`` (two or more cue tokens),
    ``AFFIX`` (one cue token whose cue cell differs from its text) or ``CUE`` -- with
    begin/end = first/last cue token and the cue tokens as token set; then, if the scope
    without punctuation is not empty, one ``SCOPE`` span over the remaining scope tokens
    (begin/end = their min/max). Tokens are 1-based.

    record (SentenceRecord): the record.
    punct (Optional[Sequence[bool]]): the punctuation mask (the gold record's, for a
        system record); default the record's own.
    RETURNS (List[FSpan]): the spans in instance order, cue before scope.
    """
    mask = record.punct if punct is None else punct
    tokens = record.tokens
    spans: List[FSpan] = []
    for inst in record.instances:
        cue_pos = sorted({i for i, _, _ in inst.cue})
        if len(cue_pos) > 1:
            label = MWCUE_LABEL
        else:
            i, cell = cells(tokens, inst.cue)[0]
            label = AFFIX_LABEL if cell != tokens[i] else CUE_LABEL
        spans.append(FSpan(label, cue_pos[0] + 1, cue_pos[-1] + 1,
                           frozenset(p + 1 for p in cue_pos)))
        scope = sorted({i for i, _, _ in inst.scope if not mask[i]})
        if scope:
            spans.append(FSpan(SCOPE_LABEL, scope[0] + 1, scope[-1] + 1,
                               frozenset(p + 1 for p in scope)))
    return spans

