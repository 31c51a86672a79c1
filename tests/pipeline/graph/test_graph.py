"""negation_graph (DP-direct / DP-nested): the biaffine scorer's gradients, the synthetic
fixtures through the encodings, initialization, bad input, prediction on empty docs
and docs with and without sentence boundaries, serialization, overfitting a few
sentences, `spacy train` and `spacy evaluate` with a tiny config."""
import configparser
import json
import subprocess
import sys
from typing import Any, List, Tuple

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry
from thinc.api import ConfigValidationError, Model

import spacy_negation.pipeline.graph  # noqa: F401  (registers negation_graph and the architecture)
from spacy_negation import set_negations
from spacy_negation.ml.biaffine import build_graph_parser, sentence_spans
from spacy_negation.pipeline.graph import (GRAPH_DECODER_DEFAULTS, GraphDecoder, NegationGraph, gold_instances,
                                           make_graph_decoder, negations_as_instances)
from spacy_negation.pipeline.graph.encoding import Instance, decode, encode, pair_labels

from util import (CONFIGS, REPO, SMALL_CNN, gold_sentences, load_test_nlp, make_examples, make_reference,
                  negation_key, overfit)

GRAPH_CNN_TINY = CONFIGS / "test" / "graph_cnn_tiny.cfg"
GRAPH_TRF_TINY = CONFIGS / "test" / "graph_trf_tiny.cfg"


def _nlp(encoding: str = "nested") -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation_graph", config={"encoding": encoding, "model": {
        "@architectures": "spacy-negation.GraphParser.v1", "tok2vec": SMALL_CNN,
        "hidden_width": 16, "dropout": 0.0,
    }})
    return nlp


# --- the biaffine scorer -------------------------------------------------------------------------

def _fixed_vectors(width: int, n_rows: int) -> Model:
    """A tok2vec whose token vectors are one trainable table, rows in batch order."""

    def forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Any], Any]:
        table = model.get_param("E")
        ends = numpy.cumsum([len(doc) for doc in docs])
        out = [table[end - len(doc):end] for doc, end in zip(docs, ends)]

        def backprop(d_out: List[Any]) -> List[Doc]:
            model.inc_grad("E", numpy.concatenate(d_out, axis=0))
            return docs

        return out, backprop

    model = Model("fixed", forward, params={"E": None}, dims={"nO": width})
    model.set_param("E", numpy.random.RandomState(1).normal(0, 1, (n_rows, width)).astype("float32"))
    return model


def test_biaffine_gradients_match_finite_differences():
    nlp = spacy.blank("en")
    docs = [Doc(nlp.vocab, words=["a", "b", "c", "d", "e"], sent_starts=[True, False, True, False, False]),
            Doc(nlp.vocab, words=[]), Doc(nlp.vocab, words=["f", "g"])]
    assert sentence_spans(docs) == [(0, 0, 2), (0, 2, 5), (2, 0, 2)]
    numpy.random.seed(0)
    model = build_graph_parser(_fixed_vectors(4, 7), hidden_width=3, dropout=0.0, nO=5)
    model.initialize(X=docs)
    model.set_param("W", numpy.random.RandomState(2).normal(0, 1, model.get_param("W").shape).astype("float32"))
    rng = numpy.random.RandomState(3)
    scores = model.predict(docs)
    assert [s.shape for s in scores] == [(6, 5), (12, 5), (6, 5)]
    weights = [rng.normal(0, 1, s.shape).astype("float32") for s in scores]

    def objective() -> float:
        return float(sum((s.astype("float64") * w).sum() for s, w in zip(model.predict(docs), weights)))

    _, backprop = model.begin_update(docs)
    backprop(weights)  # the gradient of the logits
    tok2vec = model.get_ref("tok2vec")
    for node, name in ((model, "W"), (model, "root"), (tok2vec, "E")):
        param = node.get_param(name).copy()
        grad = node.get_grad(name).copy()
        for flat in rng.choice(param.size, size=min(6, param.size), replace=False):
            idx = numpy.unravel_index(flat, param.shape)
            eps = 1e-2
            for sign in (1, -1):
                shifted = param.copy()
                shifted[idx] += sign * eps
                node.set_param(name, shifted)
                if sign == 1:
                    up = objective()
                else:
                    down = objective()
            node.set_param(name, param)
            assert (up - down) / (2 * eps) == pytest.approx(float(grad[idx]), rel=2e-2, abs=2e-2), (name, idx)


