"""The sentence corpus reader, negation copying, and the registrations' entry points."""
import random
from importlib.metadata import entry_points

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_negation import get_negations, set_negations
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.ml.training_corpus import create_sentence_corpus, split_sentences
from spacy_negation.pipeline.host_docs import copy_negations

from util import negation_key


def _two_sentences(vocab) -> Doc:
    words = ["He", "was", "unhappy", ".", "Neither", "he", "nor", "she", "came", "."]
    doc = Doc(vocab, words=words, spaces=[True, True, False, True, True, True, True, True, False, False],
              sent_starts=[True, False, False, False, True] + [False] * 5)
    set_negations(doc, [
        {"cue": [(2, 0, 2)], "scope": [doc[0], doc[1], (2, 2, 7)], "event": [(2, 2, 7)]},
        {"cue": [doc[4], doc[6]], "scope": [doc[5], doc[7], doc[8]], "event": [doc[8]]},
    ])
    doc.user_data[META_KEY] = {"doc_ids": ["d1", "d1"], "sent_nos": ["0", "1"], "parse": ["_"] * 10}
    return doc


def test_split_sentences_keeps_negations_and_metadata():
    nlp = spacy.blank("en")
    first, second = split_sentences(_two_sentences(nlp.vocab))
    assert first.text == "He was unhappy. " and second.text == "Neither he nor she came."
    assert negation_key(first) == [(((2, 0, 2),), ((0, 0, 2), (1, 0, 3), (2, 2, 7)), ((2, 2, 7),))]
    assert negation_key(second) == [(((0, 0, 7), (2, 0, 3)), ((1, 0, 2), (3, 0, 3), (4, 0, 4)), ((4, 0, 4),))]
    assert second.user_data[META_KEY] == {"doc_ids": ["d1"], "sent_nos": ["1"], "parse": ["_"] * 6}
    flat = Doc(nlp.vocab, words=["not", "this"])
    set_negations(flat, [{"cue": [flat[0]], "scope": [flat[1]]}])
    (only,) = split_sentences(flat)
    assert negation_key(only) == negation_key(flat)
    assert split_sentences(nlp.make_doc("")) == []


def test_sentence_corpus(tmp_path):
    nlp = spacy.blank("en")
    db = DocBin(store_user_data=True)
    db.add(_two_sentences(nlp.vocab))
    db.add(nlp.make_doc(""))
    db.to_disk(tmp_path / "train.spacy")
    examples = list(create_sentence_corpus(tmp_path / "train.spacy")(nlp))
    assert [len(eg.reference) for eg in examples] == [4, 6]
    assert [len(get_negations(eg.reference)) for eg in examples] == [1, 1]
    assert all(eg.predicted.text == eg.reference.text for eg in examples)
    assert len(list(create_sentence_corpus(tmp_path, limit=1)(nlp))) == 1
    gold = list(create_sentence_corpus(tmp_path, gold_tokens=True)(nlp))
    assert [t.text for t in gold[0].predicted] == [t.text for t in gold[0].reference]
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"\[NEG-E344\]"), pytest.warns(UserWarning, match="W090"):
        list(create_sentence_corpus(tmp_path / "empty")(nlp))
    with pytest.raises(ValueError, match=r"\[E913\]"):
        create_sentence_corpus(None)


def test_copy_negations():
    nlp = spacy.blank("en")
    source = _two_sentences(nlp.vocab)
    target = Doc(spacy.blank("en").vocab, words=[t.text for t in source])
    copy_negations(source, target)
    assert negation_key(target) == negation_key(source)
    with pytest.raises(ValueError, match=r"\[NEG-E322\]"):
        copy_negations(source, Doc(nlp.vocab, words=["He", "was"]))


REGISTERED = [
    ("factories", "negation_cue"), ("factories", "negation_scope"), ("factories", "negation"),
    ("architectures", "spacy-negation.CueTagger.v1"), ("architectures", "spacy-negation.ScopeTagger.v1"),
    ("architectures", "spacy-negation.TransformerModel.v1"), ("misc", "spacy-negation.sent_windows.v1"),
    ("readers", "spacy-negation.SentenceCorpus.v1"), ("scorers", "spacy-negation.negation_scorer.v1"),
]


def test_entry_points_declare_everything_the_configs_use():
    """Configs and trained pipelines are resolved without importing spacy_negation
    first, so every registered name needs its own entry point."""
    for reg, name in REGISTERED:
        declared = {e.name: e for e in entry_points(group=f"spacy_{reg}")}
        assert name in declared, f"no spacy_{reg} entry point {name!r}"
        func = declared[name].load()
        if reg == "factories":
            assert Language.get_factory_meta(name).factory == name
            assert func.__module__.startswith("spacy_negation.pipeline")
        else:
            assert getattr(spacy.registry, reg).get(name) is func


