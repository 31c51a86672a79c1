"""The cue label scheme of ``negation_cue`` and the gold labels of a training example.

A token is labelled ``O`` outside any cue; a cue token with its position in the cue —
``S`` a single-token cue, ``B`` the first token of a multiword cue, ``I`` a further one
(joining the most recent ``B`` cue of its sentence) — and, for an affixal cue part
inside a token, with the affix kind: ``S|prefix`` (*un*happy), ``S|suffix``
(care*less*), ``S|infix`` (rest*less*ly)."""
from typing import Dict, List, Optional, Tuple

from spacy.training import Example

from ...errors import Errors
from ...negation import SPANS_KEY, Part, get_negations
from .lexicons import AFFIX_KINDS
from ...alignment import CharIndex, project_parts
from .._util import affix_kind

OUTSIDE = "O"
POSITIONS = ("S", "B", "I")
LABEL_SEP = "|"


def make_label(position: str, kind: Optional[str] = None) -> str:
    """A cue label: position ('S', 'B' or 'I'), plus the affix kind for a partial token."""
    return position if kind is None else f"{position}{LABEL_SEP}{kind}"


def parse_label(label: str) -> Tuple[str, Optional[str]]:
    """(position, affix kind or None) of a cue label other than 'O'.

    label (str): the label.
    RETURNS (Tuple[str, Optional[str]]): its fields.
    """
    fields = label.split(LABEL_SEP)
    if len(fields) == 1 and fields[0] in POSITIONS:
        return fields[0], None
    if len(fields) == 2 and fields[0] in POSITIONS and fields[1] in AFFIX_KINDS:
        return fields[0], fields[1]
    raise ValueError(Errors.E300.format(label=label))


def gold_cue_parts(example: Example) -> List[List[Part]]:
    """The parts of each reference cue projected onto the predicted tokens by character
    offsets.

    example (Example): the example.
    RETURNS (List[List[Part]]): the parts of each cue, in the reference's order.
    """
    ref = example.reference
    negations = get_negations(ref) if SPANS_KEY in ref.spans else []
    if not negations:
        return []
    ref_index, pred_index = CharIndex(ref), CharIndex(example.predicted)
    return [project_parts(neg.cue, ref_index, pred_index) for neg in negations]


def gold_cue_labels(example: Example) -> List[Tuple[Optional[str], str]]:
    """The gold cue label of each predicted token, from the reference negations
    projected onto the predicted tokens (None: unknown, also for a token of two cues),
    with the affix characters (lower case) of affixal cue parts ('' otherwise).

    example (Example): the example.
    RETURNS (List[Tuple[Optional[str], str]]): (label, affix) per predicted token.
    """
    pred = example.predicted
    if SPANS_KEY not in example.reference.spans:
        return [(None, "")] * len(pred)
    truths: List[Tuple[Optional[str], str]] = [(OUTSIDE, "")] * len(pred)
    taken: Dict[int, int] = {}
    for k, parts in enumerate(gold_cue_parts(example)):
        for n, part in enumerate(parts):
            if n == 0:
                position = "S" if len(parts) == 1 else "B"
            else:
                position = "I"
            token = pred[part.i]
            if part.i in taken and taken[part.i] != k:
                truths[part.i] = (None, "")  # two cues on one token: no single label
                continue
            taken[part.i] = k
            kind = affix_kind(part, token.text)
            affix = token.text[part.start : part.end].lower() if kind else ""
            truths[part.i] = (make_label(position, kind), affix)
    return truths
