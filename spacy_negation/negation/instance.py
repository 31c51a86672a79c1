"""The instances of a doc, each role a tuple of parts
(:class:`~spacy_negation.alignment.Part`), checked and normalized on construction: a
:class:`Negation` (cue, scope and negated event) and a :class:`Speculation` (a hedge cue and
its scope; neither BioScope nor SFU Review annotates an event of speculation, so it has
none). Both share :class:`Instance`: the parts per role, their tokens, texts and offsets, the
cue types and the coverage."""
import numbers
from collections.abc import Iterable as IterableABC
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from spacy.tokens import Doc, Span, Token

from ..alignment import Part
from ..errors import Errors

ROLES = ("cue", "scope", "event")
#: The roles of a speculation: no event.
SPECULATION_ROLES = ("cue", "scope")

PartLike = Union[Part, Token, Span, Tuple[int, int, int]]
#: The parts of an instance, one tuple per role of its kind.
PartsOfInstance = Tuple[Tuple[Part, ...], ...]


def kind_fields(kind: str, roles: Tuple[str, ...] = ()) -> Dict[str, str]:
    """The fields that name a kind in the data model's messages: ``kind`` ('negation'),
    ``Kind`` ('Negation') and, given the roles, ``roles`` ("'cue', 'scope', 'event'") and
    ``keys`` ("'cue', 'scope' and 'event'")."""
    fields = {"kind": kind, "Kind": kind.capitalize()}
    if roles:
        quoted = [repr(role) for role in roles]
        fields["roles"] = ", ".join(quoted)
        fields["keys"] = " and ".join([", ".join(quoted[:-1]), quoted[-1]]) if len(quoted) > 1 else quoted[0]
    return fields


