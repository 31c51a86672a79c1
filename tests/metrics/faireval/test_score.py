"""FairEval scores: the weight formulas and the weighted scores."""
import pytest

from spacy_negation.metrics.faireval import (BE_WEIGHTS, BE_WEIGHTS_FORMULA, FAIR_WEIGHTS, PAPER_WEIGHTS,
                                             PAPER_WEIGHTS_FORMULA, faireval, format_weights, parse_weights,
                                             weighted_prf)

from util import fspan


def test_parse_weights():
    assert PAPER_WEIGHTS == {
        "LE": {"TP": 0, "FP": 0.5, "FN": 0.5}, "BES": {"TP": 0.5, "FP": 0, "FN": 0.5},
        "BEL": {"TP": 0.5, "FP": 0.5, "FN": 0}, "BEO": {"TP": 0.5, "FP": 0.25, "FN": 0.25},
        "LBE": {"TP": 0, "FP": 0.5, "FN": 0.5},
        "TP": {"TP": 1}, "FP": {"FP": 1}, "FN": {"FN": 1}}
    assert parse_weights("LE=.5*FP+0.5FN, FN = 2 FN,") == {
        "LE": {"TP": 0, "FP": 0.5, "FN": 0.5}, "FN": {"TP": 0, "FP": 0, "FN": 2.0},
        "TP": {"TP": 1}, "FP": {"FP": 1}}
    for formula in (PAPER_WEIGHTS_FORMULA, BE_WEIGHTS_FORMULA, "LE = 2 TP, FP = 0.5 FP"):
        assert parse_weights(format_weights(parse_weights(formula))) == parse_weights(formula)
    for bad, code in (("", "E252"), ("LE 0.5 FP", "E252"), ("LE = FP + FN", "E252"),
                      ("LE = 0.5 XP", "E252"), ("LE =", "E252"), ("XE = 1 FP", "E253"),
                      ("LE = 1 FP, LE = 1 FN", "E254"), ("LE = 1 FP + 1 FP", "E254")):
        with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
            parse_weights(bad)


def test_weighted_scores_and_weight_choices():
    counts = {"TP": 1, "FP": 1, "FN": 0, "LE": 1, "BE": 2, "BES": 1, "BEL": 0, "BEO": 1, "LBE": 0}
    # paper: tp = 1 + .5 + .5, fp = 1 + .5 + .25, fn = .5 + .5 + .25
    assert weighted_prf(counts, PAPER_WEIGHTS) == pytest.approx(
        {"p": 2 / 3.75, "r": 2 / 3.25, "f": 2 * (2 / 3.75) * (2 / 3.25) / (2 / 3.75 + 2 / 3.25)})
    # BE aggregate: tp = 1 + 1, fp = 1 + .5 + .5, fn = .5 + .5
    assert weighted_prf(counts, BE_WEIGHTS)["p"] == pytest.approx(2 / 4)
    assert weighted_prf({}, PAPER_WEIGHTS) == {"p": 0.0, "r": 0.0, "f": 0.0}
    target, system = [[fspan("A", 1, 4), fspan("B", 6, 6)]], [[fspan("A", 1, 2), fspan("C", 6, 6)]]
    fair = faireval(target, system, weights=None)
    assert fair["weighted"] == fair["fair"]
    assert faireval(target, system, weights=FAIR_WEIGHTS)["weighted"] == fair["fair"]
    assert faireval(target, system, weights=BE_WEIGHTS_FORMULA) == faireval(target, system,
                                                                            weights=BE_WEIGHTS)
    with pytest.raises(ValueError, match=r"\[NEG-E253\]"):
        faireval(target, system, weights={"XX": {"TP": 1}})
    with pytest.raises(ValueError, match=r"\[NEG-E256\]"):
        faireval(target, system, weights={"LE": {"TP": "1"}})
