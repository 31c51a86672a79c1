"""Registered architectures of the negation components (after Sineva et al. 2021,
"BiLSTM-Tagger").

- ``spacy-negation.CueTagger.v1``: token vectors (usually a listener of a shared
  transformer or tok2vec) -> a linear softmax layer over the cue labels.
- ``spacy-negation.CueTagger.v2``: token vectors -> a bidirectional LSTM over each
  sentence -> a softmax layer (the cue half of the paper's BiLSTM-Tagger; sentence-wide
  context for discontinuous cues such as *no … nada* on a CNN tok2vec).
- ``spacy-negation.ScopeTagger.v1``: for every cue instance, the token vectors of its
  sentence (computed once per doc, gathered per cue: the backbone never runs per cue)
  concatenated with a learned cue/not-cue embedding, a bidirectional LSTM over the
  windows of all cue instances of the batch, and a softmax layer per token.

Importing this module also registers ``spacy-negation.TransformerModel.v1``,
``spacy-negation.sent_windows.v1`` (:mod:`.transformer`) and the corpus reader
``spacy-negation.SentenceCorpus.v1`` (:mod:`.readers`).
"""
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy
from thinc.api import Dropout, Model, Softmax_v2, chain, with_array, zero_init
from thinc.types import Floats2d

from spacy.tokens import Doc
from spacy.util import registry

from ..errors import Errors
from . import training_corpus as _training_corpus  # noqa: F401  (registers the corpus reader)
from . import transformer as _transformer  # noqa: F401  (registers the backbone)
from .bilstm import build_cue_bilstm, build_module, is_built


@dataclass
class CueWindow:
    """One cue instance as scope-model input: a token window of one doc (the cue's
    sentence) and the cue type of each of its tokens.

    doc (int): the doc's position in the batch.
    start (int): the window's first token index in the doc.
    end (int): the window's end token index in the doc (exclusive).
    cues (numpy.ndarray): per window token 0 (not a cue token), 1 (whole-token cue) or
        2 (affixal cue token) (int32, length end - start).
    """

    doc: int
    start: int
    end: int
    cues: numpy.ndarray

    def __len__(self) -> int:
        return self.end - self.start


ScopeInputs = Tuple[List[Doc], List[CueWindow]]


@registry.architectures("spacy-negation.CueTagger.v1")
def build_cue_tagger(
    tok2vec: Model[List[Doc], List[Floats2d]], nO: Optional[int] = None
) -> Model[List[Doc], List[Floats2d]]:
    """Cue tagger: a linear softmax layer over the cue labels on the token vectors.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork,
        usually a listener of a shared transformer or tok2vec component.
    nO (Optional[int]): the number of cue labels; inferred from the data if None.
    RETURNS (Model[List[Doc], List[Floats2d]]): per doc, scores (tokens x labels).
    """
    t2v_width = tok2vec.get_dim("nO") if tok2vec.has_dim("nO") else None
    output_layer = Softmax_v2(nO, t2v_width, init_W=zero_init, normalize_outputs=False)
    model: Model[List[Doc], List[Floats2d]] = chain(
        tok2vec, _uniform_empty_widths(), with_array(output_layer)
    )
    model.set_ref("tok2vec", tok2vec)
    model.set_ref("output_layer", output_layer)
    return model


@registry.architectures("spacy-negation.CueTagger.v2")
def build_bilstm_cue_tagger(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 128,
    depth: int = 1,
    dropout: float = 0.1,
    nO: Optional[int] = None,
) -> Model[List[Doc], List[Floats2d]]:
    """Cue tagger with a BiLSTM: the token vectors of each sentence, a bidirectional
    LSTM over the sentences of the batch and a softmax layer over the cue labels.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork,
        usually a listener of a shared transformer or tok2vec component.
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    dropout (float): dropout on the LSTM input and output.
    nO (Optional[int]): the number of cue labels; inferred from the data if None.
    RETURNS (Model[List[Doc], List[Floats2d]]): per doc, scores (tokens x labels).
    """
    sentences = build_scope_tagger(tok2vec, cue_width=0, hidden_width=hidden_width, depth=depth,
                                   dropout=dropout, nO=nO)
    return Model("bilstm_cue_tagger", _cue_forward, init=_cue_init, layers=[sentences],
                 refs={"tok2vec": tok2vec, "output_layer": sentences.get_ref("output_layer")},
                 dims={"nO": nO})


