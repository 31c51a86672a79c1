"""Storing negation instances in the span group ``doc.spans["negations"]``, reading
them back onto the doc's current tokens, and the index the extensions answer from.

Storage version 2: one span per contiguous run of whole-token parts of a role, or per
partial part (an affix and its remainder), labelled CUE, SCOPE or EVENT. Everything the
spans need besides their character range is in ``Span.kb_id`` (which survives every
serialization, ``Doc.to_json`` included) and counted from the span's own start
character, so it stays right when the offsets shift (``Doc.from_docs``) and when the
tokens change (retokenization keeps the text and the spans' character offsets; spaCy
leaves the spans' token indices as they were, and the first read after it (any of the
extensions, :func:`get_negations`) stores the spans again on the current tokens, so
``doc.spans["negations"]`` points at the right tokens again):

* ``"k@a"``: a run of whole tokens of instance number k;
* ``"k@a:s-e"``: a partial part: characters [s, e) from the span's start;

where a is the instance's anchor (the start character of its first cue part) counted
from the span's start. An instance is its number and its anchor: the instances of two
docs joined by ``Doc.from_docs`` stay apart. A group of another storage version is an
error (E017).
"""
import re
import struct
import warnings
import weakref
from collections.abc import Iterable as IterableABC
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import srsly
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc, Span, SpanGroup

from ..alignment import Part, TokenOffsets
from ..errors import Errors, Warnings
from .instance import ROLES, Negation, PartLike, _check_scope_outside_cue

SPANS_KEY = "negations"
LABELS = {"cue": "CUE", "scope": "SCOPE", "event": "EVENT"}
ROLE_OF_LABEL = {label: role for role, label in LABELS.items()}
STORAGE_VERSION = 2

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
        The setter ``doc._.negations = ...`` checks it; the *SEM reader refuses such
        cells itself when it reads a corpus (E958; CD-SCO training's whole ``infinite`` in
        the scope of its affix ``in`` is repaired to ``finite``, W951).
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
    store_trusted(doc, checked)


def store_trusted(doc: Doc, negations: Sequence[Negation]) -> None:
    """Replace the negations of a doc with instances already checked against it (their
    parts in range of its tokens, numbered in order): what :func:`set_negations` stores
    after its checks, for callers whose parts are valid by construction (the
    ``negation`` component copying the negations of a sentence doc onto the same
    tokens of its host doc).

    doc (Doc): the doc.
    negations (Sequence[Negation]): the instances, ``id`` = position.
    """
    spans: List[Span] = []
    mirror: Dict[Tuple[int, int], List[str]] = {}
    for neg in negations:
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
    user_data: Dict[Any, Any] = doc.user_data  # keys are tuples, as spaCy's extensions use
    for key in [key for key in user_data if _is_mirror_key(key)]:
        del user_data[key]
    for (start_char, end_char), entries in mirror.items():
        user_data[("._.", MIRROR, start_char, end_char)] = tuple(entries)
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


def _stored_ranges(doc: Doc, offsets: TokenOffsets) -> Tuple[List[Tuple[Any, str, int, int, bool]], bool]:
    """The stored parts as (instance key, role, start char, end char, whole-token run),
    in storage order, from the span group, else from the user-data mirror (a doc made by
    ``Span.as_doc(copy_user_data=True)``), and whether the span group's token indices are
    stale (a retokenization moved the tokens under the spans' characters). A cue part cut
    off by ``as_doc`` drops its instance; scope and event parts are clipped to the doc."""
    group = doc.spans.get(SPANS_KEY)
    out: List[Tuple[Any, str, int, int, bool]] = []
    if group is not None:
        strings: Any = doc.vocab.strings  # looked up by hash: the stubs type str keys only
        records = _span_records(group)
        stale = any(not 0 <= tok_start < tok_end <= len(offsets.starts)
                    or offsets.starts[tok_start] != start or offsets.ends[tok_end - 1] != end
                    for _, _, _, tok_start, tok_end, start, end in records)
        for _id, kb_hash, label_hash, tok_start, tok_end, start, end in records:
            label = strings[label_hash] if label_hash in strings else str(label_hash)
            role = ROLE_OF_LABEL.get(label)
            if role is None:
                raise ValueError(Errors.E006.format(key=SPANS_KEY, label=label))
            match = _KB_ID.match(strings[kb_hash]) if kb_hash in strings else None
            if match is None:
                kb_id = strings[kb_hash] if kb_hash in strings else str(kb_hash)
                raise ValueError(Errors.E017.format(key=SPANS_KEY, kb_id=kb_id, version=group.attrs.get("version"),
                                                    current=STORAGE_VERSION))
            num, anchor, s, e = match.groups()
            inst = (int(num), start + int(anchor))
            if s is None:
                out.append((inst, role, start, end, True))
            else:
                out.append((inst, role, start + int(s), start + int(e), False))
        return out, stale
    n_chars = len(doc.text)
    cut: Set[Any] = set()
    mirrored: Dict[Any, Any] = doc.user_data
    for key, entries in list(mirrored.items()):
        if not _is_mirror_key(key):
            continue
        start, end = int(key[2]), int(key[3])
        for entry in entries:
            label, kb_id = str(entry).split(" ", 1)
            match = _KB_ID.match(kb_id)
            role = ROLE_OF_LABEL.get(label)
            if match is None or role is None:
                raise ValueError(Errors.E016.format(entry=entry))
            num, anchor, s, e = match.groups()
            inst = (int(num), start + int(anchor))
            lo, hi = (start, end) if s is None else (start + int(s), start + int(e))
            if role == "cue" and (lo < 0 or hi > n_chars):
                cut.add(inst)
            lo, hi = max(lo, 0), min(hi, n_chars)
            if lo < hi:
                out.append((inst, role, lo, hi, s is None))
    return [item for item in out if item[0] not in cut], False


