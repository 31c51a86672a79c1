"""FairEval counting (Ortmann 2022): one sentence's target and system spans into running
:class:`FairEvalCounts`, step by step as the reference tool ``FairEval.py`` matches them
(TP, LE, then BE and LBE in three steps each, then FN/FP; the quirks are listed in
:mod:`spacy_negation.metrics.faireval`). Division is in :mod:`.score`.
"""
from dataclasses import dataclass, field
from typing import Dict, FrozenSet, List, Sequence, Tuple

from ...errors import Errors
from ..core import Counts
from .spans import (BE_TYPES, FAIR_TYPES, FOCUS_VALUES, NONE_LABEL, FSpan,
                             overlap_type)

@dataclass
class ErrorCounts(Counts):
    """Counts of the FairEval categories (the traditional ones use TP, FP, FN only)."""

    TP: int = 0
    FP: int = 0
    FN: int = 0
    LE: int = 0
    BE: int = 0
    BES: int = 0
    BEL: int = 0
    BEO: int = 0
    LBE: int = 0

    def to_dict(self, keys: Sequence[str] = FAIR_TYPES) -> Dict[str, int]:
        """The counts as a dict.

        keys (Sequence[str]): the categories to include.
        RETURNS (Dict[str, int]): category -> count.
        """
        return {k: int(v) for k, v in self.as_dict(keys).items()}


@dataclass
class FairEvalCounts:
    """FairEval counts of one sentence or a whole corpus (sums of sentences).

    traditional (ErrorCounts): overall traditional counts (TP, FP, FN).
    fair (ErrorCounts): overall fair counts.
    per_label_traditional (Dict[str, ErrorCounts]): traditional counts per label.
    per_label_fair (Dict[str, ErrorCounts]): fair counts per label (LE/LBE by focus).
    confusion (Dict[str, Dict[str, int]]): target label -> system label -> count of LE, BE,
        LBE, FN (system "_") and FP (target "_"); true positives are not recorded.
    target_labels (Dict[str, int]): target span frequencies per label, in first-seen order.
    n_sentences (int): the number of sentences counted.
    """

    traditional: ErrorCounts = field(default_factory=ErrorCounts)
    fair: ErrorCounts = field(default_factory=ErrorCounts)
    per_label_traditional: Dict[str, ErrorCounts] = field(default_factory=dict)
    per_label_fair: Dict[str, ErrorCounts] = field(default_factory=dict)
    confusion: Dict[str, Dict[str, int]] = field(default_factory=dict)
    target_labels: Dict[str, int] = field(default_factory=dict)
    n_sentences: int = 0

    @property
    def labels(self) -> List[str]:
        """All labels seen in target or system spans, sorted."""
        return sorted(self.per_label_fair)

    def _note_label(self, label: str) -> None:
        if label not in self.per_label_fair:
            self.per_label_fair[label] = ErrorCounts()
            self.per_label_traditional[label] = ErrorCounts()

    def _confuse(self, target_label: str, system_label: str) -> None:
        row = self.confusion.setdefault(target_label, {})
        row[system_label] = row.get(system_label, 0) + 1

    def add(self, other: "FairEvalCounts") -> None:
        """Add the counts of another sentence or corpus to these.

        other (FairEvalCounts): the counts to add.
        """
        self.traditional.add(other.traditional)
        self.fair.add(other.fair)
        for label in other.per_label_fair:
            self._note_label(label)
            self.per_label_traditional[label].add(other.per_label_traditional[label])
            self.per_label_fair[label].add(other.per_label_fair[label])
        for tl, row in other.confusion.items():
            for sl, n in row.items():
                mine = self.confusion.setdefault(tl, {})
                mine[sl] = mine.get(sl, 0) + n
        for label, n in other.target_labels.items():
            self.target_labels[label] = self.target_labels.get(label, 0) + n
        self.n_sentences += other.n_sentences

    def confusion_matrix(self) -> Dict[str, Dict[str, int]]:
        """The full square confusion matrix over all labels and "_" (sorted, zeros filled).

        RETURNS (Dict[str, Dict[str, int]]): target label -> system label -> count.
        """
        labels = sorted(set(self.per_label_fair) | {NONE_LABEL})
        return {t: {s: self.confusion.get(t, {}).get(s, 0) for s in labels} for t in labels}


