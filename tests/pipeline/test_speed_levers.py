"""The `negation` component's speed levers: int8 quantization of the model's transformers
(``quantize``) and its setting's validation; the prefilter and the per-convention
components are tested in test_prefilter.py and test_conventions.py."""
import pickle
from typing import Any
from pathlib import Path

import pytest
import spacy

from util import negation_key
from spacy_negation.ml.quantize import quantize_lstms, quantize_transformers

TEXTS = ["I did not see it .", "He was unhappy .", "No one came to the party .", ""]


def _kinds(modules: Any, int8: type, fp32: type) -> dict:
    """How many of the modules are of the quantized type and of the float type."""
    kinds = {"float": 0, "int8": 0}
    for module in modules:
        if isinstance(module, int8):
            kinds["int8"] += 1
        elif isinstance(module, fp32):
            kinds["float"] += 1
    return kinds


def _linear_kinds(nlp: spacy.Language) -> dict:
    import torch

    trf = nlp.get_pipe("transformer").model.layers[0].shims[0]._model
    return _kinds(trf.modules(), torch.ao.nn.quantized.dynamic.Linear, torch.nn.Linear)


def test_quantize_transformers_replaces_every_linear_layer_once(tiny_trf_dir: Path) -> None:
    nlp = spacy.load(tiny_trf_dir)
    before = _linear_kinds(nlp)
    assert before["float"] > 0 and before["int8"] == 0
    assert quantize_transformers(nlp) == 1
    after = _linear_kinds(nlp)
    assert after == {"float": 0, "int8": before["float"]}
    assert quantize_transformers(nlp) == 0  # quantizing twice is a no-op
    # the quantized pipeline still annotates every text
    assert [len(d) for d in nlp.pipe(TEXTS)] == [len(nlp.make_doc(text)) for text in TEXTS]


def _lstm_kinds(nlp: spacy.Language) -> dict:
    import torch

    modules = [m for node in nlp.get_pipe("negation_scope").model.walk() for shim in node.shims
               for m in shim._model.modules()]
    return _kinds(modules, torch.ao.nn.quantized.dynamic.LSTM, torch.nn.LSTM)


def test_quantize_lstms_replaces_the_scope_taggers_lstm_once(tiny_trf_dir: Path) -> None:
    nlp = spacy.load(tiny_trf_dir)
    expected = [negation_key(d) for d in nlp.pipe(TEXTS)]
    assert _lstm_kinds(nlp) == {"float": 1, "int8": 0}
    assert quantize_lstms(nlp) == 1
    assert _lstm_kinds(nlp) == {"float": 0, "int8": 1}
    assert quantize_lstms(nlp) == 0  # quantizing twice is a no-op
    assert _linear_kinds(nlp)["int8"] == 0  # the transformer is left as it is
    keys = [negation_key(d) for d in nlp.pipe(TEXTS)]
    assert len(keys) == len(expected)  # packed windows of every length still run


def test_quantize_is_a_no_op_without_a_transformer(trained_cnn_dir: Path) -> None:
    assert quantize_transformers(spacy.load(trained_cnn_dir)) == 0


def test_negation_quantizes_by_default_and_the_setting_round_trips(tiny_trf_dir: Path, tmp_path: Path) -> None:
    host = spacy.blank("en")
    resolver = host.add_pipe("negation", config={"model": str(tiny_trf_dir)})
    assert resolver.quantize is True and _linear_kinds(resolver.negation_nlp)["float"] == 0
    plain = spacy.blank("en")
    off = plain.add_pipe("negation", config={"model": str(tiny_trf_dir), "quantize": False})
    assert _linear_kinds(off.negation_nlp)["int8"] == 0
    # the quantized model runs: same tokens, negations on the host docs
    docs = list(host.pipe(TEXTS))
    assert [len(d) for d in docs] == [len(d) for d in plain.pipe(TEXTS)]
    plain.to_disk(tmp_path / "host")
    loaded = spacy.load(tmp_path / "host")
    assert loaded.get_pipe("negation").quantize is False
    assert pickle.loads(pickle.dumps(off)).quantize is False


@pytest.mark.parametrize("bad", [0, -1])
def test_negation_rejects_a_bad_batch_size(trained_cnn_dir: Path, bad) -> None:
    with pytest.raises(ValueError, match=r"\[NEG-E330\]"):
        spacy.blank("en").add_pipe("negation", config={"model": str(trained_cnn_dir), "batch_size": bad})
