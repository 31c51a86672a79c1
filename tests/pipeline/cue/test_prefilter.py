"""The sentence prefilter (``negation_cue``'s ``prefilter`` setting): candidates from the
learned lexicons, cues only in candidate sentences, and the ``negation`` component
sending only those sentences to the model, with the same negations."""
import json
from typing import List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.pipeline.cue.patterns import PATTERNS_KEY
from spacy_negation.pipeline.cue.lexicons import AffixLexicon
from spacy_negation.pipeline.host_docs import merge_negations
from spacy_negation.pipeline.cue.prefilter import MIN_SHARE, CuePrefilter, check_window, covering_words

from util import TEXTS, negation_key


@pytest.fixture(scope="module")
def prefilter_dir(trained_cnn_dir, tmp_path_factory):
    """The tiny CNN pipeline with the prefilter on."""
    nlp = spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True}}})
    out = tmp_path_factory.mktemp("prefilter") / "model"
    nlp.to_disk(out)
    return out


def sentences_doc(vocab, texts: List[str]) -> Doc:
    """One doc of the texts' tokens with a sentence start at each text."""
    docs = [spacy.blank("en").make_doc(t) for t in texts]
    words = [t.text for d in docs for t in d]
    spaces = [True if i == len(d) - 1 else bool(t.whitespace_) for d in docs for i, t in enumerate(d)]
    starts = [i == 0 for d in docs for i in range(len(d))]
    return Doc(vocab, words=words, spaces=spaces, sent_starts=starts)


def record_model_docs(resolver) -> List[Doc]:
    """The list the docs the resolver sends to its negation pipeline are added to."""
    sent: List[Doc] = []
    pipe = resolver.negation_nlp.pipe

    def recording(docs, **kwargs):
        docs = list(docs)
        sent.extend(docs)
        return pipe(docs, **kwargs)

    resolver.negation_nlp.pipe = recording  # type: ignore[method-assign]
    return sent


def test_candidates_words_and_affixes():
    nlp = spacy.blank("en")
    prefilter = CuePrefilter({"not", "never"}, AffixLexicon({"prefix": {"un": 3}, "suffix": {}, "infix": {}}))
    assert prefilter.is_candidate("not") and prefilter.is_candidate("unhappy")
    assert not prefilter.is_candidate("dog")
    assert prefilter.is_candidate("unhappy")  # cached answers stay right
    doc = sentences_doc(nlp.vocab, ["The dog barked.", "He was unhappy.", "It rained.", "I think not"])
    assert prefilter.sentences(doc) == [(4, 8), (11, 14)]
    no_affixes = CuePrefilter({"not"}, AffixLexicon({"prefix": {}, "suffix": {}, "infix": {}}))
    assert no_affixes.affixes is None and not no_affixes.is_candidate("unhappy")
    assert no_affixes.sentences(nlp.make_doc("")) == []
    # no sentence boundaries: the whole doc is one sentence
    assert no_affixes.sentences(nlp.make_doc("The dog did not bark")) == [(0, 5)]


def test_window_cuts_sentences_around_their_candidates():
    nlp = spacy.blank("en")
    texts = ["The old dog did not bark at the cat today .", "It rained .", "No , never ."]
    doc = sentences_doc(nlp.vocab, texts)
    whole = CuePrefilter({"not", "no", "never"})
    assert whole.sentences(doc) == [(0, 11), (14, 18)]
    # 1 token before "not" (4) to 2 after; the last sentence: from "No" to after "never"
    assert CuePrefilter({"not", "no", "never"}, window=[1, 2]).sentences(doc) == [(3, 7), (14, 18)]
    assert CuePrefilter({"not", "no", "never"}, window=(0, 0)).sentences(doc) == [(4, 5), (14, 17)]
    # a window wider than the sentence keeps the sentence
    assert CuePrefilter({"not", "no", "never"}, window=[50, 50]).sentences(doc) == [(0, 11), (14, 18)]
    # no sentence boundaries: one sentence, cut the same way
    assert CuePrefilter({"not"}, window=[2, 1]).sentences(nlp.make_doc("The old dog did not bark at all")) == [(2, 6)]
    assert CuePrefilter({"not"}, window=[2, 1]).sentences(nlp.make_doc("")) == []


