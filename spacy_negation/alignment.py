"""Mapping one tokenization of a text onto another, by character offsets.

Negation parts move between tokenizations in three places, with one vocabulary (a
:class:`Part` is one token, or a character range inside one token, as the affix ``un`` of
``unhappy``; a :data:`Piece` is the same as a plain ``(i, start, end)`` tuple):

* the data model reads its stored character ranges back onto a doc's current tokens,
  which a retokenization may have changed (:meth:`TokenOffsets.pieces`);
* the scorers compare predictions on the reference tokens (a predicted doc may be
  tokenized differently, and its text may differ in whitespace or letter case): a
  predicted character range is mapped onto the reference text (:func:`char_map`,
  :func:`map_range`), then onto the reference tokens it covers, down to the characters
  inside each token, so an affix keeps its offsets (:class:`CharProjection`);
* the trainable components project the reference annotation onto the predicted tokens
  (:func:`project_parts`) in non-whitespace character coordinates (:class:`CharIndex`),
  the coordinates in which spaCy's ``Example`` aligns two tokenizations of one text.

Plain strings, offsets and duck-typed docs (anything with ``text`` whose tokens have
``i``, ``idx`` and ``text``): no spaCy import, so the spaCy-free metrics can use it too.
"""
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import numpy

if TYPE_CHECKING:  # pragma: no cover
    from spacy.tokens import Doc, Token

#: A covered piece of a token: (token index, start, end) with the characters of the token.
Piece = Tuple[int, int, int]
#: A character range (start, end), end exclusive.
Range = Tuple[int, int]


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
    def whole(cls, token: "Token") -> "Part":
        """The whole token as a part."""
        return cls(token.i, 0, len(token.text))

    def token(self, doc: "Doc") -> "Token":
        return doc[self.i]

    def text(self, doc: "Doc") -> str:
        return doc[self.i].text[self.start : self.end]

    def offsets(self, doc: "Doc") -> Range:
        """Character offsets in the doc's text."""
        idx = doc[self.i].idx
        return idx + self.start, idx + self.end

    def is_partial(self, doc: "Doc") -> bool:
        """Whether the part covers less than its whole token (an affix or a remainder)."""
        return not (self.start == 0 and self.end == len(doc[self.i].text))


# --- texts that differ in whitespace and letter case ----------------------------------------

def _same(a: str, b: str) -> bool:
    return a == b or a.casefold() == b.casefold()


def char_map(source: str, target: str) -> Optional[List[int]]:
    """Map each character offset of ``source`` to the offset of the same character in
    ``target`` (None when the texts are equal: the identity).

    Texts that differ only in whitespace and letter case (as spaCy's token alignment
    tolerates) map non-space character by non-space character; otherwise only characters
    equal (ignoring case) at equal offsets map. -1: not mappable (whitespace, or text that
    differs).

    source (str): the text whose offsets are mapped (e.g. the predicted doc's).
    target (str): the text they are mapped into (e.g. the reference doc's).
    RETURNS (Optional[List[int]]): per source offset the target offset or -1; None for
        equal texts.
    """
    if source == target:
        return None
    a = [i for i, ch in enumerate(source) if not ch.isspace()]
    b = [i for i, ch in enumerate(target) if not ch.isspace()]
    out = [-1] * len(source)
    if len(a) == len(b) and all(_same(source[x], target[y]) for x, y in zip(a, b)):
        for x, y in zip(a, b):
            out[x] = y
    else:
        for i, (c, d) in enumerate(zip(source, target)):
            if not c.isspace() and _same(c, d):
                out[i] = i
    return out


def map_range(mapping: Optional[List[int]], text: str, start: int, end: int
              ) -> Tuple[List[Range], bool]:
    """Map a character range of a source text into target ranges.

    mapping (Optional[List[int]]): the output of :func:`char_map` (None: identity).
    text (str): the source text.
    start (int): the range's start offset in the source.
    end (int): its end offset (exclusive).
    RETURNS (Tuple[List[Tuple[int, int]], bool]): the target ranges (maximal runs of
        consecutive offsets) and whether every non-space character mapped.
    """
    if mapping is None:
        return [(start, end)], True
    mapped = [mapping[k] for k in range(start, end) if not text[k].isspace()]
    runs: List[Range] = []
    for x in mapped:
        if x < 0:
            continue
        if runs and runs[-1][1] == x:
            runs[-1] = (runs[-1][0], x + 1)
        else:
            runs.append((x, x + 1))
    return runs, all(x >= 0 for x in mapped)


# --- where the tokens are -----------------------------------------------------------------

