"""Token windows as model input: the window-extraction layer of the taggers.

A :class:`CueWindow` is one token window of one doc (a cue instance's sentence, or a
sentence for the cue tagger) with the cue type of each of its tokens. The taggers run
the token-to-vector model once per doc and gather the windows from its output (the
backbone never runs per cue), as in the BiLSTM-Tagger of Sineva et al. (2021).
"""
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

import numpy
from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d, Floats3d, Ints1d, Ints2d

from ..sentences import sentence_ranges

#: Cue types of a window's tokens: not a cue token, whole-token cue, affixal cue token.
CUE_NONE, CUE_WHOLE, CUE_AFFIX = 0, 1, 2
#: Rows of the cue embedding: one per cue type.
N_CUE_TYPES = 3
#: The kinds of instance a window's cue can be of (``CueWindow.kind``): a kind-aware scope
#: model (``spacy-negation.ScopeTagger.v2``) reads them; the others read negation cues only.
KIND_IDS = {"negation": 0, "speculation": 1}
#: The roles of a window tagger's nodes, each a reference of the top node.
ROLES = ("tagger", "tok2vec", "in_dropout", "bilstm", "out_dropout", "output_layer")


@dataclass
class CueWindow:
    """One cue instance as scope-model input: a token window of one doc (the cue's
    sentence) and the cue type of each of its tokens.

    doc (int): the doc's position in the batch.
    start (int): the window's first token index in the doc.
    end (int): the window's end token index in the doc (exclusive).
    cues (numpy.ndarray): per window token 0 (not a cue token), 1 (whole-token cue) or
        2 (affixal cue token) (int32, length end - start).
    kind (int): the kind of the cue's instance (:data:`KIND_IDS`: 0 a negation, 1 a
        speculation).
    """

    doc: int
    start: int
    end: int
    cues: numpy.ndarray
    kind: int = 0

    def __len__(self) -> int:
        return self.end - self.start


#: The taggers' input: the docs of a batch and the windows to tag.
ScopeInputs = Tuple[List[Doc], List[CueWindow]]
#: Windows padded to the longest: token vectors (windows x length x width), cue types
#: (windows x length) and the windows' lengths.
PaddedWindows = Tuple[Floats3d, Ints2d, Ints1d]


#: The longest window of the sentence taggers: a longer sentence (a doc without sentence
#: boundaries) is tagged in consecutive windows of this many tokens, so that the batch is not
#: padded to its length (a cue is a word or a few; no sentence of the corpora has more than
#: 178 tokens).
MAX_SENTENCE_WINDOW = 512


def sentence_windows(docs: Sequence[Doc]) -> List[CueWindow]:
    """One window without cues per sentence (the whole doc without sentence boundaries),
    a sentence longer than :data:`MAX_SENTENCE_WINDOW` cut into consecutive windows; none
    for an empty doc.

    docs (Sequence[Doc]): the docs of a batch.
    RETURNS (List[CueWindow]): the windows, in doc and sentence order.
    """
    windows: List[CueWindow] = []
    for d, doc in enumerate(docs):
        for start, end in sentence_ranges(doc, MAX_SENTENCE_WINDOW)[0]:
            windows.append(CueWindow(d, start, end, numpy.zeros(end - start, dtype="int32")))
    return windows


def pad_windows(kinds: bool = False) -> Model[Tuple[List[Floats2d], List[CueWindow]], PaddedWindows]:
    """The window-extraction layer: per-doc token vectors and the windows of the batch ->
    the windows' token vectors and cue types, padded to the longest window. The gradient
    of a token covered by several windows is the sum over them.

    kinds (bool): code each token of a window as ``kind * N_CUE_TYPES + cue type`` (the
        window's kind, :data:`KIND_IDS`), for a kind-aware BiLSTM; else the cue type alone.
    RETURNS (Model[Tuple[List[Floats2d], List[CueWindow]], PaddedWindows]): the layer.
    """
    # (a v1 model's attributes stay as they were: none)
    return Model("pad_windows", _pad_forward, attrs={"kinds": True} if kinds else {})


def _pad_forward(
    model: Model, inputs: Tuple[List[Floats2d], List[CueWindow]], is_train: bool
) -> Tuple[PaddedWindows, Callable]:
    tokvecs, windows = inputs
    ops = model.ops
    lengths = [len(w) for w in windows]
    B, T = len(windows), max(lengths, default=0)
    width = next((int(t.shape[1]) for t in tokvecs if len(t)), 0)
    X = ops.alloc3f(B, T, width)
    cues = numpy.zeros((B, T), dtype="int32")
    kinds = bool(model.attrs.get("kinds", False))
    for b, w in enumerate(windows):
        X[b, : lengths[b]] = tokvecs[w.doc][w.start : w.end]
        cues[b, : lengths[b]] = w.cues + N_CUE_TYPES * w.kind if kinds else w.cues
    shapes = [t.shape for t in tokvecs]

    def backprop(d_padded: PaddedWindows) -> Tuple[List[Floats2d], List[CueWindow]]:
        dX = d_padded[0]
        d_tokvecs = [ops.alloc2f(*shape) for shape in shapes]
        for b, w in enumerate(windows):
            d_tokvecs[w.doc][w.start : w.end] += dX[b, : lengths[b]]
        return d_tokvecs, windows

    padded: PaddedWindows = (X, cast(Ints2d, cues), cast(Ints1d, numpy.asarray(lengths, dtype="int32")))
    return padded, backprop


def with_sentence_windows(tagger: Model[Any, List[Floats2d]]) -> Model[List[Doc], List[Floats2d]]:
    """Tag whole docs with a window tagger: one window per sentence, the windows'
    scores joined per doc (an empty doc gets an empty array).

    tagger (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): the window
        tagger (its references name its nodes by role, see :data:`ROLES`).
    RETURNS (Model[List[Doc], List[Floats2d]]): per doc, scores (tokens x labels).
    """
    refs: Dict[str, Optional[Model]] = {
        role: tagger if role == "tagger" else tagger.get_ref(role) for role in ROLES
    }
    return Model("with_sentence_windows", _sentences_forward, init=_sentences_init, layers=[tagger], refs=refs,
                 dims={"nO": tagger.maybe_get_dim("nO")})


def _sentences_forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    windows = sentence_windows(docs)
    Ys, bp_Ys = model.layers[0]((docs, windows), is_train)
    nO = model.get_dim("nO")
    per_doc: List[List[Floats2d]] = [[] for _ in docs]
    for w, y in zip(windows, Ys):
        per_doc[w.doc].append(y)
    out = [model.ops.xp.concatenate(ys, axis=0) if ys else model.ops.alloc2f(0, nO) for ys in per_doc]

    def backprop(dYs: List[Floats2d]) -> Any:
        return bp_Ys([dYs[w.doc][w.start : w.end] for w in windows])

    return out, backprop


def _sentences_init(model: Model, X: Any = None, Y: Any = None) -> None:
    tagger = model.layers[0]
    docs = list(X) if X is not None else []
    if model.has_dim("nO"):
        tagger.set_dim("nO", model.get_dim("nO"))
    elif Y is not None and len(Y):
        tagger.set_dim("nO", int(Y[0].shape[1]))
    tagger.initialize(X=(docs, sentence_windows(docs)) if docs else None)
    model.set_dim("nO", tagger.get_dim("nO"))
