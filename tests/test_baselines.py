"""The punctuation baseline."""
import spacy
from spacy.tokens import Doc

from spacy_negation import register_extensions
from spacy_negation.baselines import apply_punct_baseline


def _doc():
    register_extensions()
    nlp = spacy.blank("en")
    words = ["I", "was", "not", "there", ",", "and", "he", "was", "unhappy", "and", "careless", "."]
    tags = ["PRP", "VBD", "RB", "RB", ",", "CC", "PRP", "VBD", "JJ", "CC", "JJ", "."]
    doc = Doc(nlp.vocab, words=words, tags=tags, sent_starts=[True] + [False] * 11)
    doc._.negations = [
        {"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3]], "event": [doc[3]]},
        {"cue": [(8, 0, 2)], "scope": [(8, 2, 7)]},
        {"cue": [(10, 4, 8)], "scope": [(10, 0, 4)]},
    ]
    return doc


def test_punct_baseline_scopes():
    doc = apply_punct_baseline(_doc())
    not_, un, less = sorted(doc._.negations, key=lambda n: n.id)
    assert not_.scope_text == "there" and not_.event == ()
    assert un.cue_text == "un" and un.scope_text == "happy and careless"
    assert less.cue_text == "less" and less.scope_text == "care"


def test_punct_baseline_stops_at_sentence_end():
    register_extensions()
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["Not", "here", "Then", "there"], sent_starts=[True, False, True, False])
    doc._.negations = [{"cue": [doc[0]]}]
    assert apply_punct_baseline(doc)._.negations[0].scope_text == "here"
