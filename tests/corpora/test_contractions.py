"""Contracted copies of negated sentences (spacy_negation.corpora.contractions)."""
import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.corpora.contractions import AUXILIARIES, contract, contractible, contracted_copies
from spacy_negation.negation import get_convention, get_negations, set_convention, set_negations


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def negated(nlp, text, cue, scope, convention="bioscope"):
    doc = nlp(text)
    set_negations(doc, [{"cue": [doc[i] for i in cue], "scope": [doc[i] for i in scope]}])
    set_convention(doc, convention)
    return doc


def test_contract_keeps_the_negation(nlp):
    doc = negated(nlp, "The drug does not help here .", cue=[3], scope=[0, 1, 2, 4, 5])
    new = contract(doc)
    assert new.text == "The drug doesn't help here ."
    (neg,) = get_negations(new)
    assert neg.cue_text == "n't"
    assert [t.text for t in neg.scope_tokens] == ["The", "drug", "does", "help", "here"]
    assert get_convention(new) == "bioscope"


@pytest.mark.parametrize("aux", sorted(AUXILIARIES))
def test_contracted_tokens_are_the_tokenizers(nlp, aux):
    for form in (aux, aux.capitalize()):
        doc = negated(nlp, f"It {form} not matter", cue=[2], scope=[0, 1, 3])
        new = contract(doc)
        assert [t.text for t in nlp(new.text)] == [t.text for t in new]
        assert new[2].text == "n't"


def test_nothing_to_contract(nlp):
    assert contract(negated(nlp, "It cannot matter", cue=[1], scope=[0, 3])) is None
    assert contract(negated(nlp, "Not the drug .", cue=[0], scope=[1, 2])) is None
    assert contract(negated(nlp, "but not the drug", cue=[1], scope=[2, 3])) is None
    assert contractible(negated(nlp, "It is  not so", cue=[3], scope=[0, 1, 4])) == []


def test_partial_parts_are_left_alone(nlp):
    doc = nlp("It is not unhappy")
    set_negations(doc, [{"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3]]}, {"cue": [(3, 0, 2)], "scope": [(3, 2, 7)]}])
    assert contractible(doc) == [2]
    doc = nlp("It is not so")
    set_negations(doc, [{"cue": [(2, 0, 2)], "scope": [doc[3]]}])
    assert contractible(doc) == []


def test_contracted_copies(nlp):
    docs = [negated(nlp, f"It does not matter {i}", cue=[2], scope=[0, 1, 3]) for i in range(20)]
    docs.append(negated(nlp, "No fever", cue=[0], scope=[1]))
    docs.append(nlp("It does not matter"))  # "not" is no cue here
    assert len(list(contracted_copies(docs, 1.0))) == 20
    assert list(contracted_copies(docs, 0.0)) == []
    half = [d.text for d in contracted_copies(docs, 0.5, seed=3)]
    assert 0 < len(half) < 20 and half == [d.text for d in contracted_copies(docs, 0.5, seed=3)]


@pytest.mark.parametrize("ratio", [-0.1, 1.5])
def test_bad_ratio(nlp, ratio):
    with pytest.raises(ValueError, match=r"\[NEG-E147\]"):
        list(contracted_copies([], ratio))