class TokenOffsets:
    """Where the tokens of a tokenization sit in its text.

    starts (Sequence[int]): each token's start offset, ascending.
    ends (Sequence[int]): each token's end offset (exclusive).
    """

    __slots__ = ("starts", "ends")

    def __init__(self, starts: Sequence[int], ends: Sequence[int]) -> None:
        self.starts = list(starts)
        self.ends = list(ends)

    @classmethod
    def of(cls, doc: "Doc") -> "TokenOffsets":
        """The token offsets of a doc.

        doc (Doc): the doc.
        RETURNS (TokenOffsets): its tokens' start and end offsets.
        """
        starts = [t.idx for t in doc]
        return cls(starts, [idx + len(t.text) for idx, t in zip(starts, doc)])

    def pieces(self, start: int, end: int) -> Iterator[Piece]:
        """The tokens overlapping a character range, each with the covered characters.

        start (int): the range's start offset.
        end (int): its end offset (exclusive).
        YIELDS (Piece): (token index, start, end within the token), in token order.
        """
        starts, ends = self.starts, self.ends
        j = max(bisect_right(starts, start) - 1, 0)
        n = len(starts)
        while j < n:
            idx = starts[j]
            if idx >= end:
                break
            s = max(start, idx) - idx
            e = min(end, ends[j]) - idx
            if e > s:
                yield j, s, e
            j += 1


class CharProjection:
    """Character ranges of a source text onto the tokens of a target text that may differ
    from it in whitespace and letter case (:func:`char_map`, :func:`map_range`): how the
    scorers put predicted parts and spans on the reference tokens.

    source (str): the source text (e.g. the predicted doc's).
    target (str): the target text (e.g. the reference doc's).
    tokens (TokenOffsets): the target's tokens.
    """

    __slots__ = ("source", "mapping", "tokens")

    def __init__(self, source: str, target: str, tokens: TokenOffsets) -> None:
        self.source = source
        self.mapping = char_map(source, target)
        self.tokens = tokens

    def pieces(self, start: int, end: int) -> Tuple[List[Piece], bool]:
        """The target token pieces covered by a source character range.

        start (int): the range's start offset in the source.
        end (int): its end offset (exclusive).
        RETURNS (Tuple[List[Piece], bool]): the pieces in target order and whether every
            non-space character of the range mapped.
        """
        ranges, complete = map_range(self.mapping, self.source, start, end)
        return [p for a, b in ranges for p in self.tokens.pieces(a, b)], complete


class CharIndex:
    """Token positions of a doc counted in non-whitespace characters, the coordinates
    in which two tokenizations of the same text (up to whitespace, as spaCy's
    ``Example`` requires) can be compared.

    doc (Doc): the doc.
    """

    __slots__ = ("offsets", "cum", "starts", "ends")

    def __init__(self, doc: "Doc") -> None:
        text = doc.text
        self.offsets = TokenOffsets.of(doc)
        is_char = numpy.fromiter((not c.isspace() for c in text), dtype=numpy.int64, count=len(text))
        self.cum = numpy.concatenate([numpy.zeros(1, dtype=numpy.int64), numpy.cumsum(is_char)])
        #: each token's start and end in non-whitespace characters
        self.starts: List[int] = self._count(self.offsets.starts)
        self.ends: List[int] = self._count(self.offsets.ends)

    def _count(self, offsets: Sequence[int]) -> List[int]:
        return self.cum[numpy.asarray(offsets, dtype=numpy.int64)].tolist()

    def part_range(self, part: Part) -> Range:
        """A part's range in non-whitespace coordinates."""
        idx = self.offsets.starts[part.i]
        return int(self.cum[idx + part.start]), int(self.cum[idx + part.end])

    def project(self, start: int, end: int) -> List[Part]:
        """The parts of this doc's tokens covered by a range in non-whitespace
        coordinates (whole tokens where fully covered); whitespace tokens are skipped.

        start (int): the range start.
        end (int): the range end (exclusive).
        RETURNS (List[Part]): the parts, in token order.
        """
        parts: List[Part] = []
        i = bisect_right(self.ends, start)
        while i < len(self.starts) and self.starts[i] < end:
            t_start, t_end = self.starts[i], self.ends[i]
            if t_end > t_start and t_end > start:
                lo, hi = max(start, t_start), min(end, t_end)
                idx, idx_end = self.offsets.starts[i], self.offsets.ends[i]
                if lo == t_start and hi == t_end:
                    parts.append(Part(i, 0, idx_end - idx))
                else:
                    seg = self.cum[idx : idx_end + 1]
                    c_start = int(numpy.searchsorted(seg, lo, side="right")) - 1
                    c_end = int(numpy.searchsorted(seg, hi, side="left"))
                    if c_end > c_start:
                        parts.append(Part(i, c_start, c_end))
            i += 1
        return parts


def project_parts(parts: Iterable[Part], source: CharIndex, target: CharIndex) -> List[Part]:
    """Project parts of the source doc onto the target doc's tokens; several parts on
    one target token are merged into their covering range.

    parts (Iterable[Part]): parts of the source doc.
    source (CharIndex): the source doc's index.
    target (CharIndex): the target doc's index.
    RETURNS (List[Part]): the target parts, in token order.
    """
    merged: Dict[int, Part] = {}
    for part in parts:
        for p in target.project(*source.part_range(part)):
            old = merged.get(p.i)
            if old is not None:
                p = Part(p.i, min(old.start, p.start), max(old.end, p.end))
            merged[p.i] = p
    return [merged[i] for i in sorted(merged)]
