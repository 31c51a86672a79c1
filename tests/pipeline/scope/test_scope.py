"""negation_scope: windows, targets, decoding of affixal remainders, initialization,
prediction from the cues a doc carries, serialization."""
import time

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import Model

from spacy_negation import Negation, get_negations, register_extensions, set_negations
from spacy_negation.ml.bilstm import CUE_AFFIX, CUE_WHOLE
from spacy_negation.pipeline.scope import component as scope_component
from spacy_negation.pipeline.scope import windows as scope_windows
from spacy_negation.pipeline.scope.decoding import SCOPE_LABELS, contiguous_labels, split_at_other_cues
from spacy_negation.pipeline.scope.windows import cue_windows, decode_window, window_batches

from util import (CNN_TINY, SMALL_CNN, assert_initialize_checks_get_examples, load_test_nlp, make_examples,
                  make_reference, negation_key)

def _nlp_with_scope() -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation_scope", config={"model": {
        "@architectures": "spacy-negation.ScopeTagger.v1", "tok2vec": SMALL_CNN,
        "cue_width": 8, "hidden_width": 16, "depth": 1, "dropout": 0.0,
    }})
    return nlp


def _with_gold_cues(nlp: Language, examples):
    """The predicted docs of the examples with the gold cues (no scopes) set."""
    docs = []
    for eg in examples:
        doc = nlp.make_doc(eg.reference.text)
        set_negations(doc, [{"cue": [(p.i, p.start, p.end) for p in n.cue]} for n in get_negations(eg.reference)])
        docs.append(doc)
    return docs


def test_cue_windows_sentences_and_cue_types():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["I", "came", ".", "He", "was", "not", "unkind", "."],
              sent_starts=[True, False, False, True, False, False, False, False])
    negs = [Negation(doc, [doc[5]]), Negation(doc, [(6, 0, 2)])]
    windows = cue_windows(doc, 3, negs)
    assert [(w.doc, w.start, w.end) for w in windows] == [(3, 3, 8), (3, 3, 8)]
    assert windows[0].cues.tolist() == [0, 0, CUE_WHOLE, 0, 0]
    assert windows[1].cues.tolist() == [0, 0, 0, CUE_AFFIX, 0]
    # without sentence boundaries the window is the whole doc
    flat = Doc(nlp.vocab, words=["not", "this", ".", "nor", "that"])
    assert [(w.start, w.end) for w in cue_windows(flat, 0, [Negation(flat, [flat[0], flat[3]])])] == [(0, 5)]


def test_decode_affixal_remainders_and_whole_cues():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["She", "paced", "restlessly", "and", "not", "calmly"])
    infix = Negation(doc, [(2, 4, 8)])
    (window,) = cue_windows(doc, 0, [infix])
    scope, event = decode_window(doc, infix, window, ["S", "S", "SE", "O", "S", "O"])
    assert [(p.i, p.start, p.end) for p in scope] == [(0, 0, 3), (1, 0, 5), (2, 0, 4), (4, 0, 3)]
    assert [(p.i, p.start, p.end) for p in event] == [(2, 0, 4)]
    prefix_doc = Doc(nlp.vocab, words=["He", "was", "unhappy"])
    prefix = Negation(prefix_doc, [(2, 0, 2)])
    (window,) = cue_windows(prefix_doc, 0, [prefix])
    scope, event = decode_window(prefix_doc, prefix, window, ["S", "O", "E"])
    assert [(p.i, p.start, p.end) for p in scope] == [(0, 0, 2)]
    assert [(p.i, p.start, p.end) for p in event] == [(2, 2, 7)]
    whole = Negation(doc, [doc[4]])
    (window,) = cue_windows(doc, 0, [whole])
    scope, _ = decode_window(doc, whole, window, ["O", "O", "O", "O", "SE", "S"])
    assert [p.i for p in scope] == [5]  # a whole-token cue is never its own scope


def _scope_ids(neg: Negation):
    return [p.i for p in neg.scope]


