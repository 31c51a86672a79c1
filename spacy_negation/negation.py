"""The negation data model: negation instances with cue, scope and event parts.

A *part* is one token, or a character range inside one token (the affix ``un`` of
``unhappy`` as a cue, the rest ``happy`` in the scope). A :class:`Negation` holds its
cue (one or more parts), scope and negated event (zero or more parts each); cues may be
discontinuous (``neither … nor``) and scopes usually are.

Storage: the instances live in the span group ``doc.spans["negations"]`` (one span per
contiguous run of whole tokens or per partial part, labelled ``CUE``, ``SCOPE`` or
``EVENT``); each span's instance and affix range are kept in its ``Span.kb_id``, counted
in characters from the span's start (see "storage" below). The parts are therefore
character ranges: they survive ``Doc.to_bytes``, ``DocBin`` (with and without user
data), pickling, multiprocessing, ``Doc.to_json``/``from_json`` and ``Doc.from_docs``,
and they follow retokenization (``merge_entities``, ``retokenize().merge``/``.split``).
``Span.as_doc`` copies no span group; a mirror in ``doc.user_data`` (msgpack-safe) lets
``span.as_doc(copy_user_data=True)`` keep the instances whose cue lies in the span (it is
read only when the doc has no ``negations`` span group: clear a doc's negations with
``doc._.negations = []``, not by deleting the group).
``doc._.negations`` reads and writes them; the token and span conveniences use an index
built once per doc and rebuilt when the storage changes.
"""
import bisect
import numbers
import re
import struct
import warnings
import weakref
from collections.abc import Iterable as IterableABC
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import srsly
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc, Span, SpanGroup, Token

from .errors import Errors, Warnings

SPANS_KEY = "negations"
ROLES = ("cue", "scope", "event")
LABELS = {"cue": "CUE", "scope": "SCOPE", "event": "EVENT"}
ROLE_OF_LABEL = {label: role for role, label in LABELS.items()}
STORAGE_VERSION = 2


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
        if any(isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in values):
            if any(isinstance(x, bool) for x in values):
                raise ValueError(Errors.E014.format(obj=obj))
            raise ValueError(Errors.E005.format(obj=obj, type=type(obj).__name__))
        part = Part(*(int(x) for x in values))
        if not 0 <= part.i < len(doc):
            raise ValueError(Errors.E002.format(i=part.i, n=len(doc)))
        length = len(doc[part.i].text)
        if not 0 <= part.start < part.end <= length:
            raise ValueError(Errors.E003.format(i=part.i, text=doc[part.i].text,
                                                start=part.start, end=part.end, length=length))
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


# --- storage ------------------------------------------------------------------------------
#
# Storage version 2: one span per contiguous run of whole-token parts of a role, or per
# partial part (an affix and its remainder), labelled CUE, SCOPE or EVENT. Everything the
# spans need besides their character range is in ``Span.kb_id`` (which survives every
# serialization, ``Doc.to_json`` included) and counted from the span's own start
# character, so it stays right when the offsets shift (``Doc.from_docs``) and when the
# tokens change (retokenization keeps the text and the spans' character offsets):
#   "k@a"      a run of whole tokens of instance number k;
#   "k@a:s-e"  a partial part: characters [s, e) from the span's start;
# where a is the instance's anchor (the start character of its first cue part) counted
# from the span's start. An instance is its number and its anchor: the instances of two
# docs joined by ``Doc.from_docs`` stay apart. Version 1 (``Span.id`` = instance number,
# affix ranges in the group's attrs keyed by token index) is still read.

_KB_ID = re.compile(r"^(\d+)@(-?\d+)(?::(\d+)-(\d+))?$")
#: user_data key name of the mirror that ``Span.as_doc(copy_user_data=True)`` carries.
MIRROR = "spacy_negation.parts"

def get_negations(doc: Doc) -> List[Negation]:
    """The negation instances of a doc in document order: by first cue token, ties in
    storage order. Reads the storage afresh (and refreshes the index of the token and
    span conveniences); ``doc._.negations`` answers from the index.

    doc (Doc): the doc.
    RETURNS (List[Negation]): the instances.
    """
    index = _Index(doc)
    _INDEX[doc] = index
    return index.negations(doc)