# --- the synthetic fixtures --------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["direct", "nested"])
def test_fixtures_round_trip_through_the_encoding(encoding):
    nlp = spacy.blank("en")
    n = 0
    for words, negations in gold_sentences():
        ref = make_reference(nlp.vocab, words, negations)
        (instances,) = negations_as_instances(ref)
        assert len(instances) == len(negations)
        assert decode(words, encode(words, instances, encoding), encoding) == sorted(instances)
        n += len(instances)
    assert n == 9


def test_gold_instances_are_projected_per_predicted_sentence():
    nlp = spacy.blank("en")
    words = ["He", "came", ".", "He", "was", "unhappy", "."]
    ref = Doc(nlp.vocab, words=words, spaces=[True, False, True, True, True, False, False])
    set_negations(ref, [{"cue": [(5, 0, 2)], "scope": [(3, 0, 2), (4, 0, 3), (5, 2, 7)]}])
    pred = nlp.make_doc(ref.text)
    pred[0].is_sent_start = True
    pred[3].is_sent_start = True
    for i in (1, 2, 4, 5, 6):
        pred[i].is_sent_start = False
    assert gold_instances(Example(pred, ref)) == [[], [Instance(((2, 0, 2),), ((0, 0, 2), (1, 0, 3), (2, 2, 7)))]]


# --- the component -------------------------------------------------------------------------------

def test_add_pipe_settings_and_bad_encoding():
    nlp = spacy.blank("en")
    graph = nlp.add_pipe("negation_graph")
    assert graph.encoding == "nested" and graph.labels == ("_",)
    assert _nlp("direct").get_pipe("negation_graph").encoding == "direct"
    with pytest.raises(ValueError, match=r"\[NEG-E860\]"):
        spacy.blank("en").add_pipe("negation_graph", config={"encoding": "tree"})
    with pytest.raises(ValueError, match=r"\[NEG-E862\]"):
        graph.add_label("CUE")


def test_the_decoder_is_a_registered_function():
    """The decoder block ([components.negation_graph.decoder]) holds the decoding settings,
    as negation_cue's and negation_scope's do: the one place to set them."""
    nlp = spacy.blank("en")
    graph = nlp.add_pipe("negation_graph")
    block = nlp.config["components"]["negation_graph"]["decoder"]
    assert registry.misc.get(block["@misc"]) is make_graph_decoder
    assert {k: v for k, v in block.items() if k != "@misc"} == GRAPH_DECODER_DEFAULTS == {
        "cue_decoding": "argmax", "contiguous": False, "scope_bias": 0.0}
    assert graph.decoder == GraphDecoder()
    assert not set(GRAPH_DECODER_DEFAULTS) & set(nlp.config["components"]["negation_graph"])
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg")
    declared = dict(line.split(" = ") for line in setup["options.entry_points"]["spacy_misc"].strip().splitlines())
    assert declared[block["@misc"]] == "spacy_negation.pipeline.graph.decoding:make_graph_decoder"
    in_block = spacy.blank("en").add_pipe("negation_graph", config={"decoder": {
        "@misc": "spacy-negation.graph_decoder.v1", "cue_decoding": "affix_groups", "contiguous": True, "scope_bias": 1}})
    assert in_block.decoder == GraphDecoder("affix_groups", True, 1.0) and isinstance(in_block.scope_bias, float)
    assert (in_block.cue_decoding, in_block.contiguous, in_block.scope_bias) == ("affix_groups", True, 1.0)
    with pytest.raises(ConfigValidationError):  # a decoder setting on the component
        spacy.blank("en").add_pipe("negation_graph", config={"cue_decoding": "affix_groups"})
    with pytest.raises(ValueError, match=r"\[NEG-E871\]"):
        spacy.blank("en").add_pipe("negation_graph", config={
            "decoder": {"@misc": "spacy-negation.graph_decoder.v1", "cue_decoding": "best"}})


