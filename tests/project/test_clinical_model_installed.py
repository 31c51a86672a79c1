"""The installed clinical model (``spacy project run clinical``) on the clinical phrasings
that docs/clinical_model.md says it resolves without a cue list: a bare cue after a
section header negates the header ("Allergies: none."), and a following cue negates the
finding before it ("Blood cultures were negative."). Runs where ``en_negation_clinical``
is installed."""
from typing import List, Tuple

import pytest
import spacy
from spacy.tokens import Span

MODEL = "en_negation_clinical"

#: (text, concept, negated)
CASES: List[Tuple[str, str, bool]] = [
    ("Allergies: none.", "Allergies", True),
    ("MEDICATIONS: None.", "MEDICATIONS", True),
    ("ROS: negative.", "ROS", True),
    ("Blood cultures were negative.", "Blood cultures", True),
    ("Allergies: penicillin.", "Allergies", False),
    ("Allergies: none. Medications: lisinopril.", "lisinopril", False),
]


@pytest.mark.slow
@pytest.mark.skipif(not spacy.util.is_package(MODEL), reason=f"{MODEL} is not installed")
@pytest.mark.parametrize("text,concept,negated", CASES)
def test_clinical_model_negates_headers_and_findings_before_a_cue(text: str, concept: str, negated: bool) -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("negation", config={"model": MODEL})
    doc = nlp.make_doc(text)
    start = text.index(concept)
    span = doc.char_span(start, start + len(concept))
    assert span is not None
    doc.ents = [Span(doc, span.start, span.end, label="CONCEPT")]
    doc = nlp(doc)
    assert doc.ents[0]._.negated is negated, [(n.cue_text, n.scope_text) for n in doc._.negations]
