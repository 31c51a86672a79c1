"""Storing the instances of one kind (negations, speculations) in their span group
(``doc.spans["negations"]``, ``doc.spans["speculations"]``) and reading them back onto the
doc's current tokens; the index the extensions answer from is in :mod:`.index`.

A :class:`Kind` names what the storage keeps apart per kind: the instance class (and with
it the roles: a negation has cue, scope and event, a speculation cue and scope), the span
group's key and the user-data key of the mirror. Everything else is one implementation.

Storage version 2: one span per contiguous run of whole-token parts of a role, or per
partial part (an affix and its remainder), labelled CUE, SCOPE or EVENT (a speculation
has no EVENT spans). Everything the spans need besides their character range is in
``Span.kb_id`` (which survives every serialization, ``Doc.to_json`` included) and counted
from the span's own start character, so it stays right when the offsets shift
(``Doc.from_docs``) and when the tokens change (retokenization keeps the text and the
spans' character offsets; spaCy leaves the spans' token indices as they were, and the
first read after it (any of the extensions, :func:`~.index.get_negations`) stores the
spans again on the current tokens, so the span group points at the right tokens again):

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
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Type, Union

import srsly
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc, Span, SpanGroup

from ..alignment import Part, TokenOffsets
from ..errors import Errors, Warnings
from .instance import Instance, Negation, PartLike, PartsOfInstance, Speculation, _check_scope_outside_cue

SPANS_KEY = "negations"
#: The span group of the speculations.
SPECULATIONS_KEY = "speculations"
LABELS = {"cue": "CUE", "scope": "SCOPE", "event": "EVENT"}
ROLE_OF_LABEL = {label: role for role, label in LABELS.items()}
STORAGE_VERSION = 2

_KB_ID = re.compile(r"^(\d+)@(-?\d+)(?::(\d+)-(\d+))?$")
#: user_data key name of the mirror that ``Span.as_doc(copy_user_data=True)`` carries.
MIRROR = "spacy_negation.parts"
#: The same for the speculations.
SPECULATION_MIRROR = "spacy_negation.speculation_parts"


@dataclass(frozen=True)
class Kind:
    """One kind of instance and where a doc stores it.

    cls (Type[Instance]): the instance class (:class:`Negation`, :class:`Speculation`).
    key (str): the span group's key, also the name of the doc extension.
    mirror (str): the user-data key name of the mirror (``Span.as_doc``).
    """

    cls: Type[Instance]
    key: str
    mirror: str

    @property
    def name(self) -> str:
        """'negation' or 'speculation'."""
        return self.cls.KIND

    @property
    def roles(self) -> Tuple[str, ...]:
        return self.cls.ROLES

    def role_of_label(self, label: str) -> Optional[str]:
        """The role a span label stands for in this kind's group (None: none of its roles)."""
        role = ROLE_OF_LABEL.get(label)
        return role if role in self.roles else None

    def fields(self) -> Dict[str, str]:
        """The fields of the messages that name the kind."""
        return {**self.cls.fields(), "labels": ", ".join(LABELS[role] for role in self.roles)}


NEGATIONS = Kind(Negation, SPANS_KEY, MIRROR)
SPECULATIONS = Kind(Speculation, SPECULATIONS_KEY, SPECULATION_MIRROR)
#: The kinds, by name.
KINDS: Dict[str, Kind] = {kind.name: kind for kind in (NEGATIONS, SPECULATIONS)}


def set_instances(doc: Doc, kind: Kind, instances: Iterable[Union[Instance, Dict[str, Iterable[PartLike]]]],
                  *, scope_outside_cue: bool = False) -> None:
    """Replace the instances of one kind of a doc (:func:`set_negations`,
    :func:`set_speculations`). Instance numbers follow the given order.

    doc (Doc): the doc.
    kind (Kind): the kind.
    instances (Iterable[Union[Instance, Dict]]): instances of the kind's class, or dicts with
        the kind's roles as keys holding parts (tokens, spans, Parts or (i, start, end)).
        Bad input raises a coded ValueError and leaves the doc's instances as they were.
    scope_outside_cue (bool): also reject a scope part that overlaps its own cue (E015).
    """
    fields = kind.fields()
    if isinstance(instances, (str, bytes, dict, Instance)) or not isinstance(instances, IterableABC):
        raise ValueError(Errors.E010.format(obj=_short(instances), type=type(instances).__name__, key=kind.key,
                                            **fields))
    cls = kind.cls
    checked: List[Instance] = []
    for k, inst in enumerate(instances):
        if isinstance(inst, dict):
            unknown = sorted(str(key) for key in inst if key not in cls.ROLES)
            if unknown == ["event"] and "event" not in cls.ROLES:
                unknown = [] if not _has_parts(inst["event"]) else unknown
                if unknown:
                    raise ValueError(Errors.E018.format(id=k))
            if unknown:
                raise ValueError(Errors.E013.format(id=k, unknown=unknown, **fields))
            inst = cls(doc, *(inst.get(role, ()) for role in cls.ROLES), id=k)  # type: ignore[call-arg]
        elif isinstance(inst, cls):
            inst = cls(doc, *inst.all_parts(), id=k)  # type: ignore[call-arg]
        else:
            raise ValueError(Errors.E011.format(id=k, obj=_short(inst), type=type(inst).__name__, **fields))
        if scope_outside_cue:
            _check_scope_outside_cue(doc, inst)
        checked.append(inst)
    store_instances(doc, kind, checked)


