"""The data model and its storage through every serialization and spaCy doc operation
(retokenization, Doc.from_docs, Span.as_doc, to_json/from_json), the setter's coded errors
and the index of the extensions; the storage and survival tests run for both kinds of
instance (the ``kind`` fixture: negations, and speculations with the same cues and scopes
and no event)."""
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
from spacy_negation.negation.extensions import _token_negated, _token_uncertain
from spacy_negation.negation.storage import MIRROR

from util import KindAccess




THREE = [  # on the words of the doc fixture
    {"cue": [2, 4], "scope": [0, 1, 6], "event": [6]},
    {"cue": [(3, 0, 2)], "scope": [0, 1, (3, 2, 7)], "event": [(3, 2, 7)]},
    {"cue": [(5, 4, 8)], "scope": [(5, 0, 4)]},
]


def _specs(doc, specs, kind):
    """Negation specs with token numbers as this kind's specs on a doc's tokens."""
    return [kind.spec({role: [doc[p] if isinstance(p, int) else p for p in parts] for role, parts in spec.items()})
            for spec in specs]


@pytest.fixture
def doc(nlp, kind):
    # 0 He 1 was 2 neither 3 unhappy 4 nor 5 restlessly 6 pacing 7 .
    doc = Doc(nlp.vocab, words=["He", "was", "neither", "unhappy", "nor", "restlessly", "pacing", "."],
              sent_starts=[True] + [False] * 7)
    kind.set(doc, _specs(doc, THREE, kind))
    return doc


def _summary(doc, kind):
    return [(n.id, n.all_parts(), n.cue_text, n.scope_text) for n in kind.get(doc)]


def test_parts_text_tokens_offsets(doc, kind):
    neither, unhappy, restless = kind.get(doc)
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


def test_document_order_and_storage_ids(nlp, kind):
    doc = nlp("Not this , never that")
    kind.set(doc, [{"cue": [doc[3]]}, {"cue": [doc[0]]}])
    assert [n.cue_text for n in kind.get(doc)] == ["Not", "never"]
    assert [n.id for n in kind.get(doc)] == [1, 0]


def test_conveniences(doc, nlp, kind):
    """The token and span extensions of each kind (``ent._.uncertain`` as ``ent._.negated``:
    the same span rule)."""
    assert kind.covered(doc[0]) and not kind.covered(doc[2])
    assert len(kind.of(doc[0])) == 2 and kind.of(doc[6])[0].cue_text == "neither nor"
    assert kind.is_cue(doc[2]) and kind.is_cue(doc[3]) and not kind.is_cue(doc[0])
    span = Span(doc, 5, 7, label="X")
    # the default rule: a cue outside the span whose scope covers all its words; "less" lies
    # inside "restlessly pacing" and "neither … nor" covers only "pacing"
    assert not kind.covered(span) and kind.of(span) == []
    assert [n.cue_text for n in kind.of(Span(doc, 6, 7))] == ["neither nor"]
    assert not kind.covered(Span(doc, 3, 4))  # "unhappy": its own affix does not negate it
    assert [n.cue_text for n in kind.of(Span(doc, 0, 4))] == []  # "unhappy" not in neither's scope
    set_span_rule(doc, "outside_any")
    assert [n.cue_text for n in kind.of(span)] == ["neither nor"] and not kind.covered(Span(doc, 3, 4))
    set_span_rule(doc, "any")  # the token view: any token in any scope
    assert [n.cue_text for n in kind.of(span)] == ["neither nor", "less"] and kind.covered(Span(doc, 3, 4))
    assert get_span_rule(pickle.loads(pickle.dumps(doc))) == "any"
    set_span_rule(doc, "outside_all")
    assert SPAN_RULE_KEY not in doc.user_data and get_span_rule(doc) == "outside_all"
    with pytest.raises(ValueError, match=r"\[NEG-E331\]"):
        set_span_rule(doc, "all")
    assert not kind.covered(Span(doc, 7, 8))
    doc.ents = [Span(doc, 6, 7, label="ACT")]
    assert kind.covered(doc.ents[0])