@pytest.mark.parametrize("window", [[1], [1, 2, 3], [-1, 2], [1.5, 2], ["1", 2], [True, 2], "12", 3])
def test_window_must_be_two_whole_numbers(window):
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        check_window(window)
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        CuePrefilter({"not"}, window=window)
    assert check_window(None) is None and check_window([0, 3]) == (0, 3)


def test_candidates_of_a_component(trained_cnn_dir):
    nlp = spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True}}})
    cue = nlp.get_pipe("negation_cue")
    cue.cfg["words"] = {"not": [9, 10], "no": [5, 5], "can": [1, int(1 / MIN_SHARE) + 1]}
    cue.cfg["multiword"] = [{"words": [["by", "no", "means"]], "cues": 3, "matches": 3},
                            {"words": [["rare", "pattern"]], "cues": 0, "matches": 9}]
    cue.set_cue_patterns([])  # resets the prefilter, as a new cue list does
    prefilter = CuePrefilter.of_component(cue, nlp.Defaults.stop_words)
    assert {"not", "no"} <= prefilter.words
    assert "can" not in prefilter.words  # a cue in fewer than MIN_SHARE of its occurrences
    # "by no means" holds "no", a candidate already: its other words add nothing
    assert not {"by", "means"} & prefilter.words
    assert "rare" not in prefilter.words  # a pattern the decoder does not join
    assert prefilter.is_candidate("unhappy")  # the tiny pipeline learned affixal cues
    doc = sentences_doc(nlp.vocab, ["The dog barked loudly.", "I can not say."])
    assert cue.candidate_sentences(doc) == [(5, 10)]



@pytest.mark.parametrize("misc,seen,candidate", [
    ("spacy-negation.cue_decoder.v2", {}, True),             # n't never a cue: a candidate as "not" is
    ("spacy-negation.cue_decoder.v2", {"n't": [0, 5]}, False),  # its own entry counts, as in the decoder
    ("spacy-negation.cue_decoder.v2", {"n't": [1, 100]}, False),  # its own evidence: below MIN_SHARE
    ("spacy-negation.cue_decoder.v1", {}, False),            # v1 has no aliases
])
def test_a_word_alias_is_a_candidate_as_its_word(trained_cnn_dir, misc, seen, candidate):
    """cue_decoder.v2 keeps a tagged n't whose model never saw it as a cue (it counts as
    not): the prefilter must let its sentence through too."""
    nlp = spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {
        "prefilter": True, "decoder": {"@misc": misc, "min_word_precision": 0.1}}}})
    cue = nlp.get_pipe("negation_cue")
    cue.cfg["words"] = {"not": [9, 10], **seen}
    cue.set_cue_patterns([])  # resets the prefilter
    prefilter = CuePrefilter.of_component(cue, nlp.Defaults.stop_words)
    assert ("n't" in prefilter.words) is candidate
    assert ("n\u2019t" in prefilter.words) is misc.endswith("v2")  # never seen in any case

def test_cues_only_in_candidate_sentences(trained_cnn_dir, prefilter_dir):
    plain, filtered = spacy.load(trained_cnn_dir), spacy.load(prefilter_dir)
    assert filtered.get_pipe("negation_cue").prefilter and not plain.get_pipe("negation_cue").prefilter
    filtered.get_pipe("negation_cue").cfg["words"] = {}  # "No" and "not" are no candidates now
    filtered.get_pipe("negation_cue").set_cue_patterns([])
    doc = filtered(sentences_doc(filtered.vocab, ["He was unhappy.", "No one came to the party."]))
    assert [n.cue_text for n in doc._.negations] == ["un"]
    doc = plain(sentences_doc(plain.vocab, ["He was unhappy.", "No one came to the party."]))
    assert [n.cue_text for n in doc._.negations] == ["un", "No"]


def test_resolver_sends_only_candidate_sentences(prefilter_dir):
    host = spacy.blank("en")
    host.add_pipe("sentencizer")
    resolver = host.add_pipe("negation", config={"model": str(prefilter_dir)})
    sent = record_model_docs(resolver)
    doc = host("The dog barked loudly. He was unhappy. The dog barked loudly.")
    assert [d.text for d in sent] == ["He was unhappy. "]
    (neg,) = doc._.negations
    assert neg.cue_text == "un" and neg.doc is doc and neg.cue[0].i == 7
    assert neg.scope_text == "He was happy"
    sent.clear()
    doc = host("The dog barked loudly.")
    assert sent == [] and doc._.negations == []
    assert host("")._.negations == []