def test_split_at_other_cues_removes_the_other_cues_scope():
    nlp = spacy.blank("en")
    words = ["it", "did", "not", "rain", ",", "and", "I", "could", "not", "leave", "."]
    doc = Doc(nlp.vocab, words=words)
    first = Negation(doc, [doc[2]], scope=[doc[0], doc[1], doc[3], doc[6], doc[7], doc[9]], event=[doc[3], doc[9]])
    second = Negation(doc, [doc[8]], scope=[doc[0], doc[1], doc[3], doc[6], doc[7], doc[9]])
    out = split_at_other_cues(doc, [first, second])
    assert [_scope_ids(n) for n in out] == [[0, 1, 3], [6, 7, 9]]
    assert [p.i for p in out[0].event] == [3]
    assert [n.id for n in out] == [first.id, second.id]


def test_split_at_other_cues_keeps_nested_ties_unclaimed_and_other_sentences():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["he", "never", "said", "he", "could", "not", "go", ".", "Not", "so", "."],
              sent_starts=[True] + [False] * 7 + [True, False, False])
    # the inner cue 'not' is in the outer scope: nested, both scopes stay whole
    outer = Negation(doc, [doc[1]], scope=[doc[0], doc[2], doc[3], doc[4], doc[5], doc[6]])
    inner = Negation(doc, [doc[5]], scope=[doc[3], doc[4], doc[6]])
    # a negation of another sentence shares nothing
    other = Negation(doc, [doc[8]], scope=[doc[9], doc[0]])
    out = split_at_other_cues(doc, [outer, inner, other])
    assert [_scope_ids(n) for n in out] == [[0, 2, 3, 4, 5, 6], [3, 4, 6], [0, 9]]
    # not nested: the second 'he' (3) is as near to 'never' (1) as to 'not' (5): both keep it;
    # 'he' (0) is claimed by 'never' alone and stays
    left = Negation(doc, [doc[1]], scope=[doc[0], doc[3], doc[4], doc[6]])
    right = Negation(doc, [doc[5]], scope=[doc[3], doc[4], doc[6]])
    out = split_at_other_cues(doc, [left, right])
    assert [_scope_ids(n) for n in out] == [[0, 3], [3, 4, 6]]


def test_split_at_other_cues_setting_applies_in_set_annotations():
    nlp = spacy.blank("en")
    nlp.add_pipe("negation_scope")
    scope = nlp.get_pipe("negation_scope")
    assert scope.decoder.split_at_other_cues  # the default
    doc = nlp.make_doc("it did not rain and I could not leave")
    set_negations(doc, [{"cue": [doc[2]]}, {"cue": [doc[7]]}])
    ids = numpy.zeros(len(doc), dtype="int32")
    ids[[0, 1, 3, 5, 6, 8]] = SCOPE_LABELS.index("S")
    scope.set_annotations([doc], [[ids, ids.copy()]])
    assert sorted(_scope_ids(n) for n in get_negations(doc)) == [[0, 1, 3], [5, 6, 8]]
    off = spacy.blank("en").add_pipe("negation_scope", config={"decoder": {
        "@misc": "spacy-negation.scope_decoder.v1", "split_at_other_cues": False}})
    doc = nlp.make_doc("it did not rain and I could not leave")
    set_negations(doc, [{"cue": [doc[2]]}, {"cue": [doc[7]]}])
    off.set_annotations([doc], [[ids, ids.copy()]])
    assert [_scope_ids(n) for n in get_negations(doc)] == [[0, 1, 3, 5, 6, 8]] * 2


def test_gold_windows_project_onto_predicted_tokens():
    nlp = _nlp_with_scope()
    scope = nlp.get_pipe("negation_scope")
    examples = make_examples(nlp)
    windows, truths = scope._gold_windows(examples)
    n_gold = sum(len(get_negations(eg.reference)) for eg in examples)
    assert len(windows) == len(truths) == n_gold
    by_text = {}
    for w, t in zip(windows, truths):
        by_text.setdefault(examples[w.doc].reference.text, []).append(t)
    assert by_text["He was unhappy."] == [["S", "S", "SE", "O"]]
    assert by_text["Neither he nor she came."] == [["O", "S", "O", "S", "SE", "O"]]
    assert by_text["He was not unkind."] == [["S", "S", "O", "SE", "O"], ["S", "S", "O", "SE", "O"]]
    # a tokenization mismatch: gold 'cannot' with cue 'not', predicted 'can' 'not'
    ref = make_reference(nlp.vocab, ["He", "cannot", "go", "."],
                         [{"cue": [(1, 3, 6)], "scope": [(0, 0, 2), (1, 0, 3), (2, 0, 2)], "event": [(2, 0, 2)]}])
    windows, truths = scope._gold_windows([Example(nlp.make_doc(ref.text), ref)])
    assert windows[0].cues.tolist() == [0, 0, CUE_WHOLE, 0, 0]
    assert truths == [["S", "S", "O", "SE", "O"]]


