"""The negation data model and its storage through every serialization and spaCy doc
operation (retokenization, Doc.from_docs, Span.as_doc, to_json/from_json), the setter's
coded errors and the index of the extensions."""
import gc
import pickle
import warnings
import weakref

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
import spacy
import srsly
from spacy.pipeline.functions import merge_entities
from spacy.tokens import Doc, DocBin, Span, SpanGroup

from spacy_negation import Negation, Part, SPANS_KEY, get_negations, register_extensions, set_negations
from spacy_negation.negation import SPAN_RULE_KEY, get_span_rule, set_span_rule
from spacy_negation.negation.extensions import _token_negated
from spacy_negation.negation.storage import MIRROR


@pytest.fixture
def nlp():
    register_extensions()
    return spacy.blank("en")


@pytest.fixture
def doc(nlp):
    # 0 He 1 was 2 neither 3 unhappy 4 nor 5 restlessly 6 pacing 7 .
    doc = Doc(nlp.vocab, words=["He", "was", "neither", "unhappy", "nor", "restlessly", "pacing", "."],
              sent_starts=[True] + [False] * 7)
    doc._.negations = [
        {"cue": [doc[2], doc[4]], "scope": [doc[0], doc[1], doc[6]], "event": [doc[6]]},
        {"cue": [(3, 0, 2)], "scope": [doc[0], doc[1], (3, 2, 7)], "event": [(3, 2, 7)]},
        {"cue": [(5, 4, 8)], "scope": [(5, 0, 4)]},
    ]
    return doc


def _summary(doc):
    return [(n.id, n.cue, n.scope, n.event, n.cue_text, n.scope_text) for n in doc._.negations]


def test_parts_text_tokens_offsets(doc):
    neither, unhappy, restless = doc._.negations
    assert neither.cue_text == "neither nor"
    assert [t.i for t in neither.cue_tokens] == [2, 4]
    assert neither.is_multiword and neither.is_discontinuous and not neither.is_affixal
    assert neither.cue_type == "multiword"
    assert unhappy.cue_text == "un" and unhappy.scope_text == "He was happy"
    assert unhappy.is_affixal and unhappy.cue_type == "affixal"
    assert unhappy.cue_offsets == [(doc[3].idx, doc[3].idx + 2)]
    # contiguous whole tokens merge into one range; the partial part stays separate
    assert unhappy.scope_offsets == [(0, 6), (doc[3].idx + 2, doc[3].idx + 7)]
    assert restless.cue_text == "less" and restless.scope_text == "rest"
    assert doc.text[slice(*restless.cue_offsets[0])] == "less"
    assert restless.to_dict()["cue"]["parts"] == [[5, 4, 8]]


def test_document_order_and_storage_ids(nlp):
    doc = nlp("Not this , never that")
    doc._.negations = [{"cue": [doc[3]]}, {"cue": [doc[0]]}]
    assert [n.cue_text for n in doc._.negations] == ["Not", "never"]
    assert [n.id for n in doc._.negations] == [1, 0]


def test_conveniences(doc, nlp):
    assert doc[0]._.negated and not doc[2]._.negated
    assert len(doc[0]._.negations) == 2 and doc[6]._.negations[0].cue_text == "neither nor"
    assert doc[2]._.is_neg_cue and doc[3]._.is_neg_cue and not doc[0]._.is_neg_cue
    span = Span(doc, 5, 7, label="X")
    # the default rule: a cue outside the span whose scope covers all its words; "less" lies
    # inside "restlessly pacing" and "neither … nor" covers only "pacing"
    assert not span._.negated and span._.negations == []
    assert [n.cue_text for n in Span(doc, 6, 7)._.negations] == ["neither nor"]
    assert not Span(doc, 3, 4)._.negated  # "unhappy": its own affix does not negate it
    assert [n.cue_text for n in Span(doc, 0, 4)._.negations] == []  # "unhappy" not in neither's scope
    set_span_rule(doc, "outside_any")
    assert [n.cue_text for n in span._.negations] == ["neither nor"] and not Span(doc, 3, 4)._.negated
    set_span_rule(doc, "any")  # the token view: any token in any scope
    assert [n.cue_text for n in span._.negations] == ["neither nor", "less"] and Span(doc, 3, 4)._.negated
    assert get_span_rule(pickle.loads(pickle.dumps(doc))) == "any"
    set_span_rule(doc, "outside_all")
    assert SPAN_RULE_KEY not in doc.user_data and get_span_rule(doc) == "outside_all"
    with pytest.raises(ValueError, match=r"\[NEG-E331\]"):
        set_span_rule(doc, "all")
    assert not Span(doc, 7, 8)._.negated
    doc.ents = [Span(doc, 6, 7, label="ACT")]
    assert doc.ents[0]._.negated


