"""negation_cue: labels, decoding, training targets, initialization, serialization."""
import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_negation import get_negations, set_negations
from spacy_negation.ml.training_corpus import count_cue_words
from spacy_negation.pipeline._util import find_affix
from spacy_negation.pipeline.cue.decoding import cues_of_labels, join_multiword
from spacy_negation.pipeline.cue.labels import make_label, parse_label
from spacy_negation.pipeline.cue.lexicons import MultiwordLexicon, choose_affix, find_all, find_pattern, multiword_pattern

from util import SMALL_CNN, assert_initialize_checks_get_examples, cue_key, make_examples, make_reference

CUE_MODELS = {
    "linear": {"@architectures": "spacy-negation.CueTagger.v1", "tok2vec": SMALL_CNN},
    "bilstm": {"@architectures": "spacy-negation.BiLSTMCueTagger.v1", "tok2vec": SMALL_CNN, "hidden_width": 16},
}


def _nlp_with_cue(arch: str = "linear") -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation_cue", config={"model": CUE_MODELS[arch]})
    return nlp


def _cue_with_affixes(labels, affixes, **decoder):
    """A blank pipeline's cue tagger with the given labels, affix lexicon and decoder
    settings."""
    nlp = spacy.blank("en")
    cue = nlp.add_pipe("negation_cue", config={"model": CUE_MODELS["linear"], "decoder": {
        "@misc": "spacy-negation.cue_decoder.v1", **decoder}})
    for label in labels:
        cue.add_label(label)
    cue.cfg["affixes"] = {"infix": {}, **affixes}
    return nlp, cue


def _patterns(cue):
    """The multiword patterns the cue component's decoder applies."""
    return MultiwordLexicon(cue.multiword).patterns(cue.decoder.multiword_min_precision)


def test_labels_round_trip():
    assert make_label("S") == "S"
    assert make_label("B", "prefix") == "B|prefix"
    assert parse_label("S|infix") == ("S", "infix")
    assert parse_label("I") == ("I", None)
    for bad in ("X", "S|root", "S|prefix|un", "B|"):
        with pytest.raises(ValueError, match=r"\[NEG-E300\]"):
            parse_label(bad)


def test_choose_affix_prefers_frequent_then_long():
    lexicon = {"prefix": {"un": 80, "in": 22, "im": 18, "non": 1, "no": 1}, "suffix": {"less": 23}}
    assert choose_affix("Unhappy", "prefix", lexicon) == (0, 2)
    assert choose_affix("impossible", "prefix", lexicon) == (0, 2)
    assert choose_affix("nonsense", "prefix", lexicon) == (0, 3)  # tie on frequency: longer
    assert choose_affix("happy", "prefix", lexicon) is None
    assert choose_affix("careless", "suffix", lexicon) == (4, 8)
    assert choose_affix("restlessly", "infix", lexicon) is None  # no infix learned


@pytest.mark.parametrize("text,kind,affix,expected", [
    ("unhappy", "prefix", "un", (0, 2)),
    ("Unhappy", "prefix", "un", (0, 2)),
    ("un", "prefix", "un", None),
    ("happy", "prefix", "un", None),
    ("careless", "suffix", "less", (4, 8)),
    ("less", "suffix", "less", None),
    ("restlessly", "infix", "less", (4, 8)),
    ("careless", "infix", "less", None),
    ("lessen", "infix", "less", None),
])
def test_find_affix(text, kind, affix, expected):
    assert find_affix(text, kind, affix) == expected


def test_add_pipe_and_initialize_learns_labels_from_data():
    nlp = _nlp_with_cue()
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    cue = nlp.get_pipe("negation_cue")
    assert set(cue.labels) == {"O", "S", "B", "I", "S|prefix", "S|suffix", "S|infix"}
    assert cue.labels[0] == "O"
    assert cue.affixes == {"prefix": {"un": 2}, "suffix": {"less": 1}, "infix": {"less": 1}}
    assert cue.multiword == [
        {"words": [["by", "no", "means"]], "cues": 1, "matches": 1},
        {"words": [["neither"], ["nor"]], "cues": 1, "matches": 1},
    ]
    # single-token cues of whole words: "No" once of two "no" (by no means), "not" twice of two
    assert cue.words == {"no": [1, 2], "not": [2, 2]}
    assert cue.label_data == {"labels": list(cue.labels), "affixes": cue.affixes, "multiword": cue.multiword,
                              "words": cue.words}


