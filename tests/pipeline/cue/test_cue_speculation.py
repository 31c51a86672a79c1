"""negation_cue with ``kinds = ["negation", "speculation"]``: the speculation labels, their
gold labels, the decoding of both kinds from one tagger, the speculation lexicon and the
prefilter, the setting's checks; negation-only components as before."""
import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example

from spacy_negation import get_negations, get_speculations, set_negations, set_speculations
from spacy_negation.pipeline.cue.decoding import make_cue_decoder_v2
from spacy_negation.pipeline.cue.speculation_decoding import (LabelKinds, decode_kinds, negation_ids, speculation_cues,
                                                              speculation_label_ids)
from spacy_negation.pipeline.cue.labels import gold_cue_labels, label_kind, make_label, parse_label
from spacy_negation.pipeline.cue.prefilter import CuePrefilter, stop_words

from util import SMALL_CNN, make_examples

BOTH = ["negation", "speculation"]


def _cue_nlp(kinds=None, **config):
    nlp = spacy.blank("en")
    settings = {"model": {"@architectures": "spacy-negation.CueTagger.v1", "tok2vec": SMALL_CNN}, **config}
    if kinds is not None:
        settings["kinds"] = kinds
    nlp.add_pipe("negation_cue", config=settings)
    return nlp


def test_speculation_labels_have_a_kind_field():
    assert make_label("S", cue_kind="speculation") == "S|speculation"
    assert make_label("B", cue_kind="speculation") == "B|speculation"
    assert parse_label("I|speculation") == ("I", None)
    assert [label_kind(label) for label in ("O", "S", "S|prefix", "B|speculation")] == \
        [None, "negation", "negation", "speculation"]
    for bad in ("S|speculation|prefix", "X|speculation", "S|negation"):
        with pytest.raises(ValueError, match=r"\[NEG-E300\]"):
            parse_label(bad)


def test_gold_labels_of_both_kinds(hedge):
    nlp = spacy.blank("en")
    # 0 The 1 patient 2 might 3 not 4 help 5 . ; a negation and a speculation on their own tokens
    ref = hedge.reference(nlp.vocab, ["The", "patient", "might", "not", "help", "."],
                          [{"cue": [3], "scope": [0, 1, 4]}], [{"cue": [2], "scope": [0, 1, 3, 4]}])
    eg = Example(nlp.make_doc(ref.text), ref)
    assert [label for label, _ in gold_cue_labels(eg, BOTH)] == ["O", "O", "S|speculation", "S", "O", "O"]
    # a negation-only component reads the speculation cue as 'O', as before
    assert [label for label, _ in gold_cue_labels(eg)] == ["O", "O", "O", "S", "O", "O"]
    # a multiword speculation cue: B and I
    ref = hedge.reference(nlp.vocab, ["It", "will", "either", "rain", "or", "snow", "."], [],
                          [{"cue": [2, 4], "scope": [0, 1, 3, 5]}])
    eg = Example(nlp.make_doc(ref.text), ref)
    assert [label for label, _ in gold_cue_labels(eg, BOTH)][2:5] == ["B|speculation", "O", "I|speculation"]


def test_a_token_of_a_negation_and_a_speculation_cue_is_unknown(hedge):
    nlp = spacy.blank("en")
    words = ["It", "cannot", "be", "excluded", "."]
    ref = hedge.reference(nlp.vocab, words, [{"cue": [1], "scope": [0, 2, 3]}], [{"cue": [1, 2, 3], "scope": [0]}])
    eg = Example(Doc(nlp.vocab, words=words, spaces=[t.whitespace_ == " " for t in ref]), ref)
    assert [label for label, _ in gold_cue_labels(eg, BOTH)] == ["O", None, "I|speculation", "I|speculation", "O"]


def test_a_reference_without_a_speculation_group_has_no_speculation(hedge):
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["It", "might", "not", "rain"])
    set_negations(doc, [{"cue": [doc[2]], "scope": [doc[0], doc[3]]}])
    eg = Example(nlp.make_doc(doc.text), doc)
    assert [label for label, _ in gold_cue_labels(eg, BOTH)] == ["O", "O", "S", "O"]
    assert [label for label, _ in gold_cue_labels(Example(nlp.make_doc("x y"), nlp.make_doc("x y")), BOTH)] == \
        [None, None]


