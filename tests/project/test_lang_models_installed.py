"""The installed Norwegian and Spanish clinical models (``spacy project run norec`` and
``nubes``) as the per-language defaults of ``nlp.add_pipe("negation")``: a blank pipeline of
the language loads them without a ``model``, and the Spanish clinical model sets
``doc._.speculations`` and ``ent._.uncertain`` (the README's "posible neumonía"). Runs where
the models are installed."""
import pytest
import spacy
from spacy.tokens import Span


def _pipeline(lang: str) -> spacy.language.Language:
    nlp = spacy.blank(lang)
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("negation")  # the default of the language
    return nlp


@pytest.mark.slow
@pytest.mark.skipif(not spacy.util.is_package("nb_negation_norec"), reason="nb_negation_norec is not installed")
def test_norwegian_default_model() -> None:
    nlp = _pipeline("nb")
    assert nlp.get_pipe("negation").negation_nlp.meta["name"] == "negation_norec"
    doc = nlp("Filmen er ikke spesielt morsom.")
    assert [n.cue_text for n in doc._.negations] == ["ikke"]
    assert doc[4]._.negated  # morsom


@pytest.mark.slow
@pytest.mark.skipif(not spacy.util.is_package("es_negation_clinical"), reason="es_negation_clinical is not installed")
def test_spanish_default_model_resolves_negation_and_uncertainty() -> None:
    nlp = _pipeline("es")
    assert nlp.get_pipe("negation").negation_nlp.meta["name"] == "negation_clinical"
    doc = nlp.make_doc("Posible neumonía. No presenta fiebre.")
    doc.ents = [Span(doc, 1, 2, label="DISO"), Span(doc, 5, 6, label="DISO")]
    doc = nlp(doc)
    pneumonia, fever = doc.ents
    assert pneumonia._.uncertain and not pneumonia._.negated, [(s.cue_text, s.scope_text) for s in doc._.speculations]
    assert fever._.negated and not fever._.uncertain, [(n.cue_text, n.scope_text) for n in doc._.negations]
