"""The sentences of a doc as token ranges, for the components and their models."""
from typing import List, Optional, Tuple

import numpy
from spacy.attrs import SENT_START
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
    n = len(doc)
    if not n:
        return [], numpy.zeros(0, dtype="int32")
    if not doc.has_annotation("SENT_START"):
        ranges = [(0, n)]
    elif "sents" in doc.user_hooks:
        ranges = [(s.start, s.end) for s in doc.sents]
    else:
        # what Doc.sents yields, without making a Span per sentence: a sentence starts at
        # the first token and at every later token whose sent_start is 1
        starts = [0, *(numpy.flatnonzero(doc.to_array(SENT_START)[1:] == 1) + 1).tolist()]
        ranges = list(zip(starts, starts[1:] + [n]))
    if max_tokens is not None and any(end - start > max_tokens for start, end in ranges):
        ranges = [(at, min(at + max_tokens, end)) for start, end in ranges for at in range(start, end, max_tokens)]
    of_token = numpy.zeros(n, dtype="int32")
    for k, (start, end) in enumerate(ranges):
        of_token[start:end] = k
    return ranges, of_token
