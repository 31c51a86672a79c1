"""The negation data model: negation instances with cue, scope and event parts.

A *part* is one token, or a character range inside one token (the affix ``un`` of
``unhappy`` as a cue, the rest ``happy`` in the scope). A :class:`Negation` holds its
cue (one or more parts), scope and negated event (zero or more parts each); cues may be
discontinuous (``neither … nor``) and scopes usually are.

Storage: the instances live in the span group ``doc.spans["negations"]`` (one span per
contiguous run of whole tokens, labelled ``CUE``, ``SCOPE`` or ``EVENT``, ``Span.id`` =
instance number) with the character ranges of partial parts in the group's ``attrs``.
Span groups survive ``Doc.to_bytes``, ``DocBin`` (with and without user data), pickling
and multiprocessing, so the negations do too. ``doc._.negations`` reads and writes them.
"""
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc, Span, SpanGroup, Token

from .errors import Errors

SPANS_KEY = "negations"
ROLES = ("cue", "scope", "event")
LABELS = {"cue": "CUE", "scope": "SCOPE", "event": "EVENT"}
ROLE_OF_LABEL = {label: role for role, label in LABELS.items()}
STORAGE_VERSION = 1


@dataclass(frozen=True, order=True)
class Part:
    """One token, or a character range inside one token.

    i (int): the token index in the doc.
    start (int): the start character offset within the token's text.
    end (int): the end character offset within the token's text (exclusive).
    """

    i: int
    start: int
    end: int

    @classmethod
    def whole(cls, token: Token) -> "Part":
        """The whole token as a part."""
        return cls(token.i, 0, len(token.text))

    def token(self, doc: Doc) -> Token:
        return doc[self.i]

    def text(self, doc: Doc) -> str:
        return doc[self.i].text[self.start : self.end]

    def offsets(self, doc: Doc) -> Tuple[int, int]:
        """Character offsets in the doc's text."""
        idx = doc[self.i].idx
        return idx + self.start, idx + self.end

    def is_partial(self, doc: Doc) -> bool:
        """Whether the part covers less than its whole token (an affix or a remainder)."""
        return not (self.start == 0 and self.end == len(doc[self.i].text))


PartLike = Union[Part, Token, Span, Tuple[int, int, int]]


