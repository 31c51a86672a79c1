"""Helpers shared by the negation components: affix ranges, and an
optimizer proxy for per-component learning rates. Projecting parts between
tokenizations is in :mod:`spacy_negation.alignment`."""
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy

from ..alignment import Part, Range

#: The token-to-vector layer of the components' default models (a CNN; the project's
#: configs replace it with a listener of a shared transformer or tok2vec).
DEFAULT_TOK2VEC_CONFIG = """
[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""


def affix_kind(part: Part, text: str) -> Optional[str]:
    """'prefix', 'suffix' or 'infix' for a partial part, None for a whole token.

    part (Part): the part.
    text (str): its token's text.
    """
    if part.start == 0 and part.end == len(text):
        return None
    if part.start == 0:
        return "prefix"
    if part.end == len(text):
        return "suffix"
    return "infix"


def find_affix(text: str, kind: str, affix: str) -> Optional[Range]:
    """The character range of an affix of a kind in a token text (case-insensitive),
    None if the token does not have it (or is nothing but the affix).

    text (str): the token text.
    kind (str): 'prefix', 'suffix' or 'infix'.
    affix (str): the affix, lower case.
    RETURNS (Optional[Tuple[int, int]]): the range.
    """
    lower = text.lower()
    n = len(affix)
    if not affix or len(lower) <= n:
        return None
    if kind == "prefix":
        return (0, n) if lower.startswith(affix) else None
    if kind == "suffix":
        return (len(lower) - n, len(lower)) if lower.endswith(affix) else None
    if kind == "infix":
        pos = lower.find(affix, 1)
        if pos > 0 and pos + n < len(lower):
            return pos, pos + n
    return None


def remainder(part: Part, text: str) -> Optional[Range]:
    """The rest of a token beside an affixal cue part, as CD-SCO annotates it in the
    scope: the stem before an infix or suffix (``rest`` of rest|less|ly, ``care`` of
    care|less), else the rest after a prefix (``happy`` of un|happy).

    part (Part): the affixal cue part.
    text (str): its token's text.
    RETURNS (Optional[Tuple[int, int]]): the range, None if the part is the whole token.
    """
    if part.start > 0:
        return 0, part.start
    if part.end < len(text):
        return part.end, len(text)
    return None


class ScaledOptimizer:
    """An optimizer proxy that multiplies the learning rate of every update by a
    factor (the component's learning rate relative to the shared backbone's), and that of
    the parameters of some layers by a factor of their own.

    optimizer (Any): the thinc optimizer.
    scale (float): the factor.
    layer_scales (Optional[Dict[Tuple[int, str], float]]): the optimizer's key of a
        parameter (layer id, parameter name) -> its further factor
        (``spacy_negation.ml.lr_scale``).
    """

    def __init__(self, optimizer: Any, scale: float,
                 layer_scales: Optional[Dict[Tuple[int, str], float]] = None) -> None:
        self._optimizer = optimizer
        self._scale = scale
        self._layer_scales = layer_scales or {}

    def __call__(self, key: Tuple[int, str], weights: Any, gradient: Any, *, lr_scale: float = 1.0) -> Any:
        scale = self._scale * self._layer_scales.get(key, 1.0)
        return self._optimizer(key, weights, gradient, lr_scale=lr_scale * scale)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._optimizer, name)


def one_hot(truths: Sequence[Optional[int]], n: int) -> numpy.ndarray:
    """One-hot rows for label ids (all-zero rows for missing values)."""
    out = numpy.zeros((len(truths), n), dtype="float32")
    for row, t in enumerate(truths):
        if t is not None:
            out[row, t] = 1.0
    return out