def test_initialize_with_labels():
    nlp = _nlp_with_cue()
    examples = make_examples(nlp)
    cue = nlp.get_pipe("negation_cue")
    cue.initialize(lambda: examples, nlp=nlp, labels=["S", "B", "I", "S|prefix"])
    assert cue.labels == ("O", "S", "B", "I", "S|prefix")
    assert cue.affixes["prefix"] == {"un": 2}  # affixes from the data
    other = _nlp_with_cue().get_pipe("negation_cue")
    other.initialize(lambda: examples, labels={"labels": ["S", "S|suffix"], "affixes": {"suffix": {"less": 3}}})
    assert other.labels == ("O", "S", "S|suffix")
    assert other.affixes == {"prefix": {}, "suffix": {"less": 3}, "infix": {}}
    bad = _nlp_with_cue().get_pipe("negation_cue")
    with pytest.raises(ValueError, match=r"\[NEG-E300\]"):
        bad.initialize(lambda: examples, labels=["S", "not-a-label"])
    with pytest.raises(ValueError, match=r"\[NEG-E302\]"):
        bad.initialize(lambda: examples, labels={"labels": ["S"], "affixes": {"root": {"x": 1}}})


def test_initialize_with_label_data_keeps_its_multiword_lexicon():
    nlp = _nlp_with_cue()
    examples = make_examples(nlp)
    lexicon = [{"words": [["no"], ["nor"]], "cues": 3, "matches": 4}]
    cue = nlp.get_pipe("negation_cue")
    cue.initialize(lambda: examples, labels={"labels": ["S"], "affixes": {}, "multiword": lexicon})
    assert cue.multiword == lexicon
    assert cue.affixes == {"prefix": {}, "suffix": {}, "infix": {}}


def test_multiword_pattern_segments():
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Neither he nor she came by no means")
    parts = lambda *idx: [(i, 0, len(doc[i].text)) for i in idx]  # noqa: E731
    from spacy_negation.negation import Part
    as_parts = lambda specs: [Part(*spec) for spec in specs]  # noqa: E731
    assert multiword_pattern(doc, as_parts(parts(0, 2))) == (("neither",), ("nor",))
    assert multiword_pattern(doc, as_parts(parts(5, 6, 7))) == (("by", "no", "means"),)
    assert multiword_pattern(doc, as_parts(parts(0))) is None  # one token
    assert multiword_pattern(doc, as_parts([(0, 0, 3), (2, 0, 3)])) is None  # a partial token


def test_find_pattern_and_find_all():
    words = "neither a nor b nor c . neither d".split()
    pattern = (("neither",), ("nor",))
    assert find_pattern(words, pattern, 0, len(words)) == [0, 2]  # the first later match
    assert find_pattern(words, pattern, 1, len(words)) is None  # no 'nor' after the second 'neither'
    assert find_pattern(words, pattern, 0, 2) is None  # outside the range
    assert find_all(words, pattern, 0, len(words)) == [[0, 2]]
    contiguous = (("by", "no", "means"),)
    assert find_all("by no means , by no means by no".split(), contiguous, 0, 9) == [[0, 1, 2], [4, 5, 6]]
    # matches that share a word: only the first is kept
    assert find_all("not a not b not".split(), (("not",), ("not",)), 0, 5) == [[0, 2]]


