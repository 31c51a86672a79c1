"""FairEval (Ortmann 2022): traditional, fair and weighted span scores, per label, with a
confusion matrix, exactly as the reference tool ``FairEval.py`` counts them, applied to
negation (negation spans, :func:`record_spans`) and to any spaCy span source.

Counting is separate from division:

* :func:`count_sentence` / :func:`count_spans` return :class:`FairEvalCounts`
  (overall, per label, confusion matrix, target label frequencies);
* :func:`weighted_prf` turns one set of counts plus weights into P/R/F (via :mod:`.core`);
* :func:`scores_from_counts` builds the full result; :func:`faireval` does both steps.

Spans are :class:`FSpan` records (label, 1-based begin/end token, token set). The matching
follows the reference step by step, including its quirks:

* Q-F1 traditional TP/FP are membership tests: duplicated spans are each counted;
* Q-F2 same label and boundaries but other token set: one FP plus one FN;
* Q-F3 BE/LBE step a needs only overlapping *ranges*, no shared token;
* Q-F4 ties are broken by list order after the stable length sort;
* Q-F5 BE is always counted under the target label (also in step c, also with
  ``focus="system"``); only LE and LBE follow ``focus``;
* Q-F10 residual-token updates in steps b/c look the counted span up by value equality
  (implemented as such; with the stable most-similar choice the span found is always the
  chosen one, so no reference case can tell the difference).

Every remaining span is visited once per step (the reference's fixture f14 shows that a
span after a matched one is not skipped). LE and matched-as-TP spans never enter the
"counted" lists, so a later LBE cannot match them (reference behaviour).

Deliberate differences, outside the counting: :func:`parse_weights` rejects what the
reference silently reads as weight 0 (a term without coefficient such as ``FP``, unknown
error types, repeated terms); "weighted" without weights equals "fair" (the reference
drops it). Readers for the tool's own file formats are in :mod:`.faireval_io`.

Result keys: fractions ``p``, ``r``, ``f`` beside the counts; the spaCy-facing
``spacy_negation.scorers.score_span_examples`` returns flat ``faireval_*`` keys.
"""
import re
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple, Union

from ..errors import Errors
from ..starsem import Sentence
from .core import prf
from .records import SentenceRecord, cells
from .starsem_io import sentence_record

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

Weights = Dict[str, Dict[str, float]]

#: The weights of the paper (Ortmann 2022), used by default for "weighted".
PAPER_WEIGHTS_FORMULA = ("LE = 0.5 FP + 0.5 FN, BES = 0.5 TP + 0.5 FN, BEL = 0.5 TP + 0.5 FP, "
                         "BEO = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN")