class _Work:
    """A mutable working copy of a span (the reference keeps spans as lists and edits
    their token sets). Equality is by value, as in the reference's list operations."""

    __slots__ = ("label", "begin", "end", "tokens")

    def __init__(self, span: FSpan) -> None:
        self.label = span.label
        self.begin = span.begin
        self.end = span.end
        self.tokens: FrozenSet[int] = span.tokens

    def _key(self) -> Tuple[str, int, int, FrozenSet[int]]:
        return (self.label, self.begin, self.end, self.tokens)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Work) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def bounds(self) -> Tuple[int, int]:
        return (self.begin, self.end)


def _most_similar(x: _Work, candidates: List[_Work]) -> _Work:
    """The reference's choice among several candidates: most shared tokens, then fewest
    tokens only in x, then fewest only in the candidate, then the shortest; remaining ties
    keep list order (stable sort)."""
    return sorted(candidates, key=lambda c: (-len(x.tokens & c.tokens), len(x.tokens - c.tokens),
                                             len(c.tokens - x.tokens), c.end - c.begin))[0]


def check_focus(focus: str) -> None:
    if focus not in FOCUS_VALUES:
        raise ValueError(Errors.E251.format(focus=focus, options=", ".join(FOCUS_VALUES)))


def count_sentence(target: Sequence[FSpan], system: Sequence[FSpan],
                   focus: str = "target") -> FairEvalCounts:
    """Count one sentence: traditional counts, fair counts, per label, confusion matrix.

    target (Sequence[FSpan]): the target (gold) spans, in input order.
    system (Sequence[FSpan]): the system spans, in input order (order breaks ties, Q-F4).
    focus (str): "target" or "system": whose label LE and LBE are counted under.
    RETURNS (FairEvalCounts): the sentence's counts.
    """
    check_focus(focus)
    c = FairEvalCounts()
    count_into(c, target, system, focus)
    return c


def count_into(c: FairEvalCounts, target: Sequence[FSpan], system: Sequence[FSpan],
               focus: str = "target") -> None:
    """Add one sentence's counts to running counts (see :func:`count_sentence`; the focus
    is not checked here).

    c (FairEvalCounts): the running counts, updated in place.
    target (Sequence[FSpan]): the target spans, in input order.
    system (Sequence[FSpan]): the system spans, in input order.
    focus (str): "target" or "system".
    """
    c.n_sentences += 1
    if not target and not system:
        return
    for span in target:
        c._note_label(span.label)
        c.target_labels[span.label] = c.target_labels.get(span.label, 0) + 1
    for span in system:
        c._note_label(span.label)
    if len(target) == len(system) and all(t == s for t, s in zip(target, system)):
        # Identical lists: every span is a TP under both methods (and nothing else).
        for t in target:
            c.traditional.TP += 1
            c.per_label_traditional[t.label].TP += 1
            c.fair.TP += 1
            c.per_label_fair[t.label].TP += 1
        return
    _count_traditional(c, target, system)
    _count_fair(c, target, system, focus)


def _count_traditional(c: FairEvalCounts, target: Sequence[FSpan],
                       system: Sequence[FSpan]) -> None:
    # Membership tests, not one-to-one (Q-F1).
    system_set = set(system)
    target_set = set(target)
    for t in target:
        key = "TP" if t in system_set else "FN"
        setattr(c.traditional, key, getattr(c.traditional, key) + 1)
        lab = c.per_label_traditional[t.label]
        setattr(lab, key, getattr(lab, key) + 1)
    for s in system:
        if s not in target_set:
            c.traditional.FP += 1
            c.per_label_traditional[s.label].FP += 1