def test_initialize_bad_get_examples_and_no_cues():
    nlp = _nlp_with_scope()
    assert_initialize_checks_get_examples(nlp, "negation_scope")
    scope = nlp.get_pipe("negation_scope")
    ref = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    with pytest.raises(ValueError, match=r"\[NEG-E301\]"):
        scope.initialize(lambda: [Example(nlp.make_doc(ref.text), ref)], nlp=nlp)


def test_overfit_with_gold_cues_and_serialization(tmp_path):
    nlp = _nlp_with_scope()
    examples = make_examples(nlp)
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.01
    assert nlp.get_pipe("negation_scope").labels == SCOPE_LABELS
    gold = [negation_key(eg.reference) for eg in examples]
    scope = nlp.get_pipe("negation_scope")
    for it in range(200):
        nlp.update(examples, sgd=optimizer)
        if it % 10 == 9:
            docs = list(scope.pipe(_with_gold_cues(nlp, examples)))
            if [negation_key(d) for d in docs] == gold:
                break
    assert [negation_key(d) for d in docs] == gold
    # serialization: bytes and disk round trips predict the same
    scope2 = _nlp_with_scope().get_pipe("negation_scope").from_bytes(scope.to_bytes())
    assert [negation_key(d) for d in scope2.pipe(_with_gold_cues(nlp, examples))] == gold
    nlp.to_disk(tmp_path / "scope")
    nlp3 = spacy.load(tmp_path / "scope")
    assert [negation_key(d) for d in nlp3.get_pipe("negation_scope").pipe(_with_gold_cues(nlp, examples))] == gold


def test_windows_of_a_long_sentence_are_bounded_around_the_cue():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=[f"w{i}" for i in range(100)])  # one "sentence" of 100 tokens
    negs = [Negation(doc, [doc[50]]), Negation(doc, [doc[2]]), Negation(doc, [doc[97]]),
            Negation(doc, [doc[10], doc[80]]), Negation(doc, [(30, 0, 1)])]
    windows = cue_windows(doc, 0, negs, max_tokens=20)
    assert [(w.start, w.end) for w in windows] == [(41, 61), (0, 20), (80, 100), (10, 81), (21, 41)]
    assert windows[0].cues.tolist()[9] == CUE_WHOLE and windows[4].cues.tolist()[9] == CUE_AFFIX
    assert [int(w.cues.sum()) for w in windows[:3]] == [CUE_WHOLE] * 3  # every cue token in its window
    # a sentence within the bound is the window, as before
    assert [(w.start, w.end) for w in cue_windows(doc, 0, negs[:1], max_tokens=100)] == [(0, 100)]


def test_window_batches_bound_the_padded_cells_and_keep_the_order():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=[f"w{i}" for i in range(40)])
    windows = cue_windows(doc, 0, [Negation(doc, [doc[i]]) for i in range(0, 40, 4)], max_tokens=10)
    batches = window_batches(windows, max_cells=30)
    assert [len(b) for b in batches] == [3, 3, 3, 1] and [w for b in batches for w in b] == windows
    assert all(len(b) * max(len(w) for w in b) <= 30 for b in batches)
    assert window_batches(windows[:2], max_cells=5) == [[windows[0]], [windows[1]]]  # too long alone: its own batch
    assert window_batches([], max_cells=5) == []


