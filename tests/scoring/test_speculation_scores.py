"""The spaCy scorers on speculation instances: the *SEM, NIS, FairEval and CoNLL-2010 keys
of the speculations under ``spec_*`` beside the ``neg_*`` keys when the reference docs have
speculations, scored as the negations are; the kind as a parameter (score_instances,
example_records)."""
import warnings

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from spacy_negation.negation import NEGATIONS, SPECULATIONS, register_extensions
from spacy_negation.scoring.doc_records import example_records
from spacy_negation.scoring.scorers import (score_instances, score_negation_cues, score_negation_scopes,
                                            score_negations)

# 0 The 1 drug 2 may 3 not 4 help 5 patients 6 . 7 It 8 could 9 rain 10 .
WORDS = ["The", "drug", "may", "not", "help", "patients", ".", "It", "could", "rain", "."]
NEGS = [{"cue": [(3, 0, 3)], "scope": [(0, 0, 3), (1, 0, 4), (4, 0, 4), (5, 0, 8)]}]
SPECS = [{"cue": [(2, 0, 3)], "scope": [(0, 0, 3), (1, 0, 4), (3, 0, 3), (4, 0, 4), (5, 0, 8)]},
         {"cue": [(8, 0, 5)], "scope": [(7, 0, 2), (9, 0, 4)]}]


@pytest.fixture(scope="module")
def vocab():
    register_extensions()
    return spacy.blank("en").vocab


def make_doc(vocab, negs=NEGS, specs=SPECS):
    doc = Doc(vocab, words=WORDS, sent_starts=[True] + [False] * 6 + [True] + [False] * 3)
    doc._.negations = negs
    if specs is not None:
        doc._.speculations = specs
    return doc


def floats(scores, prefix):
    return {k[len(prefix):]: v for k, v in scores.items() if k.startswith(prefix) and isinstance(v, float)}


def test_speculations_are_scored_beside_negations(vocab):
    ref = make_doc(vocab)
    scores = score_negations([Example(make_doc(vocab), ref)])
    neg, spec = floats(scores, "neg_"), floats(scores, "spec_")
    assert neg.keys() == spec.keys() and {"conll2010_f", "nis_tok_f", "fair_f", "scm_b_f"} <= set(spec)
    assert set(neg.values()) == {1.0} and set(spec.values()) == {1.0}
    assert scores["spec_cue_per_type"]["normal"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    assert {k[5:] for k in scores if k.startswith("spec_")} == {k[4:] for k in scores if k.startswith("neg_")}


def test_a_pipeline_without_speculations_scores_zero_on_them_and_the_same_on_negations(vocab):
    ref = make_doc(vocab)
    pred = make_doc(vocab, specs=None)
    scores = score_negations([Example(pred, ref)])
    assert scores["spec_cue_r"] == 0.0 and scores["spec_conll2010_r"] == 0.0 and scores["spec_nis_tok_r"] == 0.0
    without = score_negations([Example(make_doc(vocab, specs=None), make_doc(vocab, specs=None))])
    assert not any(k.startswith("spec_") for k in without)  # a reference without speculations
    assert {k: v for k, v in scores.items() if k.startswith("neg_")} == without


def test_each_kind_on_its_own_and_the_cue_and_scope_scorers(vocab):
    ref = make_doc(vocab)
    # the system finds "may" with a scope that stops before "patients", and not "could"
    pred = make_doc(vocab, specs=[{"cue": [(2, 0, 3)], "scope": [(0, 0, 3), (1, 0, 4), (3, 0, 3), (4, 0, 4)]}])
    eg = Example(pred, ref)
    spec = score_instances([eg], SPECULATIONS)
    assert set(spec) == {k for k in score_negations([eg]) if k.startswith("spec_")}
    assert (spec["spec_cue_p"], spec["spec_cue_r"]) == (1.0, 0.5)
    assert spec["spec_conll2010_p"] == 0.0 and spec["spec_nis_ex_p"] == 0.0  # the end of the scope differs
    assert spec["spec_nis_tok_p"] == 1.0 and spec["spec_nis_tok_r"] == pytest.approx(0.8 / 2)
    assert score_instances([eg], NEGATIONS) == {k: v for k, v in score_negations([eg]).items() if k.startswith("neg_")}
    cues, scopes = score_negation_cues([eg]), score_negation_scopes([eg])
    assert {"spec_cue_f", "spec_nis_cue_f", "spec_cue_per_type"} <= set(cues) and "spec_nis_tok_f" not in cues
    assert {"spec_nis_tok_f", "spec_conll2010_f", "spec_fair_f"} <= set(scopes) and "spec_cue_f" not in scopes
    assert {**cues, **scopes} == score_negations([eg])


def test_example_records_of_speculations_have_no_event(vocab):
    ref = make_doc(vocab)
    gold, system, dropped = example_records(Example(make_doc(vocab, specs=[]), ref), SPECULATIONS)
    assert dropped == 0 and [len(r.instances) for r in gold] == [1, 1] and [len(r.instances) for r in system] == [0, 0]
    (may,), (could,) = (r.instances for r in gold)
    assert may.cue == ((2, 0, 3),) and may.event == () and could.scope == ((0, 0, 2), (2, 0, 4))


def test_the_conll2010_measure_of_negations(vocab):
    ref = make_doc(vocab, specs=None)
    longer = [{"cue": [(3, 0, 3)], "scope": [(0, 0, 3), (1, 0, 4), (4, 0, 4), (5, 0, 8), (6, 0, 1)]}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores = score_negations([Example(make_doc(vocab, negs=longer, specs=None), ref)])
    assert scores["neg_conll2010_f"] == 0.0 and scores["neg_cue_f"] == 1.0  # the scope takes the period
    assert scores["neg_nis_tok_r"] == 1.0
