"""The negation data model and its storage through every serialization."""
import pickle

import pytest
import spacy
from spacy.tokens import Doc, DocBin, Span

from spacy_negation import Negation, Part, SPANS_KEY, get_negations, register_extensions, set_negations
from spacy_negation.negation import _token_negated


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
    assert span._.negated and [n.cue_text for n in span._.negations] == ["neither nor", "less"]
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
        with pytest.raises(ValueError, match=r"\[E009\]"):
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
    with pytest.raises(ValueError, match=rf"\[{code}\]"):
        set_negations(doc, [spec])
    assert SPANS_KEY not in doc.spans


def test_parts_from_another_doc_rejected(nlp):
    doc, other = nlp("not this"), nlp("not that")
    with pytest.raises(ValueError, match=r"\[E007\]"):
        Negation(doc, [other[0]])


def test_foreign_label_in_group_is_an_error(nlp):
    doc = nlp("not this")
    doc.spans[SPANS_KEY] = [Span(doc, 0, 1, label="OTHER")]
    with pytest.raises(ValueError, match=r"\[E006\]"):
        get_negations(doc)


def test_whitespace_tokens_and_odd_spacing(nlp):
    doc = nlp("I  do\tnot \n like it")
    not_i = [t.text for t in doc].index("not")
    doc._.negations = [{"cue": [doc[not_i]], "scope": [doc[0], doc[len(doc) - 1]]}]
    (neg,) = doc._.negations
    assert neg.cue_text == "not" and doc.text[slice(*neg.cue_offsets[0])] == "not"
    assert Part(not_i, 0, 3) in neg.cue
