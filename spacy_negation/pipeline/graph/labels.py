"""The pair labels of the graph encoding of negation instances (see
:mod:`.encoding`): a label names every role a (head, dependent) pair carries, joined
by ``+`` (``C``, ``C:un-``, ``S``, ``S~``, ``E``, ``E~``), or ``NO_EDGE``."""
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ...alignment import Part
from ...errors import Errors
from .._util import affix_kind

PartTuple = Tuple[int, int, int]

#: The label of a pair without an arc.
NO_EDGE = "_"
#: The encodings.
ENCODINGS = ("direct", "nested")
#: The role letters of scope and event labels.
SCOPE, EVENT = "S", "E"
#: The mark of a scope or event part that is the rest of a token beside an affixal cue.
REST = "~"
CUE = "C"

_AFFIX_FORMS = {"prefix": "{}-", "suffix": "-{}", "infix": "-{}-"}


@dataclass(frozen=True)
class Label:
    """The parsed label of one (head, dependent) pair.

    cue (Optional[str]): None (no cue part), "" (a whole-token cue part) or the affix
        form ("un-", "-less", "-less-").
    scope (Optional[bool]): None (not in the scope), False (the whole token), True (the
        rest beside an affixal cue).
    event (Optional[bool]): as ``scope``, for the negated event.
    """

    cue: Optional[str] = None
    scope: Optional[bool] = None
    event: Optional[bool] = None

    def __str__(self) -> str:
        parts: List[str] = []
        if self.cue is not None:
            parts.append(CUE + (":" + self.cue if self.cue else ""))
        if self.scope is not None:
            parts.append(SCOPE + (REST if self.scope else ""))
        if self.event is not None:
            parts.append(EVENT + (REST if self.event else ""))
        return "+".join(parts) or NO_EDGE

    @property
    def is_root_label(self) -> bool:
        """Whether an arc from the root may carry the label (a cue part only)."""
        return self.scope is None and self.event is None


def parse_label(label: str) -> Label:
    """The roles of a pair label (see the module docstring).

    label (str): the label.
    RETURNS (Label): the parsed label.
    RAISES (ValueError): a label of no known form (E862).
    """
    if label == NO_EDGE:
        return Label()
    cue: Optional[str] = None
    roles: Dict[str, Optional[bool]] = {SCOPE: None, EVENT: None}
    for comp in label.split("+"):
        if comp == CUE or comp.startswith(CUE + ":"):
            form = comp[len(CUE) + 1:]
            if cue is not None or (comp != CUE and _affix_of_form(form) is None):
                raise ValueError(Errors.E862.format(label=label))
            cue = form
        elif comp[:1] in roles and comp[1:] in ("", REST) and roles[comp[:1]] is None:
            roles[comp[:1]] = comp[1:] == REST
        else:
            raise ValueError(Errors.E862.format(label=label))
    return Label(cue, roles[SCOPE], roles[EVENT])


def _affix_of_form(form: str) -> Optional[Tuple[str, str]]:
    """(kind, affix) of an affix form ('un-' -> ('prefix', 'un')), None if malformed."""
    if len(form) > 2 and form.startswith("-") and form.endswith("-"):
        return "infix", form[1:-1]
    if len(form) > 1 and form.endswith("-") and not form.startswith("-"):
        return "prefix", form[:-1]
    if len(form) > 1 and form.startswith("-") and not form.endswith("-"):
        return "suffix", form[1:]
    return None


def _cue_form(part: PartTuple, words: Sequence[str]) -> str:
    """The cue component of a cue part: '' for a whole token, else its affix form."""
    i, start, end = part
    kind = affix_kind_of(part, words)
    if kind is None:
        return ""
    return _AFFIX_FORMS[kind].format(words[i][start:end].lower())


def affix_kind_of(part: PartTuple, words: Sequence[str]) -> Optional[str]:
    """'prefix', 'suffix' or 'infix' for a partial part, None for a whole token."""
    return affix_kind(Part(*part), words[part[0]])