@pytest.mark.parametrize("use_user_data", [True, False])
def test_docbin_round_trip(doc, nlp, kind, use_user_data):
    db = DocBin(store_user_data=use_user_data)
    db.add(doc)
    new = list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0]
    assert _summary(new, kind) == _summary(doc, kind)


def test_bytes_and_pickle_round_trip(doc, nlp, kind):
    assert _summary(Doc(nlp.vocab).from_bytes(doc.to_bytes()), kind) == _summary(doc, kind)
    assert _summary(pickle.loads(pickle.dumps(doc)), kind) == _summary(doc, kind)


def test_n_process_2(doc, nlp, kind):
    docs = [doc, nlp("No negation here ."), nlp("")]
    out = list(nlp.pipe(docs, n_process=2, batch_size=1))
    assert [_summary(d, kind) for d in out] == [_summary(d, kind) for d in docs]


def test_register_extensions_idempotent():
    register_extensions()
    register_extensions()
    assert Doc.has_extension("negations") and Token_has("negated")
    assert Doc.has_extension("speculations") and Token_has("uncertain") and Token_has("is_spec_cue")
    assert Span.has_extension("uncertain") and Span.has_extension("speculations") and Token_has("speculations")


def Token_has(name):
    from spacy.tokens import Token
    return Token.has_extension(name)


@pytest.mark.parametrize("name,ours", [("negated", _token_negated), ("uncertain", _token_uncertain)])
def test_foreign_extension_is_not_overwritten(name, ours):
    from spacy.tokens import Token
    register_extensions()
    Token.remove_extension(name)
    Token.set_extension(name, default=False)
    try:
        with pytest.raises(ValueError, match=rf"\[NEG-E009\] The extension Token._.{name} "):
            register_extensions()
    finally:
        Token.remove_extension(name)
        Token.set_extension(name, getter=ours)


def test_empty_doc_and_no_negations(nlp, kind):
    doc = nlp("")
    assert kind.get(doc) == []
    kind.set(doc, [])
    assert len(doc.spans[kind.key]) == 0
    assert kind.read(nlp("Fine .")) == []
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
def test_invalid_negations(nlp, kind, spec, code):
    doc = nlp("I am unhappy")
    with pytest.raises(ValueError, match=rf"(?i)\[NEG-{code}\] .*{kind.name}"):
        kind.store(doc, [spec])
    assert kind.key not in doc.spans
    if kind.name == "negation":
        with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
            set_negations(doc, [spec])


def test_parts_from_another_doc_rejected(nlp, kind):
    doc, other = nlp("not this"), nlp("not that")
    with pytest.raises(ValueError, match=rf"\[NEG-E007\] {kind.name.capitalize()} parts"):
        kind.cls(doc, [other[0]])


def test_foreign_label_in_group_is_an_error(nlp, kind):
    doc = nlp("not this")
    doc.spans[kind.key] = [Span(doc, 0, 1, label="OTHER")]
    with pytest.raises(ValueError, match=rf"\[NEG-E006\] .*not a {kind.name} role"):
        kind.read(doc)


def test_parts_of_an_unknown_role_is_an_error(doc, kind):
    neg = kind.get(doc)[0]
    assert [p.i for p in neg.parts("cue")] == [2, 4]
    with pytest.raises(ValueError, match=rf"\[NEG-E004\] Unknown {kind.name} role 'scopes'"):
        neg.parts("scopes")


def test_corrupt_entry_of_the_user_data_mirror_is_an_error(doc, kind):
    """A doc made by ``Span.as_doc(copy_user_data=True)`` has no span group: its instances
    are read from the user-data mirror, whose entries must read 'LABEL k@anchor[:s-e]'."""
    part = doc[2:8].as_doc(copy_user_data=True)
    assert len(kind.get(part)) == 3
    key = next(k for k in part.user_data if isinstance(k, tuple) and k[:2] == ("._.", kind.mirror))
    part = doc[2:8].as_doc(copy_user_data=True)
    part.user_data[key] = ("CUE no-anchor",)
    with pytest.raises(ValueError, match=rf"\[NEG-E016\] Corrupt {kind.name} storage entry 'CUE no-anchor'"):
        kind.read(part)