def test_cue_decoding_by_affix_groups():
    nlp = spacy.blank("en")
    graph = nlp.add_pipe("negation_graph", config={"decoder": {
        "@misc": "spacy-negation.graph_decoder.v1", "cue_decoding": "affix_groups"}})
    assert graph.cue_decoding == "affix_groups" and _nlp().get_pipe("negation_graph").cue_decoding == "argmax"
    with pytest.raises(ValueError, match=r"\[NEG-E871\]"):
        spacy.blank("en").add_pipe("negation_graph", config={"decoder": {
            "@misc": "spacy-negation.graph_decoder.v1", "cue_decoding": "best"}})
    for label in ("C", "C:un-", "C:-less", "S"):
        graph.add_label(label)
    labels = graph.labels  # ('_', 'C', 'C:-less', 'C:un-', 'S')
    words = ["ceaseless", "unusual", "unhappy", "not", "dog"]

    def row(**probs: float) -> List[float]:
        return [numpy.log(probs.get(label, 1e-6)) for label in labels]

    scores = numpy.asarray([
        row(**{"C:un-": 0.42, "C": 0.34, "C:-less": 0.12, "_": 0.12}),  # affixal mass wins; only -less fits
        row(**{"_": 0.64, "C:un-": 0.35, "C": 0.01}),  # no cue wins
        row(**{"C:-less": 0.4, "C:un-": 0.2, "_": 0.3, "C": 0.1}),  # affixal wins; un- fits, -less not
        row(**{"C:un-": 0.5, "C": 0.3, "_": 0.2}),  # affixal wins, no affix fits "not": the better of C and _
        row(**{"S": 0.9, "_": 0.1}),  # a scope label cannot be on a root arc
    ])
    ids = graph._root_ids_by_group(scores, words)
    assert [labels[int(i)] for i in ids] == ["C:-less", "_", "C:un-", "C", "_"]
    # argmax: the best root label, whatever its affix
    argmax = numpy.where(numpy.asarray([lab != "S" for lab in labels]), scores, -numpy.inf).argmax(axis=1)
    assert [labels[int(i)] for i in argmax] == ["C:un-", "_", "C:-less", "C:un-", "_"]


def _fixed_scores(rows: List[List[float]]) -> Model:
    """A model whose prediction for a one-sentence doc is the given scores."""

    def forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Any], Any]:
        return [numpy.asarray(rows, dtype="float32")], lambda d_out: docs

    return Model("fixed_scores", forward)