def _span_records(group: SpanGroup) -> List[Tuple[int, ...]]:
    """(id, kb_id, label, start, end, start_char, end_char) of each span of a group, as
    stored. After a retokenization the spans' token indices are stale (spaCy does not
    update span groups); Span objects are made only while none lies past the doc's end
    (``Span.cinit`` raises then), else the records are read from the serialized group
    (the same values; slower: srsly scans the entry points on every call)."""
    try:
        return [(span.id, span.kb_id, span.label, span.start, span.end, span.start_char, span.end_char)
                for span in group]
    except IndexError:
        return [struct.unpack(">QQQllll", record) for record in srsly.msgpack_loads(group.to_bytes())["spans"]]


PartsOfInstance = Tuple[Tuple[Part, ...], Tuple[Part, ...], Tuple[Part, ...]]


def _read(doc: Doc) -> Tuple[List[PartsOfInstance], bool]:
    """The stored instances as (cue, scope, event) parts on the doc's current tokens, in
    storage order, and whether the span group is stale (see :func:`_stored_ranges`).
    Parts are stored as character ranges, so they follow retokenization: a range that
    covers only part of a token (a merge joined it with other tokens) becomes a partial
    part with the same characters (W003 for a whole-token cue); two ranges of a role in
    one token become the range covering both (W004)."""
    group = doc.spans.get(SPANS_KEY)
    if group is not None and not len(group):
        return [], False
    array = doc.to_array([IDX, LENGTH]).tolist() if len(doc) else []
    offsets = TokenOffsets([row[0] for row in array], [row[0] + row[1] for row in array])
    stored, stale = _stored_ranges(doc, offsets)
    if not stored:
        return [], stale
    parts: Dict[Any, Dict[str, Dict[int, List[Tuple[int, int, bool]]]]] = {}
    for inst, role, lo, hi, whole in stored:
        if inst not in parts:
            parts[inst] = {r: {} for r in ROLES}
        by_token = parts[inst][role]
        for i, a, b in offsets.pieces(lo, hi):
            by_token.setdefault(i, []).append((a, b, whole))
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
                if (role == "cue" and (start, end) != (0, offsets.ends[i] - offsets.starts[i])
                        and all(r[2] for r in ranges)):
                    warnings.warn(Warnings.W003.format(id=k, cue=doc[i].text[start:end], text=doc[i].text))
                role_parts.append(Part(i, start, end))
            result.append(tuple(role_parts))
        if not result[0]:
            raise ValueError(Errors.E001.format(id=k))
        out.append((result[0], result[1], result[2]))
    return out, stale


def _store_again(doc: Doc, parts: Sequence[PartsOfInstance]) -> None:
    """Store the instances read from a stale span group again, on the current tokens
    (instance numbers and order kept)."""
    set_negations(doc, [Negation._trusted(doc, cue, scope, event, k)
                        for k, (cue, scope, event) in enumerate(parts)])


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
        self.parts, stale = _read(doc)
        if stale:  # a retokenization: the span group follows the tokens again
            _store_again(doc, self.parts)
        self.group = doc.spans.get(SPANS_KEY)
        self.n_spans = -1 if self.group is None else len(self.group)
        self.n_tokens = len(doc)
        self.n_user_data = len(doc.user_data) if self.group is None else -1
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


def index_of(doc: Doc) -> _Index:
    """The current index of a doc (built, or rebuilt when the storage changed)."""
    index = _INDEX.get(doc)
    if index is None or not index.is_current(doc):
        index = _Index(doc)
        _INDEX[doc] = index
    return index

