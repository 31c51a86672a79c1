"""Length bucketing of the transformer: prediction runs the spans in buckets of
similar length.

spacy-transformers pads all spans of a batch to the longest one and runs them in one
call: at prediction time, with one span per sentence and many docs per batch, most of
the work is padding (a batch of 250 sentences padded to its longest).
:func:`with_length_buckets` sorts the spans by length and runs them in buckets of
similar length (a bucket ends where a span is more than a quarter, and 8 pieces, longer
than the bucket's first, or where the bucket's padded size would exceed ``max_pieces``)
and puts the outputs back in one padded batch. The values of the real word pieces are
the same as in one call, up to floating-point rounding (the padding positions are not).
Training is unchanged, one call per batch.

spacy-transformers is imported inside the functions only.
"""
from typing import Any, Callable, List, Tuple

import numpy
from thinc.api import Model


def with_length_buckets(layer: Model, max_pieces: int) -> Model:
    """spacy-transformers' Hugging Face layer (``WordpieceBatch -> ModelOutput``), run
    in buckets of similar length at prediction time.

    The new layer stands in for ``layer``: it keeps its name, dimensions, attributes
    and PyTorch shim (spacy-transformers' ``TransformerModel`` reaches the Hugging Face
    objects through ``model.layers[0].shims[0]``, and stored pipelines keep their
    layout) and calls ``layer`` for each bucket.

    layer (Model): the Hugging Face layer (``TransformerModel(...).layers[0]``).
    max_pieces (int): the most padded word pieces (spans x longest span) per call.
    RETURNS (Model): the bucketing layer.
    """

    def forward(model: Model, wordpieces: Any, is_train: bool) -> Tuple[Any, Callable]:
        buckets = [] if is_train else length_buckets(list(wordpieces.lengths), max_pieces)
        if len(buckets) <= 1:
            return layer(wordpieces, is_train)
        import torch

        n, width = wordpieces.input_ids.shape
        outputs, indices = [], []
        for bucket in buckets:
            longest = max(wordpieces.lengths[i] for i in bucket)
            outputs.append(layer(_select(wordpieces, bucket, longest), False)[0])
            indices.append(torch.tensor(bucket, dtype=torch.long))
        joined = type(outputs[0])()
        for key, value in outputs[0].items():
            if isinstance(value, torch.Tensor):
                joined[key] = _join([out[key] for out in outputs], indices, n, width)

        def backprop(d_output: Any) -> Any:
            raise NotImplementedError("length buckets only run at prediction time")

        return joined, backprop

    def init(model: Model, X: Any = None, Y: Any = None) -> None:
        layer.initialize(X=X, Y=Y)

    dims = {name: layer.maybe_get_dim(name) for name in layer.dim_names}
    return Model(layer.name, forward, init=init, dims=dims, shims=layer.shims, attrs=layer.attrs)


def length_buckets(lengths: List[int], max_pieces: int) -> List[List[int]]:
    """Indices of spans grouped into buckets of similar length, shortest first: a bucket
    ends before a span more than a quarter (and 8 pieces) longer than its first span, or
    when its padded size (spans x longest) would exceed max_pieces.

    lengths (List[int]): the word pieces of each span.
    max_pieces (int): the most padded word pieces per bucket (a longer span is alone).
    RETURNS (List[List[int]]): the buckets, each in ascending length.
    """
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    buckets: List[List[int]] = []
    for i in order:
        if buckets:
            bucket = buckets[-1]
            first = lengths[bucket[0]]
            if lengths[i] <= first + max(8, first // 4) and lengths[i] * (len(bucket) + 1) <= max_pieces:
                bucket.append(i)
                continue
        buckets.append([i])
    return buckets


def _select(wordpieces: Any, bucket: List[int], longest: int) -> Any:
    """The spans of a bucket as a WordpieceBatch padded to its longest span."""
    from spacy_transformers.data_classes import WordpieceBatch

    rows = numpy.asarray(bucket)
    type_ids = wordpieces.token_type_ids
    return WordpieceBatch(
        strings=[wordpieces.strings[i][:longest] for i in bucket],
        input_ids=wordpieces.input_ids[rows, :longest],
        attention_mask=wordpieces.attention_mask[rows, :longest],
        lengths=[wordpieces.lengths[i] for i in bucket],
        token_type_ids=None if type_ids is None else type_ids[rows, :longest],
    )


def _join(parts: List[Any], indices: List[Any], n: int, width: int) -> Any:
    """The outputs of the buckets as one tensor in span order, zero-padded to ``width``
    positions (per-position outputs) or as they are (per-span outputs)."""
    first = parts[0]
    if first.dim() >= 3:
        joined = first.new_zeros((n, width) + tuple(first.shape[2:]))
        for part, index in zip(parts, indices):
            joined[index, : part.shape[1]] = part
    else:
        joined = first.new_zeros((n,) + tuple(first.shape[1:]))
        for part, index in zip(parts, indices):
            joined[index] = part
    return joined