def test_initialize_counts_multiword_matches():
    nlp = _nlp_with_cue()
    vocab = nlp.vocab
    w1 = ["He", "did", "not", "come", ",", "not", "at", "all", "."]
    w2 = ["Not", "he", ",", "not", "she", "."]
    w3 = ["Not", "this", "and", "not", "that", "."]
    refs = [
        make_reference(vocab, w1, [{"cue": [(2, 0, 3), (5, 0, 3)], "scope": [], "event": []}]),
        make_reference(vocab, w2, [{"cue": [(0, 0, 3)], "scope": [], "event": []},
                                   {"cue": [(3, 0, 3)], "scope": [], "event": []}]),
        make_reference(vocab, w3, [{"cue": [(0, 0, 3)], "scope": [], "event": []},
                                   {"cue": [(3, 0, 3)], "scope": [], "event": []}]),
    ]
    examples = [Example(nlp.make_doc(ref.text), ref) for ref in refs]
    cue = nlp.get_pipe("negation_cue")
    cue.initialize(lambda: examples)
    # a cue once, its words in three sentences: not applied (1 < 0.5 * 3)
    assert cue.multiword == [{"words": [["not"], ["not"]], "cues": 1, "matches": 3}]
    assert _patterns(cue) == []


@pytest.mark.parametrize("multiword_cues", [True, False])
def test_multiword_cues_join_tagged_words(multiword_cues):
    nlp, cue = _cue_with_affixes(("S", "B", "I", "S|prefix"), {"prefix": {"un": 5}}, multiword_cues=multiword_cues)
    cue.cfg["multiword"] = [
        {"words": [["neither"], ["nor"]], "cues": 2, "matches": 2},
        {"words": [["by", "no", "means"]], "cues": 3, "matches": 5},
        {"words": [["not"], ["not"]], "cues": 1, "matches": 9},  # below the precision: never applied
    ]
    labels = cue.labels
    doc = Doc(nlp.vocab, words="Neither he nor she was by no means unkind , not so , not now . Neither this nor that".split(),
              sent_starts=[True] + [False] * 15 + [True, False, False, False])
    ids = numpy.zeros(len(doc), dtype="int32")
    for i in (0, 2, 6, 10, 13):  # 'neither', 'nor', 'no' (of 'by no means'), both 'not's
        ids[i] = labels.index("S")
    ids[8] = labels.index("S|prefix")  # 'unkind'
    # second sentence: the model tags none of the words: they stay apart
    cues = join_multiword(doc, cues_of_labels(doc, ids, labels, cue.lexicons.affixes), _patterns(cue)) \
        if multiword_cues else cues_of_labels(doc, ids, labels, cue.lexicons.affixes)
    got = [[p.i for p in c] for c in cues]
    if multiword_cues:
        assert got == [[0, 2], [5, 6, 7], [8], [10], [13]]
    else:
        assert got == [[0], [2], [6], [8], [10], [13]]
    cue.set_annotations([doc], [ids])
    assert [[p.i for p in neg.cue] for neg in get_negations(doc)] == got


def test_multiword_cues_leave_partial_and_wider_cues():
    nlp, cue = _cue_with_affixes(("S", "B", "I"), {}, multiword_cues=True)
    cue.cfg["multiword"] = [{"words": [["no", "more"]], "cues": 2, "matches": 2}]
    labels = cue.labels
    doc = nlp.make_doc("no more than that")
    ids = numpy.array([labels.index(x) for x in ("B", "I", "I", "O")], dtype="int32")
    cues = cues_of_labels(doc, ids, labels, cue.lexicons.affixes)
    # the model's cue reaches beyond the match: kept as it is
    assert [[p.i for p in c] for c in join_multiword(doc, cues, _patterns(cue))] == [[0, 1, 2]]


@pytest.mark.parametrize("min_precision,expected", [
    (0.5, [(("could", "not"),), (("neither",), ("nor",))]),  # 6/11 and 2/2 applied
    (0.6, [(("neither",), ("nor",))]),
    (1.0, [(("neither",), ("nor",))]),
    (0.0, [(("could", "not"),), (("neither",), ("nor",)), (("not",), ("not",))]),
])
def test_multiword_min_precision(min_precision, expected):
    nlp, cue = _cue_with_affixes(("S",), {}, multiword_min_precision=min_precision)
    cue.cfg["multiword"] = [
        {"words": [["could", "not"]], "cues": 6, "matches": 11},
        {"words": [["neither"], ["nor"]], "cues": 2, "matches": 2},
        {"words": [["not"], ["not"]], "cues": 1, "matches": 9},
    ]
    assert _patterns(cue) == expected
    # a load-time setting: the same lexicon, another config
    assert nlp.config["components"]["negation_cue"]["decoder"]["multiword_min_precision"] == min_precision