@pytest.mark.parametrize("use_user_data", [True, False])
def test_docbin_round_trip(doc, nlp, use_user_data):
    db = DocBin(store_user_data=use_user_data)
    db.add(doc)
    new = list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0]
    assert _summary(new) == _summary(doc)


def test_bytes_and_pickle_round_trip(doc, nlp):
    assert _summary(Doc(nlp.vocab).from_bytes(doc.to_bytes())) == _summary(doc)
    assert _summary(pickle.loads(pickle.dumps(doc))) == _summary(doc)


def test_n_process_2(doc, nlp):
    docs = [doc, nlp("No negation here ."), nlp("")]
    out = list(nlp.pipe(docs, n_process=2, batch_size=1))
    assert [_summary(d) for d in out] == [_summary(d) for d in docs]


def test_register_extensions_idempotent():
    register_extensions()
    register_extensions()
    assert Doc.has_extension("negations") and Token_has("negated")


def Token_has(name):
    from spacy.tokens import Token
    return Token.has_extension(name)


def test_foreign_extension_is_not_overwritten():
    from spacy.tokens import Token
    register_extensions()
    getter, setter = Token.get_extension("negated")[2], None
    Token.remove_extension("negated")
    Token.set_extension("negated", default=False)
    try:
        with pytest.raises(ValueError, match=r"\[NEG-E009\]"):
            register_extensions()
    finally:
        Token.remove_extension("negated")
        Token.set_extension("negated", getter=_token_negated)


def test_empty_doc_and_no_negations(nlp):
    doc = nlp("")
    assert doc._.negations == []
    doc._.negations = []
    assert len(doc.spans[SPANS_KEY]) == 0
    assert get_negations(nlp("Fine .")) == []


@pytest.mark.parametrize(
    "spec,code",
    [
        ({"cue": []}, "E001"),
        ({"cue": [(9, 0, 1)]}, "E002"),
        ({"cue": [(0, 0, 9)]}, "E003"),
        ({"cue": [(0, 1, 1)]}, "E003"),
        ({"cue": ["no"]}, "E005"),
        ({"cue": [(2, 0, 2), (2, 2, 4)]}, "E008"),
    ],
)
def test_invalid_negations(nlp, spec, code):
    doc = nlp("I am unhappy")
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
        set_negations(doc, [spec])
    assert SPANS_KEY not in doc.spans


def test_parts_from_another_doc_rejected(nlp):
    doc, other = nlp("not this"), nlp("not that")
    with pytest.raises(ValueError, match=r"\[NEG-E007\]"):
        Negation(doc, [other[0]])


def test_foreign_label_in_group_is_an_error(nlp):
    doc = nlp("not this")
    doc.spans[SPANS_KEY] = [Span(doc, 0, 1, label="OTHER")]
    with pytest.raises(ValueError, match=r"\[NEG-E006\]"):
        get_negations(doc)


def test_parts_of_an_unknown_role_is_an_error(doc):
    neg = doc._.negations[0]
    assert [p.i for p in neg.parts("cue")] == [2, 4]
    with pytest.raises(ValueError, match=r"\[NEG-E004\] Unknown negation role 'scopes'"):
        neg.parts("scopes")


def test_corrupt_entry_of_the_user_data_mirror_is_an_error(doc):
    """A doc made by ``Span.as_doc(copy_user_data=True)`` has no span group: its negations
    are read from the user-data mirror, whose entries must read 'LABEL k@anchor[:s-e]'."""
    part = doc[2:8].as_doc(copy_user_data=True)
    assert len(part._.negations) == 3
    key = next(k for k in part.user_data if isinstance(k, tuple) and k[:2] == ("._.", MIRROR))
    part = doc[2:8].as_doc(copy_user_data=True)
    part.user_data[key] = ("CUE no-anchor",)
    with pytest.raises(ValueError, match=r"\[NEG-E016\] Corrupt negation storage entry 'CUE no-anchor'"):
        get_negations(part)


def test_whitespace_tokens_and_odd_spacing(nlp):
    doc = nlp("I  do\tnot \n like it")
    not_i = [t.text for t in doc].index("not")
    doc._.negations = [{"cue": [doc[not_i]], "scope": [doc[0], doc[len(doc) - 1]]}]
    (neg,) = doc._.negations
    assert neg.cue_text == "not" and doc.text[slice(*neg.cue_offsets[0])] == "not"
    assert Part(not_i, 0, 3) in neg.cue


