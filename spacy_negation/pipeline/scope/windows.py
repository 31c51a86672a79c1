"""The cue windows of ``negation_scope`` (:mod:`.component`): the scope model's input per
cue instance (its sentence, or the tokens around the cue of a long one, with the cue's
tokens marked), the groups of windows of one model call, and each window's labels: the
gold labels of the training targets and the scope and event parts of the decoded ones."""
from typing import List, Optional, Sequence, Tuple

import numpy
from spacy.attrs import IS_SPACE, LENGTH
from spacy.tokens import Doc

from ...ml.windows import CUE_AFFIX, CUE_WHOLE, CueWindow
from ...negation import Instance, Part
from .._util import remainder
from ...sentences import sentence_ranges

#: The most tokens of a cue's sentence that the scope model reads: in a longer "sentence" (a
#: doc without sentence boundaries, a list of thousands of items) the window is this many
#: tokens around the cue, so that the work per cue stays bounded (no sentence of the
#: corpora comes near: the longest, in BioScope train, has 178 tokens).
MAX_WINDOW_TOKENS = 512


def cue_windows(doc: Doc, doc_index: int, negations: Sequence[Instance],
                max_tokens: Optional[int] = None, *, kind: int = 0) -> List[CueWindow]:
    """The scope-model input of each negation (or speculation): its cue's sentence, with
    cue types; of a sentence longer than ``max_tokens``, the ``max_tokens`` tokens around
    the cue (all its parts in the sentence, however far apart).

    doc (Doc): the doc.
    doc_index (int): the doc's position in the batch.
    negations (Sequence[Instance]): the negations (or speculations) of the doc.
    max_tokens (Optional[int]): the longest window (default :data:`MAX_WINDOW_TOKENS`).
    kind (int): the kind of the instances (``spacy_negation.ml.windows.KIND_IDS``: 0
        negations, 1 speculations), given to each window.
    RETURNS (List[CueWindow]): one window per instance, in the same order.
    """
    if not negations:
        return []
    if max_tokens is None:
        max_tokens = MAX_WINDOW_TOKENS
    ranges, of_token = sentence_ranges(doc)
    windows: List[CueWindow] = []
    for neg in negations:
        start, end = ranges[int(of_token[neg.cue[0].i])]
        if end - start > max_tokens:
            start, end = _around(neg, start, end, max_tokens)
        cues = numpy.zeros(end - start, dtype="int32")
        for p in neg.cue:
            if start <= p.i < end:
                cues[p.i - start] = CUE_AFFIX if p.is_partial(doc) else CUE_WHOLE
        windows.append(CueWindow(doc_index, start, end, cues, kind))
    return windows


def _around(neg: Instance, start: int, end: int, max_tokens: int) -> Tuple[int, int]:
    """The window of at most ``max_tokens`` tokens (more only where the cue's parts lie
    farther apart) inside the sentence [start, end), centred on the cue."""
    inside = [p.i for p in neg.cue if start <= p.i < end]
    first, last = min(inside), max(inside)
    room = max(0, max_tokens - (last - first + 1))
    lo = max(start, first - room // 2)
    hi = min(end, max(last + 1, lo + max_tokens))
    lo = max(start, min(lo, hi - max_tokens))
    return lo, hi


def window_batches(windows: Sequence[CueWindow], max_cells: int) -> List[List[CueWindow]]:
    """The windows in consecutive groups whose padded size (windows x longest window)
    stays within ``max_cells`` (a window longer than that makes a group of its own)."""
    batches: List[List[CueWindow]] = []
    current: List[CueWindow] = []
    longest = 0
    for w in windows:
        if current and (len(current) + 1) * max(longest, len(w)) > max_cells:
            batches.append(current)
            current, longest = [], 0
        current.append(w)
        longest = max(longest, len(w))
    if current:
        batches.append(current)
    return batches


def gold_window_labels(neg: Instance, window: CueWindow) -> List[str]:
    """The gold label of each token of a cue window: ``S`` in the instance's scope, ``E``
    in its event (a negation's), ``SE`` in both, else ``O``.

    neg (Instance): the negation (or speculation).
    window (CueWindow): its window.
    RETURNS (List[str]): the labels, one per window token.
    """
    scope = {p.i for p in neg.scope}
    event = {p.i for p in neg.parts("event")} if "event" in neg.ROLES else set()
    labels: List[str] = []
    for i in range(window.start, window.end):
        label = ("S" if i in scope else "") + ("E" if i in event else "")
        labels.append(label or "O")
    return labels


def decode_window(doc: Doc, neg: Instance, window: CueWindow, labels: List[str],
                  lengths: Optional[Sequence[int]] = None,
                  spaces: Optional[Sequence[int]] = None) -> Tuple[List[Part], List[Part]]:
    """Scope and event parts of a negation from the labels of its window (``lengths``
    and ``spaces``: per token of the doc, its text's length and whether it is space;
    read from the doc if not given).

    doc (Doc): the doc.
    neg (Instance): the negation (or speculation).
    window (CueWindow): its window.
    labels (List[str]): the label of each window token.
    lengths (Optional[Sequence[int]]): per token of the doc, the length of its text.
    spaces (Optional[Sequence[int]]): per token of the doc, whether it is space.
    RETURNS (Tuple[List[Part], List[Part]]): the scope parts and the event parts.
    """
    if lengths is None or spaces is None:
        lengths, spaces = (column.tolist() for column in doc.to_array([LENGTH, IS_SPACE]).T)
    cue_parts = {p.i: p for p in neg.cue}
    scope: List[Part] = []
    event: List[Part] = []
    for i, label in zip(range(window.start, window.end), labels):
        if label == "O" or spaces[i]:
            continue
        cue_part = cue_parts.get(i)
        if cue_part is None:
            part = Part(i, 0, lengths[i])
        elif cue_part.is_partial(doc):
            rng = remainder(cue_part, doc[i].text)
            if rng is None:
                continue
            part = Part(i, rng[0], rng[1])
        else:
            continue
        if "S" in label:
            scope.append(part)
        if "E" in label:
            event.append(part)
    return scope, event