@pytest.mark.parametrize("setting,code", [("multiword_min_precision", "E303"), ("min_word_precision", "E304")])
@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_precision_settings_out_of_range(setting, code, bad):
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\]"):
        _cue_with_affixes(("S",), {}, **{setting: bad})


def test_initialize_bad_get_examples():
    nlp = _nlp_with_cue()
    assert_initialize_checks_get_examples(nlp, "negation_cue")


def test_initialize_without_cues_raises():
    nlp = _nlp_with_cue()
    ref = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    with pytest.raises(ValueError, match=r"\[NEG-E301\]"):
        nlp.initialize(lambda: [Example(nlp.make_doc(ref.text), ref)])


def test_gold_labels_multiword_discontinuous_affixal():
    nlp = _nlp_with_cue()
    cue = nlp.get_pipe("negation_cue")
    examples = make_examples(nlp)
    by_text = {eg.reference.text: cue._gold_labels(eg) for eg in examples}
    assert by_text["It was by no means certain."] == ["O", "O", "B", "I", "I", "O", "O"]
    assert by_text["Neither he nor she came."] == ["B", "O", "I", "O", "O", "O"]
    assert by_text["She paced restlessly."] == ["O", "O", "S|infix", "O"]
    assert by_text["He was not unkind."] == ["O", "O", "S", "S|prefix", "O"]


def test_gold_labels_tokenization_mismatch():
    """A gold token split by the tokenizer (``cannot`` -> ``can not``): the affixal cue
    ``not`` of the gold token is a whole token of the predicted doc."""
    nlp = _nlp_with_cue()
    ref = make_reference(nlp.vocab, ["He", "cannot", "go", "."],
                         [{"cue": [(1, 3, 6)], "scope": [(0, 0, 2), (1, 0, 3), (2, 0, 2)]}])
    pred = nlp.make_doc(ref.text)
    assert [t.text for t in pred] == ["He", "can", "not", "go", "."]
    labels = nlp.get_pipe("negation_cue")._gold_labels(Example(pred, ref))
    assert labels == ["O", "O", "S", "O", "O"]
    # and a reference without negation annotation gives no targets
    bare = Doc(nlp.vocab, words=["He", "can", "go"])
    assert nlp.get_pipe("negation_cue")._gold_labels(Example(nlp.make_doc(bare.text), bare)) == [None] * 3


def test_decode_respects_affixes_and_open_cues():
    nlp, cue = _cue_with_affixes(("S", "B", "I", "S|prefix", "S|suffix"), {"prefix": {"un": 5}, "suffix": {"less": 2}})
    labels = cue.labels
    doc = nlp.make_doc("Nor was he careful or unwise")
    scores = numpy.zeros((len(doc), len(labels)), dtype="f")
    scores[0, labels.index("I")] = 5.0  # I without an open cue: not possible
    scores[0, labels.index("S")] = 3.0
    scores[3, labels.index("S|suffix")] = 5.0  # 'careful' does not end in 'less'
    scores[3, labels.index("S|prefix")] = 4.0  # nor does it start with 'un'
    scores[5, labels.index("S|prefix")] = 4.0
    ids = cue._decode(doc, scores)
    assert [labels[i] for i in ids] == ["S", "O", "O", "O", "O", "S|prefix"]
    scores[1, labels.index("B")] = 5.0
    scores[3, labels.index("I")] = 9.0
    ids = cue._decode(doc, scores)
    assert [labels[i] for i in ids] == ["S", "B", "O", "I", "O", "S|prefix"]
    cues = cues_of_labels(doc, ids, labels, cue.lexicons.affixes)
    assert [[(p.i, p.start, p.end) for p in c] for c in cues] == [[(0, 0, 3)], [(1, 0, 3), (3, 0, 7)], [(5, 0, 2)]]