def test_resolver_sends_only_the_window(prefilter_dir, tmp_path):
    """With a prefilter_window the network reads only the tokens around the candidates,
    and the negations land on the host doc's own tokens."""
    nlp = spacy.load(prefilter_dir, config={"components": {"negation_cue": {"prefilter_window": [1, 1]}}})
    assert nlp.get_pipe("negation_cue").prefilter_window == (1, 1)
    nlp.to_disk(tmp_path / "model")
    assert spacy.load(tmp_path / "model").get_pipe("negation_cue").prefilter_window == (1, 1)
    host = spacy.blank("en")
    host.add_pipe("sentencizer")
    resolver = host.add_pipe("negation", config={"model": str(tmp_path / "model")})
    sent = record_model_docs(resolver)
    doc = host("The dog barked loudly. Then the old man was unhappy about it all.")
    assert [d.text for d in sent] == ["was unhappy about "]
    (neg,) = doc._.negations
    assert neg.cue_text == "un" and neg.doc is doc and neg.cue[0].i == 10
    assert all(9 <= t.i <= 11 for t in neg.scope)  # the scope stays in the window


def test_window_in_the_component_config(trained_cnn_dir):
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True,
                                                                              "prefilter_window": [3]}}})
    nlp = spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True,
                                                                              "prefilter_window": [0, 0]}}})
    doc = nlp(sentences_doc(nlp.vocab, ["The dog barked loudly.", "Then the old man was unhappy about it."]))
    assert [n.cue_text for n in doc._.negations] == ["un"]
    assert nlp.get_pipe("negation_cue").candidate_sentences(doc) == [(10, 11)]


def test_resolver_same_negations_with_and_without_prefilter(trained_cnn_dir, prefilter_dir):
    """On single-sentence docs the prefilter changes nothing in sentences with a
    candidate, and finds nothing in the others."""
    plain = spacy.blank("en")
    plain.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    filtered = spacy.blank("en")
    filtered.add_pipe("negation", config={"model": str(prefilter_dir)})
    model = spacy.load(prefilter_dir)
    cue = model.get_pipe("negation_cue")
    for text in TEXTS:
        a, b = plain(text), filtered(text)
        if cue.candidate_sentences(model.make_doc(text)):
            assert negation_key(a) == negation_key(b), text
        else:
            assert b._.negations == [], text


def test_resolver_prefilter_with_a_cue_list(prefilter_dir):
    host = spacy.blank("en")
    host.add_pipe("sentencizer")
    host.add_pipe("negation", config={"model": str(prefilter_dir),
                                      "cue_patterns": [{"pattern": "denies", "kind": "preceding"}]})
    doc = host("The dog barked loudly. The patient denies pain.")
    assert [(s.start, s.end, s.label_) for s in doc.spans[PATTERNS_KEY]] == [(7, 8, "PRECEDING")]
    assert [n.cue_text for n in doc._.negations] == ["denies"]
    doc = host("The dog barked loudly.")
    assert doc._.negations == [] and list(doc.spans[PATTERNS_KEY]) == []


def test_merge_negations_checks_the_tokens():
    nlp = spacy.blank("en")
    target = nlp.make_doc("He was unhappy .")
    with pytest.raises(ValueError, match=r"\[NEG-E322\]"):
        merge_negations([(nlp.make_doc("was happy"), 1)], target)
    with pytest.raises(ValueError, match=r"\[NEG-E322\]"):
        merge_negations([(nlp.make_doc("unhappy . more"), 2)], target)