def test_scope_decoding_contiguous_and_bias():
    nlp = spacy.blank("en")
    graph = nlp.add_pipe("negation_graph")
    assert (graph.contiguous, graph.scope_bias) == (False, 0.0)
    with pytest.raises(ValueError, match=r"\[NEG-E872\]"):
        NegationGraph(nlp.vocab, graph.model, decoder=GraphDecoder(scope_bias=float("inf")))
    for label in ("C", "S", "S+E"):
        graph.add_label(label)
    labels = graph.labels  # ('_', 'C', 'S', 'S+E')
    has_scope = numpy.asarray(["S" in label for label in labels])

    def row(**probs: float) -> List[float]:
        return [float(numpy.log(probs.get(label.replace("+", ""), 1e-4))) for label in labels]

    def decoded(rows: List[List[float]], head: int, contiguous: bool, bias: float) -> List[str]:
        graph.contiguous, graph.scope_bias = contiguous, bias
        return [labels[int(i)] for i in graph.scope_label_ids(numpy.asarray(rows), head, has_scope)]

    # "no a b c d", arcs from the cue head "no": a gap at "b" (scope log-odds 2.2, -0.85, 1.4, 1.4)
    gap = [row(_=0.99), row(S=0.9, _=0.1), row(S=0.3, _=0.7), row(S=0.8, _=0.2), row(SE=0.8, _=0.2)]
    assert decoded(gap, 0, False, 0.0) == ["_", "S", "_", "S", "S+E"]
    assert decoded(gap, 0, True, 0.0) == ["_", "S", "S", "S", "S+E"]  # the gap is filled
    assert decoded(gap, 0, False, 2.0) == ["_", "S", "_", "_", "_"]  # log-odds below 2 are out
    assert decoded(gap, 0, True, 2.0) == ["_", "S", "_", "_", "_"]
    assert decoded(gap, 0, True, 3.0) == ["_", "_", "_", "_", "_"]
    # "neither a nor b c": the span joins the discontinuous cue ("nor", a cue part of the head)
    neither = [row(_=0.99), row(S=0.2, _=0.8), row(C=0.9, _=0.1), row(S=0.9, _=0.1), row(S=0.1, _=0.9)]
    assert decoded(neither, 0, False, 0.0) == ["_", "_", "C", "S", "_"]
    assert decoded(neither, 0, True, 0.0) == ["_", "S", "C", "S", "_"]
    # through predict: only the arcs from cue heads are decoded so; a non-head's arcs keep their best label
    n = 5
    rows = [row(C=0.9, _=0.1)] + [row(_=0.99)] * (n - 1) + gap + [row(S=0.3, _=0.7)] * (n * (n - 1))
    graph.model = _fixed_scores(rows)
    doc = Doc(nlp.vocab, words=["no", "a", "b", "c", "d"])
    for contiguous, expected in ((False, [(1, 0, 1), (3, 0, 1), (4, 0, 1)]),
                                 (True, [(1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1)])):
        graph.contiguous, graph.scope_bias = contiguous, 0.0
        (ids,) = graph.predict([doc])
        assert [labels[int(i)] for i in ids[0][2 * n:]] == ["_"] * (n * (n - 1))
        graph.set_annotations([doc], [ids])
        assert negation_key(doc) == [(((0, 0, 2),), tuple(expected), ((4, 0, 1),))]
    # a saved pipeline keeps the settings
    configured = spacy.blank("en")
    configured.add_pipe("negation_graph", config={"decoder": {
        "@misc": "spacy-negation.graph_decoder.v1", "contiguous": True, "scope_bias": 0.5}})
    reloaded = spacy.blank("en").from_config(configured.config)
    assert (reloaded.get_pipe("negation_graph").contiguous, reloaded.get_pipe("negation_graph").scope_bias) == (True, 0.5)


def test_initialize_learns_the_labels_and_rejects_bad_examples():
    nlp = _nlp()
    graph = nlp.get_pipe("negation_graph")
    no_negation = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    for batch, error, code in (
        ([], TypeError, "E930"),  # spaCy's: no examples
        ([nlp.make_doc("no example")], TypeError, "E978"),  # spaCy's: not examples
        ([Example(nlp.make_doc(no_negation.text), no_negation)], ValueError, "NEG-E866"),
    ):
        with pytest.raises(error, match=rf"\[{code}\]"):
            graph.initialize(lambda: batch, nlp=nlp)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    assert set(graph.labels) == {"_", "C", "C:un-", "C:-less", "C:-less-", "S", "S+E", "S~", "S~+E~"}
    with pytest.raises(ValueError, match=r"\[NEG-E867\]"):
        graph.get_loss(examples[:2], [])
    # a model whose score columns are not the component's labels (a pipeline edited on disk)
    graph.cfg["labels"].pop()
    with pytest.raises(ValueError, match=r"\[NEG-E868\] 'negation_graph': the model gave scores of shape"):
        graph.predict([nlp.make_doc("He was not happy .")])


