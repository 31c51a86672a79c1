"""displaCy rendering of negations."""
import pytest

from spacy_negation import displacy_data, render
from spacy_negation.corpora.starsem_docs import CDSCO_FILES, read_starsem_docs


@pytest.mark.slow
def test_render_real_sentence_with_affixal_and_discontinuous_cue(cdsco_dir):
    docs = read_starsem_docs(cdsco_dir / CDSCO_FILES["training"], n_sents=1)
    doc = next(d for d in docs if any(n.is_affixal for n in d._.negations)
               and any(n.is_discontinuous for n in d._.negations))
    # baskervilles09 272: "... an unmitigated scoundrel for whom there was neither pity nor excuse."
    assert "unmitigated" in doc.text and "neither pity nor excuse" in doc.text
    data = displacy_data(doc)
    labels = {s["label"] for s in data["spans"]}
    assert {"CUE 1 [un]", "SCOPE 1 [mitigated]", "CUE 2", "SCOPE 2", "EVENT 2"} <= labels
    cue2 = [s for s in data["spans"] if s["label"] == "CUE 2"]
    assert [data["tokens"][s["start_token"]] for s in cue2] == ["neither", "nor"]  # discontinuous
    html = render(doc, jupyter=False)
    for label in ("CUE 1 [un]", "CUE 2", "SCOPE 2"):
        assert label in html
    # cues and scopes get different colours
    assert "#ff9e9e" in html and "#9ec5ff" in html


def test_render_doc_without_negations():
    import spacy
    from spacy_negation import register_extensions
    register_extensions()
    doc = spacy.blank("en")("Nothing here? Well, fine.")
    assert displacy_data(doc)["spans"] == []
    assert "Nothing" in render(doc, jupyter=False)