class Instance:
    """What a negation and a speculation share: the doc, the instance's number in its doc's
    storage, and one tuple of parts per role of the kind (``ROLES``), with the cue holding at
    least one part. Subclasses: :class:`Negation`, :class:`Speculation`."""

    __slots__ = ("doc", "id")
    #: The kind's name, as the messages and the storage name it.
    KIND = "instance"
    #: The roles of the kind, the cue first.
    ROLES: Tuple[str, ...] = SPECULATION_ROLES

    doc: Doc
    id: int
    cue: Tuple[Part, ...]
    scope: Tuple[Part, ...]

    def _set_parts(self, doc: Doc, parts: Tuple[Iterable[PartLike], ...], id: int) -> None:
        """Check, normalize and set the parts of each role (in the order of ``ROLES``)."""
        self.doc = doc
        self.id = id
        for role, role_parts in zip(self.ROLES, parts):
            setattr(self, role, _normalize(doc, role_parts, role, id, self.KIND))
        if not self.cue:
            raise ValueError(Errors.E001.format(id=id, **self.fields()))

    @classmethod
    def _from_parts(cls, doc: Doc, parts: PartsOfInstance, id: int) -> Any:
        """An instance from parts already checked (one tuple per role of ``ROLES``)."""
        inst = cls.__new__(cls)
        inst.doc, inst.id = doc, id
        for role, role_parts in zip(cls.ROLES, parts):
            setattr(inst, role, role_parts)
        return inst

    @classmethod
    def fields(cls) -> Dict[str, str]:
        """The fields that name the kind in messages (:func:`kind_fields`)."""
        return kind_fields(cls.KIND, cls.ROLES)

    def all_parts(self) -> PartsOfInstance:
        """The parts of every role, in the order of ``ROLES``."""
        return tuple(getattr(self, role) for role in self.ROLES)

    # --- per-role access ------------------------------------------------------------
    def parts(self, role: str) -> Tuple[Part, ...]:
        """The parts of a role (one of ``ROLES``: 'cue', 'scope' and, for a negation,
        'event')."""
        if role not in self.ROLES:
            raise ValueError(Errors.E004.format(role=role, **self.fields()))
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
    def cue_text(self) -> str:
        return self.text("cue")

    @property
    def scope_text(self) -> str:
        return self.text("scope")

    @property
    def cue_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("cue")

    @property
    def scope_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("scope")

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
        """Whether a token, or any token of a span, lies in this instance's scope."""
        idx = {p.i for p in self.scope}
        if isinstance(obj, Token):
            return obj.i in idx
        return any(i in idx for i in range(obj.start, obj.end))

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-friendly description: per role its text, token indices and offsets."""
        out: Dict[str, Any] = {"id": self.id, "cue_type": self.cue_type}
        for role in self.ROLES:
            out[role] = {
                "text": self.text(role),
                "tokens": [p.i for p in self.parts(role)],
                "offsets": [list(o) for o in self.offsets(role)],
                "parts": [[p.i, p.start, p.end] for p in self.parts(role)],
            }
        return out

    def _key(self) -> PartsOfInstance:
        return self.all_parts()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instance) or other.KIND != self.KIND:
            return NotImplemented
        return self._key() == other._key() and self.doc.text == other.doc.text

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        roles = ", ".join(f"{role}={self.text(role)!r}" for role in self.ROLES)
        return f"{type(self).__name__}({roles})"


class Negation(Instance):
    """A negation instance of a doc: cue, scope and negated event.

    doc (Doc): the doc.
    cue (Iterable[PartLike]): the cue parts (at least one).
    scope (Iterable[PartLike]): the scope parts.
    event (Iterable[PartLike]): the negated event parts.
    id (int): the instance's number in its doc's storage (its column in *SEM files).
    """

    __slots__ = ("cue", "scope", "event")
    KIND = "negation"
    ROLES = ROLES

    event: Tuple[Part, ...]

    def __init__(
        self,
        doc: Doc,
        cue: Iterable[PartLike],
        scope: Iterable[PartLike] = (),
        event: Iterable[PartLike] = (),
        id: int = 0,
    ) -> None:
        self._set_parts(doc, (cue, scope, event), id)

    @classmethod
    def _trusted(cls, doc: Doc, cue: Tuple[Part, ...], scope: Tuple[Part, ...],
                 event: Tuple[Part, ...], id: int) -> "Negation":
        """An instance from parts already checked (the extension index)."""
        neg: Negation = cls._from_parts(doc, (cue, scope, event), id)
        return neg

    @property
    def event_tokens(self) -> List[Token]:
        return self.tokens("event")

    @property
    def event_text(self) -> str:
        return self.text("event")

    @property
    def event_offsets(self) -> List[Tuple[int, int]]:
        return self.offsets("event")


class Speculation(Instance):
    """A speculation (hedge) instance of a doc: its cue (``may``, ``suggest``, ``either …
    or``) and scope, with the parts, offsets and cue types of a :class:`Negation`, and no
    event (neither BioScope nor SFU Review annotates one).

    doc (Doc): the doc.
    cue (Iterable[PartLike]): the cue parts (at least one).
    scope (Iterable[PartLike]): the scope parts.
    event (Iterable[PartLike]): empty (the parameter keeps the positions of
        :class:`Negation`'s); an event part is an error (E018).
    id (int): the instance's number in its doc's storage.
    """

    __slots__ = ("cue", "scope")
    KIND = "speculation"
    ROLES = SPECULATION_ROLES

    def __init__(self, doc: Doc, cue: Iterable[PartLike], scope: Iterable[PartLike] = (),
                 event: Iterable[PartLike] = (), id: int = 0) -> None:
        if _normalize(doc, event, "event", id, self.KIND):
            raise ValueError(Errors.E018.format(id=id))
        self._set_parts(doc, (cue, scope), id)

    @classmethod
    def _trusted(cls, doc: Doc, cue: Tuple[Part, ...], scope: Tuple[Part, ...], id: int) -> "Speculation":
        """An instance from parts already checked (the extension index)."""
        spec: Speculation = cls._from_parts(doc, (cue, scope), id)
        return spec


def _normalize(doc: Doc, parts: Iterable[PartLike], role: str, id: int, kind: str) -> Tuple[Part, ...]:
    if isinstance(parts, (str, bytes, dict, Token)) or not isinstance(parts, IterableABC):
        raise ValueError(Errors.E012.format(id=id, role=role, obj=parts, type=type(parts).__name__,
                                            **kind_fields(kind)))
    by_token: Dict[int, Part] = {}
    for obj in parts:
        for part in _to_parts(doc, obj, kind):
            old = by_token.get(part.i)
            if old is not None and old != part:
                raise ValueError(Errors.E008.format(id=id, role=role, i=part.i, a=old, b=part,
                                                    **kind_fields(kind)))
            by_token[part.i] = part
    return tuple(by_token[i] for i in sorted(by_token))


def _to_parts(doc: Doc, obj: PartLike, kind: str) -> List[Part]:
    if isinstance(obj, Token):
        if obj.doc is not doc:
            raise ValueError(Errors.E007.format(**kind_fields(kind)))
        return [Part.whole(obj)]
    if isinstance(obj, Span):
        if obj.doc is not doc:
            raise ValueError(Errors.E007.format(**kind_fields(kind)))
        return [Part.whole(t) for t in obj]
    if isinstance(obj, Part) or (isinstance(obj, tuple) and len(obj) == 3):
        values = (obj.i, obj.start, obj.end) if isinstance(obj, Part) else obj
        if type(obj) is Part and all(type(x) is int for x in values):
            part = obj  # the common case: no checks of numeric types
        else:
            if any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in values):
                if any(isinstance(x, bool) for x in values):
                    raise ValueError(Errors.E014.format(obj=obj, kind=kind))
                raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__, kind=kind))
            part = Part(*(int(x) for x in values))
        if not 0 <= part.i < len(doc):
            raise ValueError(Errors.E002.format(i=part.i, n=len(doc), kind=kind))
        text = doc[part.i].text
        if not 0 <= part.start < part.end <= len(text):
            raise ValueError(Errors.E003.format(i=part.i, text=text, start=part.start, end=part.end,
                                                length=len(text), kind=kind))
        return [part]
    raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__, kind=kind))


def _check_scope_outside_cue(doc: Doc, inst: Instance) -> None:
    """The scope of an instance never overlaps its own cue (Morante & Daelemans 2012: the
    cue is not part of its scope; an affixal cue and its scope share a token, not
    characters)."""
    cue = {p.i: p for p in inst.cue}
    for p in inst.scope:
        c = cue.get(p.i)
        if c is not None and p.start < c.end and c.start < p.end:
            raise ValueError(Errors.E015.format(id=inst.id, i=p.i, text=doc[p.i].text, scope=(p.start, p.end),
                                                cue=(c.start, c.end), **inst.fields()))
