"""The expected negations of a filled template of the challenge set in the CD-SCO convention
(Morante & Daelemans 2012): the cue ``n't`` (of ``doesn't``) with the relative clause as
scope (``who does like to ACT``, cue and punctuation outside, as the corpus annotates
``which would not come``), ``nor`` with its clause (``does he like to ACT``), ``not`` of
"Many people, but not NAME, like to ACT" with ``NAME like to ACT`` (as "the noun but not
the plural" in the corpus), and the affix ``un`` of "Unlike NAME" with ``like`` and
``NAME`` (as "not unlike some huge moth" in the corpus). Events are not annotated. The
other conventions are derived from these (:func:`spacy_negation.challenge.expected_negations`).
"""
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

#: (token index, start, end) of a negation part.
PartKey = Tuple[int, int, int]
#: The punctuation tokens of the templates (outside every scope).
PUNCT = {".", ","}


@dataclass
class Expected:
    """One expected negation: its cue and scope parts, and the tokens its predicted scope
    must hold (``acts``: the ACT tokens of the scope; see
    :func:`spacy_negation.challenge.expected_negations`)."""

    cue: List[PartKey]
    scope: List[PartKey]
    acts: List[int] = field(default_factory=list)
    #: what ``acts`` is in the BioScope and SFU Review conventions where it differs (the
    #: NAME of "but not NAME"); None: the same
    acts_bioscope_sfu: Optional[List[int]] = None


def whole_part(words: Sequence[str], i: int) -> PartKey:
    """The part covering the whole token i."""
    return (i, 0, len(words[i]))


def cdsco_negations(words: Sequence[str], sent_starts: Sequence[bool], slots: Sequence[str]) -> List[Expected]:
    """The expected negations of a filled template's tokens in the CD-SCO convention (see
    the module docstring).

    words (Sequence[str]): the tokens.
    sent_starts (Sequence[bool]): whether each token starts a sentence.
    slots (Sequence[str]): the template slot of each token (``ACT1``... for activities).
    RETURNS (List[Expected]): the expected negations, in the order of their cues.
    """
    out: List[Expected] = []
    sent_end = [0] * len(words)
    end = len(words)
    for i in range(len(words) - 1, -1, -1):
        sent_end[i] = end
        if sent_starts[i]:
            end = i
    for i, w in enumerate(words):
        if w == "n't":  # "who does n't like to A , B , or C ." / "... , nor does he ..."
            start = i - 2  # "who"
            stop = next((j for j in range(i, sent_end[i]) if words[j] == "nor"), sent_end[i])
            scope = [j for j in range(start, stop) if j != i and words[j] not in PUNCT]
            out.append(_with_acts(words, slots, [whole_part(words, i)], scope))
        elif w == "nor":
            scope = [j for j in range(i + 1, sent_end[i]) if words[j] not in PUNCT]
            out.append(_with_acts(words, slots, [whole_part(words, i)], scope))
        elif w == "not" and i >= 1 and words[i - 1] == "but":  # "Many people, but not N, like to A."
            scope = [i + 1] + [j for j in range(i + 3, sent_end[i]) if words[j] not in PUNCT]
            e = _with_acts(words, slots, [whole_part(words, i)], scope)
            e.acts_bioscope_sfu = [i + 1]
            out.append(e)
        elif w == "Unlike":
            out.append(Expected(cue=[(i, 0, 2)], scope=[(i, 2, len(w)), whole_part(words, i + 1)]))
    return out


def _with_acts(words: Sequence[str], slots: Sequence[str], cue: List[PartKey],
               scope_idx: List[int]) -> Expected:
    return Expected(cue=cue, scope=[whole_part(words, j) for j in scope_idx],
                    acts=[j for j in scope_idx if slots[j].startswith("ACT")])
