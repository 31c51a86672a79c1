"""The cue lexicons, the registered cue and scope decoders, the decoder settings of a
config (``decoder_settings``, ``decoder_overrides``), and the shared training base."""
import re
import configparser
import inspect
import warnings
from dataclasses import dataclass
from typing import List

import numpy
import pytest
import spacy
from spacy.training import Example
from spacy.util import registry
from thinc.api import ConfigValidationError

from spacy_negation import get_negations, set_negations
from spacy_negation.ml.training_corpus import count_cue_words
from spacy_negation.negation import Part
from spacy_negation.pipeline.base import decoder_overrides, decoder_settings
from spacy_negation.pipeline.cue.decoding import (CONTRACTION_ALIASES, CUE_DECODER_DEFAULTS, CueDecoder, CueLexicons,
                                                   make_cue_decoder, make_cue_decoder_v2, make_cue_decoder_v3,
                                                   trim_punctuation)
from spacy_negation.pipeline.cue.lexicons import AffixLexicon, MultiwordLexicon, WordLexicon
from spacy_negation.pipeline.scope.decoding import SCOPE_DECODER_DEFAULTS, ScopeDecoder, make_scope_decoder

from util import REPO, cue_key, make_examples, make_reference, negation_key

TEXTS = ["He said that the dog did not bark at all , and left .", "No dog barked and no cat came .",
         "He was not happy , but she did not mind ."]


def test_affix_lexicon_learns_sorts_and_round_trips():
    lexicon = AffixLexicon.learn([("suffix", "less"), ("prefix", "un"), ("prefix", "im"), ("prefix", "un")])
    assert lexicon.to_dict() == {"prefix": {"im": 1, "un": 2}, "suffix": {"less": 1}, "infix": {}}
    assert list(lexicon.to_dict()["prefix"]) == ["im", "un"]
    assert AffixLexicon.from_dict(lexicon.to_dict()).to_dict() == lexicon.to_dict()
    assert AffixLexicon.from_dict({"suffix": {"less": 3}}).to_dict() == {"prefix": {}, "suffix": {"less": 3}, "infix": {}}
    assert lexicon.choose("Unwise", "prefix") == (0, 2) and lexicon.choose("wise", "prefix") is None
    assert lexicon.fitting_kinds("unhelpless") == {"prefix", "suffix"}
    with pytest.raises(ValueError, match=r"\[NEG-E302\]"):
        AffixLexicon.from_dict({"root": {"x": 1}})


def test_multiword_lexicon_learns_matches_and_round_trips():
    neither, by_no_means = (("neither",), ("nor",)), (("by", "no", "means"),)
    sentences = ["neither a nor b".split(), "neither c".split(), "by no means".split(), "neither x nor y nor z".split()]
    lexicon = MultiwordLexicon.learn([neither, by_no_means, neither], sentences)
    assert lexicon.to_dict() == [
        {"words": [["by", "no", "means"]], "cues": 1, "matches": 1},
        {"words": [["neither"], ["nor"]], "cues": 2, "matches": 2},
    ]
    assert MultiwordLexicon.from_dict(lexicon.to_dict()).entries == lexicon.entries
    # a cue counts as a match even where the sentences miss it
    assert MultiwordLexicon.learn([neither], []).to_dict() == [{"words": [["neither"], ["nor"]], "cues": 1, "matches": 1}]
    rare = MultiwordLexicon.from_dict([{"words": [["not"], ["not"]], "cues": "1", "matches": 4}])
    assert rare.entries == [{"words": [["not"], ["not"]], "cues": 1, "matches": 4}]
    assert rare.patterns(0.25) == [(("not",), ("not",))] and rare.patterns(0.3) == []
    assert lexicon.patterns(0.5) == [by_no_means, neither]  # the longest first
    # computed once per threshold; a caller's change to the list it got does not stick
    first = lexicon.patterns(0.5)
    first.clear()
    assert lexicon.patterns(0.5) == [by_no_means, neither] and lexicon.patterns(1.1) == []


def test_word_lexicon_learns_and_round_trips():
    nlp = spacy.blank("en")
    docs = [eg.reference for eg in make_examples(nlp)]
    lexicon = WordLexicon.learn(docs)
    assert lexicon.to_dict() == count_cue_words(docs) == {"no": [1, 2], "not": [2, 2]}
    assert WordLexicon.from_dict({"not": (2, 2), "no": ["1", 2]}).to_dict() == {"no": [1, 2], "not": [2, 2]}
    assert lexicon.is_cue("not", 1.0) and lexicon.is_cue("no", 0.5) and not lexicon.is_cue("no", 0.6)
    assert not lexicon.is_cue("never", 0.0)  # never seen as a cue