def test_model_card_writes_a_prefilter_copy(trained_cnn_dir, tmp_path, run_script):
    """scripts/model_card.py --prefilter: a copy with the prefilter on in every cue
    component, and the fast model's card naming its failure mode."""
    copy, out = tmp_path / "copy", tmp_path / "meta.json"
    proc = run_script("model_card.py", str(trained_cnn_dir), "--domain", "fast", "--name", "negation_fast",
                      "--version", "0.1.0", "--default-convention", "sfu", "--out", str(out))
    assert proc.returncode == 2 and "--model-out" in proc.stderr  # a copy needs --model-out
    proc = run_script("model_card.py", str(trained_cnn_dir), "--domain", "fast", "--name", "negation_fast",
                      "--version", "0.1.0", "--prefilter", "--model-out", str(copy), "--out", str(out))
    assert proc.returncode == 1 and "--default-convention" in proc.stderr  # the card names the default
    assert not copy.exists()
    meta_only = run_script("model_card.py", str(trained_cnn_dir), "--domain", "cdsco", "--name", "negation_x",
                           "--version", "0.1.0", "--prefilter", "--model-out", str(copy), "--out", str(out))
    assert meta_only.returncode == 0, meta_only.stderr
    assert spacy.load(copy).get_pipe("negation_cue").prefilter
    assert spacy.load(copy).get_pipe("negation_cue").prefilter_window is None
    assert not spacy.load(trained_cnn_dir).get_pipe("negation_cue").prefilter
    proc = run_script("model_card.py", str(trained_cnn_dir), "--domain", "cdsco", "--name", "negation_x",
                      "--version", "0.1.0", "--prefilter-window", "5", "20", "--model-out", str(copy),
                      "--out", str(out))
    assert proc.returncode == 2 and "--prefilter-window goes with --prefilter" in proc.stderr
    windowed = run_script("model_card.py", str(trained_cnn_dir), "--domain", "cdsco", "--name", "negation_x",
                          "--version", "0.1.0", "--prefilter", "--prefilter-window", "5", "20",
                          "--model-out", str(copy), "--out", str(out))
    assert windowed.returncode == 0, windowed.stderr
    assert spacy.load(copy).get_pipe("negation_cue").prefilter_window == (5, 20)
    assert "from 5 before the first to 20 after the last candidate" in json.loads(out.read_text())["description"]


def test_covering_words_take_one_word_per_multiword_cue():
    stop = spacy.blank("en").Defaults.stop_words
    patterns = [["do", "n't"], ["is", "n't"], ["was", "n't"], ["do", "n't", "meet"], ["by", "no", "means"],
                ["with", "a", "lack", "of"], [",", "do", "n't", "."], ["no", "?"]]
    # n't covers the auxiliaries' patterns (not do, is, was, nor the comma); "lack" is a
    # content word; "no" is a candidate already; "meet" is redundant once n't is in
    assert covering_words(patterns, {"no"}, stop) == {"n't", "lack"}
    words = {"no"} | covering_words(patterns, {"no"}, stop)
    assert all(set(p) & words for p in patterns)  # every pattern's sentences stay candidates
    assert covering_words([["rather", "than"]], set(), stop) == {"rather"}  # stop words: the longer
    assert covering_words([[",", "."]], set(), stop) == {","}  # punctuation only as a last resort
    # a garbled contraction (SFU Review's "does n?t") rather than the frequent stop word
    assert covering_words([["does", "n?t"]], set(), stop) == {"n?t"}
    assert covering_words([["does", "n?t", "."]], set(), stop) == {"n?t"}
    assert covering_words([], {"no"}, stop) == set()


def test_window_around_a_cue_list_match(prefilter_dir, tmp_path):
    """A user cue list's match counts as a candidate for the window too."""
    nlp = spacy.load(prefilter_dir, config={"components": {"negation_cue": {"prefilter_window": [0, 1]}}})
    nlp.to_disk(tmp_path / "model")
    host = spacy.blank("en")
    host.add_pipe("sentencizer")
    resolver = host.add_pipe("negation", config={"model": str(tmp_path / "model"),
                                                 "cue_patterns": [{"pattern": "denies", "kind": "preceding"}]})
    sent = record_model_docs(resolver)
    doc = host("The dog barked loudly. The old patient denies any pain today.")
    assert [d.text for d in sent] == ["denies any "]
    assert [(n.cue_text, n.cue[0].i) for n in doc._.negations] == [("denies", 8)]
    assert [(s.start, s.end) for s in doc.spans[PATTERNS_KEY]] == [(8, 9)]
