"""The sentences of a doc as token ranges, for the components and their models."""
from typing import List, Optional, Tuple

import numpy
from spacy.tokens import Doc

from .alignment import Range


def sentence_ranges(doc: Doc, max_tokens: Optional[int] = None) -> Tuple[List[Range], numpy.ndarray]:
    """The sentences of a doc as token ranges (the whole doc without sentence
    boundaries), and the sentence number of each token.

    doc (Doc): the doc.
    max_tokens (Optional[int]): cut a longer sentence into consecutive ranges of at most
        this many tokens (None: never).
    RETURNS (Tuple[List[Tuple[int, int]], numpy.ndarray]): the ranges and, per token,
        its sentence's position in the list.
    """
    if not len(doc):
        return [], numpy.zeros(0, dtype="int32")
    if doc.has_annotation("SENT_START"):
        ranges = [(s.start, s.end) for s in doc.sents]
    else:
        ranges = [(0, len(doc))]
    if max_tokens is not None and any(end - start > max_tokens for start, end in ranges):
        ranges = [(at, min(at + max_tokens, end)) for start, end in ranges for at in range(start, end, max_tokens)]
    of_token = numpy.zeros(len(doc), dtype="int32")
    for k, (start, end) in enumerate(ranges):
        of_token[start:end] = k
    return ranges, of_token
