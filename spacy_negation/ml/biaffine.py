"""``spacy-negation.GraphParser.v1``: an unfactorized biaffine arc-and-label scorer
(Dozat and Manning 2018, as in the STEPS parser of Grünewald et al. 2020 that Sineva et
al. 2021 run for negation resolution as graph parsing, after Kurtz et al. 2020).

Per sentence of n tokens, the token vectors (one pass of the shared transformer or
tok2vec per doc, usually through a listener) get a learned root vector in front; two
ReLU layers map them to head and dependent representations ``h`` and ``d``; each
(head, dependent) pair and label ``l`` is scored as ``[h_i; 1]ᵀ W_l [d_j; 1]`` (a
bilinear, two linear and a bias term). The labels include "no arc", so a softmax over
the labels of each pair decides arc and label in one (unfactorized).

Output: one array per sentence of the batch (docs in order, their sentences in order,
a doc without sentence boundaries as one sentence, empty docs none), of shape
``((n + 1) * n, n_labels)``, row ``head * n + dependent - 1`` (heads 0..n with the root 0,
dependents 1..n), as :func:`spacy_negation.pipeline.graph.encoding.pair_labels`
orders the gold labels: label probabilities in training, logits in prediction (as
thinc's ``Softmax_v2`` without output normalization). Plain Thinc operations (no
PyTorch), so it runs on any backbone.
"""
from typing import Any, Callable, List, Optional, Sequence, Tuple, cast

import numpy
from thinc.api import Dropout, Model, Relu, chain
from thinc.types import Floats2d

from spacy.tokens import Doc
from spacy.util import registry

from ..errors import Errors
from ..sentences import sentence_ranges

#: (doc in the batch, first token, end token) of each sentence the model scores.
SentenceSpan = Tuple[int, int, int]


@registry.architectures("spacy-negation.GraphParser.v1")
def build_graph_parser(
    tok2vec: Model[List[Doc], List[Floats2d]],
    hidden_width: int = 1024,
    dropout: float = 0.33,
    nO: Optional[int] = None,
) -> Model[List[Doc], List[Floats2d]]:
    """Unfactorized biaffine arc-and-label scorer over the sentences of a batch.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork,
        usually a listener of a shared transformer or tok2vec component.
    hidden_width (int): the width of the head and dependent representations (the
        "arc and label scorer dimension", 1024 in Sineva et al. 2021, Appendix B).
    dropout (float): dropout on the head and dependent representations (0.33 there;
        spaCy's training dropout overrides it during training).
    nO (Optional[int]): the number of pair labels, "no arc" included; inferred from the
        data if None.
    RETURNS (Model[List[Doc], List[Floats2d]]): per sentence, scores
        ((n + 1) * n pairs x labels).
    """
    head_mlp: Model[Floats2d, Floats2d] = chain(Relu(hidden_width), Dropout(dropout))
    dep_mlp: Model[Floats2d, Floats2d] = chain(Relu(hidden_width), Dropout(dropout))
    return Model(
        "graph_parser",
        _forward,
        init=_init,
        layers=[tok2vec, head_mlp, dep_mlp],
        refs={"tok2vec": tok2vec, "head_mlp": head_mlp, "dep_mlp": dep_mlp},
        dims={"nO": nO, "nI": None, "nH": hidden_width},
        params={"W": None, "root": None},
    )


#: The longest sentence the graph is scored on (its arcs grow with the square of the
#: length): a longer one (a doc without sentence boundaries) is scored in consecutive
#: blocks of this many tokens, and no negation reaches across two blocks (no sentence of the
#: corpora comes near: the longest has 178 tokens).
MAX_GRAPH_TOKENS = 512


def graph_ranges(doc: Doc) -> Tuple[List[Tuple[int, int]], numpy.ndarray]:
    """The token ranges the graph is scored on (:func:`sentence_ranges` with sentences
    cut at :data:`MAX_GRAPH_TOKENS`) and the range of each token."""
    return sentence_ranges(doc, MAX_GRAPH_TOKENS)


def sentence_spans(docs: Sequence[Doc]) -> List[SentenceSpan]:
    """The sentences the model scores (:func:`graph_ranges`), in its output order.

    docs (Sequence[Doc]): the batch.
    RETURNS (List[Tuple[int, int, int]]): (doc position, start, end) per sentence.
    """
    return [(d, start, end) for d, doc in enumerate(docs) for start, end in graph_ranges(doc)[0]]


