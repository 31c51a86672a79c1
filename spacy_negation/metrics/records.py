"""The plain per-sentence records every metric counts on.

A :class:`SentenceRecord` holds what the three metric families need of one sentence and
nothing else: the token texts, a punctuation mask and the negation instances, each a
:class:`NegationRecord` of ``(i, start, end)`` parts per role (token ``i``, characters
``start:end`` of its text). Like the plain inputs of seqeval (Nakayama 2018) and the
cluster lists of spaCy's coreference (``doc2clusters``), records come from any source:
the streaming *SEM reader (:mod:`.starsem.io`) builds them from files, the spaCy scorers
(:mod:`spacy_negation.scoring.scorers`) from ``Doc`` objects. Nothing here imports spaCy.

The cell of a role on a token is the text its parts cover on that token, in order; the
*SEM scorer (Morante & Blanco 2012) compares cells by token index and string, so two
parts covering equal strings are equal, as in the reference scorer.
"""
from typing import Iterable, List, NamedTuple, Optional, Sequence, Tuple

#: A part of a role: (token index, start, end) with start < end, characters of the token.
Part = Tuple[int, int, int]
#: A cell: (token index, the covered text).
Cell = Tuple[int, str]
#: The roles of a negation instance, in *SEM column order.
ROLES: Tuple[str, str, str] = ("cue", "scope", "event")


class NegationRecord(NamedTuple):
    """One negation instance.

    cue (Tuple[Part, ...]): the cue parts, sorted, never empty.
    scope (Tuple[Part, ...]): the scope parts, sorted, possibly empty.
    event (Tuple[Part, ...]): the negated-event parts, sorted, possibly empty.
    """

    cue: Tuple[Part, ...]
    scope: Tuple[Part, ...] = ()
    event: Tuple[Part, ...] = ()


class SentenceRecord(NamedTuple):
    """One sentence as the metrics see it.

    tokens (Sequence[str]): the token texts.
    punct (Sequence[bool]): per token, punctuation by the *SEM gold-POS rule (the reference
        scorer's: a POS without a character of ``[A-Za-z0-9_]``, or ``-LRB-``/``-RRB-``).
        Scopes of the *SEM rows and of the FairEval negation spans drop these tokens; the
        gold record's mask is used for both sides.
    instances (Sequence[NegationRecord]): the instances in column order.
    nis_punct (Optional[Sequence[bool]]): per token, punctuation for NIS (Sineva et al.
        2021); None: decided on each scope cell's own string, as their scripts do.
    """

    tokens: Sequence[str]
    punct: Sequence[bool]
    instances: Sequence[NegationRecord] = ()
    nis_punct: Optional[Sequence[bool]] = None


def normalize_parts(parts: Iterable[Part]) -> Tuple[Part, ...]:
    """Sort parts and merge those that overlap or touch on the same token (the form
    records require).

    parts (Iterable[Part]): (token, start, end) parts in any order.
    RETURNS (Tuple[Part, ...]): the sorted, merged parts.
    """
    out: List[Part] = []
    for i, s, e in sorted(parts):
        if out and out[-1][0] == i and s <= out[-1][2]:
            if e > out[-1][2]:
                out[-1] = (i, out[-1][1], e)
        else:
            out.append((i, s, e))
    return tuple(out)


def cells(tokens: Sequence[str], parts: Sequence[Part]) -> Tuple[Cell, ...]:
    """The cells of a role: per token (in order) the text its parts cover.

    tokens (Sequence[str]): the sentence's token texts.
    parts (Sequence[Part]): the role's sorted parts.
    RETURNS (Tuple[Cell, ...]): (token index, text) per token.
    """
    out: List[Cell] = []
    for i, s, e in parts:
        if out and out[-1][0] == i:
            out[-1] = (i, out[-1][1] + tokens[i][s:e])
        else:
            out.append((i, tokens[i][s:e]))
    return tuple(out)


def cue_type(tokens: Sequence[str], cue: Sequence[Cell]) -> str:
    """The type of a cue: "affixal" (a cue cell differs from its token's text; wins),
    "multiword" (two or more cue tokens) or "normal".

    tokens (Sequence[str]): the sentence's token texts.
    cue (Sequence[Cell]): the cue cells.
    RETURNS (str): the type.
    """
    if any(c != tokens[i] for i, c in cue):
        return "affixal"
    return "multiword" if len(cue) > 1 else "normal"