def _negated_docbin(nlp: Language, n: int) -> DocBin:
    """A DocBin with n sentences "He was not there k." whose cue is "not"."""
    db = DocBin(store_user_data=True)
    for k in range(n):
        doc = nlp.make_doc(f"He was not there {k}.")
        set_negations(doc, [{"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3]]}])
        db.add(doc)
    return db


def test_sentence_corpus_unnegated_ratio(tmp_path):
    nlp = spacy.blank("en")
    db = _negated_docbin(nlp, 3)
    for k in range(12):
        db.add(nlp.make_doc(f"The dog barked {k} times."))
    db.to_disk(tmp_path / "train.spacy")

    def counts(ratio):
        examples = list(create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=ratio)(nlp))
        negated = sum(bool(get_negations(eg.reference)) for eg in examples)
        return negated, len(examples) - negated

    assert counts(None) == (3, 12)
    assert counts(1.0) == (3, 3)
    assert counts(2.0) == (3, 6)
    assert counts(0.0) == (3, 0)
    assert counts(100.0) == (3, 12)
    # a new draw on every pass: over a few passes more than 3 distinct sentences appear
    reader = create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=1.0)
    seen = {eg.reference.text for _ in range(6) for eg in reader(nlp) if not get_negations(eg.reference)}
    assert len(seen) > 3
    with pytest.raises(ValueError, match=r"\[NEG-E345\]"):
        create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=-0.5)
    # in spaCy's training loop: one sample for the whole training unless epochs stream
    from spacy.training.loop import create_train_batches

    def distinct_unnegated(max_epochs):
        batches = create_train_batches(nlp, reader, lambda egs: [list(egs)], max_epochs)
        epochs = [next(batches) for _ in range(6)]
        return len({eg.reference.text for _, batch in epochs for eg in batch if not get_negations(eg.reference)})

    assert distinct_unnegated(0) == 3
    assert distinct_unnegated(-1) > 3


def test_sentence_corpus_hard_negatives(tmp_path):
    nlp = spacy.blank("en")
    db = _negated_docbin(nlp, 3)
    doc = nlp.make_doc("He was unhappy.")  # affixal: "unhappy" is no cue word
    set_negations(doc, [{"cue": [(2, 0, 2)], "scope": [doc[0], doc[1], (2, 2, 7)]}])
    db.add(doc)
    doc = nlp.make_doc("Neither he nor she came.")  # multiword: neither "neither" nor "nor"
    set_negations(doc, [{"cue": [doc[0], doc[2]], "scope": [doc[1], doc[3], doc[4]]}])
    db.add(doc)
    doc = nlp.make_doc("The test was negative.")
    set_negations(doc, [{"cue": [doc[3]], "scope": [doc[0], doc[1], doc[2]]}])
    db.add(doc)
    # "not": a cue in 3 of its 5 occurrences (0.6); "negative": in 1 of 4 (0.25)
    hard = ["Not only he came.", "NOT ONLY she came."]
    negative = ["A negative control.", "Negative feedback.", "The negative strand."]
    easy = [f"The dog barked {k} times." for k in range(10)] + [
        "He was happy.", "Neither came late.", "Nor did she."]
    for text in hard + negative + easy:
        db.add(nlp.make_doc(text))
    db.to_disk(tmp_path / "train.spacy")

    def unnegated(ratio, hard_negatives):
        reader = create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=ratio,
                                        hard_negatives=hard_negatives)
        return [eg.reference.text for eg in reader(nlp) if not get_negations(eg.reference)]

    # the sentences with a cue word of at least the given cue rate, case-insensitively
    assert unnegated(0.0, 0.0) == hard + negative
    assert unnegated(0.0, 0.25) == hard + negative
    assert unnegated(0.0, 0.5) == hard
    assert unnegated(0.0, 0.6) == hard
    assert unnegated(0.0, 0.7) == []
    # the sample of the others comes on top (6 negated sentences x ratio 1)
    kept = unnegated(1.0, 0.5)
    assert kept[:2] == hard and len(kept) == 8 and set(kept[2:]) <= set(negative + easy)
    assert len(unnegated(100.0, 0.5)) == len(hard + negative + easy)
    # None: the sample alone, the same draw as before the option existed
    random.seed(7)
    drawn = sorted(random.sample(range(len(hard + negative + easy)), 6))
    random.seed(7)
    assert unnegated(1.0, None) == [(hard + negative + easy)[i] for i in drawn]
    assert unnegated(0.0, None) == []
    # without a ratio every sentence is kept anyway
    assert len(unnegated(None, 0.5)) == len(hard + negative + easy)
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match=r"\[NEG-E346\]"):
            create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=1.0, hard_negatives=bad)


def test_split_sentences_keeps_speculations_where_the_doc_annotates_them(tmp_path):
    from spacy_negation import get_speculations, set_speculations
    from spacy_negation.negation import SPECULATIONS_KEY

    nlp = spacy.blank("en")
    doc = _two_sentences(nlp.vocab)
    set_speculations(doc, [{"cue": [doc[1]], "scope": [doc[0], doc[2]]}])
    first, second = split_sentences(doc)
    assert [(s.cue_text, s.scope_text) for s in get_speculations(first)] == [("was", "He unhappy")]
    assert get_speculations(second) == [] and SPECULATIONS_KEY in second.spans
    # a doc that does not annotate speculation (CD-SCO) gives sentences that do not either
    plain = _two_sentences(nlp.vocab)
    assert all(SPECULATIONS_KEY not in s.spans for s in split_sentences(plain))
    # the unnegated sample keeps hedged sentences only when asked
    db = DocBin(store_user_data=True)
    db.add(_two_sentences(nlp.vocab))
    for k in range(6):
        hedged = nlp.make_doc(f"It may rain {k} times.")
        set_speculations(hedged, [{"cue": [hedged[1]], "scope": [hedged[0], hedged[2]]}])
        db.add(hedged)
    db.to_disk(tmp_path / "train.spacy")

    def n_hedged(keep: bool) -> int:
        reader = create_sentence_corpus(tmp_path / "train.spacy", unnegated_ratio=0.0, keep_speculated=keep)
        return sum(bool(get_speculations(eg.reference)) for eg in reader(nlp))

    assert n_hedged(True) == 6
    assert n_hedged(False) == 0
