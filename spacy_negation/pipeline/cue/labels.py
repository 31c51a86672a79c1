"""The cue label scheme of ``negation_cue`` and the gold labels of a training example.

A token is labelled ``O`` outside any cue; a cue token with its position in the cue —
``S`` a single-token cue, ``B`` the first token of a multiword cue, ``I`` a further one
(joining the most recent ``B`` cue of its sentence) — and, for an affixal cue part
inside a token, with the affix kind: ``S|prefix`` (*un*happy), ``S|suffix``
(care*less*), ``S|infix`` (rest*less*ly).

A component that learns speculation cues too (``kinds = ["negation", "speculation"]``)
has speculation labels beside these, the position with the kind field
``speculation``: ``S|speculation`` (*may*, *suggest*), ``B|speculation`` and
``I|speculation`` (*either … or*); negation labels have no kind field and stay as they
are. Speculation cues are whole tokens: a speculation cue part inside a token (no corpus
annotates an affixal one; a reference tokenized otherwise may cut one) is learned as its
whole token. A token that is a cue of two instances (two negations, or a negation and a
speculation: *cannot* in a hedge *cannot be excluded* that a corpus also marks as
negation) has no single label: unknown, it teaches nothing."""
from typing import Dict, List, Optional, Sequence, Tuple

from spacy.training import Example

from ...errors import Errors
from ...negation import KINDS, Part, get_instances
from .lexicons import AFFIX_KINDS
from ...alignment import CharIndex, project_parts
from .._util import affix_kind

OUTSIDE = "O"
POSITIONS = ("S", "B", "I")
LABEL_SEP = "|"
#: The kind field of the speculation labels (negation labels have none).
SPECULATION = "speculation"
#: The kind of the labels without a kind field.
NEGATION = "negation"


def make_label(position: str, kind: Optional[str] = None, cue_kind: str = NEGATION) -> str:
    """A cue label: position ('S', 'B' or 'I'), plus the affix kind for a partial token
    (negation cues only), plus the kind field for a speculation cue.

    position (str): 'S', 'B' or 'I'.
    kind (Optional[str]): the affix kind ('prefix', 'suffix', 'infix') or None.
    cue_kind (str): 'negation' or 'speculation' (whose cues are whole tokens).
    RETURNS (str): the label ('S', 'S|prefix', 'S|speculation').
    """
    if cue_kind == SPECULATION:
        return f"{position}{LABEL_SEP}{SPECULATION}"
    return position if kind is None else f"{position}{LABEL_SEP}{kind}"


def parse_label(label: str) -> Tuple[str, Optional[str]]:
    """(position, affix kind or None) of a cue label other than 'O' (a speculation
    label's affix kind is None; :func:`label_kind` gives its kind).

    label (str): the label.
    RETURNS (Tuple[str, Optional[str]]): its fields.
    """
    fields = label.split(LABEL_SEP)
    if len(fields) == 1 and fields[0] in POSITIONS:
        return fields[0], None
    if len(fields) == 2 and fields[0] in POSITIONS and fields[1] in AFFIX_KINDS:
        return fields[0], fields[1]
    if len(fields) == 2 and fields[0] in POSITIONS and fields[1] == SPECULATION:
        return fields[0], None
    raise ValueError(Errors.E300.format(label=label))


def label_kind(label: str) -> Optional[str]:
    """The kind of instance a cue label marks a cue of: 'negation' or 'speculation'
    (None for 'O').

    label (str): the label (checked by :func:`parse_label`).
    RETURNS (Optional[str]): the kind.
    """
    if label == OUTSIDE:
        return None
    parse_label(label)
    return SPECULATION if label.endswith(LABEL_SEP + SPECULATION) else NEGATION


def gold_cue_parts(example: Example, kind: str = NEGATION) -> List[List[Part]]:
    """The parts of each reference cue of a kind of instance projected onto the
    predicted tokens by character offsets.

    example (Example): the example.
    kind (str): 'negation' (default) or 'speculation'.
    RETURNS (List[List[Part]]): the parts of each cue, in the reference's order.
    """
    ref = example.reference
    store = KINDS[kind]
    instances = get_instances(ref, store) if store.key in ref.spans else []
    if not instances:
        return []
    ref_index, pred_index = CharIndex(ref), CharIndex(example.predicted)
    return [project_parts(inst.cue, ref_index, pred_index) for inst in instances]


def gold_cue_labels(example: Example, kinds: Sequence[str] = (NEGATION,)) -> List[Tuple[Optional[str], str]]:
    """The gold cue label of each predicted token, from the reference instances of the
    kinds projected onto the predicted tokens (None: unknown, also for a token of two
    cues, of one kind or of two), with the affix characters (lower case) of affixal
    negation cue parts ('' otherwise). A reference without the span group of any of the
    kinds gives unknown labels; one without the group of some kind has none of it.

    example (Example): the example.
    kinds (Sequence[str]): the kinds of cue the labels mark ('negation' and, for a
        component that learns them, 'speculation').
    RETURNS (List[Tuple[Optional[str], str]]): (label, affix) per predicted token.
    """
    pred = example.predicted
    present = [kind for kind in kinds if KINDS[kind].key in example.reference.spans]
    if not present:
        return [(None, "")] * len(pred)
    truths: List[Tuple[Optional[str], str]] = [(OUTSIDE, "")] * len(pred)
    taken: Dict[int, Tuple[str, int]] = {}
    for cue_kind in present:
        for k, parts in enumerate(gold_cue_parts(example, cue_kind)):
            for n, part in enumerate(parts):
                if n == 0:
                    position = "S" if len(parts) == 1 else "B"
                else:
                    position = "I"
                token = pred[part.i]
                if part.i in taken and taken[part.i] != (cue_kind, k):
                    truths[part.i] = (None, "")  # two cues on one token: no single label
                    continue
                taken[part.i] = (cue_kind, k)
                if cue_kind == SPECULATION:
                    truths[part.i] = (make_label(position, cue_kind=SPECULATION), "")
                    continue
                kind = affix_kind(part, token.text)
                affix = token.text[part.start : part.end].lower() if kind else ""
                truths[part.i] = (make_label(position, kind), affix)
    return truths
