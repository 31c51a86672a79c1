"""What is particular to speculations beside negations (the storage and survival tests of
test_negation.py and test_retokenization.py run for both kinds): no event (E018), each
kind in its own span group, mirror and index, the instance classes kept apart, and
``ent._.uncertain`` with the span rule of ``ent._.negated``."""
import pickle

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span

from spacy_negation.negation import (SPECULATIONS_KEY, Negation, Speculation, get_negations, get_speculations,
                                     register_extensions, set_negations, set_speculations, set_span_rule)


@pytest.fixture
def nlp():
    register_extensions()
    return spacy.blank("en")


@pytest.fixture
def doc(nlp):
    # 0 The 1 drug 2 may 3 not 4 help 5 patients 6 with 7 chest 8 pain 9 .
    doc = nlp("The drug may not help patients with chest pain .")
    doc._.negations = [{"cue": [doc[3]], "scope": [doc[0], doc[1], doc[4], doc[5], doc[6], doc[7], doc[8]],
                        "event": [doc[4]]}]
    doc._.speculations = [{"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3], doc[4], doc[5], doc[6], doc[7],
                                                       doc[8]]}]
    return doc


def test_both_kinds_live_apart_on_one_doc(doc, nlp):
    (neg,), (spec,) = doc._.negations, doc._.speculations
    assert (neg.cue_text, spec.cue_text) == ("not", "may") and spec.scope_text == "The drug not help patients with chest pain"
    assert doc[3]._.is_neg_cue and not doc[3]._.is_spec_cue and doc[3]._.uncertain and not doc[3]._.negated
    assert doc[2]._.is_spec_cue and not doc[2]._.negated and [s.cue_text for s in doc[4]._.speculations] == ["may"]
    assert set(doc.spans) == {"negations", SPECULATIONS_KEY}
    doc._.speculations = []  # one kind's setter leaves the other kind alone
    assert doc._.negations == [neg] and doc._.speculations == [] and not doc[4]._.uncertain
    assert get_negations(doc) == [neg] and get_speculations(doc) == []


def test_both_kinds_survive_serialization_together(doc, nlp):
    keys = ([n.all_parts() for n in doc._.negations], [s.all_parts() for s in doc._.speculations])
    for store_user_data in (True, False):
        db = DocBin(store_user_data=store_user_data, docs=[doc])
        new = list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0]
        assert ([n.all_parts() for n in new._.negations], [s.all_parts() for s in new._.speculations]) == keys
    new = pickle.loads(pickle.dumps(doc))
    assert [s.all_parts() for s in new._.speculations] == keys[1]
    part = doc[2:10].as_doc(copy_user_data=True)  # both mirrors; the cue of each lies inside
    assert [(n.cue_text, n.scope_text) for n in part._.negations] == [("not", "help patients with chest pain")]
    assert [(s.cue_text, s.scope_text) for s in part._.speculations] == [("may", "not help patients with chest pain")]


def test_entity_semantics_as_negation(doc):
    """``ent._.uncertain`` follows the span rule of ``ent._.negated``: by default a cue outside
    the entity whose scope covers all its words."""
    doc.ents = [Span(doc, 7, 9, label="PROBLEM"), Span(doc, 0, 2, label="DRUG")]
    pain, drug = sorted(doc.ents, key=lambda e: e.start, reverse=True)
    assert pain._.uncertain and pain._.negated and [s.cue_text for s in pain._.speculations] == ["may"]
    assert drug._.uncertain and drug._.negated
    assert not Span(doc, 2, 5)._.uncertain  # "may not help": its own cue inside the span
    set_span_rule(doc, "any")
    assert Span(doc, 2, 5)._.uncertain and [s.cue_text for s in Span(doc, 2, 5)._.speculations] == ["may"]


def test_an_event_of_a_speculation_is_an_error(nlp):
    d = nlp("It may rain .")
    with pytest.raises(ValueError, match=r"\[NEG-E018\] Speculation 0 has an event"):
        d._.speculations = [{"cue": [d[1]], "scope": [d[0], d[2]], "event": [d[2]]}]
    with pytest.raises(ValueError, match=r"\[NEG-E018\]"):
        set_speculations(d, [{"cue": [d[1]], "event": [(2, 0, 4)]}])
    with pytest.raises(ValueError, match=r"\[NEG-E018\]"):
        Speculation(d, [d[1]], [d[0]], [d[2]])
    assert SPECULATIONS_KEY not in d.spans
    # an empty event is no event: a negation's spec converts as it is
    d._.speculations = [{"cue": [d[1]], "scope": [d[0], d[2]], "event": []}]
    (spec,) = d._.speculations
    assert spec.scope_text == "It rain" and spec.to_dict().keys() == {"id", "cue_type", "cue", "scope"}
    with pytest.raises(ValueError, match=r"\[NEG-E004\] Unknown speculation role 'event'; expected one of 'cue', 'scope'"):
        spec.parts("event")
    assert not hasattr(spec, "event") and repr(spec) == "Speculation(cue='may', scope='It rain')"


def test_an_event_span_in_the_speculation_group_is_an_error(nlp):
    d = nlp("It may rain .")
    d.spans[SPECULATIONS_KEY] = [Span(d, 1, 2, "CUE", kb_id="0@0"), Span(d, 2, 3, "EVENT", kb_id="0@-3")]
    with pytest.raises(ValueError, match=r"\[NEG-E006\] .*'EVENT', which is not a speculation role \(CUE, SCOPE\)"):
        get_speculations(d)


def test_the_kinds_do_not_mix(nlp):
    d = nlp("It may not rain .")
    d._.negations = [{"cue": [d[2]], "scope": [d[3]]}]
    d._.speculations = [{"cue": [d[2]], "scope": [d[3]]}]
    (neg,), (spec,) = d._.negations, d._.speculations
    assert neg.all_parts()[:2] == spec.all_parts() and neg != spec and spec != neg
    assert isinstance(spec, Speculation) and not isinstance(spec, Negation)
    with pytest.raises(ValueError, match=r"\[NEG-E011\] Speculation 0 is Negation\(.*expected a Speculation"):
        d._.speculations = [neg]
    with pytest.raises(ValueError, match=r"\[NEG-E011\] Negation 0 is Speculation\("):
        set_negations(d, [spec])
    with pytest.raises(ValueError, match=r"\[NEG-E010\] doc._.speculations must be set to a list of speculations"):
        d._.speculations = spec
    with pytest.raises(ValueError, match=r"\[NEG-E013\] Speculation 0 has unknown key\(s\) \['events'\]; the keys "
                                         r"are 'cue' and 'scope'"):
        d._.speculations = [{"cue": [d[1]], "events": []}]


def test_speculations_of_the_public_api(nlp):
    import spacy_negation.negation as model

    d = Doc(nlp.vocab, words=["Perhaps", "not", "."])
    set_speculations(d, [Speculation(d, [d[0]], [d[1]])])
    assert [s.cue_text for s in get_speculations(d)] == ["Perhaps"] and get_negations(d) == []
    assert {"Speculation", "get_speculations", "set_speculations", "SPECULATIONS_KEY"} <= set(model.__all__)
