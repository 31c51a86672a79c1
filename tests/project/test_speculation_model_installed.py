"""The installed speculation model ``en_negation_speculation`` (``spacy project run
general-speculation``) loaded with one setting of ``nlp.add_pipe("negation")``: the README's
example, with ``doc._.speculations``, ``token._.uncertain`` and ``ent._.uncertain`` beside the
negations, and ``speculation=False`` skipping them. Runs where the model is installed."""
import pytest
import spacy
from spacy.tokens import Span

MODEL = "en_negation_speculation"
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not spacy.util.is_package(MODEL), reason=f"{MODEL} is not installed")]


def _pipeline(**config: object) -> spacy.language.Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("negation", config={"model": MODEL, **config})
    return nlp


def test_readme_example_speculation_beside_negation() -> None:
    nlp = _pipeline()
    doc = nlp.make_doc("Possible pneumonia in the right lower lobe. No fever. The battery might last longer.")
    doc.ents = [Span(doc, 1, 2, label="PROBLEM"), Span(doc, 9, 10, label="PROBLEM")]
    doc = nlp(doc)
    pneumonia, fever = doc.ents
    found = [(s.cue_text, s.scope_text) for s in doc._.speculations]
    assert [cue for cue, _ in found] == ["Possible", "might"], found
    assert pneumonia._.uncertain and not pneumonia._.negated, found
    assert fever._.negated and not fever._.uncertain, [(n.cue_text, n.scope_text) for n in doc._.negations]
    assert doc[14]._.uncertain and not doc[12]._.uncertain  # "last" in the scope of "might", "battery" not (SFU convention: no subjects)


def test_speculation_off_leaves_the_negations() -> None:
    text = "Possible pneumonia in the right lower lobe. No fever. The battery might last longer."
    on, off = _pipeline()(text), _pipeline(speculation=False)(text)
    assert off._.speculations == [] and on._.speculations
    assert [(n.cue_text, n.scope_text) for n in off._.negations] == [(n.cue_text, n.scope_text) for n in on._.negations]
