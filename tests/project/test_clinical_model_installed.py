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


def test_readme_quotes_only_cases_checked_here() -> None:
    """The README's sentence on what the clinical model negates without a list quotes cases of
    this file (each expected negated), so the test above checks the claim where the model is
    installed."""
    import re
    from pathlib import Path

    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").split())
    claim = re.search(r"Without a list it negates the header in (.+?)\. With", readme)
    assert claim is not None
    quoted = re.findall(r'"([^"]+)"', claim.group(1))
    assert len(quoted) == 3
    negated = {text for text, _, neg in CASES if neg}
    assert set(quoted) <= negated, set(quoted) - negated
