"""Helpers shared by the negation components: projecting negation parts between
tokenizations, sentence windows, and an optimizer proxy for per-component learning
rates."""
from bisect import bisect_right
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import IDX, LENGTH
from spacy.tokens import Doc

from ..negation import Part

Range = Tuple[int, int]


class CharIndex:
    """Token positions of a doc counted in non-whitespace characters, the coordinates
    in which two tokenizations of the same text (up to whitespace, as spaCy's
    ``Example`` requires) can be compared.

    doc (Doc): the doc.
    """

    def __init__(self, doc: Doc) -> None:
        text = doc.text
        is_char = numpy.fromiter((not c.isspace() for c in text), dtype=numpy.int64, count=len(text))
        self.doc = doc
        self.cum = numpy.concatenate([numpy.zeros(1, dtype=numpy.int64), numpy.cumsum(is_char)])
        bounds = doc.to_array([IDX, LENGTH]).astype(numpy.int64) if len(doc) else numpy.zeros((0, 2), dtype=numpy.int64)
        self.starts: List[int] = self.cum[bounds[:, 0]].tolist()
        self.ends: List[int] = self.cum[bounds[:, 0] + bounds[:, 1]].tolist()

    def part_range(self, part: Part) -> Range:
        """A part's range in non-whitespace coordinates."""
        idx = self.doc[part.i].idx
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
                token = self.doc[i]
                if lo == t_start and hi == t_end:
                    parts.append(Part.whole(token))
                else:
                    seg = self.cum[token.idx : token.idx + len(token.text) + 1]
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


def sentence_ranges(doc: Doc) -> Tuple[List[Range], numpy.ndarray]:
    """The sentences of a doc as token ranges (the whole doc without sentence
    boundaries), and the sentence number of each token.

    doc (Doc): the doc.
    RETURNS (Tuple[List[Tuple[int, int]], numpy.ndarray]): the ranges and, per token,
        its sentence's position in the list.
    """
    if not len(doc):
        return [], numpy.zeros(0, dtype="int32")
    if doc.has_annotation("SENT_START"):
        ranges = [(s.start, s.end) for s in doc.sents]
    else:
        ranges = [(0, len(doc))]
    of_token = numpy.zeros(len(doc), dtype="int32")
    for k, (start, end) in enumerate(ranges):
        of_token[start:end] = k
    return ranges, of_token


def affix_kind(part: Part, text: str) -> Optional[str]:
    """'prefix', 'suffix' or 'infix' for a partial part, None for a whole token.

    part (Part): the part.
    text (str): its token's text.
    """
    if part.start == 0 and part.end == len(text):
        return None
    if part.start == 0:
        return "prefix"
    if part.end == len(text):
        return "suffix"
    return "infix"


def find_affix(text: str, kind: str, affix: str) -> Optional[Range]:
    """The character range of an affix of a kind in a token text (case-insensitive),
    None if the token does not have it (or is nothing but the affix).

    text (str): the token text.
    kind (str): 'prefix', 'suffix' or 'infix'.
    affix (str): the affix, lower case.
    RETURNS (Optional[Tuple[int, int]]): the range.
    """
    lower = text.lower()
    n = len(affix)
    if not affix or len(lower) <= n:
        return None
    if kind == "prefix":
        return (0, n) if lower.startswith(affix) else None
    if kind == "suffix":
        return (len(lower) - n, len(lower)) if lower.endswith(affix) else None
    if kind == "infix":
        pos = lower.find(affix, 1)
        if pos > 0 and pos + n < len(lower):
            return pos, pos + n
    return None


def remainder(part: Part, text: str) -> Optional[Range]:
    """The rest of a token beside an affixal cue part, as CD-SCO annotates it in the
    scope: the stem before an infix or suffix (``rest`` of rest|less|ly, ``care`` of
    care|less), else the rest after a prefix (``happy`` of un|happy).

    part (Part): the affixal cue part.
    text (str): its token's text.
    RETURNS (Optional[Tuple[int, int]]): the range, None if the part is the whole token.
    """
    if part.start > 0:
        return 0, part.start
    if part.end < len(text):
        return part.end, len(text)
    return None


class ScaledOptimizer:
    """An optimizer proxy that multiplies the learning rate of every update by a
    factor (the component's learning rate relative to the shared backbone's).

    optimizer (Any): the thinc optimizer.
    scale (float): the factor.
    """

    def __init__(self, optimizer: Any, scale: float) -> None:
        self._optimizer = optimizer
        self._scale = scale

    def __call__(self, key: Tuple[int, str], weights: Any, gradient: Any, *, lr_scale: float = 1.0) -> Any:
        return self._optimizer(key, weights, gradient, lr_scale=lr_scale * self._scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._optimizer, name)


def one_hot(truths: Sequence[Optional[int]], n: int) -> numpy.ndarray:
    """One-hot rows for label ids (all-zero rows for missing values)."""
    out = numpy.zeros((len(truths), n), dtype="float32")
    for row, t in enumerate(truths):
        if t is not None:
            out[row, t] = 1.0
    return out