def _has_parts(value: Any) -> bool:
    """Whether a dict's value for a role holds parts (a non-empty collection, or anything
    else, which the instance's own check refuses)."""
    return not (isinstance(value, (list, tuple)) and not value)


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
    set_instances(doc, NEGATIONS, negations, scope_outside_cue=scope_outside_cue)


def set_speculations(doc: Doc, speculations: Iterable[Union[Speculation, Dict[str, Iterable[PartLike]]]],
                     *, scope_outside_cue: bool = False) -> None:
    """Replace the speculations of a doc, as :func:`set_negations` the negations.

    doc (Doc): the doc.
    speculations (Iterable[Union[Speculation, Dict]]): instances, or dicts with the keys
        'cue' and 'scope' (an 'event' with parts is E018).
    scope_outside_cue (bool): also reject a scope part that overlaps its own cue (E015).
    """
    set_instances(doc, SPECULATIONS, speculations, scope_outside_cue=scope_outside_cue)


def store_trusted(doc: Doc, negations: Sequence[Negation]) -> None:
    """Replace the negations of a doc with instances already checked against it (their
    parts in range of its tokens, numbered in order): what :func:`set_negations` stores
    after its checks, for callers whose parts are valid by construction (the
    ``negation`` component copying the negations of a sentence doc onto the same
    tokens of its host doc).

    doc (Doc): the doc.
    negations (Sequence[Negation]): the instances, ``id`` = position.
    """
    store_instances(doc, NEGATIONS, negations)


def store_instances(doc: Doc, kind: Kind, instances: Sequence[Instance]) -> None:
    """Replace the instances of one kind of a doc with instances already checked against
    it (:func:`store_trusted`, any kind).

    doc (Doc): the doc.
    kind (Kind): the kind.
    instances (Sequence[Instance]): the instances, ``id`` = position.
    """
    spans: List[Span] = []
    mirror: Dict[Tuple[int, int], List[str]] = {}
    for inst in instances:
        k = inst.id
        anchor = doc[inst.cue[0].i].idx + inst.cue[0].start
        for role, parts in zip(kind.roles, inst.all_parts()):
            for start, end, part in _runs(doc, parts):
                start_char, end_char = doc[start].idx, doc[end - 1].idx + len(doc[end - 1].text)
                kb_id = f"{k}@{anchor - start_char}"
                if part is not None:
                    kb_id += f":{part.start}-{part.end}"
                spans.append(Span(doc, start, end, label=LABELS[role], kb_id=kb_id, span_id=k))
                mirror.setdefault((start_char, end_char), []).append(f"{LABELS[role]} {kb_id}")
    user_data: Dict[Any, Any] = doc.user_data  # keys are tuples, as spaCy's extensions use
    for key in [key for key in user_data if _is_mirror_key(key, kind.mirror)]:
        del user_data[key]
    for (start_char, end_char), entries in mirror.items():
        user_data[("._.", kind.mirror, start_char, end_char)] = tuple(entries)
    doc.spans[kind.key] = SpanGroup(doc, name=kind.key, attrs={"version": STORAGE_VERSION}, spans=spans)
    forget_index(doc, kind)


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


def _is_mirror_key(key: Any, mirror: str = MIRROR) -> bool:
    return isinstance(key, tuple) and len(key) == 4 and key[0] == "._." and key[1] == mirror