class Negation:
    """A negation instance of a doc: cue, scope and negated event.

    doc (Doc): the doc.
    cue (Iterable[PartLike]): the cue parts (at least one).
    scope (Iterable[PartLike]): the scope parts.
    event (Iterable[PartLike]): the negated event parts.
    id (int): the instance's number in its doc's storage (its column in *SEM files).
    """

    __slots__ = ("doc", "cue", "scope", "event", "id")

    def __init__(
        self,
        doc: Doc,
        cue: Iterable[PartLike],
        scope: Iterable[PartLike] = (),
        event: Iterable[PartLike] = (),
        id: int = 0,
    ) -> None:
        self.doc = doc
        self.id = id
        self.cue: Tuple[Part, ...] = _normalize(doc, cue, "cue", id)
        self.scope: Tuple[Part, ...] = _normalize(doc, scope, "scope", id)
        self.event: Tuple[Part, ...] = _normalize(doc, event, "event", id)
        if not self.cue:
            raise ValueError(Errors.E001.format(id=id))

    # --- per-role access ------------------------------------------------------------
    def parts(self, role: str) -> Tuple[Part, ...]:
        """The parts of a role ('cue', 'scope' or 'event')."""
        if role not in ROLES:
            raise ValueError(Errors.E004.format(role=role))
        return getattr(self, role)

    def tokens(self, role: str) -> List[Token]:
        """The tokens (whole or partly) in a role, in order."""
        return [self.doc[p.i] for p in self.parts(role)]

    def text(self, role: str) -> str:
        """The text of a role's parts, joined by single spaces (``"neither nor"``)."""
        return " ".join(p.text(self.doc) for p in self.parts(role))

    def offsets(self, role: str) -> List[Tuple[int, int]]:
        """Character offsets of a role's parts in the doc text; contiguous whole-token
        parts are merged into one range."""
        ranges: List[Tuple[int, int]] = []
        prev: Optional[Part] = None
        for p in self.parts(role):
            start, end = p.offsets(self.doc)
            if (prev is not None and ranges and p.i == prev.i + 1
                    and not p.is_partial(self.doc) and not prev.is_partial(self.doc)):
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))
            prev = p
        return ranges

    @property
    def cue_tokens(self) -> List[Token]:
        return self.tokens("cue")

    @property
    def scope_tokens(self) -> List[Token]:
        return self.tokens("scope")

    @property
    def event_tokens(self) -> List[Token]:
        return self.tokens("event")

    @property
    def cue_text(self) -> str:
        return self.text("cue")

    @property
    def scope_text(self) -> str:
        return self.text("scope")

    @property
    def event_text(self) -> str:
        return self.text("event")

    @property
    def cue_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("cue")

    @property
    def scope_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("scope")

    @property
    def event_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("event")

    # --- cue types ----------------------------------------------------------------------
    @property
    def is_affixal(self) -> bool:
        """A cue part covers only part of its token (``un`` of ``unhappy``)."""
        return any(p.is_partial(self.doc) for p in self.cue)

    @property
    def is_multiword(self) -> bool:
        """The cue spans two or more tokens (``by no means``, ``neither … nor``)."""
        return len(self.cue) > 1

    @property
    def is_discontinuous(self) -> bool:
        """The cue tokens are not adjacent (``neither … nor``)."""
        idx = [p.i for p in self.cue]
        return any(b - a > 1 for a, b in zip(idx, idx[1:]))

    @property
    def cue_type(self) -> str:
        """'affixal', 'multiword' or 'normal' (affixal wins over multiword)."""
        if self.is_affixal:
            return "affixal"
        if self.is_multiword:
            return "multiword"
        return "normal"

    @property
    def sent(self) -> Span:
        """The sentence of the first cue token (the whole doc without boundaries)."""
        token = self.doc[self.cue[0].i]
        if self.doc.has_annotation("SENT_START"):
            return token.sent
        return self.doc[:]

    # --- coverage -----------------------------------------------------------------------
    def in_scope(self, obj: Union[Token, Span]) -> bool:
        """Whether a token, or any token of a span, lies in this negation's scope."""
        idx = {p.i for p in self.scope}
        if isinstance(obj, Token):
            return obj.i in idx
        return any(i in idx for i in range(obj.start, obj.end))

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-friendly description: per role its text, token indices and offsets."""
        out: Dict[str, Any] = {"id": self.id, "cue_type": self.cue_type}
        for role in ROLES:
            out[role] = {
                "text": self.text(role),
                "tokens": [p.i for p in self.parts(role)],
                "offsets": [list(o) for o in self.offsets(role)],
                "parts": [[p.i, p.start, p.end] for p in self.parts(role)],
            }
        return out

    def _key(self) -> Tuple[Tuple[Part, ...], ...]:
        return (self.cue, self.scope, self.event)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Negation):
            return NotImplemented
        return self._key() == other._key() and self.doc.text == other.doc.text

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Negation(cue={self.cue_text!r}, scope={self.scope_text!r}, "
                f"event={self.event_text!r})")


def _normalize(doc: Doc, parts: Iterable[PartLike], role: str, id: int) -> Tuple[Part, ...]:
    by_token: Dict[int, Part] = {}
    for obj in parts:
        for part in _to_parts(doc, obj):
            old = by_token.get(part.i)
            if old is not None and old != part:
                raise ValueError(Errors.E008.format(id=id, role=role, i=part.i, a=old, b=part))
            by_token[part.i] = part
    return tuple(by_token[i] for i in sorted(by_token))


def _to_parts(doc: Doc, obj: PartLike) -> List[Part]:
    if isinstance(obj, Token):
        if obj.doc is not doc:
            raise ValueError(Errors.E007)
        return [Part.whole(obj)]
    if isinstance(obj, Span):
        if obj.doc is not doc:
            raise ValueError(Errors.E007)
        return [Part.whole(t) for t in obj]
    if isinstance(obj, Part) or (
        isinstance(obj, tuple) and len(obj) == 3 and all(isinstance(x, int) for x in obj)
    ):
        part = obj if isinstance(obj, Part) else Part(*obj)
        if not 0 <= part.i < len(doc):
            raise ValueError(Errors.E002.format(i=part.i, n=len(doc)))
        length = len(doc[part.i].text)
        if not 0 <= part.start < part.end <= length:
            raise ValueError(Errors.E003.format(i=part.i, text=doc[part.i].text,
                                                start=part.start, end=part.end, length=length))
        return [part]
    raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__))


# --- storage ------------------------------------------------------------------------------
def get_negations(doc: Doc) -> List[Negation]:
    """The negation instances of a doc in document order: by first cue token, ties in
    storage order.

    doc (Doc): the doc.
    RETURNS (List[Negation]): the instances.
    """
    negs = _read(doc)
    return sorted(negs, key=lambda n: (n.cue[0].i, n.id))


def set_negations(doc: Doc, negations: Iterable[Union[Negation, Dict[str, Iterable[PartLike]]]]) -> None:
    """Replace the negations of a doc. Instance numbers follow the given order.

    doc (Doc): the doc.
    negations (Iterable[Union[Negation, Dict]]): instances, or dicts with the keys
        'cue', 'scope', 'event' holding parts (tokens, spans, Parts or (i, start, end)).
    """
    spans: List[Span] = []
    partial: Dict[str, List[int]] = {}
    for k, neg in enumerate(negations):
        if isinstance(neg, dict):
            neg = Negation(doc, neg.get("cue", ()), neg.get("scope", ()), neg.get("event", ()), id=k)
        elif neg.doc is not doc:
            neg = Negation(doc, neg.cue, neg.scope, neg.event, id=k)
        for role in ROLES:
            label = LABELS[role]
            run: List[int] = []
            for p in neg.parts(role):
                if p.is_partial(doc):
                    partial[f"{k}:{label}:{p.i}"] = [p.start, p.end]
                    spans.append(Span(doc, p.i, p.i + 1, label=label, span_id=k))
                    continue
                if run and p.i != run[-1] + 1:
                    spans.append(Span(doc, run[0], run[-1] + 1, label=label, span_id=k))
                    run = []
                run.append(p.i)
            if run:
                spans.append(Span(doc, run[0], run[-1] + 1, label=label, span_id=k))
    attrs = {"version": STORAGE_VERSION, "partial": partial}
    doc.spans[SPANS_KEY] = SpanGroup(doc, name=SPANS_KEY, attrs=attrs, spans=spans)


def _read(doc: Doc) -> List[Negation]:
    group = doc.spans.get(SPANS_KEY)
    if group is None or len(group) == 0:
        return []
    partial = group.attrs.get("partial", {})
    roles: Dict[int, Dict[str, List[Part]]] = {}
    for span in group:
        role = ROLE_OF_LABEL.get(span.label_)
        if role is None:
            raise ValueError(Errors.E006.format(key=SPANS_KEY, label=span.label_))
        k = int(span.id)
        parts = roles.setdefault(k, {r: [] for r in ROLES})[role]
        if span.end - span.start == 1:
            rng = partial.get(f"{k}:{span.label_}:{span.start}")
            if rng is not None:
                parts.append(Part(span.start, int(rng[0]), int(rng[1])))
                continue
        parts.extend(Part.whole(t) for t in span)
    return [Negation(doc, r["cue"], r["scope"], r["event"], id=k) for k, r in sorted(roles.items())]


# --- extensions ---------------------------------------------------------------------------
def _doc_negations(doc: Doc) -> List[Negation]:
    return get_negations(doc)


def _scope_index(doc: Doc) -> Dict[int, List[Negation]]:
    index: Dict[int, List[Negation]] = {}
    for neg in get_negations(doc):
        for p in neg.scope:
            index.setdefault(p.i, []).append(neg)
    return index


def _token_negations(token: Token) -> List[Negation]:
    return _scope_index(token.doc).get(token.i, [])


def _token_negated(token: Token) -> bool:
    return bool(_token_negations(token))


def _token_is_neg_cue(token: Token) -> bool:
    return any(p.i == token.i for n in get_negations(token.doc) for p in n.cue)


def _span_negations(span: Span) -> List[Negation]:
    index = _scope_index(span.doc)
    seen: List[Negation] = []
    for i in range(span.start, span.end):
        for neg in index.get(i, []):
            if all(neg is not s for s in seen):
                seen.append(neg)
    return sorted(seen, key=lambda n: (n.cue[0].i, n.id))


def _span_negated(span: Span) -> bool:
    return bool(_span_negations(span))


_EXTENSIONS: Sequence[Tuple[Any, str, Dict[str, Any]]] = (
    (Doc, "negations", {"getter": _doc_negations, "setter": set_negations}),
    (Token, "negated", {"getter": _token_negated}),
    (Token, "negations", {"getter": _token_negations}),
    (Token, "is_neg_cue", {"getter": _token_is_neg_cue}),
    (Span, "negated", {"getter": _span_negated}),
    (Span, "negations", {"getter": _span_negations}),
)


def register_extensions() -> None:
    """Register ``doc._.negations``, ``token._.negated``, ``token._.negations``,
    ``token._.is_neg_cue``, ``span._.negated`` and ``span._.negations``. Idempotent; never
    overwrites an extension of the same name that another package registered.
    """
    for obj, name, kwargs in _EXTENSIONS:
        if obj.has_extension(name):
            getter = obj.get_extension(name)[2]
            ours = kwargs["getter"]
            if (getattr(getter, "__module__", None), getattr(getter, "__qualname__", None)) != (
                ours.__module__, ours.__qualname__
            ):
                raise ValueError(Errors.E009.format(obj=obj.__name__, name=name, getter=getter))
            continue
        obj.set_extension(name, **kwargs)
