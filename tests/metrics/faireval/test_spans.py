"""FairEval spans: the overlap types of two ranges, and the negation spans of a *SEM
sentence (cues by type, scopes without punctuation) scored with FairEval."""
from typing import List, Tuple

import pytest

from spacy_negation.corpora.starsem import parse_starsem
from spacy_negation.metrics.faireval import negation_faireval, negation_spans, overlap_type

from util import fspan


@pytest.mark.parametrize("target,system,expected", [
    ((3, 5), (3, 5), "TP"),
    ((3, 5), (3, 4), "BES"), ((3, 5), (4, 5), "BES"), ((3, 5), (4, 4), "BES"),
    ((3, 5), (3, 6), "BEL"), ((3, 5), (2, 5), "BEL"), ((3, 5), (1, 9), "BEL"),
    ((3, 5), (1, 3), "BEO"), ((3, 5), (4, 7), "BEO"), ((3, 5), (5, 9), "BEO"),
    ((3, 5), (1, 2), None), ((3, 5), (6, 7), None),
])
def test_overlap_type(target, system, expected):
    assert overlap_type(target, system) == expected


# --- negation spans -----------------------------------------------------------------------
def _sentence(rows: List[Tuple[str, str, List[Tuple[str, str, str]]]]):
    """rows: (form, POS, [(cue, scope, event) per instance])."""
    lines = []
    for i, (form, pos, cells) in enumerate(rows):
        neg = [c for inst in cells for c in inst] if cells else ["***"]
        lines.append("\t".join(["d", "0", str(i), form, form.lower(), pos, "*", *neg]))
    return next(parse_starsem(lines))


_ = "_"


def test_negation_spans_affixal_and_punctuation():
    sent = _sentence([("It", "PRP", [(_, "It", _)]), ("was", "VBD", [(_, "was", _)]),
                      ("unusual", "JJ", [("un", "usual", "usual")]), (".", ".", [(_, ".", _)])])
    assert negation_spans(sent) == [fspan("AFFIX", 3, 3), fspan("SCOPE", 1, 3)]


def test_negation_spans_multiword_and_order():
    rows = [("Neither", "CC", [("Neither", _, _), (_, _, _)]),
            ("he", "PRP", [(_, "he", _), (_, _, _)]),
            ("nor", "CC", [("nor", _, _), (_, _, _)]),
            ("she", "PRP", [(_, "she", _), (_, _, _)]),
            ("came", "VBD", [(_, "came", "came"), (_, _, _)]),
            ("without", "IN", [(_, _, _), ("without", _, _)]),
            ("hats", "NNS", [(_, _, _), (_, "hats", _)])]
    assert negation_spans(_sentence(rows)) == [
        fspan("MWCUE", 1, 3, 1, 3), fspan("SCOPE", 2, 5, 2, 4, 5), fspan("CUE", 6, 6), fspan("SCOPE", 7, 7)]


def test_negation_spans_punctuation_only_scope():
    rows = [("No", "DT", [("No", _, _)]), ("(", "-LRB-", [(_, "(", _)]),
            ("!", ".", [(_, "!", _)]), ("''", "''", [(_, "''", _)]), ("'s", "POS", [(_, _, _)])]
    assert negation_spans(_sentence(rows)) == [fspan("CUE", 1, 1)]
    # the gold-POS rule: "'" tagged POS is a scope token
    rows[4] = ("'s", "POS", [(_, "'s", _)])
    assert negation_spans(_sentence(rows)) == [fspan("CUE", 1, 1), fspan("SCOPE", 5, 5)]
    assert negation_spans(_sentence([("Fine", "JJ", []), (".", ".", [])])) == []


def test_negation_faireval():
    gold = _sentence([("It", "PRP", [(_, "It", _)]), ("was", "VBD", [(_, "was", _)]),
                      ("unusual", "JJ", [("un", "usual", _)])])
    system = _sentence([("It", "PRP", [(_, _, _)]), ("was", "VBD", [(_, "was", _)]),
                        ("unusual", "JJ", [("unusual", "unusual", _)])])
    r = negation_faireval([gold], [system])
    # AFFIX predicted as a whole-word CUE: LE; scope {2,3} in {1,2,3}: BES
    assert (r["fair"]["LE"], r["fair"]["BES"], r["fair"]["TP"]) == (1, 1, 0)
    assert r["confusion"]["AFFIX"]["CUE"] == 1 and r["confusion"]["SCOPE"]["SCOPE"] == 1