def test_whitespace_tokens_and_odd_spacing(nlp, kind):
    doc = nlp("I  do\tnot \n like it")
    not_i = [t.text for t in doc].index("not")
    kind.set(doc, [{"cue": [doc[not_i]], "scope": [doc[0], doc[len(doc) - 1]]}])
    (neg,) = kind.get(doc)
    assert neg.cue_text == "not" and doc.text[slice(*neg.cue_offsets[0])] == "not"
    assert Part(not_i, 0, 3) in neg.cue


# --- spaCy doc operations, the setter, the index ----------------------------------------------
FOUR = THREE + [{"cue": [8], "scope": [9, 10], "event": [10]}]


def _four_negations(nlp, kind=KindAccess("negation")):
    # 0 He 1 was 2 neither 3 unhappy 4 nor 5 restlessly 6 pacing 7 . 8 No 9 one 10 came 11 .
    doc = nlp("He was neither unhappy nor restlessly pacing . No one came .")
    kind.set(doc, _specs(doc, FOUR, kind))
    return doc


@pytest.fixture
def doc4(nlp, kind):
    return _four_negations(nlp, kind)


def _texts(doc, kind):
    return [kind.texts(n) for n in kind.get(doc)]


def _offsets(doc, kind):
    return [tuple(n.offsets(role) for role in kind.roles) for n in kind.get(doc)]


EXPECTED = [("neither nor", "He was pacing", "pacing"), ("un", "He was happy", "happy"),
            ("less", "rest", ""), ("No", "one came", "came")]


# --- retokenization ---------------------------------------------------------------------------
def test_merge_entities_keeps_the_cue(nlp, kind):
    d = nlp("New York did not approve the plan .")
    d.ents = [Span(d, 0, 2, "GPE")]
    kind.set(d, [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]]}])
    d = merge_entities(d)
    (neg,) = kind.get(d)
    assert neg.cue_text == "not" and neg.cue == (neg.cue[0].__class__(2, 0, 3),)
    assert neg.scope_text == "New York did approve the plan"
    assert kind.covered(d[0]) and kind.is_cue(d[2]) and not kind.is_cue(d[3])


def test_merge_and_split_keep_affixes(nlp, kind):
    d = nlp("I am unhappy .")
    kind.set(d, [{"cue": [(2, 0, 2)], "scope": [(2, 2, 7)]}])
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])
    (neg,) = kind.get(d)
    assert (neg.cue_text, neg.scope_text) == ("un", "happy")
    assert [(p.i, p.start, p.end) for p in neg.cue + neg.scope] == [(1, 0, 2), (1, 2, 7)]
    with d.retokenize() as retokenizer:
        retokenizer.split(d[1], ["un", "happy"], heads=[(d[1], 1), d[0]])
    (neg,) = kind.get(d)
    # the affix is now a token of its own: whole-token parts
    assert [(p.i, p.start, p.end) for p in neg.cue + neg.scope] == [(1, 0, 2), (2, 0, 5)]
    assert not neg.is_affixal and kind.is_cue(d[1]) and kind.covered(d[2])


def test_merge_of_two_scope_parts_with_other_text_warns(nlp, kind):
    d = nlp("He said not that she came .")
    kind.set(d, [{"cue": [d[2]], "scope": [d[0], d[1], d[3], d[5]]}])
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[3:6])  # "that she came": "she" is not in the scope
    with pytest.warns(UserWarning, match=rf"\[NEG-W004\] {kind.name.capitalize()} 0:"):
        (neg,) = kind.get(d)
    assert neg.scope_text == "He said that she came" and neg.cue_text == "not"


# --- doc operations ---------------------------------------------------------------------------
def test_from_docs_keeps_the_instances_of_each_doc_apart(doc4, nlp, kind):
    doc = doc4
    joined = Doc.from_docs([doc, doc])
    assert _texts(joined, kind) == kind.expect(EXPECTED) * 2
    half = len(doc.text) + 1
    assert _offsets(joined, kind)[4:] == [tuple([(a + half, b + half) for a, b in r] for r in o)
                                          for o in _offsets(doc, kind)]


def test_from_docs_keeps_affix_ranges(doc4, nlp, kind):
    doc = doc4
    joined = Doc.from_docs([nlp("Hello there ."), doc])
    assert _texts(joined, kind) == kind.expect(EXPECTED)
    assert kind.get(joined)[1].cue_text == "un" and kind.get(joined)[1].is_affixal


