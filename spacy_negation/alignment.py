"""Mapping one tokenization of a text onto another, by character offsets.

The scorers compare predictions on the reference tokens (a predicted doc may be tokenized
differently, and its text may differ in whitespace or letter case): a predicted character
range is mapped onto the reference text (:func:`char_map`), then onto the reference
tokens it covers (:class:`TokenOffsets`), down to the characters inside each token, so an
affix keeps its offsets. Plain strings and offsets only: no spaCy import.
"""
from bisect import bisect_right
from typing import Iterator, List, Optional, Sequence, Tuple

#: A covered piece of a token: (token index, start, end) with the characters of the token.
Piece = Tuple[int, int, int]


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
        for i, (x, y) in enumerate(zip(source, target)):
            if not x.isspace() and _same(x, y):
                out[i] = i
    return out


def map_range(mapping: Optional[List[int]], text: str, start: int, end: int
              ) -> Tuple[List[Tuple[int, int]], bool]:
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
    runs: List[Tuple[int, int]] = []
    for x in mapped:
        if x < 0:
            continue
        if runs and runs[-1][1] == x:
            runs[-1] = (runs[-1][0], x + 1)
        else:
            runs.append((x, x + 1))
    return runs, all(x >= 0 for x in mapped)


class TokenOffsets:
    """Where the tokens of a tokenization sit in its text.

    starts (Sequence[int]): each token's start offset, ascending.
    texts (Sequence[str]): each token's text.
    """

    __slots__ = ("starts", "texts")

    def __init__(self, starts: Sequence[int], texts: Sequence[str]) -> None:
        self.starts = list(starts)
        self.texts = list(texts)

    def pieces(self, start: int, end: int) -> Iterator[Piece]:
        """The tokens overlapping a character range, each with the covered characters.

        start (int): the range's start offset.
        end (int): its end offset (exclusive).
        YIELDS (Piece): (token index, start, end within the token), in token order.
        """
        starts, texts = self.starts, self.texts
        j = max(bisect_right(starts, start) - 1, 0)
        n = len(starts)
        while j < n:
            idx = starts[j]
            if idx >= end:
                break
            s = max(start, idx) - idx
            e = min(end, idx + len(texts[j])) - idx
            if e > s:
                yield j, s, e
            j += 1