def _forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    tok2vec = model.get_ref("tok2vec")
    head_mlp = model.get_ref("head_mlp")
    dep_mlp = model.get_ref("dep_mlp")
    ops = model.ops
    xp = ops.xp
    tokvecs: List[Any]
    tokvecs, bp_tokvecs = tok2vec(docs, is_train)
    spans = sentence_spans(docs)
    shapes = [t.shape for t in tokvecs]
    if not spans:
        return [], lambda dYs: bp_tokvecs([ops.alloc2f(*shape) for shape in shapes])
    root: Any = model.get_param("root")
    W: Any = model.get_param("W")
    n_labels, k = W.shape[0], W.shape[1]
    # Rows: per sentence the root, then its tokens.
    lengths = [end - start for _, start, end in spans]
    offsets = numpy.cumsum([0] + [n + 1 for n in lengths])
    X = xp.concatenate(
        [part for (d, start, end) in spans for part in (root[None, :], tokvecs[d][start:end])], axis=0
    )
    H: Any
    D: Any
    H, bp_H = head_mlp(X, is_train)
    D, bp_D = dep_mlp(X, is_train)
    ones = ops.alloc2f(X.shape[0], 1) + 1.0
    Ha = xp.concatenate([H, ones], axis=1)
    Da = xp.concatenate([D, ones], axis=1)
    Wr = W.transpose(1, 0, 2).reshape(k, n_labels * k)
    HW = Ha @ Wr  # (rows, labels * k): every row as a head, every label
    Ys: List[Any] = []
    for s, n in enumerate(lengths):
        o, m = int(offsets[s]), n + 1
        HW3 = HW[o : o + m].reshape(m, n_labels, k)
        S = HW3 @ Da[o + 1 : o + m].T  # (heads, labels, dependents)
        logits = xp.ascontiguousarray(S.transpose(0, 2, 1)).reshape(m * n, n_labels)
        Ys.append(ops.softmax(logits, axis=-1) if is_train else logits)

    def backprop(dYs: List[Any]) -> Any:
        # dYs: the gradients of the logits (a categorical cross-entropy's guess - truth of
        # the softmax outputs, as thinc's Softmax_v2 takes them).
        dHW: Any = ops.alloc2f(*HW.shape)
        dDa: Any = ops.alloc2f(*Da.shape)
        for s, n in enumerate(lengths):
            o, m = int(offsets[s]), n + 1
            dS = dYs[s].reshape(m, n, n_labels).transpose(0, 2, 1)  # (heads, labels, dependents)
            dHW[o : o + m] = (dS @ Da[o + 1 : o + m]).reshape(m, n_labels * k)
            HW3 = HW[o : o + m].reshape(m * n_labels, k)
            dDa[o + 1 : o + m] = dS.reshape(m * n_labels, n).T @ HW3
        dWr = Ha.T @ dHW
        model.inc_grad("W", dWr.reshape(k, n_labels, k).transpose(1, 0, 2))
        dHa = dHW @ Wr.T
        dX = bp_H(xp.ascontiguousarray(dHa[:, :-1])) + bp_D(xp.ascontiguousarray(dDa[:, :-1]))
        model.inc_grad("root", dX[offsets[:-1]].sum(axis=0))
        d_tokvecs: List[Any] = [ops.alloc2f(*shape) for shape in shapes]
        for s, (d, start, end) in enumerate(spans):
            o = int(offsets[s])
            d_tokvecs[d][start:end] += dX[o + 1 : o + 1 + end - start]
        return bp_tokvecs(d_tokvecs)

    return Ys, backprop


def _init(model: Model, X: Optional[List[Doc]] = None, Y: Optional[Sequence[Floats2d]] = None) -> None:
    tok2vec = model.get_ref("tok2vec")
    docs = list(X) if X is not None else []
    if docs:
        tok2vec.initialize(X=docs)
    else:
        tok2vec.initialize()
    if not model.has_dim("nI"):
        if tok2vec.has_dim("nO"):
            model.set_dim("nI", int(tok2vec.get_dim("nO")))
        else:
            widths = [t.shape[1] for t in tok2vec.predict(docs) if len(t)]
            if not widths:
                raise ValueError(Errors.E870)
            model.set_dim("nI", int(widths[0]))
    if Y is not None and len(Y) and not model.has_dim("nO"):
        model.set_dim("nO", int(Y[0].shape[1]))
    if not model.has_dim("nO"):
        raise ValueError(Errors.E869.format(name=model.name))
    nI, nH, nO = model.get_dim("nI"), model.get_dim("nH"), model.get_dim("nO")
    for mlp in (model.get_ref("head_mlp"), model.get_ref("dep_mlp")):
        mlp.initialize(X=model.ops.alloc2f(2, nI))
    model.set_param("W", model.ops.alloc3f(nO, nH + 1, nH + 1))
    root: Any = model.ops.asarray1f(cast(Any, numpy.random.normal(0.0, 0.1, size=(nI,)).astype("float32")))
    model.set_param("root", root)