def test_many_cues_in_one_long_doc_are_predicted_in_bounded_calls(trained_cnn_dir, monkeypatch):
    """A doc without sentence boundaries with hundreds of cues: the scope model reads
    bounded windows in several calls, and the scopes are those of one unbounded call."""
    nlp = spacy.load(trained_cnn_dir)
    scope = nlp.get_pipe("negation_scope")
    text = " ".join(["He was not happy and the dog barked"] * 120)
    docs = [nlp.make_doc(text), nlp.make_doc("He was not happy.")]
    for doc in docs:
        set_negations(doc, [{"cue": [t]} for t in doc if t.text == "not"])
    docs = list(nlp.get_pipe("tok2vec").pipe(docs))
    monkeypatch.setattr(scope_windows, "MAX_WINDOW_TOKENS", 10_000)
    monkeypatch.setattr(scope_component, "MAX_BATCH_CELLS", 10_000_000)
    whole = scope.predict(docs)  # one call, whole sentences
    calls = []
    predict = Model.predict

    def spy(model, inputs):
        if model is scope.model:
            calls.append((len(inputs[0]), len(inputs[1]), max(len(w) for w in inputs[1])))
        return predict(model, inputs)

    monkeypatch.setattr(Model, "predict", spy)  # a thinc Model's attributes are slots
    monkeypatch.setattr(scope_windows, "MAX_WINDOW_TOKENS", 64)
    monkeypatch.setattr(scope_component, "MAX_BATCH_CELLS", 64 * 16)
    bounded = scope.predict(docs)
    assert len(calls) > 1 and all(n * longest <= 64 * 16 for _, n, longest in calls)
    assert all(longest <= 64 for _, _, longest in calls) and calls[-1][0] <= 2
    assert sum(n for _, n, _ in calls) == 121
    # the short doc's window is unchanged; the long doc's windows see 64 tokens, not 960
    assert [ids.tolist() for ids in bounded[1]] == [ids.tolist() for ids in whole[1]]
    assert [len(ids) for ids in bounded[0]] == [64] * 120 and [len(ids) for ids in whole[0]] == [960] * 120
    scope.set_annotations(docs, bounded)
    assert len(get_negations(docs[0])) == 120 and all(n.scope for n in get_negations(docs[1]))


def test_docs_without_cues_and_empty_docs_are_unchanged(trained_cnn_dir):
    nlp = spacy.load(trained_cnn_dir)
    scope = nlp.get_pipe("negation_scope")
    docs = [nlp.make_doc(""), nlp.make_doc("The dog barked."), nlp.make_doc("He was unhappy.")]
    set_negations(docs[2], [{"cue": [(2, 0, 2)]}])
    out = list(scope.pipe(nlp.get_pipe("tok2vec").pipe(docs)))  # the scope model listens to tok2vec
    assert out[0]._.negations == [] and out[1]._.negations == []
    (neg,) = out[2]._.negations
    assert neg.cue_text == "un" and neg.scope_text == "He was happy"
    # the scope of the cue the doc carries, even if the cue tagger would not find it
    doc = nlp.make_doc("The dog barked.")
    set_negations(doc, [{"cue": [doc[2]]}])
    (neg,) = scope(nlp.get_pipe("tok2vec")(doc))._.negations
    assert neg.cue_text == "barked"


def test_update_without_cues_still_backprops_to_listener():
    """The scope component listens last: without any cue in the batch it must still
    pass a (zero) gradient on, which lets the shared tok2vec learn from the cue tagger."""
    nlp = load_test_nlp(CNN_TINY)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    nlp.update(examples, sgd=optimizer)  # the output layers start at zero: make them non-zero
    tok2vec = nlp.get_pipe("tok2vec")
    assert tok2vec.listening_components == ["negation_cue", "negation_scope"]
    ref = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    eg = Example(nlp.make_doc(ref.text), ref)
    losses: dict = {}
    for name in nlp.pipe_names:  # updates without optimizer: the gradients stay
        nlp.get_pipe(name).update([eg], losses=losses)
    assert losses["negation_scope"] == 0.0 and losses["negation_cue"] > 0.0
    grads = [float(numpy.abs(node.get_grad(name)).sum()) for node in tok2vec.model.walk()
             for name in node.param_names if node.has_grad(name)]
    assert grads and sum(grads) > 0.0


def _logits(*best: str, margin: float = 4.0) -> numpy.ndarray:
    """Window scores whose argmax per token is the given label (by the given margin)."""
    scores = numpy.zeros((len(best), len(SCOPE_LABELS)), dtype="float32")
    for i, label in enumerate(best):
        scores[i, SCOPE_LABELS.index(label)] = margin
    return scores


def _names(ids) -> list:
    return [SCOPE_LABELS[int(i)] for i in ids]


