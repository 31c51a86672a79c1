"""Int8 dynamic quantization of a pipeline's transformers, for prediction on CPU.

PyTorch's dynamic quantization (``torch.ao.quantization.quantize_dynamic``) replaces each
``torch.nn.Linear`` of a module by a version that stores its weights as 8-bit integers
and quantizes the activations on the fly, batch by batch (Jacob et al. 2018, "Quantization
and Training of Neural Networks for Efficient Integer-Arithmetic-Only Inference"). In a
BERT-style encoder the linear layers (attention projections and the feed-forward block)
hold nearly all of the computation, so the transformer runs faster on CPUs with 8-bit
integer instructions, at a small cost in accuracy (``results/speed.md`` measures both).

:func:`quantize_transformers` quantizes the transformers (spacy-transformers' ``HFShim``:
the shared backbone and NegBERT's own); :func:`quantize_lstms` the bidirectional LSTMs of
the taggers (``spacy_negation.ml.bilstm``: PyTorch's dynamically quantized LSTM keeps its
input-to-hidden and hidden-to-hidden weights in int8). The other layers of the components'
heads (embeddings, the softmax layers) stay in float32. The change is in place and
for prediction only: a quantized pipeline cannot be trained or saved with ``to_disk``
(its weights no longer match the architecture's). The ``negation`` component quantizes
the model it loads (its ``quantize`` setting) and never saves the model.
"""
import warnings
from typing import Any, Iterator, Set

from spacy.language import Language
from thinc.api import Model

__all__ = ["quantize_lstms", "quantize_transformers"]


def quantize_transformers(nlp: Language) -> int:
    """Quantize the linear layers of every transformer of a pipeline to int8, in place.

    nlp (Language): the pipeline (its weights loaded).
    RETURNS (int): the number of transformer modules quantized (0: the pipeline has none,
        e.g. a CNN model; quantizing twice is a no-op).
    """
    import torch
    from spacy_transformers.layers.hf_shim import HFShim

    return _quantize(_modules(nlp, HFShim), {torch.nn.Linear})


def quantize_lstms(nlp: Language) -> int:
    """Quantize the bidirectional LSTMs of the taggers of a pipeline (the PyTorch modules
    of ``spacy_negation.ml.bilstm``) to int8, in place.

    nlp (Language): the pipeline (its weights loaded).
    RETURNS (int): the number of LSTM modules quantized (0: the pipeline has none, e.g. a
        NegBERT or graph model; quantizing twice is a no-op).
    """
    import torch
    from thinc.shims import PyTorchShim

    from .bilstm import CueBiLSTMModule

    modules = (m for m in _modules(nlp, PyTorchShim) if isinstance(m, CueBiLSTMModule))
    return _quantize(modules, {torch.nn.LSTM})


def _modules(nlp: Language, shim_type: type) -> Iterator[Any]:
    """The PyTorch modules of the pipeline's shims of a type, each once."""
    seen: Set[int] = set()
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if not isinstance(model, Model):
            continue
        for node in model.walk():
            for shim in node.shims:
                module: Any = getattr(shim, "_model", None)
                if isinstance(shim, shim_type) and module is not None and id(module) not in seen:
                    seen.add(id(module))
                    yield module


def _quantize(modules: Iterator[Any], layer_types: Set[type]) -> int:
    """Quantize the layers of these types in each module not yet quantized, in place;
    RETURNS the number of modules quantized."""
    import torch

    done = 0
    for module in modules:
        if getattr(module, "_spacy_negation_quantized", False):
            continue
        with warnings.catch_warnings():
            # torch's own notices that its quantized tensor constructors and eager-mode
            # quantization are deprecated
            warnings.filterwarnings("ignore", message=r"torch\.quantize_per_tensor", category=UserWarning)
            warnings.filterwarnings("ignore", message=r"torch\.ao\.quantization is deprecated", category=DeprecationWarning)
            torch.ao.quantization.quantize_dynamic(module, layer_types, dtype=torch.qint8, inplace=True)
        module._spacy_negation_quantized = True
        done += 1
    return done