def _sentence_windows(docs: Sequence[Doc]) -> List[CueWindow]:
    """One window per sentence (the whole doc without sentence boundaries), no cues."""
    windows: List[CueWindow] = []
    for d, doc in enumerate(docs):
        if not len(doc):
            continue
        ranges = [(s.start, s.end) for s in doc.sents] if doc.has_annotation("SENT_START") else [(0, len(doc))]
        for start, end in ranges:
            windows.append(CueWindow(d, start, end, numpy.zeros(end - start, dtype="int32")))
    return windows


def _cue_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    sentences = model.layers[0]
    windows = _sentence_windows(docs)
    Ys, bp_Ys = sentences((docs, windows), is_train)
    nO = model.get_dim("nO")
    per_doc: List[List[Floats2d]] = [[] for _ in docs]
    for w, y in zip(windows, Ys):
        per_doc[w.doc].append(y)
    out = [model.ops.xp.concatenate(ys, axis=0) if ys else model.ops.alloc2f(0, nO) for ys in per_doc]

    def backprop(dYs: List[Floats2d]) -> Any:
        return bp_Ys([dYs[w.doc][w.start : w.end] for w in windows])

    return out, backprop


def _cue_init(model: Model, X: Optional[List[Doc]] = None, Y: Optional[Sequence[Floats2d]] = None) -> None:
    sentences = model.layers[0]
    docs = list(X) if X is not None else []
    if model.has_dim("nO"):
        sentences.set_dim("nO", model.get_dim("nO"))
    elif Y is not None and len(Y):
        sentences.set_dim("nO", int(Y[0].shape[1]))
    sentences.initialize(X=(docs, _sentence_windows(docs)) if docs else None)
    model.set_dim("nO", sentences.get_dim("nO"))


@registry.architectures("spacy-negation.ScopeTagger.v1")
def build_scope_tagger(
    tok2vec: Model[List[Doc], List[Floats2d]],
    cue_width: int = 128,
    hidden_width: int = 200,
    depth: int = 1,
    dropout: float = 0.1,
    nO: Optional[int] = None,
) -> Model[ScopeInputs, List[Floats2d]]:
    """Scope tagger: per cue instance, the sentence's token vectors with a cue
    embedding, a BiLSTM and a softmax layer per token.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork,
        usually a listener of a shared transformer or tok2vec component.
    cue_width (int): the width of the learned cue/not-cue embedding.
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    dropout (float): dropout on the LSTM input and output (spaCy's training
        dropout overrides it during training).
    nO (Optional[int]): the number of scope labels; inferred from the data if None.
    RETURNS (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per cue
        window, scores (window tokens x labels).
    """
    bilstm = build_cue_bilstm(cue_width, hidden_width, depth)
    output_layer = Softmax_v2(nO, 2 * hidden_width, init_W=zero_init, normalize_outputs=False)
    model: Model[ScopeInputs, List[Floats2d]] = Model(
        "scope_tagger",
        _scope_forward,
        init=_scope_init,
        layers=[tok2vec, Dropout(dropout), bilstm, Dropout(dropout), output_layer],
        refs={"tok2vec": tok2vec, "bilstm": bilstm, "output_layer": output_layer},
        dims={"nO": nO},
    )
    return model