def test_contiguous_labels_keep_the_best_span_joined_to_the_cue():
    # argmax: S O S [cue] S S O S; the islands beyond an O that costs more than they gain go
    scores = _logits("S", "O", "S", "O", "S", "S", "O", "S")
    scores[0, SCOPE_LABELS.index("S")] = 2.0  # +2 does not pay for the -4 of token 1
    is_cue = numpy.array([0, 0, 0, 1, 0, 0, 0, 0], dtype=bool)
    assert _names(scores.argmax(axis=1)) == ["S", "O", "S", "O", "S", "S", "O", "S"]
    assert _names(contiguous_labels(scores, is_cue)) == ["O", "O", "S", "O", "S", "S", "O", "O"]
    # an island worth more than the gap joins it: the gap's token is scope too
    scores[0, SCOPE_LABELS.index("S")] = 12.0
    assert _names(contiguous_labels(scores, is_cue))[:3] == ["S", "S", "S"]


def test_contiguous_labels_ties_events_discontinuous_cues_and_no_cue():
    is_cue = numpy.array([0, 1, 0, 0, 1, 0], dtype=bool)
    # between the two cue words everything is scope, whatever the scores; SE stays SE inside
    scores = _logits("O", "O", "O", "SE", "O", "E")
    assert _names(contiguous_labels(scores, is_cue)) == ["O", "O", "S", "SE", "O", "E"]
    # a tie (equal scores) does not extend the span
    flat = numpy.zeros((3, len(SCOPE_LABELS)), dtype="float32")
    assert _names(contiguous_labels(flat, numpy.array([0, 1, 0], dtype=bool))) == ["O", "O", "O"]
    # no cue in the window: the argmax
    scores = _logits("S", "O", "S")
    assert _names(contiguous_labels(scores, numpy.zeros(3, dtype=bool))) == ["S", "O", "S"]
    empty = numpy.zeros((0, len(SCOPE_LABELS)), dtype="float32")
    assert contiguous_labels(empty, numpy.zeros(0, dtype=bool)).shape == (0,)


def test_contiguous_and_scope_bias_settings_in_prediction(trained_cnn_dir):
    text = "He said that the dog did not bark at all , and left ."
    for contiguous, bias, expected in [
        (True, 100.0, []),  # no token is worth a scope
        (True, -100.0, [i for i in range(14) if i != 6]),  # every token joins the span
        (False, -100.0, [i for i in range(14) if i != 6]),
    ]:
        nlp = spacy.load(trained_cnn_dir, config={"components.negation_scope.decoder.contiguous": contiguous,
                                                  "components.negation_scope.decoder.scope_bias": bias})
        scope = nlp.get_pipe("negation_scope")
        assert (scope.decoder.contiguous, scope.decoder.scope_bias) == (contiguous, bias)
        doc = nlp.make_doc(text)
        set_negations(doc, [{"cue": [doc[6]]}])
        (neg,) = scope(nlp.get_pipe("tok2vec")(doc))._.negations
        assert sorted(p.i for p in neg.scope) == expected
    # contiguous: whatever the model, each scope joins its cue without a gap
    nlp = spacy.load(trained_cnn_dir, config={"components.negation_scope.decoder.contiguous": True})
    for text in ["He was not happy , but she did not mind .", "No dog barked and no cat came ."]:
        doc = nlp(text)
        assert get_negations(doc)
        for neg in get_negations(doc):
            ids = sorted({p.i for p in neg.scope} | {p.i for p in neg.cue})
            assert ids == list(range(ids[0], ids[-1] + 1))


def test_split_at_other_cues_pairs_negations_within_sentences_only():
    """A bounded long document: 20,000 one-negation sentences (the pairs across sentences,
    200 million, were all visited: seconds)."""
    register_extensions()
    n = 20000
    words = ["He", "did", "not", "go", "."] * n
    starts = [True, False, False, False, False] * n
    doc = Doc(spacy.blank("en").vocab, words=words, sent_starts=starts)
    negs = [Negation(doc, [doc[5 * k + 2]], [doc[5 * k], doc[5 * k + 1], doc[5 * k + 3]], id=k)
            for k in range(n)]
    start = time.perf_counter()
    out = split_at_other_cues(doc, negs)
    assert time.perf_counter() - start < 3.0
    assert [neg.scope for neg in out] == [neg.scope for neg in negs]
    # two cues of one sentence still share out their scopes
    d = Doc(doc.vocab, words=["not", "a", "b", "c", "never", "d"], sent_starts=[True] + [False] * 5)
    two = [Negation(d, [d[0]], [d[1], d[2], d[3]], id=0), Negation(d, [d[4]], [d[2], d[3], d[5]], id=1)]
    first, second = split_at_other_cues(d, two)
    assert [p.i for p in first.scope] == [1, 2] and [p.i for p in second.scope] == [2, 3, 5]  # a tie: both