@pytest.mark.parametrize("make,defaults", [(make_cue_decoder_v3, {**CUE_DECODER_DEFAULTS, "word_aliases": None}),
                                           (make_scope_decoder, SCOPE_DECODER_DEFAULTS)])
def test_registered_decoders_defaults_and_entry_points(make, defaults):
    params = inspect.signature(make).parameters
    assert {name: p.default for name, p in params.items()} == defaults
    factory = "negation_cue" if make is make_cue_decoder_v3 else "negation_scope"
    nlp = spacy.blank("en")
    nlp.add_pipe(factory)
    block = nlp.config["components"][factory]["decoder"]
    assert {k: v for k, v in block.items() if k != "@misc"} == defaults
    name = block["@misc"]
    assert registry.misc.get(name) is make
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    declared = dict(line.split(" = ") for line in setup["options.entry_points"]["spacy_misc"].strip().splitlines())
    assert declared[name] == f"{make.__module__}:{make.__name__}"


def test_decoder_blocks_in_the_config():
    nlp = spacy.blank("en")
    cue = nlp.add_pipe("negation_cue", config={"decoder": {
        "@misc": "spacy-negation.cue_decoder.v1", "affix_threshold": None, "min_word_precision": 0.3}})
    assert cue.decoder == CueDecoder(affix_threshold=None, min_word_precision=0.3)
    scope = nlp.add_pipe("negation_scope", config={"decoder": {
        "@misc": "spacy-negation.scope_decoder.v1", "contiguous": True, "scope_bias": 0.5}})
    assert scope.decoder == ScopeDecoder(contiguous=True, scope_bias=0.5)
    with pytest.raises(ValueError, match=r"\[NEG-E303\]"):
        spacy.blank("en").add_pipe("negation_cue", config={"decoder": {
            "@misc": "spacy-negation.cue_decoder.v1", "multiword_min_precision": 2.0}})


def test_decoder_blocks_are_the_one_way():
    """The decoding is set in the decoder block; the component has no setting of its
    decoder's (a config that sets one there does not validate)."""
    nlp = spacy.blank("en")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cue = nlp.add_pipe("negation_cue", config={"decoder": {
            "@misc": "spacy-negation.cue_decoder.v1", "affix_threshold": None, "min_word_precision": 0.1}})
        scope = nlp.add_pipe("negation_scope")
    assert cue.decoder == CueDecoder(affix_threshold=None, min_word_precision=0.1)
    assert scope.decoder == ScopeDecoder()
    for name, defaults in (("negation_cue", CUE_DECODER_DEFAULTS), ("negation_scope", SCOPE_DECODER_DEFAULTS)):
        assert not set(defaults) & set(nlp.config["components"][name])
        assert decoder_settings(nlp.config["components"][name]) == {
            **defaults, **nlp.config["components"][name]["decoder"]}
    for factory, key in (("negation_cue", "min_word_precision"), ("negation_scope", "contiguous")):
        with pytest.raises(ConfigValidationError):
            spacy.blank("en").add_pipe(factory, config={key: True})


def test_decoder_settings_fill_the_registered_decoders_defaults():
    """A decoder block that leaves settings out (a config as written, not as loaded) gets
    the registered decoder's defaults; a section without a block, the factory's default
    decoder."""
    assert decoder_settings({"factory": "negation_cue", "decoder": {
        "@misc": "spacy-negation.cue_decoder.v1", "min_word_precision": 0.1}}) == {
        "@misc": "spacy-negation.cue_decoder.v1", **CUE_DECODER_DEFAULTS, "min_word_precision": 0.1}
    assert decoder_settings({"factory": "negation_cue"}) == {
        "@misc": "spacy-negation.cue_decoder.v3", **CUE_DECODER_DEFAULTS, "word_aliases": None}
    assert decoder_settings({"factory": "negation_scope", "decoder": {
        "@misc": "spacy-negation.scope_decoder.v1", "scope_bias": 0.5}}) == {
        "@misc": "spacy-negation.scope_decoder.v1", **SCOPE_DECODER_DEFAULTS, "scope_bias": 0.5}