def test_to_json_from_json_keeps_every_instance(doc4, nlp, kind):
    doc = doc4
    assert _texts(Doc(nlp.vocab).from_json(doc.to_json()), kind) == kind.expect(EXPECTED)


def test_as_doc_with_user_data_keeps_the_instances_whose_cue_is_inside(doc4, kind):
    doc = doc4
    part = doc[2:8].as_doc(copy_user_data=True)  # neither unhappy nor restlessly pacing .
    # the scope parts outside the span are cut off; "No" lies outside: dropped
    assert _texts(part, kind) == kind.expect([("neither nor", "pacing", "pacing"), ("un", "happy", "happy"),
                                              ("less", "rest", "")])
    assert kind.get(doc[2:8].as_doc()) == []  # spaCy copies neither span groups nor user data
    assert _texts(doc[5:12].as_doc(copy_user_data=True), kind) == kind.expect([("less", "rest", ""),
                                                                              ("No", "one came", "came")])


def test_another_storage_version_is_an_error(nlp, kind):
    """A span group of the earlier storage (the instance number in ``Span.id``, no kb_id) is
    refused with a code, not read."""
    d = nlp("He was unhappy .")
    spans = [Span(d, 2, 3, "CUE", span_id=0), Span(d, 0, 2, "SCOPE", span_id=0)]
    d.spans[kind.key] = SpanGroup(d, name=kind.key, spans=spans, attrs={"version": 1})
    with pytest.raises(ValueError, match=rf"\[NEG-E017\].*{kind.name} storage version 1.*version 2"):
        _texts(d, kind)


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
def test_setter_errors_are_coded_and_change_nothing(nlp, kind, value, code):
    d = nlp("I am unhappy")
    kind.set(d, [{"cue": [(2, 0, 2)], "scope": [(0, 0, 1), (2, 2, 7)]}])
    before = d.to_bytes()
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
        kind.set(d, value)
    assert d.to_bytes() == before
    assert [n.cue_text for n in kind.get(d)] == ["un"]


def test_set_negations_keeps_a_corpus_scope_that_holds_its_cue(nlp, kind):
    d = nlp("an infinite series")
    spec = [{"cue": [(1, 0, 2)], "scope": [d[1], d[2]]}]  # as in CD-SCO training
    with pytest.raises(ValueError, match=r"\[NEG-E015\]"):
        kind.set(d, spec)
    kind.store(d, spec)
    assert [(n.cue_text, n.scope_text) for n in kind.get(d)] == [("in", "infinite series")]


def test_setter_accepts_negation_objects_and_generators(doc4, nlp, kind):
    doc = doc4
    other = nlp(doc.text)
    kind.set(other, (n for n in kind.get(doc)))
    assert _texts(other, kind) == kind.expect(EXPECTED) and all(n.doc is other for n in kind.get(other))


# --- the index -------------------------------------------------------------------------------
def test_index_follows_every_change(doc4, nlp, kind):
    doc = doc4
    assert kind.covered(doc[9]) and kind.is_cue(doc[8])
    kind.set(doc, [{"cue": [doc[2], doc[4]], "scope": [doc[0]]}])  # setter
    assert not kind.covered(doc[9]) and not kind.is_cue(doc[8]) and kind.covered(doc[0])
    doc.spans[kind.key].append(Span(doc, 8, 9, "CUE", kb_id="1@0"))  # direct edit
    assert kind.is_cue(doc[8]) and [n.cue_text for n in kind.get(doc)] == ["neither nor", "No"]
    group = doc.spans[kind.key]
    group[len(group) - 1] = Span(doc, 9, 10, "CUE", kb_id="1@0")  # in place: not detected
    assert kind.is_cue(doc[8])
    assert [n.cue_text for n in kind.read(doc)] == ["neither nor", "one"]  # re-read
    assert kind.is_cue(doc[9]) and not kind.is_cue(doc[8])
    doc.spans[kind.key] = []  # replaced group
    assert not kind.covered(doc[0]) and kind.get(doc) == []
    d = nlp("New York did not approve .")
    kind.set(d, [{"cue": [d[3]], "scope": [d[4]]}])
    assert kind.covered(d[4]) and kind.is_cue(d[3])
    with d.retokenize() as retokenizer:  # retokenization
        retokenizer.merge(d[0:2])
    assert kind.covered(d[3]) and kind.is_cue(d[2]) and len(d) == 5
    assert kind.covered(Span(d, 3, 4)) and kind.of(Span(d, 3, 4))[0].cue_text == "not"