# --- spaCy doc operations, the setter, the index ----------------------------------------------
def _four_negations(nlp):
    # 0 He 1 was 2 neither 3 unhappy 4 nor 5 restlessly 6 pacing 7 . 8 No 9 one 10 came 11 .
    doc = nlp("He was neither unhappy nor restlessly pacing . No one came .")
    doc._.negations = [
        {"cue": [doc[2], doc[4]], "scope": [doc[0], doc[1], doc[6]], "event": [doc[6]]},
        {"cue": [(3, 0, 2)], "scope": [doc[0], doc[1], (3, 2, 7)], "event": [(3, 2, 7)]},
        {"cue": [(5, 4, 8)], "scope": [(5, 0, 4)]},
        {"cue": [doc[8]], "scope": [doc[9], doc[10]], "event": [doc[10]]},
    ]
    return doc


@pytest.fixture
def doc4(nlp):
    return _four_negations(nlp)


def _texts(doc):
    return [(n.cue_text, n.scope_text, n.event_text) for n in doc._.negations]


def _offsets(doc):
    return [(n.cue_offsets, n.scope_offsets, n.event_offsets) for n in doc._.negations]


EXPECTED = [("neither nor", "He was pacing", "pacing"), ("un", "He was happy", "happy"),
            ("less", "rest", ""), ("No", "one came", "came")]


# --- retokenization ---------------------------------------------------------------------------
def test_merge_entities_keeps_the_cue(nlp):
    d = nlp("New York did not approve the plan .")
    d.ents = [Span(d, 0, 2, "GPE")]
    d._.negations = [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]]}]
    d = merge_entities(d)
    (neg,) = d._.negations
    assert neg.cue_text == "not" and neg.cue == (neg.cue[0].__class__(2, 0, 3),)
    assert neg.scope_text == "New York did approve the plan"
    assert d[0]._.negated and d[2]._.is_neg_cue and not d[3]._.is_neg_cue


def test_merge_and_split_keep_affixes(nlp):
    d = nlp("I am unhappy .")
    d._.negations = [{"cue": [(2, 0, 2)], "scope": [(2, 2, 7)]}]
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])
    (neg,) = d._.negations
    assert (neg.cue_text, neg.scope_text) == ("un", "happy")
    assert [(p.i, p.start, p.end) for p in neg.cue + neg.scope] == [(1, 0, 2), (1, 2, 7)]
    with d.retokenize() as retokenizer:
        retokenizer.split(d[1], ["un", "happy"], heads=[(d[1], 1), d[0]])
    (neg,) = d._.negations
    # the affix is now a token of its own: whole-token parts
    assert [(p.i, p.start, p.end) for p in neg.cue + neg.scope] == [(1, 0, 2), (2, 0, 5)]
    assert not neg.is_affixal and d[1]._.is_neg_cue and d[2]._.negated



def test_merge_of_two_scope_parts_with_other_text_warns(nlp):
    d = nlp("He said not that she came .")
    d._.negations = [{"cue": [d[2]], "scope": [d[0], d[1], d[3], d[5]]}]
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[3:6])  # "that she came": "she" is not in the scope
    with pytest.warns(UserWarning, match=r"\[NEG-W004\]"):
        (neg,) = d._.negations
    assert neg.scope_text == "He said that she came" and neg.cue_text == "not"


# --- doc operations ---------------------------------------------------------------------------
def test_from_docs_keeps_the_instances_of_each_doc_apart(doc4, nlp):
    doc = doc4
    joined = Doc.from_docs([doc, doc])
    assert _texts(joined) == EXPECTED * 2
    half = len(doc.text) + 1
    assert _offsets(joined)[4:] == [tuple([(a + half, b + half) for a, b in r] for r in o)
                                    for o in _offsets(doc)]


def test_from_docs_keeps_affix_ranges(doc4, nlp):
    doc = doc4
    joined = Doc.from_docs([nlp("Hello there ."), doc])
    assert _texts(joined) == EXPECTED
    assert joined._.negations[1].cue_text == "un" and joined._.negations[1].is_affixal


def test_to_json_from_json_keeps_every_instance(doc4, nlp):
    doc = doc4
    assert _texts(Doc(nlp.vocab).from_json(doc.to_json())) == EXPECTED