@pytest.mark.parametrize("affix_over_whole,expected", [
    (True, ["S|prefix", "S", "S|suffix", "B", "O"]),
    (False, ["S", "S", "S", "B", "O"]),
])
def test_decode_affix_over_whole(affix_over_whole, expected):
    nlp, cue = _cue_with_affixes(("S", "B", "I", "S|prefix", "S|suffix"), {"prefix": {"im": 5}, "suffix": {"less": 2}},
                                 affix_over_whole=affix_over_whole)
    labels = cue.labels
    doc = nlp.make_doc("impossible never careless impolite dull")
    scores = numpy.zeros((len(doc), len(labels)), dtype="f")
    scores[:, labels.index("S")] = 5.0  # every token: best label a whole-token cue ...
    scores[0, labels.index("S|suffix")] = 4.0  # ... 'impossible' fits no suffix, a prefix
    scores[2, labels.index("S|prefix")] = 3.0  # 'careless' fits the suffix, not the prefix
    scores[3, labels.index("B")] = 6.0  # a multiword cue start stays (only 'S' is replaced)
    scores[4, labels.index("O")] = 9.0
    ids = cue._decode(doc, scores)
    assert [labels[i] for i in ids] == expected
    if affix_over_whole:
        cues = cues_of_labels(doc, ids, labels, cue.lexicons.affixes)
        assert [[(p.i, p.start, p.end) for p in c] for c in cues][0] == [(0, 0, 2)]


@pytest.mark.parametrize("threshold,expected", [
    (None, ["O", "O", "O"]),
    (0.5, ["O", "O", "O"]),
    (0.2, ["S|prefix", "O", "O"]),
    (0.1, ["S|prefix", "S|suffix", "O"]),
])
def test_decode_affix_threshold(threshold, expected):
    nlp, cue = _cue_with_affixes(("S", "S|prefix", "S|suffix"), {"prefix": {"un": 5}, "suffix": {"less": 2}},
                                 affix_threshold=threshold)
    labels = cue.labels
    doc = nlp.make_doc("unkempt needless dull")
    # logits: 'O' is the best label everywhere; the fitting affix labels have
    # probability 0.25 ('unkempt': prefix) and 0.125 ('needless': suffix) together
    scores = numpy.full((len(doc), len(labels)), -30.0, dtype="f")
    scores[:, labels.index("O")] = 0.0
    scores[0, labels.index("S|prefix")] = numpy.log(1 / 3)
    scores[1, labels.index("S|suffix")] = numpy.log(1 / 7)
    scores[2, labels.index("S|prefix")] = 0.0  # 'dull' fits no learned affix
    assert [labels[i] for i in cue._decode(doc, scores)] == expected


def test_i_continues_only_within_the_sentence():
    nlp = _nlp_with_cue()
    cue = nlp.get_pipe("negation_cue")
    for label in ("S", "B", "I"):
        cue.add_label(label)
    labels = cue.labels
    doc = Doc(nlp.vocab, words=["Neither", "this", ".", "Nor", "that"],
              sent_starts=[True, False, False, True, False])
    scores = numpy.zeros((len(doc), len(labels)), dtype="f")
    scores[0, labels.index("B")] = 5.0
    scores[3, labels.index("I")] = 5.0
    scores[3, labels.index("S")] = 4.0
    assert [labels[i] for i in cue._decode(doc, scores)] == ["B", "O", "O", "S", "O"]