def _count_fair(c: FairEvalCounts, target: Sequence[FSpan], system: Sequence[FSpan],
                focus: str) -> None:
    T = [_Work(t) for t in target]
    S = [_Work(s) for s in system]
    overall = c.fair
    per = c.per_label_fair

    # 1. TP: identical spans (label, boundaries, tokens); each pair consumed once.
    for t in [t for t in T if t in S]:
        if t in S:
            overall.TP += 1
            per[t.label].TP += 1
            S.remove(t)
            T.remove(t)

    # 2. LE: same boundaries, other label (token sets ignored); first such system span.
    for t in [t for t in T if any(t.label != s.label and t.bounds() == s.bounds() for s in S)]:
        cands = [s for s in S if t.label != s.label and t.bounds() == s.bounds()]
        if cands:
            s = cands[0]
            overall.LE += 1
            per[t.label if focus == "target" else s.label].LE += 1
            c._confuse(t.label, s.label)
            S.remove(s)
            T.remove(t)

    # 3. Stable sort by length.
    T.sort(key=lambda w: w.end - w.begin)
    S.sort(key=lambda w: w.end - w.begin)
    counted_T: List[_Work] = []
    counted_S: List[_Work] = []

    def record(kind: str, t: _Work, s: _Work) -> None:
        if kind == "BE":
            be_type = overlap_type(t.bounds(), s.bounds())
            overall.BE += 1
            setattr(overall, be_type, getattr(overall, be_type) + 1)  # type: ignore[arg-type]
            lab = per[t.label]  # Q-F5: always the target label
            lab.BE += 1
            setattr(lab, be_type, getattr(lab, be_type) + 1)  # type: ignore[arg-type]
        else:
            overall.LBE += 1
            per[t.label if focus == "target" else s.label].LBE += 1
        c._confuse(t.label, s.label)

    def fits(kind: str, t: _Work, s: _Work) -> bool:
        return ((t.label == s.label) == (kind == "BE") and t.bounds() != s.bounds()
                and overlap_type(t.bounds(), s.bounds()) in BE_TYPES)

    def residual(kind: str, movers: List[_Work], counted: List[_Work], moved: List[_Work],
                 targets: bool) -> None:
        # Steps b and c: each remaining span (targets or system spans) against the counted
        # spans of the other side that still share a token with it.
        for x in list(movers):
            cands = [y for y in counted
                     if (fits(kind, x, y) if targets else fits(kind, y, x)) and x.tokens & y.tokens]
            if not cands:
                continue
            y = _most_similar(x, cands)
            record(kind, *((x, y) if targets else (y, x)))
            movers.remove(x)
            shared = x.tokens & y.tokens
            counted[counted.index(y)].tokens = y.tokens - shared  # by value (Q-F10)
            x.tokens = x.tokens - shared
            moved.append(x)

    # 4./5. BE (same label), then LBE (other label), each in three steps.
    for kind in ("BE", "LBE"):
        # a. remaining targets against remaining system spans (range overlap, Q-F3)
        for t in list(T):
            cands = [s for s in S if fits(kind, t, s)]
            if not cands:
                continue
            s = _most_similar(t, cands)
            record(kind, t, s)
            S.remove(s)
            T.remove(t)
            shared = t.tokens & s.tokens
            s.tokens = s.tokens - shared
            t.tokens = t.tokens - shared
            counted_S.append(s)
            counted_T.append(t)
        # b. remaining targets against counted system spans still sharing a token
        residual(kind, T, counted_S, counted_T, True)
        # c. remaining system spans against counted targets still sharing a token
        residual(kind, S, counted_T, counted_S, False)

    # 6. What is left: FN and FP.
    for t in T:
        overall.FN += 1
        per[t.label].FN += 1
        c._confuse(t.label, NONE_LABEL)
    for s in S:
        overall.FP += 1
        per[s.label].FP += 1
        c._confuse(NONE_LABEL, s.label)


def count_spans(target: Sequence[Sequence[FSpan]], system: Sequence[Sequence[FSpan]],
                focus: str = "target") -> FairEvalCounts:
    """Count a corpus: the sentence counts summed (micro average).

    target (Sequence[Sequence[FSpan]]): target spans per sentence.
    system (Sequence[Sequence[FSpan]]): system spans per sentence, aligned with target.
    focus (str): "target" or "system" (see :func:`count_sentence`).
    RETURNS (FairEvalCounts): the summed counts.
    """
    check_focus(focus)
    if len(target) != len(system):
        raise ValueError(Errors.E255.format(n_target=len(target), n_system=len(system),
                                            where="the span lists"))
    total = FairEvalCounts()
    for t, s in zip(target, system):
        count_into(total, t, s, focus)
    return total