def set_negations(doc: Doc, negations: Iterable[Union[Negation, Dict[str, Iterable[PartLike]]]],
                  *, scope_outside_cue: bool = False) -> None:
    """Replace the negations of a doc. Instance numbers follow the given order.

    doc (Doc): the doc.
    negations (Iterable[Union[Negation, Dict]]): instances, or dicts with the keys
        'cue', 'scope', 'event' holding parts (tokens, spans, Parts or (i, start, end)).
        Bad input raises a coded ValueError and leaves the doc's negations as they were.
    scope_outside_cue (bool): also reject a scope part that overlaps its own cue (E015).
        The setter ``doc._.negations = ...`` checks it; the corpus readers do not, since
        gold corpora hold such annotation (CD-SCO training: ``in`` of ``infinite`` with
        the whole token in the scope) and are kept as they are.
    """
    if isinstance(negations, (str, bytes, dict, Negation)) or not isinstance(negations, IterableABC):
        raise ValueError(Errors.E010.format(obj=_short(negations), type=type(negations).__name__))
    checked: List[Negation] = []
    for k, neg in enumerate(negations):
        if isinstance(neg, dict):
            unknown = sorted(str(key) for key in neg if key not in ROLES)
            if unknown:
                raise ValueError(Errors.E013.format(id=k, keys=unknown))
            neg = Negation(doc, neg.get("cue", ()), neg.get("scope", ()), neg.get("event", ()), id=k)
        elif isinstance(neg, Negation):
            neg = Negation(doc, neg.cue, neg.scope, neg.event, id=k)
        else:
            raise ValueError(Errors.E011.format(id=k, obj=_short(neg), type=type(neg).__name__))
        if scope_outside_cue:
            _check_scope_outside_cue(doc, neg)
        checked.append(neg)
    spans: List[Span] = []
    mirror: Dict[Tuple[int, int], List[str]] = {}
    for neg in checked:
        k = neg.id
        anchor = doc[neg.cue[0].i].idx + neg.cue[0].start
        for role in ROLES:
            for start, end, part in _runs(doc, neg.parts(role)):
                start_char, end_char = doc[start].idx, doc[end - 1].idx + len(doc[end - 1].text)
                kb_id = f"{k}@{anchor - start_char}"
                if part is not None:
                    kb_id += f":{part.start}-{part.end}"
                spans.append(Span(doc, start, end, label=LABELS[role], kb_id=kb_id, span_id=k))
                mirror.setdefault((start_char, end_char), []).append(f"{LABELS[role]} {kb_id}")
    for key in [key for key in doc.user_data if _is_mirror_key(key)]:
        del doc.user_data[key]
    for (start_char, end_char), entries in mirror.items():
        doc.user_data[("._.", MIRROR, start_char, end_char)] = tuple(entries)
    doc.spans[SPANS_KEY] = SpanGroup(doc, name=SPANS_KEY, attrs={"version": STORAGE_VERSION},
                                     spans=spans)
    _INDEX.pop(doc, None)


def _runs(doc: Doc, parts: Sequence[Part]) -> Iterator[Tuple[int, int, Optional[Part]]]:
    """(start, end, partial part or None): the storage spans of a role's parts."""
    run: List[int] = []
    for p in parts:
        if p.is_partial(doc):
            yield p.i, p.i + 1, p
            continue
        if run and p.i != run[-1] + 1:
            yield run[0], run[-1] + 1, None
            run = []
        run.append(p.i)
    if run:
        yield run[0], run[-1] + 1, None


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_mirror_key(key: Any) -> bool:
    return isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[1] == MIRROR