@pytest.mark.parametrize("arch", ["linear", "bilstm"])
def test_overfit_and_predict_replaces_negations(arch):
    nlp = _nlp_with_cue(arch)
    examples = make_examples(nlp)
    texts = [eg.reference.text for eg in examples]
    gold = [cue_key(eg.reference) for eg in examples]
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.01
    for _ in range(40):
        nlp.update(examples, sgd=optimizer)
    docs = list(nlp.pipe(texts))
    assert [cue_key(d) for d in docs] == gold
    assert all(not n.scope and not n.event for d in docs for n in get_negations(d))
    # the cue component replaces negations the doc had
    doc = nlp.make_doc("He was unhappy.")
    set_negations(doc, [{"cue": [doc[0]], "scope": [doc[1]]}])
    doc = nlp.get_pipe("negation_cue")(doc)
    assert [n.cue_text for n in doc._.negations] == ["un"]


def test_empty_doc_and_whitespace(trained_cnn_dir):
    nlp = spacy.load(trained_cnn_dir)
    cue = nlp.get_pipe("negation_cue")
    empty = nlp.make_doc("")
    assert cue(empty)._.negations == []
    docs = list(nlp.pipe(["", "He was  unhappy.", "   "]))
    assert docs[0]._.negations == [] and docs[2]._.negations == []
    assert [n.cue_text for n in docs[1]._.negations] == ["un"]
    assert [t.text for t in docs[1] if t.is_space] == [" "]
    assert not any(t._.is_neg_cue for t in docs[1] if t.is_space)


@pytest.mark.parametrize("arch", ["linear", "bilstm"])
def test_serialization_round_trips(tmp_path, arch):
    nlp = _nlp_with_cue(arch)
    examples = make_examples(nlp)
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.01
    for _ in range(15):
        nlp.update(examples, sgd=optimizer)
    texts = [eg.reference.text for eg in examples]
    expected = [cue_key(d) for d in nlp.pipe(texts)]
    cue = nlp.get_pipe("negation_cue")
    cue2 = _nlp_with_cue(arch).get_pipe("negation_cue").from_bytes(cue.to_bytes())
    assert cue2.labels == cue.labels
    assert cue2.multiword == cue.multiword != []
    assert cue2.words == cue.words != {}
    assert [cue_key(cue2(nlp.make_doc(t))) for t in texts] == expected
    nlp.to_disk(tmp_path / "nlp")
    nlp2 = spacy.load(tmp_path / "nlp")
    assert nlp2.get_pipe("negation_cue").multiword == cue.multiword
    assert nlp2.get_pipe("negation_cue").words == cue.words
    assert [cue_key(d) for d in nlp2.pipe(texts)] == expected
    nlp3 = _nlp_with_cue(arch).from_bytes(nlp.to_bytes())
    assert [cue_key(d) for d in nlp3.pipe(texts)] == expected


def test_bilstm_cue_tagger_empty_docs_and_no_sentence_boundaries():
    nlp = _nlp_with_cue("bilstm")
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    model = nlp.get_pipe("negation_cue").model
    docs = [nlp.make_doc(""), nlp.make_doc("He was not there. No one came."), nlp.make_doc("")]
    scores = model.predict(docs)
    assert [s.shape for s in scores] == [(0, model.get_dim("nO")), (len(docs[1]), model.get_dim("nO")),
                                         (0, model.get_dim("nO"))]
    assert not docs[1].has_annotation("SENT_START")  # one window: the whole doc
    segmented = nlp.make_doc("He was not there. No one came.")
    for token in segmented:
        token.is_sent_start = token.i in (0, 5)
    assert model.predict([segmented])[0].shape == scores[1].shape


def test_count_cue_words_counts_single_whole_word_cues_and_their_occurrences():
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, words, negations) for words, negations in [
        (["Not", "now", ",", "not", "only", "then", "."], [{"cue": [(0, 0, 3)], "scope": [], "event": []}]),
        (["No", "doubt", "."], []),
        (["Neither", "a", "nor", "b", "was", "unkind", "."],
         [{"cue": [(0, 0, 7), (2, 0, 3)], "scope": [], "event": []},  # multiword: not counted
          {"cue": [(5, 0, 2)], "scope": [], "event": []}]),  # affixal: not counted
    ]]
    docs.append(Doc(nlp.vocab, words=["not", "annotated"]))  # no negation spans: words still count
    assert count_cue_words(docs) == {"not": [1, 3]}
    assert count_cue_words([]) == {}


