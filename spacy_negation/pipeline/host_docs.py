"""The docs the ``negation`` component sends to its model, and the way back.

For each host doc the component builds docs in the model's vocab (the whole doc, or with
the cue component's prefilter one piece per candidate sentence) and copies the negations
of each back onto the host's tokens. A piece's *placement* says where its tokens lie in
the host doc: an offset (its first token's index; the tokens are the host's from there),
or, for a host doc with characters a reader does not see (:mod:`.visible`), a
:class:`TokenMap`: the model reads the visible text of each token (``not`` for
``not\\u200b``), tokens that are nothing but such characters (the ``m`` that spaCy cuts
from ``\\x1b[0m``) are left out, and each token and character offset of a result is
mapped back to the host's, so the host doc's tokens and offsets are its own. The
speculations of a model that resolves them come back the same way
(:func:`merge_speculations`).
"""
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

import numpy
from spacy.attrs import ORTH, SPACY
from spacy.tokens import Doc

from ..alignment import Part
from ..errors import Errors
from ..negation import NEGATIONS, SPECULATIONS, Instance, Kind, get_instances
from ..negation.storage import store_instances
from ..visible import HIDDEN, hidden_spans


@dataclass(frozen=True)
class TokenMap:
    """Where the tokens of a model doc lie in a host doc whose text the model reads
    without its hidden characters.

    words (List[str]): the visible text of each token of the piece.
    index (List[int]): the host token of each.
    chars (List[Optional[List[int]]]): per token, the host character offset (in the
        host token) of each visible character; None where the token has no hidden one.
    lengths (List[int]): the length of each host token's text.
    """

    words: List[str]
    index: List[int]
    chars: List[Optional[List[int]]]
    lengths: List[int]

    def part(self, part: Part) -> Part:
        """A part of a piece token as a part of its host token (a part that starts at the
        token's start or ends at its end keeps doing so, hidden characters included)."""
        pos = self.chars[part.i]
        if pos is None:
            return Part(self.index[part.i], part.start, part.end)
        n, full = len(pos), self.lengths[part.i]
        start = 0 if part.start == 0 else (pos[part.start] if part.start < n else full)
        end = full if part.end >= n else (pos[part.end - 1] + 1 if part.end > 0 else 0)
        return Part(self.index[part.i], start, max(start, end))

    def span(self, start: int, end: int) -> Tuple[int, int]:
        """A token range of the piece as a token range of the host doc."""
        return self.index[start], self.index[end - 1] + 1

    def fits(self, source: Doc) -> bool:
        """Whether a doc has the piece's words."""
        return len(source) == len(self.words) and [t.text for t in source] == self.words


#: Where a piece's tokens lie in its host doc: the host index of its first token, or a map.
Placement = Union[int, TokenMap]


@dataclass(frozen=True)
class VisibleTokens:
    """The visible text of a host doc's tokens (:mod:`.visible`): the tokens that are not
    only hidden characters, with their visible words, spaces (a token left out passes
    its trailing space on) and sentence starts.

    host (Doc): the host doc.
    words, spaces (List): the visible words and whether a space follows each.
    sent_starts (Optional[List[bool]]): per visible token, whether it starts a sentence
        (one left out passes its start on); None if the host doc has no boundaries.
    index (List[int]): the host token of each visible token.
    chars (List[Optional[List[int]]]): see :class:`TokenMap`.
    """

    host: Doc
    words: List[str]
    spaces: List[bool]
    sent_starts: Optional[List[bool]]
    index: List[int]
    chars: List[Optional[List[int]]]

    @classmethod
    def of_doc(cls, doc: Doc) -> Optional["VisibleTokens"]:
        """The visible tokens of a doc; None if it has no hidden character (the model
        then reads the host's tokens as they are).

        doc (Doc): the host doc.
        RETURNS (Optional[VisibleTokens]): the tokens.
        """
        text = doc.text
        if HIDDEN.search(text) is None:
            return None
        hidden = numpy.zeros(len(text), dtype=bool)
        for start, end in hidden_spans(text):
            hidden[start:end] = True
        with_sents = doc.has_annotation("SENT_START")
        words: List[str] = []
        spaces: List[bool] = []
        starts: List[bool] = []
        index: List[int] = []
        chars: List[Optional[List[int]]] = []
        pending_start = False
        for token in doc:
            shown = numpy.flatnonzero(~hidden[token.idx: token.idx + len(token.text)])
            pending_start = pending_start or (with_sents and bool(token.is_sent_start))
            if not len(shown):
                if spaces and token.whitespace_:
                    spaces[-1] = True
                continue
            whole = len(shown) == len(token.text)
            words.append(token.text if whole else "".join(token.text[k] for k in shown))
            chars.append(None if whole else shown.tolist())
            spaces.append(bool(token.whitespace_))
            starts.append(pending_start)
            index.append(token.i)
            pending_start = False
        if starts:
            starts[0] = True
        return cls(doc, words, spaces, starts if with_sents else None, index, chars)

    def placement(self, start: int, end: int) -> TokenMap:
        """The placement of the visible tokens ``start`` to ``end`` (a piece of them).

        start (int): the first visible token.
        end (int): the visible token after the last.
        RETURNS (TokenMap): the map.
        """
        index = self.index[start:end]
        return TokenMap(self.words[start:end], index, self.chars[start:end], [len(self.host[i].text) for i in index])