def _pairwise_split(doc: Doc, negations):
    """split_at_other_cues as the pairwise rule it implements (every pair of negations of
    a sentence): the reference the computed-at-once version must equal."""
    from spacy_negation.sentences import sentence_ranges

    _, of_token = sentence_ranges(doc)
    scopes = [{p.i for p in neg.scope} for neg in negations]
    cues = [sorted({p.i for p in neg.cue}) for neg in negations]
    drops = [set() for _ in negations]
    for k in range(len(negations)):
        for m in range(k + 1, len(negations)):
            if of_token[cues[k][0]] != of_token[cues[m][0]]:
                continue
            if any(j in scopes[k] for j in cues[m]) or any(j in scopes[m] for j in cues[k]):
                continue
            for i in scopes[k] & scopes[m]:
                d_k = min(abs(i - j) for j in cues[k])
                d_m = min(abs(i - j) for j in cues[m])
                if d_k > d_m:
                    drops[k].add(i)
                elif d_m > d_k:
                    drops[m].add(i)
    return [([p.i for p in neg.scope if p.i not in drop], [p.i for p in neg.event if p.i not in drop])
            for neg, drop in zip(negations, drops)]


def test_split_at_other_cues_is_the_pairwise_rule():
    """On random sentences of up to 60 tokens with up to six negations (multiword cues,
    nested and crossing scopes): the same scopes and events as the pairwise rule."""
    import random

    register_extensions()
    rng = random.Random(0)
    vocab = spacy.blank("en").vocab
    for _ in range(300):
        n = rng.randint(2, 60)
        starts = [True] + [rng.random() < 0.1 for _ in range(n - 1)]
        doc = Doc(vocab, words=[f"w{i}" for i in range(n)], sent_starts=starts)
        negs = []
        for k in range(rng.randint(1, 6)):
            cue = sorted(rng.sample(range(n), rng.choice([1, 1, 1, 2])))
            scope = sorted(set(rng.sample(range(n), rng.randint(0, n))) - set(cue))
            event = sorted(i for i in scope if rng.random() < 0.3)
            negs.append(Negation(doc, [doc[i] for i in cue], [doc[i] for i in scope], [doc[i] for i in event], id=k))
        out = split_at_other_cues(doc, negs)
        assert [([p.i for p in o.scope], [p.i for p in o.event]) for o in out] == _pairwise_split(doc, negs)


def test_split_at_other_cues_pairs_a_long_sentence_in_blocks():
    """A sentence longer than MAX_PAIRED_TOKENS (a line without punctuation): negations
    are paired within blocks of that many tokens, so the work is linear in the line; in
    a block the nearer cue keeps a shared token, across blocks both keep it."""
    from spacy_negation.pipeline.scope.decoding import MAX_PAIRED_TOKENS

    register_extensions()
    assert MAX_PAIRED_TOKENS == 512
    doc = Doc(spacy.blank("en").vocab, words=["w"] * 1200)
    near = Negation(doc, [doc[508]], [doc[509], doc[510]], id=0)
    same_block = Negation(doc, [doc[500]], [doc[509], doc[510]], id=1)
    other_block = Negation(doc, [doc[515]], [doc[510], doc[516]], id=2)
    out = split_at_other_cues(doc, [near, same_block, other_block])
    assert [_scope_ids(neg) for neg in out] == [[509, 510], [], [510, 516]]


def test_a_long_line_gets_its_negations(trained_cnn_dir):
    """A line of 2,600 words without sentence punctuation and a cue every few words (the
    issue's 30,000 words, bounded): every 'not' is a cue and each scope lies within the
    512 tokens around its cue."""
    words = [w for text in ("He was not unkind .", "No one came to the party .", "I think not")
             for w in text.split() if w != "."] * 200
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    doc = nlp(" ".join(words))
    assert len(doc) == len(words) == 2600
    negations = get_negations(doc)
    nots = {t.i for t in doc if t.text == "not"}
    assert nots <= {p.i for neg in negations for p in neg.cue} and len(nots) == 400
    for neg in negations:
        cue = neg.cue[0].i
        assert all(abs(p.i - cue) <= 512 for p in neg.scope)