def _stored_ranges(doc: Doc) -> List[Tuple[Any, str, int, int, bool]]:
    """The stored parts as (instance key, role, start char, end char, whole-token run),
    in storage order, from the span group, else from the user-data mirror (a doc made by
    ``Span.as_doc(copy_user_data=True)``). A cue part cut off by ``as_doc`` drops its
    instance; scope and event parts are clipped to the doc."""
    group = doc.spans.get(SPANS_KEY)
    out: List[Tuple[Any, str, int, int, bool]] = []
    if group is not None:
        legacy = group.attrs.get("partial", {})
        strings = doc.vocab.strings
        for _id, kb_hash, label_hash, tok_start, tok_end, start, end in _span_records(group):
            label = strings[label_hash] if label_hash in strings else str(label_hash)
            role = ROLE_OF_LABEL.get(label)
            if role is None:
                raise ValueError(Errors.E006.format(key=SPANS_KEY, label=label))
            match = _KB_ID.match(strings[kb_hash]) if kb_hash in strings else None
            if match is None:  # storage version 1
                k = int(_id)
                rng = legacy.get(f"{k}:{label}:{tok_start}") if tok_end - tok_start == 1 else None
                if rng is not None:
                    out.append(((k, None), role, start + int(rng[0]), start + int(rng[1]), False))
                else:
                    out.append(((k, None), role, start, end, True))
                continue
            k, anchor, s, e = match.groups()
            key = (int(k), start + int(anchor))
            if s is None:
                out.append((key, role, start, end, True))
            else:
                out.append((key, role, start + int(s), start + int(e), False))
        return out
    n_chars = len(doc.text)
    cut: Set[Any] = set()
    for key, entries in list(doc.user_data.items()):
        if not _is_mirror_key(key):
            continue
        start, end = int(key[2]), int(key[3])
        for entry in entries:
            label, kb_id = str(entry).split(" ", 1)
            match = _KB_ID.match(kb_id)
            role = ROLE_OF_LABEL.get(label)
            if match is None or role is None:
                raise ValueError(Errors.E016.format(entry=entry))
            k, anchor, s, e = match.groups()
            inst = (int(k), start + int(anchor))
            lo, hi = (start, end) if s is None else (start + int(s), start + int(e))
            if role == "cue" and (lo < 0 or hi > n_chars):
                cut.add(inst)
            lo, hi = max(lo, 0), min(hi, n_chars)
            if lo < hi:
                out.append((inst, role, lo, hi, s is None))
    return [item for item in out if item[0] not in cut]


def _span_records(group: SpanGroup) -> Iterator[Tuple[int, ...]]:
    """(id, kb_id, label, start, end, start_char, end_char) of each span of a group, read
    without making Span objects: after a retokenization the spans' token indices are
    stale (spaCy does not update span groups) and a Span past the doc's end raises."""
    for record in srsly.msgpack_loads(group.to_bytes())["spans"]:
        yield struct.unpack(">QQQllll", record)


def _read(doc: Doc) -> List[Tuple[Tuple[Part, ...], Tuple[Part, ...], Tuple[Part, ...]]]:
    """The stored instances as (cue, scope, event) parts on the doc's current tokens, in
    storage order. Parts are stored as character ranges, so they follow retokenization:
    a range that covers only part of a token (a merge joined it with other tokens)
    becomes a partial part with the same characters (W003 for a whole-token cue); two
    ranges of a role in one token become the range covering both (W004)."""
    array = doc.to_array([IDX, LENGTH]).tolist() if len(doc) else []
    starts = [row[0] for row in array]
    ends = [row[0] + row[1] for row in array]
    parts: Dict[Any, Dict[str, Dict[int, List[Tuple[int, int, bool]]]]] = {}
    for inst, role, lo, hi, whole in _stored_ranges(doc):
        if inst not in parts:
            parts[inst] = {r: {} for r in ROLES}
        by_token = parts[inst][role]
        i = max(bisect.bisect_right(starts, lo) - 1, 0)
        while i < len(starts) and starts[i] < hi:
            a, b = max(lo, starts[i]), min(hi, ends[i])
            if a < b:
                by_token.setdefault(i, []).append((a - starts[i], b - starts[i], whole))
            i += 1
    out = []
    for k, (inst, roles) in enumerate(parts.items()):
        result = []
        for role in ROLES:
            role_parts = []
            for i, ranges in sorted(roles[role].items()):
                ranges.sort()
                start, end = ranges[0][0], max(r[1] for r in ranges)
                if len(ranges) > 1 and any(doc[i].text[ranges[j][1]:ranges[j + 1][0]].strip()
                                           for j in range(len(ranges) - 1)):
                    warnings.warn(Warnings.W004.format(id=k, role=role, text=doc[i].text,
                                                       part=doc[i].text[start:end]))
                if (role == "cue" and (start, end) != (0, ends[i] - starts[i])
                        and all(r[2] for r in ranges)):
                    warnings.warn(Warnings.W003.format(id=k, cue=doc[i].text[start:end], text=doc[i].text))
                role_parts.append(Part(i, start, end))
            result.append(tuple(role_parts))
        if not result[0]:
            raise ValueError(Errors.E001.format(id=k))
        out.append((result[0], result[1], result[2]))
    return out