def test_as_doc_with_user_data_keeps_the_instances_whose_cue_is_inside(doc4):
    doc = doc4
    part = doc[2:8].as_doc(copy_user_data=True)  # neither unhappy nor restlessly pacing .
    # the scope parts outside the span are cut off; "No" lies outside: dropped
    assert _texts(part) == [("neither nor", "pacing", "pacing"), ("un", "happy", "happy"),
                            ("less", "rest", "")]
    assert doc[2:8].as_doc()._.negations == []  # spaCy copies neither span groups nor user data
    assert _texts(doc[5:12].as_doc(copy_user_data=True)) == [("less", "rest", ""),
                                                            ("No", "one came", "came")]


def test_another_storage_version_is_an_error(nlp):
    """A span group of the earlier storage (the instance number in ``Span.id``, no kb_id) is
    refused with a code, not read."""
    d = nlp("He was unhappy .")
    spans = [Span(d, 2, 3, "CUE", span_id=0), Span(d, 0, 2, "SCOPE", span_id=0)]
    d.spans[SPANS_KEY] = SpanGroup(d, name=SPANS_KEY, spans=spans, attrs={"version": 1})
    with pytest.raises(ValueError, match=r"\[NEG-E017\].*storage version 1.*version 2"):
        _texts(d)


# --- the setter ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value,code",
    [
        (None, "E010"),
        ("abc", "E010"),
        ({"cue": [(0, 0, 1)]}, "E010"),
        ([None], "E011"),
        ([{"cue": 3}], "E012"),
        ([{"cue": "am"}], "E012"),
        ([{"cue": [(1, 0, 2)], "scopes": [(0, 0, 1)]}], "E013"),
        ([{"cue": [(True, 0, 1)]}], "E014"),
        ([{"cue": [(2, 0, 2)], "scope": [(2, 1, 7)]}], "E015"),
        ([{"cue": [(1, 0, 2)], "scope": [(1, 0, 2)]}], "E015"),
    ],
)
def test_setter_errors_are_coded_and_change_nothing(nlp, value, code):
    d = nlp("I am unhappy")
    d._.negations = [{"cue": [(2, 0, 2)], "scope": [(0, 0, 1), (2, 2, 7)]}]
    before = d.to_bytes()
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
        d._.negations = value
    assert d.to_bytes() == before
    assert [n.cue_text for n in d._.negations] == ["un"]


def test_set_negations_keeps_a_corpus_scope_that_holds_its_cue(nlp):
    d = nlp("an infinite series")
    spec = [{"cue": [(1, 0, 2)], "scope": [d[1], d[2]]}]  # as in CD-SCO training
    with pytest.raises(ValueError, match=r"\[NEG-E015\]"):
        d._.negations = spec
    set_negations(d, spec)
    assert [(n.cue_text, n.scope_text) for n in d._.negations] == [("in", "infinite series")]


def test_setter_accepts_negation_objects_and_generators(doc4, nlp):
    doc = doc4
    other = nlp(doc.text)
    other._.negations = (n for n in doc._.negations)
    assert _texts(other) == EXPECTED and all(n.doc is other for n in other._.negations)


# --- the index -------------------------------------------------------------------------------
def test_index_follows_every_change(doc4, nlp):
    doc = doc4
    assert doc[9]._.negated and doc[8]._.is_neg_cue
    doc._.negations = [{"cue": [doc[2], doc[4]], "scope": [doc[0]]}]  # setter
    assert not doc[9]._.negated and not doc[8]._.is_neg_cue and doc[0]._.negated
    doc.spans[SPANS_KEY].append(Span(doc, 8, 9, "CUE", kb_id="1@0"))  # direct edit
    assert doc[8]._.is_neg_cue and [n.cue_text for n in doc._.negations] == ["neither nor", "No"]
    group = doc.spans[SPANS_KEY]
    group[len(group) - 1] = Span(doc, 9, 10, "CUE", kb_id="1@0")  # in place: not detected
    assert doc[8]._.is_neg_cue
    assert [n.cue_text for n in get_negations(doc)] == ["neither nor", "one"]  # re-read
    assert doc[9]._.is_neg_cue and not doc[8]._.is_neg_cue
    doc.spans[SPANS_KEY] = []  # replaced group
    assert not doc[0]._.negated and doc._.negations == []
    d = nlp("New York did not approve .")
    d._.negations = [{"cue": [d[3]], "scope": [d[4]]}]
    assert d[4]._.negated and d[3]._.is_neg_cue
    with d.retokenize() as retokenizer:  # retokenization
        retokenizer.merge(d[0:2])
    assert d[3]._.negated and d[2]._.is_neg_cue and len(d) == 5
    assert Span(d, 3, 4)._.negated and Span(d, 3, 4)._.negations[0].cue_text == "not"


