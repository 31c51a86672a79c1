"""Registered architectures of the negation components (after Sineva et al. 2021,
"BiLSTM-Tagger"), composed of the layers of :mod:`.windows` and :mod:`.bilstm` with
thinc's combinators.

- ``spacy-negation.CueTagger.v1``: token vectors (usually a listener of a shared
  transformer or tok2vec) -> a linear softmax layer over the cue labels.
- ``spacy-negation.CueTagger.v2``: v1 whose softmax layer also reads a lexicon feature
  per token (:mod:`.lexicon_features`).
- ``spacy-negation.BiLSTMCueTagger.v1``: token vectors -> a bidirectional LSTM over each
  sentence -> a softmax layer (the cue half of the paper's BiLSTM-Tagger; sentence-wide
  context for discontinuous cues such as *no … nada* on a CNN tok2vec).
- ``spacy-negation.ScopeTagger.v1``: for every cue instance, the token vectors of its
  sentence (computed once per doc, gathered per cue: the backbone never runs per cue)
  concatenated with a learned cue/not-cue embedding, a bidirectional LSTM over the
  windows of all cue instances of the batch, and a softmax layer per token.
- ``spacy-negation.ScopeTagger.v2``: v1 with the kind of the cue's instance (negation,
  speculation) as input: a learned kind embedding added to the cue embedding of every
  token of the window, so that one model resolves the scopes of both kinds.

The transformer backbone and its span getter are in :mod:`.transformer`.
"""
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Dropout, Model, Softmax_v2, chain, with_array, with_getitem, zero_init
from thinc.types import Floats2d

from ..errors import Errors
from .bilstm import build_cue_bilstm, build_module, is_built
from .windows import KIND_IDS, CueWindow, ScopeInputs, pad_windows, with_sentence_windows

__all__ = ["CueWindow", "KIND_IDS", "ScopeInputs", "build_bilstm_cue_tagger", "build_cue_tagger",
           "build_cue_tagger_v2",
           "build_scope_tagger", "build_scope_tagger_v2", "model_kinds"]


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
def build_cue_tagger_v2(
    tok2vec: Model[List[Doc], List[Floats2d]],
    lexicon_splits: List[str] = ["train", "heldout"],
    lexicon_extra: List[str] = ["n't", "n\u2019t"],
    flagged_dropout: float = 0.0,
    flagged_min_seen: int = 50,
    nO: Optional[int] = None,
) -> Model[List[Doc], List[Floats2d]]:
    """Cue tagger with a lexicon feature: ``CueTagger.v1`` whose softmax layer also reads,
    per token, whether it is a cue word of the package's negation lexicon
    (:mod:`spacy_negation.corpora.cue_lexicon`; see :mod:`.lexicon_features`), so that
    cue words of the lexicon that the training data lacks can be found.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork.
    lexicon_splits (List[str]): the lexicon's splits whose words are flagged (``train``,
        ``heldout``; a leave-cues-out evaluation flags ``train`` only, keeping the held-out
        words apart).
    lexicon_extra (List[str]): more one-word cues to flag (the contracted *n't*, which the
        lexicon leaves out because no word replaces a clitic).
    flagged_dropout (float): in training, the probability that a flagged token's vector
        is zeroed, so that the tagger learns to tag from the flags, as it does in
        prediction for a flagged word the training never showed (0 to 1; see
        :mod:`.lexicon_features`).
    flagged_min_seen (int): in prediction, a flagged word in fewer training sentences is
        novel: its vector is zeroed and it is tagged from its flags (at least 1).
    nO (Optional[int]): the number of cue labels; inferred from the data if None.
    RETURNS (Model[List[Doc], List[Floats2d]]): per doc, scores (tokens x labels).
    """
    from ..corpora.cue_lexicon import SPLITS, load_negation_lexicon
    from .lexicon_features import lexicon_flags

    if not 0.0 <= flagged_dropout <= 1.0:
        raise ValueError(Errors.E380.format(value=flagged_dropout))
    if flagged_min_seen < 1:
        raise ValueError(Errors.E381.format(value=flagged_min_seen))
    unknown = sorted(set(lexicon_splits) - set(SPLITS))
    if unknown:
        raise ValueError(Errors.E379.format(splits=unknown, known=", ".join(SPLITS)))
    phrases = [(entry.words, entry.n_cue) for entry in load_negation_lexicon()
               if entry.split in lexicon_splits]
    phrases += [((word.lower(),), 1) for word in lexicon_extra]
    features = lexicon_flags(chain(tok2vec, _uniform_empty_widths()), phrases, flagged_dropout,
                             flagged_min_seen)
    width = features.get_dim("nO") if features.has_dim("nO") else None
    output_layer = Softmax_v2(nO, width, init_W=zero_init, normalize_outputs=False)
    model: Model[List[Doc], List[Floats2d]] = chain(features, with_array(output_layer))
    model.set_ref("tok2vec", tok2vec)
    model.set_ref("output_layer", output_layer)
    return model


@registry.architectures("spacy-negation.BiLSTMCueTagger.v1")
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
    tagger = build_scope_tagger(tok2vec, cue_width=0, hidden_width=hidden_width, depth=depth,
                                dropout=dropout, nO=nO)
    return with_sentence_windows(tagger)


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
    return _build_window_tagger(tok2vec, cue_width, hidden_width, depth, dropout, nO, n_kinds=0)


