"""The lexicon feature of ``spacy-negation.CueTagger.v2`` (spacy_negation.ml.lexicon_features):
which tokens it flags, which lexicon splits it takes, and that it is saved with the model."""
import numpy
import pytest
import spacy

from spacy_negation.corpora.cue_lexicon import load_negation_lexicon
from spacy_negation.ml.lexicon_features import flag_tokens, lexicon_flags, phrase_index
from spacy_negation.ml.models import build_cue_tagger_v2

from util import CNN_TINY, load_test_nlp, make_examples

PHRASES = [(("not",), 1), (("ruled", "out"), 2), (("free", "of"), 1), (("rather", "than"), 2)]
V2 = {"components.negation_cue.model.@architectures": "spacy-negation.CueTagger.v2"}


@pytest.mark.parametrize("text,flags", [
    ("he did not come", [0, 0, "S", 0]),
    ("MI was ruled out .", [0, 0, "B", "I", 0]),
    ("he is free of pain", [0, 0, "S", 0, 0]),
    ("a free meal", [0, 0, 0]),                      # "free [of]" needs its "of"
    ("rather than that", ["B", "I", 0]),
    ("NOT now", ["S", 0]),                                # lower case
    ("", []),
])
def test_flags_mark_the_cue_words_of_the_matching_phrases(text, flags):
    got = flag_tokens(text.lower().split(), phrase_index([[list(w), n] for w, n in PHRASES]))
    want = numpy.zeros((len(flags), 3), dtype="float32")
    for i, flag in enumerate(flags):
        if flag:
            want[i, "SBI".index(flag)] = 1.0
    assert got.shape == (len(flags), 3) and (got == want).all()


def ones(width=2):
    """Token vectors of ones (a stand-in tok2vec), with their backprop recorded."""
    from thinc.api import Model

    def forward(model, docs, is_train):
        def backprop(dXs):
            model.attrs["dXs"] = dXs
            return []
        return [model.ops.alloc2f(len(doc), width) + 1 for doc in docs], backprop

    return Model("ones", forward, dims={"nO": width}, attrs={"dXs": None})


def test_the_layer_appends_the_flags_to_the_token_vectors():
    nlp = spacy.blank("en")
    t2v = ones()
    layer = lexicon_flags(t2v, PHRASES)
    assert layer.get_dim("nO") == 5
    docs = [nlp("He did not come."), nlp(""), nlp("Rather than NOT\u200b now")]
    Ys, backprop = layer(docs, is_train=True)
    assert [y.shape for y in Ys] == [(5, 5), (0, 5), (4, 5)]
    assert Ys[0][:, 2].tolist() == [0, 0, 1, 0, 0] and Ys[2][:, 3:].tolist()[:2] == [[1, 0], [0, 1]]
    assert Ys[2][2, 2:].tolist() == [1, 0, 0]  # lower case, without its format character
    assert (Ys[0][:, :2] == 1).all()  # rate 0: no vector dropped in training
    assert layer.attrs["seen"] == {"not": 2, "rather": 1, "than": 1}  # sentences per flagged word
    layer(docs, is_train=True)  # a second epoch counts nothing again
    assert layer.attrs["seen"] == {"not": 2, "rather": 1, "than": 1}
    backprop([y + 1 for y in Ys])
    assert [dx.shape for dx in t2v.attrs["dXs"]] == [(5, 2), (0, 2), (4, 2)]


def test_novel_flagged_words_are_tagged_from_their_flags_alone():
    """In prediction the vector of a flagged word training never showed is zeroed (its
    flags kept); in training, a flagged token's vector is zeroed with probability rate."""
    nlp = spacy.blank("en")
    layer = lexicon_flags(ones(), PHRASES, rate=1.0, min_seen=1)
    layer([nlp("He did not come")], is_train=True)
    Y = layer.predict([nlp("It was not ruled out")])[0]
    assert Y[:, :2].tolist() == [[1, 1], [1, 1], [1, 1], [0, 0], [0, 0]]  # "ruled out" is novel
    assert Y[3:, 2:].tolist() == [[0, 1, 0], [0, 0, 1]]
    Ytrain, backprop = layer([nlp("He did not come")], is_train=True)
    assert Ytrain[0][:, :2].tolist() == [[1, 1], [1, 1], [0, 0], [1, 1]]  # rate 1: "not" dropped
    backprop([numpy.ones_like(Ytrain[0])])
    assert layer.layers[0].attrs["dXs"][0].tolist() == [[1, 1], [1, 1], [0, 0], [1, 1]]


def test_lexicon_splits_choose_the_flagged_words():
    lexicon = load_negation_lexicon()
    heldout = {entry.key for entry in lexicon if entry.split == "heldout"}
    assert {"denies", "ruled out", "nobody"} <= heldout

    def flagged(splits, text):
        model = build_cue_tagger_v2(spacy.registry.architectures.get("spacy.HashEmbedCNN.v2")(
            width=8, depth=1, embed_size=100, window_size=1, maxout_pieces=2, subword_features=False,
            pretrained_vectors=None), lexicon_splits=splits)
        layer = next(node for node in model.walk() if node.name == "lexicon_flags")
        layer.initialize()
        return layer.predict([spacy.blank("en")(text)])[0][:, -3:].sum(axis=1).tolist()

    assert flagged(["train"], "She denies pain and lacks energy; it does n't hurt") == [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]
    assert flagged(["train", "heldout"], "She denies pain") == [0, 1, 0]
    with pytest.raises(ValueError, match=r"\[NEG-E379\] lexicon_splits .* \['test'\]"):
        flagged(["train", "test"], "x")