def _cue_with_words(words, min_word_precision):
    nlp, cue = _cue_with_affixes(("S", "B", "I", "S|prefix"), {"prefix": {"un": 5}},
                                 min_word_precision=min_word_precision)
    cue.cfg["words"] = words
    return nlp, cue


@pytest.mark.parametrize("threshold,expected", [
    (None, ["not", "instead", "devoid", "un", "neither nor"]),
    (0.0, ["not", "instead", "un", "neither nor"]),  # 0: only the words never seen as a cue go
    (0.1, ["not", "un", "neither nor"]),  # instead: 1 of 12 < 0.1
    (0.95, ["un", "neither nor"]),  # not: 9 of 10
])
def test_min_word_precision_drops_rare_and_unseen_single_word_cues(threshold, expected):
    nlp, cue = _cue_with_words({"not": [9, 10], "instead": [1, 12]}, threshold)
    doc = nlp.make_doc("not instead devoid unkind neither x nor")
    labels = cue.labels
    tags = ("S", "S", "S", "S|prefix", "B", "O", "I")
    cue.set_annotations([doc], [numpy.array([labels.index(t) for t in tags], dtype="int32")])
    assert [neg.cue_text.lower() for neg in get_negations(doc)] == expected
    assert nlp.config["components"]["negation_cue"]["decoder"]["min_word_precision"] == threshold


def test_min_word_precision_needs_a_word_lexicon():
    nlp, cue = _cue_with_words({"not": [1, 1]}, 0.5)
    del cue.cfg["words"]  # as in a model trained before the lexicon existed
    assert cue.words is None and "words" not in cue.label_data
    doc = nlp.make_doc("not this")
    ids = numpy.array([cue.labels.index("S"), 0], dtype="int32")
    with pytest.raises(ValueError, match=r"\[NEG-E305\]"):
        cue.set_annotations([doc], [ids])
    cue.decoder.min_word_precision = None
    cue.set_annotations([doc], [ids])
    assert len(get_negations(doc)) == 1


def test_initialize_words_from_label_data_or_a_corpus_file(tmp_path):
    nlp = _nlp_with_cue()
    examples = make_examples(nlp)
    cue = nlp.get_pipe("negation_cue")
    cue.initialize(lambda: examples, labels={"labels": ["S"], "words": {"never": [3, 4]}})
    assert cue.words == {"never": [3, 4]}
    assert cue.multiword != []  # the multiword lexicon still comes from the examples
    # a corpus file (the whole training corpus, where the reader samples sentences)
    extra = make_reference(nlp.vocab, ["Not", "him", "."], [{"cue": [(0, 0, 3)], "scope": [], "event": []}])
    unnegated = make_reference(nlp.vocab, ["Not", "only", "him", "."], [])
    DocBin(store_user_data=True, docs=[eg.reference for eg in examples] + [extra, unnegated]).to_disk(tmp_path / "train.spacy")
    other = _nlp_with_cue().get_pipe("negation_cue")
    other.initialize(lambda: examples, words_corpus=tmp_path / "train.spacy")
    assert other.words == {"no": [1, 2], "not": [3, 4]}
    with pytest.raises(FileNotFoundError):
        _nlp_with_cue().get_pipe("negation_cue").initialize(lambda: examples, words_corpus=tmp_path / "missing.spacy")


def test_words_corpus_from_the_initialize_config(tmp_path):
    nlp = _nlp_with_cue()
    examples = make_examples(nlp)
    DocBin(store_user_data=True, docs=[eg.reference for eg in examples[:4]]).to_disk(tmp_path / "part.spacy")
    nlp.config["initialize"]["components"]["negation_cue"] = {"words_corpus": str(tmp_path / "part.spacy")}
    nlp.initialize(lambda: examples)
    assert nlp.get_pipe("negation_cue").words == {"no": [1, 2]}  # counted on the file's four sentences