def test_biaffine_initialization_needs_the_widths():
    nlp = spacy.blank("en")
    docs = [Doc(nlp.vocab, words=["a", "b", "c"])]
    # no number of labels: neither nO nor label samples Y
    model = build_graph_parser(_fixed_vectors(4, 3), hidden_width=3, dropout=0.0)
    with pytest.raises(ValueError, match=r"\[NEG-E869\] The graph parser model 'graph_parser' has no number"):
        model.initialize(X=docs)
    model = build_graph_parser(_fixed_vectors(4, 3), hidden_width=3, dropout=0.0)
    model.initialize(X=docs, Y=[numpy.zeros((12, 5), dtype="float32")])
    assert (model.get_dim("nI"), model.get_dim("nO")) == (4, 5)
    # a tok2vec of unknown width and no docs (or only empty ones) to measure it on
    def forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Any], Any]:
        return [model.ops.alloc2f(len(doc), 4) for doc in docs], lambda d_out: docs

    for sample in (None, [Doc(nlp.vocab, words=[])]):
        widthless: Model = Model("widthless", forward, dims={"nO": None})
        model = build_graph_parser(widthless, hidden_width=3, dropout=0.0, nO=5)
        with pytest.raises(ValueError, match=r"\[NEG-E870\] Cannot infer the token-vector width"):
            model.initialize(X=sample)


def test_set_annotations_offsets_sentences():
    nlp = _nlp()
    graph = nlp.get_pipe("negation_graph")
    for label in ("C", "C:un-", "S", "S~+E~"):
        graph.add_label(label)
    words = ["He", "came", ".", "He", "was", "unhappy", "."]
    doc = Doc(nlp.vocab, words=words, sent_starts=[True, False, False, True, False, False, False])
    first = [Instance(((1, 0, 4),), ((0, 0, 2),))]
    second = [Instance(((2, 0, 2),), ((0, 0, 2), (1, 0, 3)), ()), ]
    ids = []
    for (start, end), instances in zip(((0, 3), (3, 7)), (first, second)):
        labels = pair_labels(encode(words[start:end], instances), end - start)
        ids.append(numpy.asarray([graph.labels.index(label) for label in labels], dtype="int32"))
    graph.set_annotations([doc], [ids])
    assert negation_key(doc) == [(((1, 0, 4),), ((0, 0, 2),), ()),
                                 (((5, 0, 2),), ((3, 0, 2), (4, 0, 3)), ())]


@pytest.mark.parametrize("encoding", ["direct", "nested"])
def test_overfit_predict_and_serialize(encoding, tmp_path):
    nlp = load_test_nlp(GRAPH_CNN_TINY, {"components.negation_graph.encoding": encoding})
    examples = make_examples(nlp)
    n = overfit(nlp, examples, max_iter=150, learn_rate=0.01)
    assert n <= 150, "the tiny graph parser did not learn the gold sentences"
    texts = [eg.reference.text for eg in examples]
    gold = [negation_key(eg.reference) for eg in examples]
    # empty docs, a doc without negation; the docs have no sentence boundaries
    docs = list(nlp.pipe(["", *texts, ""]))
    assert docs[0]._.negations == [] and docs[-1]._.negations == []
    assert [negation_key(d) for d in docs[1:-1]] == gold
    assert not docs[1].has_annotation("SENT_START")
    # the same sentences with sentence boundaries, two per doc
    pair = Doc(nlp.vocab, words=[t.text for t in docs[1]] + [t.text for t in docs[4]],
               spaces=[bool(t.whitespace_) for t in docs[1]] + [bool(t.whitespace_) for t in docs[4]],
               sent_starts=[i in (0, len(docs[1])) for i in range(len(docs[1]) + len(docs[4]))])
    pair = nlp(pair)
    shift = len(docs[1])
    expected = gold[0] + [tuple(tuple((i + shift, a, b) for i, a, b in role) for role in neg) for neg in gold[3]]
    assert negation_key(pair) == expected
    # bytes and disk round trips predict the same
    nlp2 = load_test_nlp(GRAPH_CNN_TINY, {"components.negation_graph.encoding": encoding}).from_bytes(nlp.to_bytes())
    assert [negation_key(d) for d in nlp2.pipe(texts)] == gold
    nlp.to_disk(tmp_path / "graph")
    nlp3 = spacy.load(tmp_path / "graph")
    assert nlp3.get_pipe("negation_graph").encoding == encoding
    assert [negation_key(d) for d in nlp3.pipe(texts)] == gold
    # the `negation` component runs a graph pipeline in any host pipeline (no cue list: E332)
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(tmp_path / "graph")})
    assert [negation_key(d) for d in host.pipe(texts)] == gold
    with pytest.raises(ValueError, match=r"\[NEG-E332\]"):
        spacy.blank("en").add_pipe("negation", config={"model": str(tmp_path / "graph"), "cue_patterns": "en_clinical"})


