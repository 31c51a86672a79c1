"""A negation instance of a doc: cue, scope and negated event, each a tuple of parts
(:class:`~spacy_negation.alignment.Part`), checked and normalized on construction."""
import numbers
from collections.abc import Iterable as IterableABC
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from spacy.tokens import Doc, Span, Token

from ..alignment import Part
from ..errors import Errors

ROLES = ("cue", "scope", "event")

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

    @classmethod
    def _trusted(cls, doc: Doc, cue: Tuple[Part, ...], scope: Tuple[Part, ...],
                 event: Tuple[Part, ...], id: int) -> "Negation":
        """An instance from parts already checked (the extension index)."""
        neg = cls.__new__(cls)
        neg.doc, neg.id, neg.cue, neg.scope, neg.event = doc, id, cue, scope, event
        return neg

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
    if isinstance(parts, (str, bytes, dict, Token)) or not isinstance(parts, IterableABC):
        raise ValueError(Errors.E012.format(id=id, role=role, obj=parts, type=type(parts).__name__))
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
    if isinstance(obj, Part) or (isinstance(obj, tuple) and len(obj) == 3):
        values = (obj.i, obj.start, obj.end) if isinstance(obj, Part) else obj
        if type(obj) is Part and all(type(x) is int for x in values):
            part = obj  # the common case: no checks of numeric types
        else:
            if any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in values):
                if any(isinstance(x, bool) for x in values):
                    raise ValueError(Errors.E014.format(obj=obj))
                raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__))
            part = Part(*(int(x) for x in values))
        if not 0 <= part.i < len(doc):
            raise ValueError(Errors.E002.format(i=part.i, n=len(doc)))
        text = doc[part.i].text
        if not 0 <= part.start < part.end <= len(text):
            raise ValueError(Errors.E003.format(i=part.i, text=text, start=part.start, end=part.end,
                                                length=len(text)))
        return [part]
    raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__))


def _check_scope_outside_cue(doc: Doc, neg: Negation) -> None:
    """The scope of a negation never overlaps its own cue (Morante & Daelemans 2012: the
    cue is not part of its scope; an affixal cue and its scope share a token, not
    characters)."""
    cue = {p.i: p for p in neg.cue}
    for p in neg.scope:
        c = cue.get(p.i)
        if c is not None and p.start < c.end and c.start < p.end:
            raise ValueError(Errors.E015.format(id=neg.id, i=p.i, text=doc[p.i].text,
                                                scope=(p.start, p.end), cue=(c.start, c.end)))

