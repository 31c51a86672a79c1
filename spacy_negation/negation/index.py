"""Reading the instances of a doc, and the index of one kind that the token and span
extensions answer from: the instances in document order and the tokens their cues and
scopes cover, built once per doc and kind and rebuilt when the storage
(:mod:`.storage`) changes."""
from typing import Any, Dict, List, Set

from spacy.tokens import Doc

from .instance import Instance, Negation, Speculation
from .storage import INDEX, NEGATIONS, SPECULATIONS, Kind, read_parts, store_again


def get_negations(doc: Doc) -> List[Negation]:
    """The negation instances of a doc in document order: by first cue token, ties in
    storage order. Reads the storage afresh (and refreshes the index of the token and
    span conveniences); ``doc._.negations`` answers from the index.

    doc (Doc): the doc.
    RETURNS (List[Negation]): the instances.
    """
    negations: List[Negation] = get_instances(doc, NEGATIONS)
    return negations


def get_speculations(doc: Doc) -> List[Speculation]:
    """The speculation instances of a doc in document order, read afresh (as
    :func:`get_negations`); ``doc._.speculations`` answers from the index.

    doc (Doc): the doc.
    RETURNS (List[Speculation]): the instances.
    """
    speculations: List[Speculation] = get_instances(doc, SPECULATIONS)
    return speculations


def get_instances(doc: Doc, kind: Kind) -> List[Any]:
    """The instances of one kind of a doc in document order, read afresh.

    doc (Doc): the doc.
    kind (Kind): the kind (:data:`~.storage.NEGATIONS`, :data:`~.storage.SPECULATIONS`).
    RETURNS (List[Instance]): the instances, of the kind's class.
    """
    index = _Index(doc, kind)
    INDEX[kind.name][doc] = index
    return index.instances(doc)


class _Index:
    """The instances of one kind of a doc and which tokens they cover, with the state of
    the storage it was built from. It is rebuilt when the setter runs, when the span group
    is replaced or changes length (append, extend, removal), or when the doc's token count
    changes (retokenization). Not detected: replacing a span in place
    (``group[i] = span``) or a retokenization that keeps the token count (a merge and a
    split in one block); ``get_negations(doc)`` (``get_speculations(doc)``) rebuilds it."""

    __slots__ = ("kind", "group", "n_spans", "n_tokens", "n_user_data", "parts", "order", "scope", "cues")

    def __init__(self, doc: Doc, kind: Kind) -> None:
        self.kind = kind
        self.parts, stale = read_parts(doc, kind)
        if stale:  # a retokenization: the span group follows the tokens again
            store_again(doc, kind, self.parts)
        self.group = doc.spans.get(kind.key)
        self.n_spans = -1 if self.group is None else len(self.group)
        self.n_tokens = len(doc)
        self.n_user_data = len(doc.user_data) if self.group is None else -1
        self.order = sorted(range(len(self.parts)), key=lambda k: (self.parts[k][0][0].i, k))
        self.scope: Dict[int, List[int]] = {}
        self.cues: Set[int] = set()
        for k in self.order:
            cue, scope = self.parts[k][:2]
            for p in scope:
                self.scope.setdefault(p.i, []).append(k)
            self.cues.update(p.i for p in cue)

    def is_current(self, doc: Doc) -> bool:
        group = doc.spans.get(self.kind.key)
        if group is not self.group or len(doc) != self.n_tokens:
            return False
        if group is None:
            return len(doc.user_data) == self.n_user_data
        return len(group) == self.n_spans

    def instances(self, doc: Doc) -> List[Any]:
        return [self.instance(doc, k) for k in self.order]

    def instance(self, doc: Doc, k: int) -> Instance:
        return self.kind.cls._from_parts(doc, self.parts[k], k)


def index_of(doc: Doc, kind: Kind = NEGATIONS) -> _Index:
    """The current index of a kind of a doc (built, or rebuilt when the storage changed)."""
    cache = INDEX[kind.name]
    index = cache.get(doc)
    if index is None or not index.is_current(doc):
        index = _Index(doc, kind)
        cache[doc] = index
    return index