def test_a_v2_pipeline_trains_saves_and_keeps_its_lexicon(tmp_path):
    nlp = load_test_nlp(CNN_TINY, {**V2, "components.negation_cue.model.lexicon_splits": ["train"]})
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    losses: dict = {}
    for _ in range(3):
        nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["negation_cue"] > 0
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    layers = [next(n for n in p.get_pipe("negation_cue").model.walk() if n.name == "lexicon_flags")
              for p in (nlp, loaded)]
    assert layers[0].attrs["phrases"] == layers[1].attrs["phrases"]
    assert layers[0].attrs["seen"] == layers[1].attrs["seen"] and layers[1].attrs["seen"]["not"] >= 1
    assert ["denies"] not in [words for words, _ in layers[1].attrs["phrases"]]
    text = "He did not come without her."
    assert [n.cue for n in nlp(text)._.negations] == [n.cue for n in loaded(text)._.negations]


def test_the_word_filter_keeps_flagged_words_the_training_never_showed_as_cues():
    """A lexicon word never a cue in training passes min_word_precision; one whose training
    counts say it is seldom a cue does not."""
    from spacy_negation.negation import Part
    from spacy_negation.pipeline.cue.decoding import filter_words
    from spacy_negation.pipeline.cue.lexicons import WordLexicon

    doc = spacy.blank("en").make_doc("without pain , negative culture")
    cues = [[Part.whole(doc[0])], [Part.whole(doc[3])]]
    words = WordLexicon({"not": [9, 10], "negative": [1, 149]})
    assert filter_words(doc, cues, words, 0.1) == []
    assert filter_words(doc, cues, words, 0.1, flagged={"without", "negative"}) == cues[:1]


def test_a_v2_component_hands_its_flagged_words_to_the_decoder_and_the_prefilter():
    from spacy_negation.pipeline.cue.prefilter import CuePrefilter

    nlp = load_test_nlp(CNN_TINY, {**V2, "components.negation_cue.model.lexicon_splits": ["train"]})
    nlp.initialize(lambda: make_examples(nlp))
    cue = nlp.get_pipe("negation_cue")
    flagged = cue.lexicons.flagged
    assert {"without", "lacks", "not", "n't", "absence"} <= flagged and "denies" not in flagged
    assert not {"of", "with", "the", "means"} & flagged  # one-word cues only
    prefilter = CuePrefilter.of_component(cue, {"by", "no", "rather", "with", "the", "of"})
    assert prefilter.is_candidate("without") and not prefilter.is_candidate("denies")
    # a word of each cue of several words: "with the exception of" by "exception"
    assert prefilter.is_candidate("exception") and not prefilter.is_candidate("the")
    v1 = load_test_nlp(CNN_TINY)
    v1.initialize(lambda: make_examples(v1))
    assert v1.get_pipe("negation_cue").lexicons.flagged == frozenset()
    assert not CuePrefilter.of_component(v1.get_pipe("negation_cue"), set()).is_candidate("without")


def test_the_layer_imports_first_in_a_fresh_interpreter():
    """spaCy imports an architecture's module on its own through the entry point; the
    module once imported the pipeline package, which imports it back (a circular import)."""
    import subprocess
    import sys

    code = "import spacy_negation.ml.lexicon_features, spacy_negation.ml.models"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_flagged_dropout_is_checked_and_trains():
    with pytest.raises(ValueError, match=r"\[NEG-E380\]"):
        build_cue_tagger_v2(spacy.registry.architectures.get("spacy.HashEmbedCNN.v2")(
            width=8, depth=1, embed_size=100, window_size=1, maxout_pieces=2, subword_features=False,
            pretrained_vectors=None), flagged_dropout=1.5)
    nlp = load_test_nlp(CNN_TINY, {**V2, "components.negation_cue.model.flagged_dropout": 0.5})
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    losses: dict = {}
    nlp.update(examples, sgd=optimizer, losses=losses)
    assert losses["negation_cue"] > 0


def test_a_flagged_word_in_fewer_sentences_than_min_seen_is_novel():
    """spaCy's tokenizer splits a few gold tokens ("Can't", "no-one"): a word held out of
    the training data turns up a few times; fewer than min_seen sentences leave it novel."""
    nlp = spacy.blank("en")
    layer = lexicon_flags(ones(), PHRASES, min_seen=3)
    layer([nlp("He did not come"), nlp("not now")], is_train=True)
    assert layer.predict([nlp("not")])[0][0, :2].tolist() == [0, 0]  # 2 sentences < 3
    layer([nlp("Not again")], is_train=True)
    assert layer.predict([nlp("not")])[0][0, :2].tolist() == [1, 1]
    with pytest.raises(ValueError, match=r"\[NEG-E381\]"):
        build_cue_tagger_v2(ones(), flagged_min_seen=0)