#: The README's alternative: one aggregate weight for all boundary errors.
BE_WEIGHTS_FORMULA = "LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP + 0.25 FN, LBE = 0.5 FP + 0.5 FN"
#: Weights of the traditional evaluation.
TRADITIONAL_WEIGHTS: Weights = {"TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
#: Weights of the fair evaluation: LE, BE and LBE each count half FP, half FN.
FAIR_WEIGHTS: Weights = {
    "TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1},
    "LE": {"TP": 0, "FP": 0.5, "FN": 0.5},
    "BE": {"TP": 0, "FP": 0.5, "FN": 0.5},
    "LBE": {"TP": 0, "FP": 0.5, "FN": 0.5},
}


# --- spans ------------------------------------------------------------------------------

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
        object.__setattr__(span, "label", label)
        object.__setattr__(span, "begin", begin)
        object.__setattr__(span, "end", end)
        object.__setattr__(span, "tokens", tokens)
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


# --- counts -----------------------------------------------------------------------------

@dataclass
class ErrorCounts:
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

    def add(self, other: "ErrorCounts") -> None:
        """Add another set of counts to this one.

        other (ErrorCounts): the counts to add.
        """
        for key in FAIR_TYPES:
            setattr(self, key, getattr(self, key) + getattr(other, key))

    def to_dict(self, keys: Sequence[str] = FAIR_TYPES) -> Dict[str, int]:
        """The counts as a dict.

        keys (Sequence[str]): the categories to include.
        RETURNS (Dict[str, int]): category -> count.
        """
        return {k: getattr(self, k) for k in keys}


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

    # 4./5. BE (same label), then LBE (other label), each in three steps.
    for kind in ("BE", "LBE"):
        same = kind == "BE"

        def fits(t: _Work, s: _Work) -> bool:
            return ((t.label == s.label) == same and t.bounds() != s.bounds()
                    and overlap_type(t.bounds(), s.bounds()) in BE_TYPES)

        # a. remaining targets against remaining system spans (range overlap, Q-F3)
        for t in list(T):
            cands = [s for s in S if fits(t, s)]
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
        for t in list(T):
            cands = [s for s in counted_S if fits(t, s) and t.tokens & s.tokens]
            if not cands:
                continue
            s = _most_similar(t, cands)
            record(kind, t, s)
            T.remove(t)
            shared = t.tokens & s.tokens
            counted_S[counted_S.index(s)].tokens = s.tokens - shared  # by value (Q-F10)
            t.tokens = t.tokens - shared
            counted_T.append(t)
        # c. remaining system spans against counted targets still sharing a token
        for s in list(S):
            cands = [t for t in counted_T if fits(t, s) and t.tokens & s.tokens]
            if not cands:
                continue
            t = _most_similar(s, cands)
            record(kind, t, s)
            S.remove(s)
            shared = t.tokens & s.tokens
            counted_T[counted_T.index(t)].tokens = t.tokens - shared  # by value (Q-F10)
            s.tokens = s.tokens - shared
            counted_S.append(s)

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


# --- weights and scores -----------------------------------------------------------------

_FORMULA = re.compile(r"^\s*(?P<err>\w+)\s*=(?P<rhs>.*)$", re.S)
_TERM = re.compile(r"^\s*(?P<w>\d+(?:\.\d*)?|\.\d+)\s*\*?\s*(?P<cat>TP|FP|FN)\s*$")


def parse_weights(formula: str) -> Weights:
    """Parse a weight formula as the reference's ``weights`` setting (Ortmann 2022):
    comma-separated ``ERR = a TP + b FP + c FN``; omitted terms weigh 0; TP, FP and FN
    weigh themselves unless given. Every term needs its coefficient (``1 FP``, not ``FP``).

    formula (str): e.g. ``"LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP + 0.25 FN"``.
    RETURNS (Dict[str, Dict[str, float]]): error type -> {"TP", "FP", "FN"} weights, in
        formula order, then TP, FP, FN.
    RAISES (ValueError): a malformed formula, an unknown error type or a repeated term.
    """
    weights: Weights = {}
    for part in formula.split(","):
        if not part.strip():
            continue
        m = _FORMULA.match(part)
        if m is None:
            raise ValueError(Errors.E252.format(part=part.strip(), reason="expected 'ERR = ...'"))
        err = m.group("err")
        if err not in FAIR_TYPES:
            raise ValueError(Errors.E253.format(err=err, options=", ".join(FAIR_TYPES)))
        if err in weights:
            raise ValueError(Errors.E254.format(what=f"error type {err}", part=part.strip()))
        w: Dict[str, float] = {}
        rhs = m.group("rhs")
        if not rhs.strip():
            raise ValueError(Errors.E252.format(part=part.strip(), reason="no terms"))
        for term in rhs.split("+"):
            tm = _TERM.match(term)
            if tm is None:
                raise ValueError(Errors.E252.format(
                    part=part.strip(), reason=f"bad term {term.strip()!r}; write e.g. '0.5 FP'"))
            cat = tm.group("cat")
            if cat in w:
                raise ValueError(Errors.E254.format(what=f"term {cat}", part=part.strip()))
            w[cat] = float(tm.group("w"))
        weights[err] = {cat: w.get(cat, 0) for cat in TRADITIONAL_TYPES}
    if not weights:
        raise ValueError(Errors.E252.format(part=formula, reason="no formula"))
    for cat in TRADITIONAL_TYPES:
        weights.setdefault(cat, {cat: 1})
    return weights


def format_weights(weights: Mapping[str, Mapping[str, float]]) -> str:
    """Write weights back as a formula (inverse of :func:`parse_weights`).

    weights (Mapping[str, Mapping[str, float]]): the weights.
    RETURNS (str): the formula, e.g. ``"LE = 0.5 FP + 0.5 FN, BE = 0.5 TP + 0.25 FP +
        0.25 FN"``; TP, FP and FN weighing themselves are left out (parsing adds them).
    """
    parts = []
    for err, w in weights.items():
        if err in TRADITIONAL_TYPES and {k: v for k, v in w.items() if v} == {err: 1}:
            continue
        terms = [f"{v:g} {cat}" for cat, v in w.items() if v]
        parts.append(f"{err} = {' + '.join(terms) if terms else '0 TP'}")
    return ", ".join(parts)


def _check_weights(weights: Mapping[str, Mapping[str, float]]) -> None:
    for err, w in weights.items():
        if err not in FAIR_TYPES:
            raise ValueError(Errors.E253.format(err=err, options=", ".join(FAIR_TYPES)))
        if not isinstance(w, Mapping) or any(
                k not in TRADITIONAL_TYPES or isinstance(v, bool) or not isinstance(v, (int, float))
                for k, v in w.items()):
            raise ValueError(Errors.E256.format(err=err, value=w))


#: The paper's weights (default of :func:`faireval`).
PAPER_WEIGHTS: Weights = parse_weights(PAPER_WEIGHTS_FORMULA)
#: The aggregate boundary-error weights (``BE = 0.5 TP + 0.25 FP + 0.25 FN``).
BE_WEIGHTS: Weights = parse_weights(BE_WEIGHTS_FORMULA)


def weighted_prf(counts: Mapping[str, float],
                 weights: Mapping[str, Mapping[str, float]]) -> Dict[str, float]:
    """P, R, F from counts and weights (Ortmann 2022): tp* = Σ_e W[e][TP]·n_e (likewise fp*,
    fn*), P = tp*/(tp*+fp*), R = tp*/(tp*+fn*); 0/0 -> 0.0. Error types without a weight
    are ignored.

    counts (Mapping[str, float]): error type -> count.
    weights (Mapping[str, Mapping[str, float]]): error type -> {"TP", "FP", "FN"} weights.
    RETURNS (Dict[str, float]): {"p", "r", "f"} as fractions.
    """
    tp = sum(w.get("TP", 0) * counts.get(err, 0) for err, w in weights.items())
    fp = sum(w.get("FP", 0) * counts.get(err, 0) for err, w in weights.items())
    fn = sum(w.get("FN", 0) * counts.get(err, 0) for err, w in weights.items())
    return prf(tp, fp, fn)


def _resolve_weights(weights: Union[str, Mapping[str, Mapping[str, float]], None]) -> Weights:
    if weights is None or (not isinstance(weights, str) and not weights):
        return {k: dict(v) for k, v in FAIR_WEIGHTS.items()}
    if isinstance(weights, str):
        return parse_weights(weights)
    _check_weights(weights)
    return {k: dict(v) for k, v in weights.items()}


def scores_from_counts(counts: FairEvalCounts,
                       weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
                       ) -> Dict[str, Any]:
    """Traditional, fair and weighted scores, overall and per label, from counts.

    counts (FairEvalCounts): the counts.
    weights (Union[str, Dict, None]): weights for "weighted" (a dict as returned by
        :func:`parse_weights` or a formula string); None or empty -> the fair weights
        (as the reference does without weights).
    RETURNS (Dict[str, Any]): {"traditional": {TP, FP, FN, p, r, f}, "fair": {TP, FP, FN,
        LE, BE, BES, BEL, BEO, LBE, p, r, f}, "weighted": {same keys as fair},
        "per_label": {method: {label: {...}}}, "confusion": {target: {system: n}}}.
    """
    w = _resolve_weights(weights)
    method_weights = {"traditional": TRADITIONAL_WEIGHTS, "fair": FAIR_WEIGHTS, "weighted": w}

    def block(method: str, ec: ErrorCounts) -> Dict[str, Any]:
        keys = TRADITIONAL_TYPES if method == "traditional" else FAIR_TYPES
        d: Dict[str, Any] = ec.to_dict(keys)
        d.update(weighted_prf(ec.to_dict(), method_weights[method]))
        return d

    result: Dict[str, Any] = {}
    for method in METHODS:
        ec = counts.traditional if method == "traditional" else counts.fair
        result[method] = block(method, ec)
    result["per_label"] = {
        method: {label: block(method, (counts.per_label_traditional if method == "traditional"
                                       else counts.per_label_fair)[label])
                 for label in counts.labels}
        for method in METHODS
    }
    result["confusion"] = counts.confusion_matrix()
    return result


def faireval(target: Sequence[Sequence[FSpan]], system: Sequence[Sequence[FSpan]],
             focus: str = "target",
             weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
             ) -> Dict[str, Any]:
    """FairEval scores of system spans against target spans (Ortmann 2022).

    target (Sequence[Sequence[FSpan]]): target spans per sentence.
    system (Sequence[Sequence[FSpan]]): system spans per sentence, aligned with target.
    focus (str): "target" (default) or "system": whose label LE and LBE count under.
    weights (Union[str, Dict, None]): weights of "weighted" (default: the paper's); None ->
        "weighted" equals "fair".
    RETURNS (Dict[str, Any]): see :func:`scores_from_counts`.
    """
    return scores_from_counts(count_spans(target, system, focus), weights)


# --- negation spans --------------------------------------------------------------------

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


def negation_spans(sentence: Sentence) -> List[FSpan]:
    """FairEval negation spans of a *SEM sentence (see :func:`record_spans`), punctuation
    by its own POS column (:func:`spacy_negation.starsem.is_punct_pos`).

    sentence (Sentence): the sentence.
    RETURNS (List[FSpan]): the spans in instance order, cue before scope.
    """
    return record_spans(sentence_record(sentence))


def negation_faireval(gold: Sequence[Sentence], system: Sequence[Sentence],
                      weights: Union[str, Mapping[str, Mapping[str, float]], None] = PAPER_WEIGHTS,
                      ) -> Dict[str, Any]:
    """FairEval on negation spans (:func:`record_spans`): focus target, paper weights by default.

    gold (Sequence[Sentence]): the gold sentences.
    system (Sequence[Sentence]): the system sentences, aligned with gold.
    weights (Union[str, Dict, None]): weights of "weighted".
    RETURNS (Dict[str, Any]): see :func:`scores_from_counts`.
    """
    return faireval([negation_spans(s) for s in gold], [negation_spans(s) for s in system],
                    "target", weights)
