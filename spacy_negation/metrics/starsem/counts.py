"""The counts of the *SEM 2012 CD-SCO scorer (Morante & Blanco 2012; ``eval.cd-sco.pl``
v2.2): one :class:`Count` per row of its table plus the sentence statistics, and their
division into P, R and F1 (:func:`starsem_scores`, with the zero rule of :mod:`..core`).
Counting itself is in :mod:`.evaluation`, the perl-style printout in
:mod:`.table`.
"""
from dataclasses import dataclass, field
from typing import Dict, Tuple

from ..core import Counts, f1, safe_div

#: The main rows, in printout order: (key, perl label, perl width of the gold column).
MAIN_ROWS: Tuple[Tuple[str, str, int], ...] = (
    ("cues", "Cues:", 28),
    ("scopes_cue_match", "Scopes(cue match):", 15),
    ("scopes_no_cue_match", "Scopes(no cue match):", 12),
    ("scope_tokens", "Scope tokens(no cue match):", 6),
    ("negated", "Negated(no cue match):", 11),
    ("full_negation", "Full negation:", 19),
)
#: The B rows: (key, base row, perl label, width). P_B = TP / system count of the row.
B_ROWS: Tuple[Tuple[str, str, str, int], ...] = (
    ("cues_b", "cues", "Cues B:", 26),
    ("scopes_cue_match_b", "scopes_cue_match", "Scopes B (cue match):", 12),
    ("scopes_no_cue_match_b", "scopes_no_cue_match", "Scopes B (no cue match):", 9),
    ("negated_b", "negated", "Negated B (no cue match):", 8),
    ("full_negation_b", "full_negation", "Full negation B:", 17),
)
ROW_KEYS: Tuple[str, ...] = tuple(k for k, _, _ in MAIN_ROWS)


@dataclass
class Count(Counts):
    """The counts of one row.

    gold (int): the gold count shown in the row (instances, scopes, tokens or events).
    system (int): the system count shown in the row; the B rows divide by it.
    tp (int): true positives (the TP used for P and R).
    fp (int): false positives.
    fn (int): false negatives.
    """

    gold: int = 0
    system: int = 0
    tp: int = 0
    fp: int = 0
    fn: int = 0


@dataclass
class StarsemCounts:
    """Corpus counts of the *SEM scorer: one :class:`Count` per main row plus the
    sentence statistics. Add corpora with ``+=``.

    sentences (int): sentences scored.
    negation_sentences (int): sentences whose gold has at least one instance.
    error_sentences (int): sentences with any error (as the scorer counts them).
    error_negation_sentences (int): negation sentences with any error.
    """

    cues: Count = field(default_factory=Count)
    scopes_cue_match: Count = field(default_factory=Count)
    scopes_no_cue_match: Count = field(default_factory=Count)
    scope_tokens: Count = field(default_factory=Count)
    negated: Count = field(default_factory=Count)
    full_negation: Count = field(default_factory=Count)
    sentences: int = 0
    negation_sentences: int = 0
    error_sentences: int = 0
    error_negation_sentences: int = 0

    def row(self, key: str) -> Count:
        """The counts of a main row (a key of :data:`ROW_KEYS`)."""
        if key not in ROW_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iadd__(self, other: "StarsemCounts") -> "StarsemCounts":
        for key in ROW_KEYS:
            self.row(key).add(other.row(key))
        self.sentences += other.sentences
        self.negation_sentences += other.negation_sentences
        self.error_sentences += other.error_sentences
        self.error_negation_sentences += other.error_negation_sentences
        return self



def starsem_scores(counts: StarsemCounts) -> Dict[str, Dict[str, float]]:
    """P, R and exact F1 (fractions) of every row, B rows included, plus the sentence
    statistics.

    counts (StarsemCounts): the counts.
    RETURNS (Dict[str, Dict[str, float]]): per row key {"gold", "system", "tp", "fp",
        "fn", "p", "r", "f"} (tp = the TP used for P/R); "sentences": {"total",
        "negation", "negation_with_errors", "correct_pct", "correct_negation_pct"}
        (percentages, unrounded).
    """
    out: Dict[str, Dict[str, float]] = {}
    b_of = {base: key for key, base, _, _ in B_ROWS}
    for key in ROW_KEYS:
        c = counts.row(key)
        r = safe_div(c.tp, c.tp + c.fn)
        p = safe_div(c.tp, c.tp + c.fp)
        out[key] = {**c.as_dict(), "p": p, "r": r, "f": f1(p, r)}
        if key in b_of:
            p_b = safe_div(c.tp, c.system)
            out[b_of[key]] = {**c.as_dict(), "p": p_b, "r": r, "f": f1(p_b, r)}
    out["sentences"] = {
        "total": counts.sentences,
        "negation": counts.negation_sentences,
        "negation_with_errors": counts.error_negation_sentences,
        "correct_pct": 100.0 - safe_div(counts.error_sentences * 100, counts.sentences),
        "correct_negation_pct": 100.0 - safe_div(counts.error_negation_sentences * 100,
                                                counts.negation_sentences),
    }
    return out