def test_index_keeps_nothing_alive_and_user_data_stays_serializable(nlp, kind):
    doc = _four_negations(nlp, kind)
    assert kind.covered(doc[0])
    assert srsly.msgpack_loads(srsly.msgpack_dumps(doc.user_data), use_list=False) == doc.user_data
    copy = pickle.loads(pickle.dumps(doc))
    assert _texts(copy, kind) == kind.expect(EXPECTED)
    db = DocBin(store_user_data=True, docs=[doc])
    assert _texts(list(DocBin().from_bytes(db.to_bytes()).get_docs(nlp.vocab))[0], kind) == kind.expect(EXPECTED)
    ref = weakref.ref(doc)
    del doc, copy, db
    gc.collect()
    assert ref() is None  # the index holds no reference to its doc


def test_negation_lists_outlive_their_doc_reference(nlp, kind):
    negs = nlp("I did not go .")
    kind.set(negs, [{"cue": [negs[2]], "scope": [negs[0], negs[1], negs[3]]}])
    found = kind.of(negs[3])
    del negs
    gc.collect()
    assert isinstance(found[0], kind.cls) and found[0].cue_text == "not"


def test_warnings_are_not_raised_without_retokenization(doc4, kind):
    doc = doc4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _texts(doc, kind) == kind.expect(EXPECTED)
    with pytest.raises(ValueError, match=r"\[NEG-E013\]"):
        kind.store(doc, [{"cue": [doc[8]], "evnt": []}])


# --- properties: every doc operation keeps the characters of every part --------------------
WORDS = ["He", "was", "not", "unhappy", "nor", "restless", ".", "No", "one", "came"]


VOCAB = spacy.blank("en").vocab


def _draw_specs(draw, words):
    """Instances on words: each a whole-token or affixal cue, and a scope of other whole
    tokens (plus the rest of the token for an affixal cue)."""
    specs = []
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(words) - 1))
        affix = len(words[i]) > 2 and draw(st.booleans())
        others = draw(st.lists(st.sampled_from([j for j in range(len(words)) if j != i]),
                               max_size=4, unique=True))
        cue = [(i, 0, 2)] if affix else [(i, 0, len(words[i]))]
        scope = [(j, 0, len(words[j])) for j in others] + ([(i, 2, len(words[i]))] if affix else [])
        specs.append({"cue": cue, "scope": scope})
    return specs


@st.composite
def negated_docs(draw):
    """A doc with negations and speculations, drawn apart (:func:`_draw_specs`)."""
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=10))
    negations, speculations = _draw_specs(draw, words), _draw_specs(draw, words)
    register_extensions()
    doc = Doc(VOCAB, words=words)
    doc._.negations = negations
    doc._.speculations = speculations
    return doc


def _chars(doc, shift=0):
    """Each instance of each kind as the sets of (non-space) characters of its cue and
    scope, sorted (a merge may join two parts across a space)."""
    text = doc.text

    def chars(offsets):
        return tuple(sorted({c + shift for a, b in offsets for c in range(a, b) if not text[c].isspace()}))

    return {key: sorted((chars(n.cue_offsets), chars(n.scope_offsets)) for n in getattr(doc._, key))
            for key in ("negations", "speculations")}


@settings(max_examples=60, deadline=None)
@given(negated_docs(), st.data())
def test_every_doc_operation_keeps_the_characters_of_every_part(doc, data):
    expected = _chars(doc)
    assert _chars(Doc(VOCAB).from_json(doc.to_json())) == expected
    shift = len(doc.text) + (not doc[-1].whitespace_)  # from_docs adds a space if needed
    joined, shifted = _chars(Doc.from_docs([doc, doc])), _chars(doc, shift)
    assert joined == {key: sorted(expected[key] + shifted[key]) for key in expected}
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