# --- the index of the extensions ------------------------------------------------------------
class _Index:
    """The negations of a doc and which tokens they cover, with the state of the storage
    it was built from. It is rebuilt when the setter runs, when the span group is
    replaced or changes length (append, extend, removal), or when the doc's token count
    changes (retokenization). Not detected: replacing a span in place
    (``group[i] = span``) or a retokenization that keeps the token count (a merge and a
    split in one block); ``get_negations(doc)`` rebuilds it."""

    __slots__ = ("group", "n_spans", "n_tokens", "n_user_data", "parts", "order", "scope", "cues")

    def __init__(self, doc: Doc) -> None:
        self.group = doc.spans.get(SPANS_KEY)
        self.n_spans = -1 if self.group is None else len(self.group)
        self.n_tokens = len(doc)
        self.n_user_data = len(doc.user_data) if self.group is None else -1
        self.parts = _read(doc)
        self.order = sorted(range(len(self.parts)), key=lambda k: (self.parts[k][0][0].i, k))
        self.scope: Dict[int, List[int]] = {}
        self.cues: Set[int] = set()
        for k in self.order:
            cue, scope, _ = self.parts[k]
            for p in scope:
                self.scope.setdefault(p.i, []).append(k)
            self.cues.update(p.i for p in cue)

    def is_current(self, doc: Doc) -> bool:
        group = doc.spans.get(SPANS_KEY)
        if group is not self.group or len(doc) != self.n_tokens:
            return False
        if group is None:
            return len(doc.user_data) == self.n_user_data
        return len(group) == self.n_spans

    def negations(self, doc: Doc) -> List[Negation]:
        return [self.negation(doc, k) for k in self.order]

    def negation(self, doc: Doc, k: int) -> Negation:
        cue, scope, event = self.parts[k]
        return Negation._trusted(doc, cue, scope, event, k)


#: The index of each doc (weak keys: the index never keeps a doc alive, and nothing of
#: it lives in the doc's user_data, which must stay serializable).
_INDEX: "weakref.WeakKeyDictionary[Doc, _Index]" = weakref.WeakKeyDictionary()


def _index(doc: Doc) -> _Index:
    index = _INDEX.get(doc)
    if index is None or not index.is_current(doc):
        index = _Index(doc)
        _INDEX[doc] = index
    return index


# --- extensions ---------------------------------------------------------------------------
def _doc_negations(doc: Doc) -> List[Negation]:
    return _index(doc).negations(doc)


def _doc_set_negations(doc: Doc, negations: Any) -> None:
    set_negations(doc, negations, scope_outside_cue=True)


def _token_negations(token: Token) -> List[Negation]:
    index = _index(token.doc)
    return [index.negation(token.doc, k) for k in index.scope.get(token.i, ())]


def _token_negated(token: Token) -> bool:
    return token.i in _index(token.doc).scope


def _token_is_neg_cue(token: Token) -> bool:
    return token.i in _index(token.doc).cues


def _span_ids(span: Span) -> List[int]:
    index = _index(span.doc)
    seen: Set[int] = set()
    for i in range(span.start, span.end):
        seen.update(index.scope.get(i, ()))
    return sorted(seen, key=lambda k: (index.parts[k][0][0].i, k))


def _span_negations(span: Span) -> List[Negation]:
    index = _index(span.doc)
    return [index.negation(span.doc, k) for k in _span_ids(span)]


def _span_negated(span: Span) -> bool:
    index = _index(span.doc)
    return any(i in index.scope for i in range(span.start, span.end))


_EXTENSIONS: Sequence[Tuple[Any, str, Dict[str, Any]]] = (
    (Doc, "negations", {"getter": _doc_negations, "setter": _doc_set_negations}),
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