def test_index_keeps_nothing_alive_and_user_data_stays_serializable(nlp):
    doc = _four_negations(nlp)
    assert doc[0]._.negated
    assert srsly.msgpack_loads(srsly.msgpack_dumps(doc.user_data), use_list=False) == doc.user_data
    copy = pickle.loads(pickle.dumps(doc))
    assert _texts(copy) == EXPECTED
    db = DocBin(store_user_data=True, docs=[doc])
    assert _texts(list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0]) == EXPECTED
    ref = weakref.ref(doc)
    del doc, copy, db
    gc.collect()
    assert ref() is None  # the index holds no reference to its doc


def test_negation_lists_outlive_their_doc_reference(nlp):
    negs = nlp("I did not go .")
    negs._.negations = [{"cue": [negs[2]], "scope": [negs[0], negs[1], negs[3]]}]
    found = negs[3]._.negations
    del negs
    gc.collect()
    assert isinstance(found[0], Negation) and found[0].cue_text == "not"


def test_warnings_are_not_raised_without_retokenization(doc4):
    doc = doc4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _texts(doc) == EXPECTED
    with pytest.raises(ValueError, match=r"\[NEG-E013\]"):
        set_negations(doc, [{"cue": [doc[8]], "evnt": []}])


# --- properties: every doc operation keeps the characters of every part --------------------
WORDS = ["He", "was", "not", "unhappy", "nor", "restless", ".", "No", "one", "came"]


VOCAB = spacy.blank("en").vocab


@st.composite
def negated_docs(draw):
    """A doc with negations: each instance a whole-token or affixal cue, and a scope of
    other whole tokens (plus the rest of the token for an affixal cue)."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=10))
    specs = []
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(words) - 1))
        affix = len(words[i]) > 2 and draw(st.booleans())
        others = draw(st.lists(st.sampled_from([j for j in range(len(words)) if j != i]),
                               max_size=4, unique=True))
        cue = [(i, 0, 2)] if affix else [(i, 0, len(words[i]))]
        scope = [(j, 0, len(words[j])) for j in others] + ([(i, 2, len(words[i]))] if affix else [])
        specs.append({"cue": cue, "scope": scope})
    register_extensions()
    doc = Doc(VOCAB, words=words)
    doc._.negations = specs
    return doc


def _chars(doc, shift=0):
    """Each instance as the sets of (non-space) characters of its cue and scope, sorted
    (a merge may join two parts across a space)."""
    text = doc.text

    def chars(offsets):
        return tuple(sorted({c + shift for a, b in offsets for c in range(a, b) if not text[c].isspace()}))

    return sorted((chars(n.cue_offsets), chars(n.scope_offsets)) for n in doc._.negations)


@settings(max_examples=60, deadline=None)
@given(negated_docs(), st.data())
def test_every_doc_operation_keeps_the_characters_of_every_part(doc, data):
    expected = _chars(doc)
    assert _chars(Doc(VOCAB).from_json(doc.to_json())) == expected
    shift = len(doc.text) + (not doc[-1].whitespace_)  # from_docs adds a space if needed
    assert _chars(Doc.from_docs([doc, doc])) == sorted(expected + _chars(doc, shift))
    assert _chars(pickle.loads(pickle.dumps(doc))) == expected
    start = data.draw(st.integers(0, len(doc) - 1))
    end = data.draw(st.integers(start + 1, len(doc)))
    with doc.retokenize() as retokenizer:
        retokenizer.merge(doc[start:end])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        merged = _chars(doc)
    if not any("[NEG-W004]" in str(w.message) for w in caught):
        assert merged == expected


@settings(max_examples=40, deadline=None)
@given(negated_docs(), st.data())
def test_a_split_keeps_the_characters_of_every_part(doc, data):
    expected = _chars(doc)
    assume(any(len(t) > 1 for t in doc))
    i = data.draw(st.sampled_from([t.i for t in doc if len(t) > 1]))
    at = data.draw(st.integers(1, len(doc[i]) - 1))
    other = doc[i - 1] if i else doc[i + 1]
    with doc.retokenize() as retokenizer:
        retokenizer.split(doc[i], [doc[i].text[:at], doc[i].text[at:]], heads=[(doc[i], 1), other])
    assert _chars(doc) == expected