def words_and_spaces(doc: Doc) -> Tuple[List[str], List[bool]]:
    """The token texts of a doc and whether each is followed by a space, read from its
    arrays (no Token objects)."""
    strings = doc.vocab.strings
    arrays = doc.to_array([ORTH, SPACY]).tolist()
    return [strings[orth] for orth, _ in arrays], [bool(space) for _, space in arrays]


def placed_span(where: Placement, start: int, end: int) -> Tuple[int, int]:
    """A token range of a piece as a token range of its host doc.

    where (Placement): the piece's placement.
    start (int): the range's first token in the piece.
    end (int): the token after its last.
    RETURNS (Tuple[int, int]): the range in the host doc.
    """
    return (start + where, end + where) if isinstance(where, int) else where.span(start, end)


def copy_negations(source: Doc, target: Doc) -> None:
    """Copy the negations of a doc onto a doc with the same tokens.

    source (Doc): the doc with negations.
    target (Doc): the doc to write them to (its negations are replaced).
    """
    if len(source) != len(target):
        raise ValueError(Errors.E322.format(n_source=len(source), n_target=len(target)))
    merge_negations([(source, 0)], target)


def merge_negations(pieces: Sequence[Tuple[Doc, Placement]], target: Doc) -> None:
    """Write the negations of docs that are pieces of a doc onto it.

    pieces (Sequence[Tuple[Doc, Placement]]): each doc with negations, and where its
        tokens lie in the target: the index of its first token (its tokens must be the
        target's from there) or a :class:`TokenMap` (its tokens the visible text of the
        target's it names).
    target (Doc): the doc to write them to (its negations are replaced; none without pieces).
    """
    merge_instances(pieces, target, NEGATIONS)


def merge_speculations(pieces: Sequence[Tuple[Doc, Placement]], target: Doc) -> None:
    """Write the speculations of docs that are pieces of a doc onto it, as
    :func:`merge_negations` the negations.

    pieces (Sequence[Tuple[Doc, Placement]]): each doc with speculations, and its placement.
    target (Doc): the doc to write them to (its speculations are replaced; none without
        pieces).
    """
    merge_instances(pieces, target, SPECULATIONS)


def merge_instances(pieces: Sequence[Tuple[Doc, Placement]], target: Doc, kind: Kind) -> None:
    """Write the instances of one kind of docs that are pieces of a doc onto it
    (:func:`merge_negations`, :func:`merge_speculations`).

    pieces (Sequence[Tuple[Doc, Placement]]): each doc with instances, and its placement.
    target (Doc): the doc to write them to (its instances of the kind are replaced).
    kind (Kind): the kind (``spacy_negation.negation.NEGATIONS``, ``SPECULATIONS``).
    """
    instances: List[Instance] = []
    cls = kind.cls
    # token texts compared by their hashes, which are the same in every vocab
    target_orths = target.to_array(ORTH)
    for source, where in pieces:
        if isinstance(where, TokenMap):
            if not where.fits(source) or max(where.index, default=-1) >= len(target):
                raise ValueError(Errors.E322.format(n_source=len(source), n_target=len(target)))
            for inst in sorted(get_instances(source, kind), key=lambda n: n.id):
                parts = tuple(tuple(where.part(p) for p in role_parts) for role_parts in inst.all_parts())
                instances.append(cls._from_parts(target, parts, len(instances)))
            continue
        if where < 0 or where + len(source) > len(target) or not numpy.array_equal(
                source.to_array(ORTH), target_orths[where: where + len(source)]):
            raise ValueError(Errors.E322.format(n_source=len(source), n_target=len(target)))
        # the source's parts, checked when they were set, fit the same tokens of the target
        for inst in sorted(get_instances(source, kind), key=lambda n: n.id):
            parts = tuple(tuple(Part(p.i + where, p.start, p.end) for p in role_parts)
                          for role_parts in inst.all_parts())
            instances.append(cls._from_parts(target, parts, len(instances)))
    store_instances(target, kind, instances)