@dataclass
class FirstCueOnly:
    """A cue decoder that keeps each doc's first cue of the built-in decoder."""

    inner: CueDecoder

    def label_ids(self, *args, **kwargs) -> numpy.ndarray:
        return self.inner.label_ids(*args, **kwargs)

    def cues(self, *args, **kwargs) -> List[List[Part]]:
        return self.inner.cues(*args, **kwargs)[:1]


def _first_cue_only() -> FirstCueOnly:
    return FirstCueOnly(CueDecoder())


def test_a_registered_decoder_replaces_the_built_in(trained_cnn_dir, tmp_path):
    registry.misc.register("test-negation.first_cue_only.v1", func=_first_cue_only)
    block = {"components.negation_cue.decoder": {"@misc": "test-negation.first_cue_only.v1"}}
    nlp = spacy.load(trained_cnn_dir)
    first = spacy.load(trained_cnn_dir, config=block)
    assert isinstance(first.get_pipe("negation_cue").decoder, FirstCueOnly)
    full = [cue_key(doc) for doc in nlp.pipe(TEXTS)]
    assert any(len(key) > 1 for key in full)
    assert [cue_key(doc) for doc in first.pipe(TEXTS)] == [key[:1] for key in full]
    # settings of the built-in decoder are not the registered one's
    with pytest.raises(ConfigValidationError):
        spacy.load(trained_cnn_dir, config={**block, "components.negation_cue.decoder.min_word_precision": 0.5})
    first.to_disk(tmp_path / "first")
    assert [cue_key(doc) for doc in spacy.load(tmp_path / "first").pipe(TEXTS)] == [key[:1] for key in full]


