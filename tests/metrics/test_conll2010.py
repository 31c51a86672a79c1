"""The CoNLL-2010 scope measure on hand-made records: a scope counts only when its cue and
both boundaries of the scope with its cue match exactly, one to one."""
import pytest

from spacy_negation.metrics.conll2010 import (Conll2010Counts, conll2010_scores, count_instances, count_record,
                                              scope_key)
from spacy_negation.metrics.records import NegationRecord, SentenceRecord

# 0 The 1 drug 2 may 3 possibly 4 help 5 unhappy 6 patients 7 .
TOKENS = ["The", "drug", "may", "possibly", "help", "unhappy", "patients", "."]


def w(*positions):
    """Whole-token parts."""
    return tuple((i, 0, len(TOKENS[i])) for i in positions)


def inst(cue, scope=()):
    return NegationRecord(tuple(cue), tuple(scope), ())


GOLD = inst(w(2), w(3, 4, 5, 6))  # "may" with the scope "possibly help unhappy patients"


def score(gold, system):
    counts = Conll2010Counts()
    count_record(SentenceRecord(TOKENS, [False] * 8, gold), SentenceRecord(TOKENS, [False] * 8, system), counts)
    return counts, conll2010_scores(counts)


@pytest.mark.parametrize("system,found", [
    (GOLD, 1),                                      # exact
    (inst(w(2), w(3, 4, 5)), 0),                    # the last boundary differs
    (inst(w(2), w(3, 4, 5, 6, 7)), 0),              # the last boundary differs (punctuation too)
    (inst(w(3), w(2, 4, 5, 6)), 0),                 # another cue, same boundaries
    (inst(w(2, 3), w(4, 5, 6)), 0),                 # a multiword cue is not its first word
    (inst(w(2), w(3, 6)), 1),                       # a gap: only the boundaries count
    (inst(w(2), w(6)), 1),                          # the first boundary is the cue's (scope with its cue)
    (inst(w(2), w(0, 1, 3, 4, 5, 6)), 0),           # the subject added: the first boundary moves
    (inst(((2, 0, 2),), w(3, 4, 5, 6)), 0),         # part of the cue word
])
def test_a_scope_counts_only_with_its_cue_and_both_boundaries(system, found):
    counts, scores = score([GOLD], [system])
    assert (counts.gold, counts.system, counts.found) == (1, 1, found)
    assert scores == {"p": float(found), "r": float(found), "f": float(found)}


def test_boundaries_are_characters_and_the_cue_is_put_back():
    # the affix "un" of "unhappy" as cue, "happy patients" as scope: the boundaries are
    # (5, 0) and (6, 8), the cue's start and the scope's end
    affix = inst(((5, 0, 2),), ((5, 2, 7),) + w(6))
    assert scope_key(affix) == (((5, 0, 2),), (5, 0), (6, 8))
    assert scope_key(inst(w(2))) == (w(2), (2, 0), (2, 3))  # no scope: the cue's boundaries
    assert score([affix], [inst(((5, 0, 2),), w(6))])[1]["f"] == 1.0  # same boundaries, a gap
    assert score([affix], [inst(((5, 0, 2),), ((5, 2, 6),) + w(6))])[1]["f"] == 1.0
    assert score([affix], [inst(((5, 0, 2),), ((5, 2, 7),))])[1]["f"] == 0.0  # ends at "unhappy"


def test_matching_is_one_to_one_and_precision_recall_differ():
    counts, scores = score([GOLD], [GOLD, GOLD])
    assert (counts.gold, counts.system, counts.found) == (1, 2, 1)
    assert scores == pytest.approx({"p": 0.5, "r": 1.0, "f": 2 / 3})
    other = inst(w(3), w(4, 5, 6))
    counts, scores = score([GOLD, other], [other])
    assert (counts.found, scores["p"], scores["r"]) == (1, 1.0, 0.5)


def test_counts_add_over_sentences_and_zero_denominators_give_zero():
    counts = Conll2010Counts()
    assert count_instances([GOLD], [GOLD], counts) == 1
    assert count_instances([GOLD], [], counts) == 0
    assert (counts.gold, counts.system, counts.found) == (2, 1, 1)
    assert conll2010_scores(counts) == pytest.approx({"p": 1.0, "r": 0.5, "f": 2 / 3})
    assert conll2010_scores(Conll2010Counts()) == {"p": 0.0, "r": 0.0, "f": 0.0}
    total = Conll2010Counts()
    total += counts
    total += counts
    assert total.as_dict() == {"gold": 4, "system": 2, "found": 2}
