"""The records of a spaCy example (spacy_negation.scoring.doc_records) that the scorers
count on: the reference's sentences, joined where a predicted negation spans two of them
(so that scope tokens in another sentence count), and whitespace tokens, scored when they
hold a cue."""
from typing import Dict, List, Optional, Sequence

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from spacy_negation import register_extensions, set_negations
from spacy_negation.scoring.doc_records import example_records
from spacy_negation.scoring.scorers import score_negation_scopes, score_negations


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    register_extensions()
    return spacy.blank("en").vocab


def make_doc(vocab: Vocab, words: List[str], spaces: List[bool], negs: Sequence[Dict],
             sent_starts: Optional[List[bool]] = None) -> Doc:
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts)
    set_negations(doc, [dict(n) for n in negs])
    return doc


# --- sentences joined by a negation across them -------------------------------------------
WORDS = ["He", "did", "not", "go", ".", "She", "stayed", "."]
SPACES = [True, True, True, False, True, True, False, False]
STARTS = [True, False, False, False, False, True, False, False]
GOLD = {"cue": [(2, 0, 3)], "scope": [(0, 0, 2), (1, 0, 3), (3, 0, 2)]}


def test_predicted_scope_tokens_in_another_sentence_are_false_positives(vocab):
    ref = make_doc(vocab, WORDS, SPACES, [GOLD], STARTS)
    wrong = dict(GOLD, scope=GOLD["scope"] + [(5, 0, 3), (6, 0, 6)])
    pred = make_doc(vocab, WORDS, SPACES, [wrong])  # no sentence boundaries predicted
    scores = score_negation_scopes([Example(pred, ref)])
    assert scores["neg_scm_f"] == 0.0 and scores["neg_full_f"] == 0.0  # was 1.0
    assert scores["neg_st_p"] == pytest.approx(3 / 5) and scores["neg_st_r"] == 1.0
    assert scores["neg_nis_tok_f"] < 1.0 and scores["neg_nis_ex_f"] == 0.0
    gold, system, _ = example_records(Example(pred, ref))
    assert len(gold) == len(system) == 1 and len(gold[0].tokens) == 8  # the two joined
    # a gold scope across the boundary that the prediction misses: false negatives
    ref2 = make_doc(vocab, WORDS, SPACES, [wrong], STARTS)
    pred2 = make_doc(vocab, WORDS, SPACES, [GOLD])
    scores = score_negation_scopes([Example(pred2, ref2)])
    assert scores["neg_st_r"] == pytest.approx(3 / 5) and scores["neg_scm_f"] == 0.0
    # the right prediction still scores 1.0, the sentences stay apart
    scores = score_negation_scopes([Example(make_doc(vocab, WORDS, SPACES, [GOLD]), ref)])
    assert scores["neg_scm_f"] == scores["neg_st_f"] == scores["neg_full_f"] == 1.0
    gold, _, _ = example_records(Example(make_doc(vocab, WORDS, SPACES, [GOLD]), ref))
    assert len(gold) == 2


def test_three_sentences_joined_once(vocab):
    words = ["No", ".", "A", ".", "B", ".", "C", "."]
    spaces = [True] * 7 + [False]
    starts = [True, False, True, False, True, False, True, False]
    ref = make_doc(vocab, words, spaces, [{"cue": [(0, 0, 2)], "scope": [(2, 0, 1)]},
                                          {"cue": [(2, 0, 1)], "scope": [(4, 0, 1)]}], starts)
    gold, system, _ = example_records(Example(make_doc(vocab, words, spaces, []), ref))
    assert [len(r.tokens) for r in gold] == [6, 2] and [len(r.instances) for r in gold] == [2, 0]
    assert [len(r.tokens) for r in system] == [6, 2]


# --- whitespace tokens --------------------------------------------------------------------
def test_identical_docs_with_a_whitespace_cue_score_one(vocab):
    words = ["He", "\n", "left", "."]
    spaces = [False, False, False, False]
    neg = {"cue": [(1, 0, 1)], "scope": [(0, 0, 2), (2, 0, 4)]}
    ref = make_doc(vocab, words, spaces, [neg])
    pred = make_doc(vocab, words, spaces, [neg])
    scores = score_negations([Example(pred, ref)])
    for key in ("neg_cue_f", "neg_scm_f", "neg_st_f", "neg_nis_tok_f", "neg_full_f", "neg_fair_f"):
        assert scores[key] == 1.0, key  # was 0.0
    # a missed whitespace cue is a false negative, not nothing
    scores = score_negations([Example(make_doc(vocab, words, spaces, []), ref)])
    assert scores["neg_cue_r"] == 0.0 and scores["neg_cue_p"] == 0.0
    gold, system, _ = example_records(Example(make_doc(vocab, words, spaces, []), ref))
    assert len(gold[0].instances) == 1 and gold[0].tokens[1] == "\n"
    # whitespace tokens that are no cue are not scored
    gold, _, _ = example_records(Example(pred, make_doc(vocab, words, spaces, [])))
    assert gold[0].tokens == ["He", "\n", "left", "."]
    gold, _, _ = example_records(Example(make_doc(vocab, words, spaces, []),
                                         make_doc(vocab, words, spaces, [])))
    assert gold[0].tokens == ["He", "left", "."]