@registry.architectures("spacy-negation.ScopeTagger.v2")
def build_scope_tagger_v2(
    tok2vec: Model[List[Doc], List[Floats2d]],
    cue_width: int = 128,
    hidden_width: int = 200,
    depth: int = 1,
    dropout: float = 0.1,
    n_kinds: int = 2,
    nO: Optional[int] = None,
) -> Model[ScopeInputs, List[Floats2d]]:
    """Scope tagger for negation and speculation cues: ``ScopeTagger.v1`` whose input
    also has the kind of each window's instance (``CueWindow.kind``: 0 a negation, 1 a
    speculation), as a learned kind embedding (``cue_width`` wide) added to the cue
    embedding of every token of the window.

    tok2vec (Model[List[Doc], List[Floats2d]]): the token-to-vector subnetwork.
    cue_width (int): the width of the learned cue and kind embeddings (at least 1).
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    dropout (float): dropout on the LSTM input and output.
    n_kinds (int): rows of the kind embedding (at least the kinds the component resolves:
        2 for negation and speculation).
    nO (Optional[int]): the number of scope labels; inferred from the data if None.
    RETURNS (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per cue
        window, scores (window tokens x labels).
    """
    if not isinstance(cue_width, int) or cue_width < 1:
        raise ValueError(Errors.E367.format(key="cue_width of spacy-negation.ScopeTagger.v2",
                                            bounds="a whole number of at least 1", value=repr(cue_width)))
    if not isinstance(n_kinds, int) or n_kinds < 1:
        raise ValueError(Errors.E367.format(key="n_kinds of spacy-negation.ScopeTagger.v2",
                                            bounds="a whole number of at least 1", value=repr(n_kinds)))
    return _build_window_tagger(tok2vec, cue_width, hidden_width, depth, dropout, nO, n_kinds=n_kinds)


def model_kinds(model: Model) -> int:
    """How many kinds of instance a scope model tells apart: the ``n_kinds`` of
    ``ScopeTagger.v2``, 1 for a model that reads every cue as a negation cue (v1, the
    NegBERT-style model).

    model (Model): the scope model.
    RETURNS (int): the number of kinds.
    """
    return int(model.attrs.get("n_kinds", 1))


def _build_window_tagger(tok2vec: Model[List[Doc], List[Floats2d]], cue_width: int, hidden_width: int,
                         depth: int, dropout: float, nO: Optional[int], n_kinds: int) -> Model[ScopeInputs, List[Floats2d]]:
    """The scope tagger of v1 (``n_kinds`` 0) and v2 (a kind embedding of ``n_kinds`` rows)."""
    in_dropout: Model[Any, Any] = Dropout(dropout)
    out_dropout: Model[Floats2d, Floats2d] = Dropout(dropout)
    bilstm = build_cue_bilstm(cue_width, hidden_width, depth, n_kinds=n_kinds)
    output_layer = Softmax_v2(nO, 2 * hidden_width, init_W=zero_init, normalize_outputs=False)
    tagger: Model[ScopeInputs, List[Floats2d]] = chain(
        with_getitem(0, tok2vec),
        pad_windows(kinds=bool(n_kinds)),
        with_getitem(0, in_dropout),
        bilstm,
        with_array(chain(out_dropout, output_layer)),
    )
    refs: Dict[str, Optional[Model]] = {"tok2vec": tok2vec, "in_dropout": in_dropout, "bilstm": bilstm,
            "out_dropout": out_dropout, "output_layer": output_layer}
    attrs: Dict[str, Any] = {"n_kinds": n_kinds} if n_kinds else {}
    return Model("scope_tagger", _windows_forward, init=_windows_init, layers=[tagger], refs=refs, dims={"nO": nO},
                 attrs=attrs)


def _windows_forward(model: Model, inputs: ScopeInputs, is_train: bool) -> Tuple[List[Floats2d], Callable]:
    """The tagger; without windows, the token-to-vector model alone (a listener
    expects its backprop call: zero gradients)."""
    docs, windows = inputs
    if windows:
        return model.layers[0](inputs, is_train)
    tokvecs, bp_tokvecs = model.get_ref("tok2vec")(docs, is_train)

    def backprop_empty(dYs: List[Floats2d]) -> Any:
        return bp_tokvecs([model.ops.alloc2f(*t.shape) for t in tokvecs])

    return [], backprop_empty


def _windows_init(model: Model, X: Optional[ScopeInputs] = None, Y: Optional[Sequence[Floats2d]] = None) -> None:
    """Initialize the token-to-vector model, build the BiLSTM on its width (its output
    width, else the width of its output on the sample docs) and size the output layer."""
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
            nI = next(int(t.shape[1]) for t in tok2vec.predict(docs) if len(t))
        else:
            raise ValueError(Errors.E342)
        build_module(bilstm, int(nI))
    if Y is not None and len(Y) and model.get_dim("nO") is None:
        model.set_dim("nO", int(Y[0].shape[1]))
    if model.has_dim("nO") and model.get_dim("nO") is not None:
        output_layer.set_dim("nO", model.get_dim("nO"))
    output_layer.initialize()
    for dropout in (model.get_ref("in_dropout"), model.get_ref("out_dropout")):
        dropout.initialize()
    model.set_dim("nO", output_layer.get_dim("nO"))


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