def _stored_ranges(doc: Doc, kind: Kind, offsets: TokenOffsets) -> Tuple[List[Tuple[Any, str, int, int, bool]], bool]:
    """The stored parts as (instance key, role, start char, end char, whole-token run),
    in storage order, from the span group, else from the user-data mirror (a doc made by
    ``Span.as_doc(copy_user_data=True)``), and whether the span group's token indices are
    stale (a retokenization moved the tokens under the spans' characters). A cue part cut
    off by ``as_doc`` drops its instance; scope and event parts are clipped to the doc."""
    group = doc.spans.get(kind.key)
    out: List[Tuple[Any, str, int, int, bool]] = []
    if group is not None:
        strings: Any = doc.vocab.strings  # looked up by hash: the stubs type str keys only
        records = _span_records(group)
        stale = any(not 0 <= tok_start < tok_end <= len(offsets.starts)
                    or offsets.starts[tok_start] != start or offsets.ends[tok_end - 1] != end
                    for _, _, _, tok_start, tok_end, start, end in records)
        for _id, kb_hash, label_hash, tok_start, tok_end, start, end in records:
            label = strings[label_hash] if label_hash in strings else str(label_hash)
            role = kind.role_of_label(label)
            if role is None:
                raise ValueError(Errors.E006.format(key=kind.key, label=label, **kind.fields()))
            match = _KB_ID.match(strings[kb_hash]) if kb_hash in strings else None
            if match is None:
                kb_id = strings[kb_hash] if kb_hash in strings else str(kb_hash)
                raise ValueError(Errors.E017.format(key=kind.key, kb_id=kb_id, version=group.attrs.get("version"),
                                                    current=STORAGE_VERSION, kind=kind.name))
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
        if not _is_mirror_key(key, kind.mirror):
            continue
        start, end = int(key[2]), int(key[3])
        for entry in entries:
            label, kb_id = str(entry).split(" ", 1)
            match = _KB_ID.match(kb_id)
            role = kind.role_of_label(label)
            if match is None or role is None:
                raise ValueError(Errors.E016.format(entry=entry, kind=kind.name))
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


def read_parts(doc: Doc, kind: Kind) -> Tuple[List[PartsOfInstance], bool]:
    """The stored instances of a kind as their parts per role (in the order of the kind's
    roles) on the doc's current tokens, in storage order, and whether the span group is
    stale (see :func:`_stored_ranges`). Parts are stored as character ranges, so they
    follow retokenization: a range that covers only part of a token (a merge joined it with
    other tokens) becomes a partial part with the same characters (W003 for a whole-token
    cue); two ranges of a role in one token become the range covering both (W004)."""
    group = doc.spans.get(kind.key)
    if group is not None and not len(group):
        return [], False
    array = doc.to_array([IDX, LENGTH]).tolist() if len(doc) else []
    offsets = TokenOffsets([row[0] for row in array], [row[0] + row[1] for row in array])
    stored, stale = _stored_ranges(doc, kind, offsets)
    if not stored:
        return [], stale
    parts: Dict[Any, Dict[str, Dict[int, List[Tuple[int, int, bool]]]]] = {}
    for inst, role, lo, hi, whole in stored:
        if inst not in parts:
            parts[inst] = {r: {} for r in kind.roles}
        by_token = parts[inst][role]
        for i, a, b in offsets.pieces(lo, hi):
            by_token.setdefault(i, []).append((a, b, whole))
    fields = kind.fields()
    out: List[PartsOfInstance] = []
    for k, (inst, roles) in enumerate(parts.items()):
        result = []
        for role in kind.roles:
            role_parts = []
            for i, ranges in sorted(roles[role].items()):
                ranges.sort()
                start, end = ranges[0][0], max(r[1] for r in ranges)
                if len(ranges) > 1 and any(doc[i].text[ranges[j][1]:ranges[j + 1][0]].strip()
                                           for j in range(len(ranges) - 1)):
                    warnings.warn(Warnings.W004.format(id=k, role=role, text=doc[i].text,
                                                       part=doc[i].text[start:end], **fields))
                if (role == "cue" and (start, end) != (0, offsets.ends[i] - offsets.starts[i])
                        and all(r[2] for r in ranges)):
                    warnings.warn(Warnings.W003.format(id=k, cue=doc[i].text[start:end], text=doc[i].text, **fields))
                role_parts.append(Part(i, start, end))
            result.append(tuple(role_parts))
        if not result[0]:
            raise ValueError(Errors.E001.format(id=k, **fields))
        out.append(tuple(result))
    return out, stale


def store_again(doc: Doc, kind: Kind, parts: Sequence[PartsOfInstance]) -> None:
    """Store the instances read from a stale span group again, on the current tokens
    (instance numbers and order kept)."""
    set_instances(doc, kind, [kind.cls._from_parts(doc, inst, k) for k, inst in enumerate(parts)])


#: The index of each kind of each doc (:mod:`.index`; weak keys: an index never keeps a doc
#: alive, and nothing of it lives in the doc's user_data, which must stay serializable).
INDEX: Dict[str, "weakref.WeakKeyDictionary[Doc, Any]"] = {name: weakref.WeakKeyDictionary() for name in KINDS}


def forget_index(doc: Doc, kind: Kind) -> None:
    """Drop the index of a kind of a doc (its instances were stored anew)."""
    INDEX[kind.name].pop(doc, None)