def test_decoder_overrides_set_decoder_settings_at_load_time(trained_cnn_dir):
    """``decoder_overrides`` gives each component its whole decoder block with the new
    settings: loaded with them, the pipeline decodes as one whose config has them."""
    nlp = spacy.load(trained_cnn_dir)
    change = {"negation_cue": {"multiword_min_precision": 0.6}, "negation_scope": {"scope_bias": 0.3}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        changed = spacy.load(trained_cnn_dir, config=decoder_overrides(nlp.config["components"], change))
    dotted = spacy.load(trained_cnn_dir, config={f"components.{name}.decoder.{key}": value
                                                 for name, settings in change.items() for key, value in settings.items()})
    assert [changed.get_pipe(name).decoder for name in change] == [dotted.get_pipe(name).decoder for name in change] == [
        make_cue_decoder_v3(multiword_min_precision=0.6), ScopeDecoder(scope_bias=0.3)]
    assert [negation_key(d) for d in changed.pipe(TEXTS)] == [negation_key(d) for d in dotted.pipe(TEXTS)]


def test_shared_loss_of_both_components(trained_cnn_dir):
    nlp = spacy.load(trained_cnn_dir)
    examples = make_examples(nlp)
    docs = [eg.predicted for eg in examples]
    cue, scope = nlp.get_pipe("negation_cue"), nlp.get_pipe("negation_scope")
    docs = list(nlp.get_pipe("tok2vec").pipe(docs))
    loss, grads = cue.get_loss(examples, cue.model.begin_update(docs)[0])  # training scores: softmax
    assert loss >= 0.0 and [g.shape for g in grads] == [(len(d), len(cue.labels)) for d in docs]
    inputs, truths = scope._inputs_and_truths(examples)
    scores = scope.model.begin_update(inputs)[0]
    loss, grads = scope.get_loss(examples, scores)
    assert loss >= 0.0 and len(grads) == len(truths) == sum(len(get_negations(eg.reference)) for eg in examples)
    with pytest.raises(ValueError, match=r"\[NEG-E310\]"):
        scope.get_loss(examples, scores[:-1])
    # no gold cue in the batch: no loss, nothing to learn
    ref = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    doc = nlp.make_doc(ref.text)
    set_negations(doc, [])
    assert scope.get_loss([Example(doc, ref)], []) == (0.0, [])


@pytest.mark.parametrize("factory", ["negation_cue", "negation_scope", "negation_graph"])
def test_decoder_settings_before_any_pipeline_exists(factory):
    """A script that reads a saved config before loading any pipeline (as
    scripts/evaluate_model.py --set does) finds every factory's default decoder: the
    factories of the entry points are imported on demand."""
    import subprocess
    import sys

    code = ("from spacy_negation.pipeline.base import decoder_settings; "
            f"print(decoder_settings({{'factory': {factory!r}}})['@misc'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert re.fullmatch(r"spacy-negation\.\w+_decoder\.v[123]", out.stdout.strip())


def test_earlier_cue_decoders_stay_registered_with_their_settings():
    """Pipelines saved with the v1 or v2 block load it: same settings; v1 has no aliases,
    neither trims punctuation."""
    assert {name: p.default for name, p in inspect.signature(make_cue_decoder).parameters.items()} == CUE_DECODER_DEFAULTS
    assert make_cue_decoder().word_aliases == {} and not make_cue_decoder().trim_punctuation
    assert not make_cue_decoder_v2().trim_punctuation and make_cue_decoder_v3().trim_punctuation
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    declared = dict(line.split(" = ") for line in setup["options.entry_points"]["spacy_misc"].strip().splitlines())
    for version, make in (("v1", make_cue_decoder), ("v2", make_cue_decoder_v2), ("v3", make_cue_decoder_v3)):
        assert registry.misc.get(f"spacy-negation.cue_decoder.{version}") is make
        assert declared[f"spacy-negation.cue_decoder.{version}"] == f"spacy_negation.pipeline.cue.decoding:{make.__name__}"


@pytest.mark.parametrize("words,cue,expected", [
    (["Allergies", ":", "none", "."], [1, 2], [2]),          # ": none" -> "none"
    (["Allergies", ":", "none", "."], [1, 2, 3], [2]),       # both ends
    (["He", "said", ":", "no"], [2], None),                  # punctuation only: dropped
    (["and", "/", "or", "not"], [0, 1, 2], [0, 1, 2]),       # punctuation inside stays
    (["rule", "-", "out", "x"], [0, 1, 2], [0, 1, 2]),
    (["\u201c", "Never", "\u201d"], [0, 1, 2], [1]),        # typographic quotes
])
def test_v3_trims_punctuation_tokens_off_the_ends_of_a_cue(words, cue, expected):
    doc = spacy.blank("en").make_doc(" ".join(words))
    trimmed = trim_punctuation(doc, [[Part.whole(doc[i]) for i in cue]])
    assert trimmed == ([] if expected is None else [[Part.whole(doc[i]) for i in expected]])
    partial = [[Part(2, 0, 2)]]  # an affixal part of a token is never trimmed
    assert trim_punctuation(spacy.blank("en").make_doc("it is unhappy"), partial) == partial


def test_v3_decodes_the_colon_tagged_before_none_as_the_cue_none():
    """A tagger that tags ': none' (B I) gives the cue 'none' through the v3 decoder and
    ': none' through v2."""
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Allergies : none .")
    labels = ("O", "B", "I")
    ids = numpy.array([0, 1, 2, 0], dtype="int32")
    lexicons = CueLexicons(AffixLexicon({}), MultiwordLexicon([]), WordLexicon({}))
    v2 = make_cue_decoder_v2().cues(doc, ids, labels, lexicons, name="negation_cue")
    v3 = make_cue_decoder_v3().cues(doc, ids, labels, lexicons, name="negation_cue")
    assert v2 == [[Part.whole(doc[1]), Part.whole(doc[2])]] and v3 == [[Part.whole(doc[2])]]


def _contracted_doc(nlp):
    from spacy_negation.negation import Part

    doc = nlp.make_doc("He does n't know .")
    return doc, [[Part(2, 0, 3)]]


@pytest.mark.parametrize("counts,v1_keeps,v2_keeps", [
    ({"not": [9, 10]}, False, True),            # n't never a cue in training: looked up as not
    ({"not": [9, 10], "n't": [1, 10]}, False, False),  # its own evidence counts: 0.1 < 0.5
    ({"not": [1, 10]}, False, False),           # the alias's evidence is too weak too
])
def test_v2_looks_a_contraction_never_seen_as_a_cue_up_as_not(counts, v1_keeps, v2_keeps):
    """BioScope has no contraction: a model trained on it tags *n't* as a cue, and the
    word filter of v1 drops it as a word never seen as one."""
    from spacy_negation.pipeline.cue.decoding import filter_words
    from spacy_negation.pipeline.cue.lexicons import WordLexicon

    doc, cues = _contracted_doc(spacy.blank("en"))
    words = WordLexicon(counts)
    assert bool(filter_words(doc, cues, words, 0.5)) is v1_keeps
    assert bool(filter_words(doc, cues, words, 0.5, CONTRACTION_ALIASES)) is v2_keeps
    assert make_cue_decoder_v2().word_aliases == CONTRACTION_ALIASES == {"n't": "not", "n\u2019t": "not"}
    assert make_cue_decoder_v2(word_aliases={}).word_aliases == {}
