"""The stored instances (the span groups ``doc.spans["negations"]`` and
``doc.spans["speculations"]``) follow retokenization: merges, ``merge_entities`` (also in a
host pipeline, before or after the ``negation`` component), splits of a token with an
affixal cue, and a merge that joins a cue with other tokens (warned once); each test but the
host pipeline's runs for both kinds."""
import warnings
from typing import List, Tuple

import pytest
import spacy
from spacy.pipeline.functions import merge_entities
from spacy.tokens import Doc, Span

from spacy_negation.negation import SPANS_KEY

from util import KindAccess




def _stored(doc: Doc, kind: KindAccess = KindAccess("negation")) -> List[Tuple[str, str]]:
    """(label, text) of each span of the stored group, by the spans' token indices."""
    return sorted((span.label_, doc[span.start:span.end].text) for span in doc.spans[kind.key])


def _expected(doc: Doc, kind: KindAccess = KindAccess("negation")) -> List[Tuple[str, str]]:
    """(label, text) of each part run as the instances see it."""
    out = []
    for neg in kind.get(doc):
        for role in kind.roles:
            for start, end in neg.offsets(role):
                out.append((role.upper(), doc.text[start:end]))
    return sorted(out)


def test_span_group_follows_a_merge(nlp, kind):
    d = nlp("The drug did not help the patient .")
    kind.put(d, [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]], "event": [d[4]]}])
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])  # "The drug"
    (neg,) = kind.get(d)
    assert neg.cue_text == "not" and (kind.name == "speculation" or neg.event_text == "help")
    assert ("CUE", "not") in _stored(d, kind)  # was ("CUE", "help"): stale token indices
    assert _stored(d, kind) == _expected(d, kind)
    cue = [s for s in d.spans[kind.key] if s.label_ == "CUE"][0]
    assert (cue.start, cue.end, cue.text) == (2, 3, "not")


def test_span_group_follows_merge_entities(nlp, kind):
    d = nlp("New York did not approve the plan .")
    d.ents = [Span(d, 0, 2, "GPE")]
    kind.set(d, [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]]}])
    d = merge_entities(d)
    assert [n.cue_text for n in kind.get(d)] == ["not"]
    assert _stored(d, kind) == _expected(d, kind) and ("CUE", "not") in _stored(d, kind)
    # a token extension is enough to bring the group up to date
    e = nlp("New York did not approve the plan .")
    e.ents = [Span(e, 0, 2, "GPE")]
    kind.set(e, [{"cue": [e[3]], "scope": [e[4]]}])
    e = merge_entities(e)
    assert kind.is_cue(e[2]) and _stored(e, kind) == [("CUE", "not"), ("SCOPE", "approve")]
    assert not kind.covered(e.ents[0]) and kind.covered(e[3])


def test_span_group_follows_a_split_and_an_affix(nlp, kind):
    d = nlp("I am unhappy today .")
    kind.set(d, [{"cue": [(2, 0, 2)], "scope": [(0, 0, 1), (1, 0, 2), (2, 2, 7)]}])
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])
    assert [(p.i, p.start, p.end) for p in kind.get(d)[0].cue] == [(1, 0, 2)]
    stored = {s.label_: (s.start, s.end) for s in d.spans[kind.key] if s.label_ == "CUE"}
    assert stored == {"CUE": (1, 2)}
    with d.retokenize() as retokenizer:
        retokenizer.split(d[1], ["un", "happy"], heads=[(d[1], 1), d[0]])
    assert kind.get(d)[0].cue_text == "un" and kind.is_cue(d[1])
    assert _stored(d, kind) == _expected(d, kind)
    # the stored group survives serialization with the right tokens
    again = Doc(d.vocab).from_bytes(d.to_bytes())
    assert _stored(again, kind) == _stored(d, kind) and kind.get(again) == kind.get(d)


def test_a_merge_that_joins_a_cue_warns_once_and_stores_the_affix(nlp, kind):
    d = nlp("He did not go .")
    kind.set(d, [{"cue": [d[2]], "scope": [d[0], d[1], d[3]]}])
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[1:3])
    with pytest.warns(UserWarning, match=rf"\[NEG-W003\] {kind.name.capitalize()} 0: "):
        (neg,) = kind.get(d)
    assert neg.cue_text == "not" and neg.cue[0].i == 1 and neg.is_affixal
    assert neg.scope_text == "He did go"
    cue = [s for s in d.spans[kind.key] if s.label_ == "CUE"][0]
    assert cue.text == "did not"  # the merged token that holds the cue characters
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kind.get(d)[0].cue_text == "not"  # stored again: no second warning


def test_host_pipeline_with_merge_entities(trained_cnn_dir):
    for order in ("before", "after"):
        host = spacy.blank("en")
        ruler = host.add_pipe("entity_ruler")
        ruler.add_patterns([{"label": "EVENT", "pattern": "the party"},
                            {"label": "PERSON", "pattern": "Neither he"}])
        if order == "before":
            host.add_pipe("merge_entities")
        host.add_pipe("negation", config={"model": str(trained_cnn_dir)})
        if order == "after":
            host.add_pipe("merge_entities")
        doc = host("No one came to the party.")
        negs = doc._.negations
        assert [n.cue_text for n in negs] == ["No"], order
        assert _stored(doc) == _expected(doc), order
        assert doc[4].text == "the party" and doc[4]._.negated
