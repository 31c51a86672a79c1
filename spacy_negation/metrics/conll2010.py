"""The scope measure of the CoNLL-2010 shared task (Farkas, Vincze, Móra, Csirik & Szarvas
2010, "The CoNLL-2010 Shared Task: Learning to Detect Hedges and their Scope in Natural
Language Text", CoNLL 2010, task 2), the reference evaluation of hedge scope detection on
BioScope: a scope counts as found only when its cue and both of its boundaries equal those
of a gold scope exactly; P = found / system scopes, R = found / gold scopes.

On the plain records of :mod:`.records` (negations or speculations alike):

* **Cue**: the instance's cue parts, ``(token, start, end)`` each, equal as they are (an
  affix is not its whole word, a multiword cue needs every part).
* **Boundaries**: the first character (token and offset) and the last character of the
  scope *with its cue*, as BioScope's ``<xcope>`` spans it (the readers take the cue out of
  the scope, the CD-SCO convention; the boundaries put it back, so that the measure is
  the shared task's). What lies between the boundaries is not compared: a scope with a
  gap counts as the contiguous one around it. An instance without scope parts has the
  boundaries of its cue.
* Gold and system scopes of a sentence are matched one to one by equal (cue, start, end);
  two equal system scopes find two equal gold scopes, not one twice. No punctuation rule.

Counting (:func:`count_record`, :class:`Conll2010Counts`) is separate from division
(:func:`conll2010_scores`). Nothing here imports spaCy.
"""
from collections import Counter
from dataclasses import dataclass
from typing import Dict, Iterable, Tuple

from .core import Counts, f1, safe_div
from .records import NegationRecord, Part, SentenceRecord

#: An instance as the measure compares it: (cue parts, first (token, start), last (token, end)).
ScopeKey = Tuple[Tuple[Part, ...], Tuple[int, int], Tuple[int, int]]


@dataclass
class Conll2010Counts(Counts):
    """Scope counts: gold scopes, system scopes and system scopes that found a gold scope."""

    gold: int = 0
    system: int = 0
    found: int = 0


def scope_key(instance: NegationRecord) -> ScopeKey:
    """The cue and the scope boundaries of an instance (the scope with its cue).

    instance (NegationRecord): the instance (a cue of at least one part).
    RETURNS (ScopeKey): (cue parts, (first token, start), (last token, end)).
    """
    parts = tuple(instance.cue) + tuple(instance.scope)
    first = min((i, s) for i, s, _ in parts)
    last = max((i, e) for i, _, e in parts)
    return tuple(instance.cue), first, last


def count_instances(gold: Iterable[NegationRecord], system: Iterable[NegationRecord],
                    counts: Conll2010Counts) -> int:
    """Count the scopes of one sentence (or any unit) into ``counts``.

    gold (Iterable[NegationRecord]): the gold instances.
    system (Iterable[NegationRecord]): the system instances.
    counts (Conll2010Counts): the running counts (changed in place).
    RETURNS (int): the scopes found in this unit.
    """
    g = Counter(scope_key(x) for x in gold)
    s = Counter(scope_key(y) for y in system)
    found = sum(min(n, s[key]) for key, n in g.items())
    counts.gold += sum(g.values())
    counts.system += sum(s.values())
    counts.found += found
    return found


def count_record(gold: SentenceRecord, system: SentenceRecord, counts: Conll2010Counts) -> int:
    """Count one pair of records on the same tokens (see :func:`count_instances`).

    gold (SentenceRecord): the reference record.
    system (SentenceRecord): the system record.
    counts (Conll2010Counts): the running counts (changed in place).
    RETURNS (int): the scopes found in this sentence.
    """
    return count_instances(gold.instances, system.instances, counts)


def conll2010_scores(counts: Conll2010Counts) -> Dict[str, float]:
    """Precision, recall and F1 of the scopes (0.0 for any zero denominator).

    counts (Conll2010Counts): the counts.
    RETURNS (Dict[str, float]): {"p", "r", "f"}.
    """
    p = safe_div(counts.found, counts.system)
    r = safe_div(counts.found, counts.gold)
    return {"p": p, "r": r, "f": f1(p, r)}