def test_update_backprops_to_the_listener():
    nlp = load_test_nlp(GRAPH_CNN_TINY)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    tok2vec = nlp.get_pipe("tok2vec")
    assert tok2vec.listening_components == ["negation_graph"]
    nlp.update(examples, sgd=optimizer)
    losses: dict = {}
    for name in nlp.pipe_names:  # without optimizer: the gradients stay
        nlp.get_pipe(name).update(examples[:3], losses=losses)
    assert losses["negation_graph"] > 0.0
    grads = [float(numpy.abs(node.get_grad(name)).sum()) for node in tok2vec.model.walk()
             for name in node.param_names if node.has_grad(name)]
    assert grads and sum(grads) > 0.0


def _tiny_corpus(nlp: Language, path) -> None:
    from spacy.tokens import DocBin

    docs = []
    for words, negations in gold_sentences():
        doc = make_reference(nlp.vocab, words, negations)
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)


@pytest.mark.slow
def test_spacy_train_and_evaluate(tmp_path):
    from spacy.cli.evaluate import evaluate
    from spacy.cli.train import train

    corpus = tmp_path / "gold.spacy"
    _tiny_corpus(spacy.blank("en"), corpus)
    train(GRAPH_CNN_TINY, tmp_path / "out", overrides={
        "paths.train": str(corpus), "paths.dev": str(corpus), "training.max_steps": 150,
        "training.eval_frequency": 50, "system.seed": 0})
    best = tmp_path / "out" / "model-best"
    meta = json.loads((best / "meta.json").read_text())
    assert meta["performance"]["neg_nis_tok_f"] > 0.5
    scores = evaluate(str(best), corpus, output=tmp_path / "scores.json")
    assert {"neg_cue_b_f", "neg_scm_b_f", "neg_st_f", "neg_nis_tok_f", "neg_nis_ex_f"} <= set(scores)
    assert scores["neg_nis_tok_f"] == pytest.approx(meta["performance"]["neg_nis_tok_f"])
    assert json.loads((tmp_path / "scores.json").read_text())["neg_nis_tok_f"] == scores["neg_nis_tok_f"]
    # scripts/evaluate_model.py --set: a prediction setting overridden at load time
    script = [sys.executable, str(REPO / "scripts" / "evaluate_model.py"), str(best), str(corpus)]
    for decoding in ("argmax", "affix_groups"):
        out = subprocess.run(script + [str(tmp_path / f"{decoding}.txt"), str(tmp_path / f"{decoding}.json"),
                                       "--set", f"components.negation_graph.decoder.cue_decoding={decoding}"],
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
    argmax = json.loads((tmp_path / "argmax.json").read_text())["scores"]
    assert argmax["neg_nis_tok_f"] == pytest.approx(scores["neg_nis_tok_f"])
    assert (tmp_path / "affix_groups.txt").exists()
    bad = subprocess.run(script + [str(tmp_path / "bad.txt"), str(tmp_path / "bad.json"),
                                   "--set", "components.negation_graph.decoder.cue_decoding=best"],
                         capture_output=True, text=True)
    assert bad.returncode != 0 and "[NEG-E871]" in bad.stderr and not (tmp_path / "bad.json").exists()
    bad = subprocess.run(script + [str(tmp_path / "bad.txt"), str(tmp_path / "bad.json"), "--set", "novalue"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "SECTION.KEY=VALUE" in bad.stderr


@pytest.mark.slow
def test_spacy_train_on_a_transformer_listener(tmp_path, tiny_bert_dir):
    """The structure of configs/dp_nested.cfg (a transformer listener) trains and
    predicts; the transformer is fine-tuned through the graph parser."""
    from spacy.cli.train import train

    corpus = tmp_path / "gold.spacy"
    _tiny_corpus(spacy.blank("en"), corpus)
    train(GRAPH_TRF_TINY, tmp_path / "out", overrides={
        "paths.train": str(corpus), "paths.dev": str(corpus),
        "components.transformer.model.name": str(tiny_bert_dir)})
    meta = json.loads((tmp_path / "out" / "model-last" / "meta.json").read_text())
    assert meta["performance"]["neg_nis_tok_f"] is not None
    assert meta["performance"]["transformer_loss"] > 0.0
    nlp = spacy.load(tmp_path / "out" / "model-last")
    assert nlp.pipe_names == ["transformer", "negation_graph"]
    assert [isinstance(doc._.negations, list) for doc in nlp.pipe(["He was not unhappy.", ""])] == [True, True]


def test_dp_configs_differ_only_in_the_encoding():
    """configs/dp_direct.cfg and configs/dp_nested.cfg: the same transformer system with
    the hyper-parameters of Sineva et al. 2021, Appendix B, Table 7, but the encoding."""
    configs = {enc: spacy.util.load_config(CONFIGS / f"dp_{enc}.cfg", interpolate=True) for enc in ("direct", "nested")}
    for enc, config in configs.items():
        graph = config["components"]["negation_graph"]
        assert config["nlp"]["pipeline"] == ["transformer", "negation_graph"]
        assert graph["encoding"] == enc and graph["lr_scale"] == 1.0
        assert (graph["model"]["hidden_width"], graph["model"]["dropout"]) == (1024, 0.33)
        assert config["training"]["batcher"]["size"] == 32 and config["training"]["dropout"] == 0.33
        assert config["training"]["optimizer"]["learn_rate"]["initial_rate"] == 4e-5
        assert config["training"]["optimizer"]["L2"] == 0.0
    configs["direct"]["components"]["negation_graph"]["encoding"] = "nested"
    assert configs["direct"] == configs["nested"]


def test_a_long_sentence_is_scored_in_blocks(monkeypatch):
    """A sentence longer than MAX_GRAPH_TOKENS (a doc without sentence boundaries) is scored
    in consecutive blocks, so the arcs grow with the blocks, not with the square of the doc;
    the decoded negations stay inside their block."""
    from spacy_negation.ml import biaffine
    from spacy_negation.sentences import sentence_ranges

    nlp = _nlp()
    graph = nlp.get_pipe("negation_graph")
    nlp.initialize(lambda: make_examples(nlp))
    doc = nlp.make_doc(" ".join(["He was not happy and"] * 10))  # 50 tokens, one sentence
    assert sentence_ranges(doc)[0] == [(0, 50)]
    ranges, of_token = sentence_ranges(doc, 16)
    assert ranges == [(0, 16), (16, 32), (32, 48), (48, 50)] and of_token[47] == 2 and of_token[48] == 3
    monkeypatch.setattr(biaffine, "MAX_GRAPH_TOKENS", 16)
    assert [(start, end) for _, start, end in sentence_spans([doc])] == ranges
    ids = graph.predict([doc])[0]
    assert [len(a) for a in ids] == [(n + 1) * n for n in (16, 16, 16, 2)]
    graph.set_annotations([doc], [ids])
    for neg in doc._.negations:
        block = {int(of_token[p.i]) for role in ("cue", "scope", "event") for p in neg.parts(role)}
        assert len(block) == 1