def test_initialize_learns_speculation_labels_and_lexicon(hedge):
    nlp = _cue_nlp(BOTH)
    cue = nlp.get_pipe("negation_cue")
    assert cue.kinds == ("negation", "speculation") and cue.resolves_speculation
    nlp.initialize(lambda: hedge.examples(nlp))
    assert set(cue.labels) == {"O", "S", "S|speculation", "B|speculation", "I|speculation"}
    lexicon = cue.speculation_lexicon
    assert lexicon["words"] == {"might": [12, 12], "possible": [6, 6]}
    assert [entry["words"] for entry in lexicon["multiword"]] == [[["either"], ["or"]]]
    assert cue.words == {"no": [6, 6], "not": [12, 12]}  # the negation lexicon counts negations only
    assert cue.label_data["speculation"] == lexicon
    # the label data round trip (``spacy init labels``)
    other = _cue_nlp(BOTH).get_pipe("negation_cue")
    other.initialize(lambda: hedge.examples(nlp), labels=cue.label_data)
    assert other.labels == cue.labels and other.speculation_lexicon == lexicon


def test_negation_only_component_is_as_before(hedge):
    nlp = _cue_nlp()
    cue = nlp.get_pipe("negation_cue")
    assert cue.kinds == ("negation",) and not cue.resolves_speculation and cue.speculation_lexicon is None
    examples = hedge.examples(nlp)
    nlp.initialize(lambda: examples)
    assert cue.labels == ("O", "S") and "speculation" not in cue.cfg and "speculation" not in cue.label_data
    # it leaves a doc's speculations alone
    doc = nlp.make_doc("The drug might help .")
    set_speculations(doc, [{"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3]]}])
    nlp.get_pipe("negation_cue")(doc)
    assert [s.cue_text for s in doc._.speculations] == ["might"]
    # a speculation label is not one of its labels
    with pytest.raises(ValueError, match=r"\[NEG-E308\]"):
        cue.add_label("S|speculation")
    assert nlp.config["components"]["negation_cue"]["kinds"] == ["negation"]


@pytest.mark.parametrize("kinds", [[], ["speculation"], ["negation", "negation"], ["negation", "hedge"], "negation",
                                   None])
def test_kinds_setting_is_checked(kinds):
    nlp = spacy.blank("en")
    with pytest.raises(ValueError, match=r"\[NEG-E306\]"):
        nlp.add_pipe("negation_cue", config={"kinds": kinds} if kinds is not None else {"kinds": 3})


def test_active_kinds_are_a_subset_of_the_trained_kinds():
    cue = _cue_nlp(["speculation", "negation"]).get_pipe("negation_cue")
    assert cue.kinds == ("negation", "speculation")  # canonical order
    cue.active_kinds = ["negation"]
    assert cue.active_kinds == ("negation",) and not cue.resolves_speculation
    cue.active_kinds = BOTH
    assert cue.resolves_speculation
    negation_only = _cue_nlp().get_pipe("negation_cue")
    with pytest.raises(ValueError, match=r"\[NEG-E308\]"):
        negation_only.active_kinds = BOTH
    with pytest.raises(ValueError, match=r"\[NEG-E306\]"):
        cue.active_kinds = ["speculation"]


LABELS = ("O", "S", "B", "I", "S|speculation", "B|speculation", "I|speculation")


def _scores(rows):
    """Scores with the given best label per token (the others lower)."""
    out = numpy.zeros((len(rows), len(LABELS)), dtype="float32")
    for i, label in enumerate(rows):
        out[i, LABELS.index(label)] = 5.0
    return out


def test_label_kinds_columns():
    kinds = LabelKinds.of(LABELS)
    assert kinds.negation.tolist() == [0, 1, 2, 3] and kinds.speculation.tolist() == [4, 5, 6]
    assert kinds.negation_labels == ("O", "S", "B", "I")
    ids, labels = negation_ids(numpy.asarray([0, 4, 1, 6], dtype="int32"), LABELS)
    assert ids.tolist() == [0, 0, 1, 0] and labels == ("O", "S", "B", "I")


def test_decode_kinds_splits_the_tokens_by_their_best_label():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["It", "will", "either", "not", "rain", "or", "snow", "."])
    scores = _scores(["O", "O", "B|speculation", "S", "O", "I|speculation", "O", "O"])
    scores[2, LABELS.index("S")] = 4.0  # the second best label of 'either' is a negation label: not a negation cue
    decoder = make_cue_decoder_v2()
    lexicons = _cue_nlp(BOTH).get_pipe("negation_cue").lexicons
    ids = decode_kinds(decoder, doc, scores, LABELS, lexicons)
    assert [LABELS[i] for i in ids] == ["O", "O", "B|speculation", "S", "O", "I|speculation", "O", "O"]
    assert [[p.i for p in cue] for cue in speculation_cues(doc, ids, LABELS)] == [[2, 5]]
    # without speculation the speculation cue tokens are 'O', the negations the same
    off = decode_kinds(decoder, doc, scores, LABELS, lexicons, speculation=False)
    assert [LABELS[i] for i in off] == ["O", "O", "O", "S", "O", "O", "O", "O"]


def test_speculation_label_ids_need_an_open_b_for_an_i():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["or", "maybe", "."], sent_starts=[True, False, False])
    scores = _scores(["I|speculation", "S|speculation", "O"])
    scores[0, LABELS.index("S|speculation")] = 3.0
    ids = speculation_label_ids(doc, scores, LABELS, numpy.asarray([True, True, False]))
    assert [LABELS[i] for i in ids] == ["S|speculation", "S|speculation", "O"]
    # an 'I' in another sentence does not join a 'B' of an earlier one
    doc = Doc(nlp.vocab, words=["either", ".", "or"], sent_starts=[True, False, True])
    ids = numpy.asarray([LABELS.index("B|speculation"), 0, LABELS.index("I|speculation")])
    assert [[p.i for p in cue] for cue in speculation_cues(doc, ids, LABELS)] == [[0], [2]]


def test_component_writes_both_kinds_and_skips_speculation_when_switched_off(hedge):
    nlp = _cue_nlp(BOTH)
    cue = nlp.get_pipe("negation_cue")
    nlp.initialize(lambda: hedge.examples(nlp))
    doc = nlp.make_doc("The drug will either help or not work .")
    ids = numpy.zeros(len(doc), dtype="int32")
    labels = cue.labels
    ids[[3, 5]] = [labels.index("B|speculation"), labels.index("I|speculation")]
    ids[6] = labels.index("S")
    cue.set_annotations([doc], [ids])
    assert [n.cue_text for n in get_negations(doc)] == ["not"]
    assert [s.cue_text for s in get_speculations(doc)] == ["either or"]
    assert all(not s.scope for s in get_speculations(doc))
    cue.active_kinds = ["negation"]
    fresh = nlp.make_doc(doc.text)
    cue.set_annotations([fresh], [ids])
    assert [n.cue_text for n in fresh._.negations] == ["not"] and "speculations" not in fresh.spans


def test_prefilter_takes_speculation_candidates_while_active(hedge):
    nlp = _cue_nlp(BOTH, prefilter=True)
    cue = nlp.get_pipe("negation_cue")
    nlp.initialize(lambda: hedge.examples(nlp))
    words = CuePrefilter.of_component(cue, stop_words(nlp.vocab)).words
    assert {"not", "no", "might", "possible"} <= words and words & {"either", "or"}
    doc = nlp.make_doc("It rained . The drug might help . It did not help .")
    doc = nlp.add_pipe("sentencizer", first=True)(doc)
    assert cue.candidate_sentences(doc) == [(3, 8), (8, 13)]
    cue.active_kinds = ["negation"]  # the prefilter is built again, without them
    assert cue.candidate_sentences(doc) == [(8, 13)]
    assert not {"might", "possible"} & CuePrefilter.of_component(cue, stop_words(nlp.vocab)).words


def test_negation_only_examples_still_learn(hedge):
    """The gold sentences of the negation tests (no speculation group) give a component of both
    kinds the negation labels and no speculation label."""
    nlp = _cue_nlp(BOTH)
    nlp.initialize(lambda: make_examples(nlp))
    cue = nlp.get_pipe("negation_cue")
    assert not any(label_kind(label) == "speculation" for label in cue.labels)
    assert cue.speculation_lexicon == {"words": {}, "multiword": []}
