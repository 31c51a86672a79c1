"""Int8 dynamic quantization of a pipeline's transformers, for prediction on CPU.

PyTorch's dynamic quantization (``torch.ao.quantization.quantize_dynamic``) replaces each
``torch.nn.Linear`` of a module by a version that stores its weights as 8-bit integers
and quantizes the activations on the fly, batch by batch (Jacob et al. 2018, "Quantization
and Training of Neural Networks for Efficient Integer-Arithmetic-Only Inference"). In a
BERT-style encoder the linear layers (attention projections and the feed-forward block)
hold nearly all of the computation, so the transformer runs faster on CPUs with 8-bit
integer instructions, at a small cost in accuracy (``results/speed.md`` measures both).

Only the transformers are quantized (spacy-transformers' ``HFShim``: the shared
backbone and NegBERT's own), never the components' own heads. The change is in place and
for prediction only: a quantized pipeline cannot be trained or saved with ``to_disk``
(its weights no longer match the architecture's). The ``negation`` component quantizes
the model it loads (its ``quantize`` setting) and never saves the model.
"""
import warnings
from typing import Any, Set

from spacy.language import Language
from thinc.api import Model

__all__ = ["quantize_transformers"]


def quantize_transformers(nlp: Language) -> int:
    """Quantize the linear layers of every transformer of a pipeline to int8, in place.

    nlp (Language): the pipeline (its weights loaded).
    RETURNS (int): the number of transformer modules quantized (0: the pipeline has none,
        e.g. a CNN model; quantizing twice is a no-op).
    """
    import torch
    from spacy_transformers.layers.hf_shim import HFShim

    seen: Set[int] = set()
    done = 0
    for _, pipe in nlp.pipeline:
        model = getattr(pipe, "model", None)
        if not isinstance(model, Model):
            continue
        for node in model.walk():
            for shim in node.shims:
                module: Any = getattr(shim, "_model", None)
                if not isinstance(shim, HFShim) or module is None or id(module) in seen:
                    continue
                seen.add(id(module))
                if getattr(module, "_spacy_negation_quantized", False):
                    continue
                with warnings.catch_warnings():
                    # torch's own notice that its quantized tensor constructors are deprecated
                    warnings.filterwarnings("ignore", message=r"torch\.quantize_per_tensor", category=UserWarning)
                    torch.ao.quantization.quantize_dynamic(module, {torch.nn.Linear}, dtype=torch.qint8,
                                                           inplace=True)
                module._spacy_negation_quantized = True
                done += 1
    return done