def _scope_forward(model: Model, inputs: ScopeInputs, is_train: bool) -> Tuple[List[Floats2d], Callable]:
    docs, windows = inputs
    tok2vec = model.get_ref("tok2vec")
    in_dropout, out_dropout = model.layers[1], model.layers[3]
    bilstm = model.get_ref("bilstm")
    output_layer = model.get_ref("output_layer")
    ops = model.ops
    tokvecs, bp_tokvecs = tok2vec(docs, is_train)
    width = _width(tokvecs, bilstm)

    def zero_grads() -> List[Floats2d]:
        return [ops.alloc2f(*t.shape) for t in tokvecs]

    if not windows:

        def backprop_empty(dY: List[Floats2d]) -> Any:
            return bp_tokvecs(zero_grads())

        return [], backprop_empty
    lengths = [len(w) for w in windows]
    B, T = len(windows), max(lengths)
    Xp = ops.alloc3f(B, T, width)
    cues = numpy.zeros((B, T), dtype="int32")
    for b, w in enumerate(windows):
        Xp[b, : lengths[b]] = tokvecs[w.doc][w.start : w.end]
        cues[b, : lengths[b]] = w.cues
    Xp, bp_in_dropout = in_dropout(Xp, is_train)
    Hp, bp_Hp = bilstm((Xp, cues, numpy.asarray(lengths, dtype="int32")), is_train)
    H = ops.xp.concatenate([Hp[b, : lengths[b]] for b in range(B)], axis=0)
    H, bp_out_dropout = out_dropout(H, is_train)
    Y, bp_Y = output_layer(H, is_train)
    offsets = numpy.cumsum([0] + lengths)
    Ys = [Y[offsets[b] : offsets[b + 1]] for b in range(B)]

    def backprop(dYs: List[Floats2d]) -> Any:
        dH = bp_out_dropout(bp_Y(ops.xp.concatenate(dYs, axis=0)))
        dHp = ops.alloc3f(B, T, dH.shape[1])
        for b in range(B):
            dHp[b, : lengths[b]] = dH[offsets[b] : offsets[b + 1]]
        dXp = bp_in_dropout(bp_Hp(dHp))
        d_tokvecs = zero_grads()
        for b, w in enumerate(windows):
            d_tokvecs[w.doc][w.start : w.end] += dXp[b, : lengths[b]]
        return bp_tokvecs(d_tokvecs)

    return Ys, backprop


def _scope_init(model: Model, X: Optional[ScopeInputs] = None, Y: Optional[Sequence[Floats2d]] = None) -> None:
    tok2vec = model.get_ref("tok2vec")
    bilstm = model.get_ref("bilstm")
    output_layer = model.get_ref("output_layer")
    docs = list(X[0]) if X is not None else []
    if docs:
        tok2vec.initialize(X=docs)
    else:
        tok2vec.initialize()
    if not is_built(bilstm):
        if tok2vec.has_dim("nO") and tok2vec.get_dim("nO") is not None:
            nI = tok2vec.get_dim("nO")
        elif any(len(doc) for doc in docs):
            nI = _width(tok2vec.predict(docs), bilstm)
        else:
            raise ValueError(Errors.E342)
        build_module(bilstm, int(nI))
    if Y is not None and len(Y) and model.get_dim("nO") is None:
        model.set_dim("nO", int(Y[0].shape[1]))
    if model.has_dim("nO") and model.get_dim("nO") is not None:
        output_layer.set_dim("nO", model.get_dim("nO"))
    output_layer.initialize()
    for layer in (model.layers[1], model.layers[3]):
        layer.initialize()
    model.set_dim("nO", output_layer.get_dim("nO"))


def _width(tokvecs: Sequence[Floats2d], bilstm: Model) -> int:
    for t in tokvecs:
        if len(t):
            return int(t.shape[1])
    if bilstm.has_dim("nI") and bilstm.get_dim("nI") is not None:
        return int(bilstm.get_dim("nI"))
    return 0


def _uniform_empty_widths() -> Model[List[Floats2d], List[Floats2d]]:
    """Give the arrays of empty docs the width of the others (spacy-transformers'
    pooling returns (0, 0) arrays for empty docs, which cannot be concatenated)."""
    return Model("uniform_empty_widths", _uniform_forward)


def _uniform_forward(model: Model, Xs: List[Floats2d], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    widths = {x.shape[1] for x in Xs if len(x)}
    if len(widths) != 1 or all(x.shape[1] in widths for x in Xs):
        return Xs, lambda dYs: dYs
    width = widths.pop()
    shapes = [x.shape for x in Xs]
    Ys = [x if len(x) else model.ops.alloc2f(0, width) for x in Xs]

    def backprop(dYs: List[Floats2d]) -> List[Floats2d]:
        return [dy if len(dy) else model.ops.alloc2f(*shape) for dy, shape in zip(dYs, shapes)]

    return Ys, backprop
