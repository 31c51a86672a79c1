"""The model of ``negation_scope_negbert``: a NegBERT-style scope tagger (Khandelwal and
Sawant 2020, as run by Sineva et al. 2021).

``spacy-negation.NegBERTScopeTagger.v1`` maps the cue windows of a batch (the input of
``spacy-negation.ScopeTagger.v1``: the docs and one :class:`~.models.CueWindow` per cue
instance) to per-window scores over the scope labels. Unlike the BiLSTM-Tagger, which
gathers its windows from token vectors computed once per doc, it encodes the sentence
once per cue instance, with the cue marked in the input:

1. The sentence's words are cut into word pieces by the backbone's (fast) tokenizer. In
   front of each cue word it puts a marker token that says the cue type: NegBERT's
   "augment" input (Khandelwal and Sawant 2020 mark the cue either by replacing each cue
   word with a cue-type token or by adding one before it; this is the second, which
   keeps the cue word itself in the input). The three types are NegBERT's: a whole-word
   cue, an affixal cue (*un*happy), and a word of a multiword cue (*by no means*,
   *neither … nor*). The markers are unused vocabulary entries of the backbone
   (``[unused0]``-``[unused2]`` of a BERT vocabulary), whose embeddings are learned in
   fine-tuning.
2. The transformer (its own: ``spacy-negation.TransformerModel.v1``, so loading and
   serialization are spacy-transformers') runs once over the batch's marked windows.
3. Each word's vector is the mean of its word pieces' last hidden states (the markers
   are not pooled), as the listeners of the shared transformer pool.
4. A linear softmax layer (dropout before it) scores each word: NegBERT's token
   classifier.

A window longer than ``max_pieces`` word pieces (markers included) keeps the words
nearest the cue that fit; the others are not encoded and get the score of ``O``
(outside the scope). Words without word pieces (whitespace tokens) get the classifier's
score of a zero vector.

spacy-transformers and transformers are imported inside the functions only.
"""
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, cast

import numpy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Dropout, Model, Softmax_v2, torch2xp, xp2torch, zero_init
from thinc.types import Floats2d, Floats3d, Ints1d

from ..errors import Errors
from . import transformer as _transformer  # noqa: F401  (registers the backbone)
from .bilstm import CUE_AFFIX, CUE_NONE
from .models import CueWindow, ScopeInputs
from .lr_scale import LR_SCALE_ATTR

#: The default cue-type markers: whole-word cue, affixal cue, word of a multiword cue
#: (unused entries of a BERT vocabulary).
DEFAULT_MARKERS = ("[unused0]", "[unused1]", "[unused2]")
MARKER_WHOLE, MARKER_AFFIX, MARKER_MULTIWORD = 0, 1, 2
#: Word pieces per window without [CLS] and [SEP] (as ``sent_windows``).
DEFAULT_MAX_PIECES = _transformer.DEFAULT_MAX_PIECES


@registry.architectures("spacy-negation.NegBERTScopeTagger.v2")
def build_negbert_scope_tagger_v2(
    transformer: Model,
    markers: Sequence[str] = DEFAULT_MARKERS,
    max_pieces: int = DEFAULT_MAX_PIECES,
    dropout: float = 0.1,
    classifier_lr_scale: float = 1.0,
    nO: Optional[int] = None,
) -> Model[ScopeInputs, List[Floats2d]]:
    """``NegBERTScopeTagger.v1`` with a learning rate of its own for the classifier:
    the output layer learns at ``classifier_lr_scale`` times the rate of the encoder (the
    component's rate). Fine-tuning a base-size encoder wants a small rate, which leaves a
    classifier that starts at zero slow to learn; the cue tagger on a shared transformer
    has the same split through its component's ``lr_scale``.

    classifier_lr_scale (float): the classifier's learning rate relative to the encoder's
        (positive; 1.0 is v1).
    The other settings and the output: as ``spacy-negation.NegBERTScopeTagger.v1``.
    """
    if not classifier_lr_scale > 0:
        raise ValueError(Errors.E834.format(value=classifier_lr_scale))
    model = build_negbert_scope_tagger(transformer, markers, max_pieces, dropout, nO)
    model.get_ref("output_layer").attrs[LR_SCALE_ATTR] = float(classifier_lr_scale)
    return model


@registry.architectures("spacy-negation.NegBERTScopeTagger.v1")
def build_negbert_scope_tagger(
    transformer: Model,
    markers: Sequence[str] = DEFAULT_MARKERS,
    max_pieces: int = DEFAULT_MAX_PIECES,
    dropout: float = 0.1,
    nO: Optional[int] = None,
) -> Model[ScopeInputs, List[Floats2d]]:
    """A NegBERT-style scope tagger (Khandelwal and Sawant 2020): the cue's sentence
    encoded once per cue instance with cue-type markers in front of the cue words, the
    word vectors pooled from the word pieces, and a linear softmax layer per word.

    transformer (Model): the model's own transformer, a spacy-transformers
        ``TransformerModel`` (``spacy-negation.TransformerModel.v1``) with a fast
        tokenizer; its span getter is not used.
    markers (Sequence[str]): the three cue-type marker tokens (whole-word cue, affixal
        cue, word of a multiword cue), entries of the tokenizer's vocabulary.
    max_pieces (int): the most word pieces (markers included) encoded per window.
    dropout (float): the dropout rate before the classifier.
    nO (Optional[int]): the number of scope labels; set by the component if None.
    RETURNS (Model[Tuple[List[Doc], List[CueWindow]], List[Floats2d]]): per window,
        scores (window tokens x labels): probabilities in training, logits otherwise.
    """
    if len(markers) != 3 or len(set(markers)) != 3:
        raise ValueError(Errors.E830.format(markers=list(markers)))
    if max_pieces < 1:
        raise ValueError(Errors.E831.format(value=max_pieces))
    output_layer = Softmax_v2(nO, None, init_W=zero_init, normalize_outputs=False)
    dropout_layer: Model[Floats2d, Floats2d] = Dropout(dropout)
    model: Model[ScopeInputs, List[Floats2d]] = Model(
        "negbert_scope_tagger",
        forward,
        init=init,
        layers=[transformer, dropout_layer, output_layer],
        refs={"transformer": transformer, "dropout": dropout_layer, "output_layer": output_layer},
        dims={"nO": nO},
        attrs={"markers": list(markers), "max_pieces": max_pieces},
    )
    return model


def init(model: Model, X: Optional[ScopeInputs] = None, Y: Optional[List[Floats2d]] = None) -> None:
    """Load the transformer, check the markers against its vocabulary, and size the
    classifier (its input: the transformer's width; its output: ``nO``)."""
    transformer = model.get_ref("transformer")
    transformer.initialize()
    marker_ids(model)
    output_layer = model.get_ref("output_layer")
    output_layer.set_dim("nI", transformer.get_dim("nO"))
    if model.has_dim("nO"):
        output_layer.set_dim("nO", model.get_dim("nO"))
    elif Y:
        output_layer.set_dim("nO", Y[0].shape[1])
        model.set_dim("nO", Y[0].shape[1])
    output_layer.initialize()


def tokenizer_of(transformer: Model) -> Any:
    """The Hugging Face tokenizer of a spacy-transformers ``TransformerModel``."""
    return cast(Any, transformer.layers[0].shims[0])._hfmodel.tokenizer


def marker_ids(model: Model) -> List[int]:
    """The vocabulary ids of the model's cue-type markers (in the order of
    ``DEFAULT_MARKERS``); raises if the tokenizer is not a fast one or lacks a marker."""
    tokenizer = tokenizer_of(model.get_ref("transformer"))
    if not getattr(tokenizer, "is_fast", False):
        raise ValueError(Errors.E832.format(tokenizer=type(tokenizer).__name__))
    ids: List[int] = []
    for marker in model.attrs["markers"]:
        found = tokenizer.convert_tokens_to_ids(marker)
        if found is None or (found == tokenizer.unk_token_id and marker != tokenizer.unk_token):
            raise ValueError(Errors.E833.format(marker=marker, tokenizer=type(tokenizer).__name__))
        ids.append(int(found))
    return ids


@dataclass
class MarkedWindows:
    """The word pieces of a batch of cue windows with their cue markers.

    input_ids (numpy.ndarray): (windows x width) piece ids, [CLS] ... [SEP], padded.
    attention_mask (numpy.ndarray): (windows x width) 1 for real pieces.
    lengths (List[int]): the real pieces of each window.
    pieces (numpy.ndarray): per window word, in window order, the flat positions
        (window * width + position) of its word pieces, word after word.
    n_pieces (numpy.ndarray): the number of word pieces of each window word (0: not
        encoded, a whitespace token or a word beyond ``max_pieces``).
    encoded (numpy.ndarray): per window word, whether it was in the encoded range.
    """

    input_ids: numpy.ndarray
    attention_mask: numpy.ndarray
    lengths: List[int]
    pieces: numpy.ndarray
    n_pieces: numpy.ndarray
    encoded: numpy.ndarray


def marker_types(window: CueWindow) -> numpy.ndarray:
    """The marker of each window word (-1: no cue word), NegBERT's cue types: an
    affixal cue, a word of a multiword cue (a cue of several words), a whole-word cue.

    window (CueWindow): the window.
    RETURNS (numpy.ndarray): per window word, -1 or a marker index.
    """
    types = numpy.full(len(window), -1, dtype="int32")
    is_cue = window.cues != CUE_NONE
    multiword = int(is_cue.sum()) > 1
    types[is_cue] = MARKER_MULTIWORD if multiword else MARKER_WHOLE
    types[window.cues == CUE_AFFIX] = MARKER_AFFIX
    return types


def encoded_range(costs: Sequence[int], is_cue: numpy.ndarray, max_pieces: int) -> Tuple[int, int]:
    """The window words to encode: all if their pieces fit, else the words around the
    cue that fit, growing one word at a time on the side with fewer words taken.

    costs (Sequence[int]): the word pieces of each word (markers included).
    is_cue (numpy.ndarray): per word, whether it is a cue word.
    max_pieces (int): the most pieces.
    RETURNS (Tuple[int, int]): the start and end (exclusive) word.
    """
    if sum(costs) <= max_pieces:
        return 0, len(costs)
    cue_ids = numpy.flatnonzero(is_cue)
    start = int(cue_ids[0]) if len(cue_ids) else 0
    end = int(cue_ids[-1]) + 1 if len(cue_ids) else 1
    total = sum(costs[start:end])
    while end - start > 1 and total > max_pieces:  # the cue words alone do not fit
        end -= 1
        total -= costs[end]
    grow_left = True
    while True:
        left_ok = start > 0 and total + costs[start - 1] <= max_pieces
        right_ok = end < len(costs) and total + costs[end] <= max_pieces
        if not (left_ok or right_ok):
            return start, end
        if left_ok and (grow_left or not right_ok):
            start -= 1
            total += costs[start]
        else:
            total += costs[end]
            end += 1
        grow_left = not grow_left


def mark_windows(model: Model, docs: List[Doc], windows: List[CueWindow]) -> MarkedWindows:
    """The marked word pieces of the cue windows (see the module docstring).

    model (Model): the NegBERT scope model (initialized).
    docs (List[Doc]): the batch's docs.
    windows (List[CueWindow]): the cue windows.
    RETURNS (MarkedWindows): the transformer input and the word-to-piece alignment.
    """
    tokenizer = tokenizer_of(model.get_ref("transformer"))
    markers = marker_ids(model)
    max_pieces = int(model.attrs["max_pieces"])
    # One tokenization per sentence: the windows of the cues of a sentence share it.
    sentences: Dict[Tuple[int, int, int], int] = {}
    for w in windows:
        sentences.setdefault((w.doc, w.start, w.end), len(sentences))
    keys = list(sentences)
    words = [[docs[d][i].text for i in range(start, end)] for d, start, end in keys]
    encoding = tokenizer(words, is_split_into_words=True, add_special_tokens=False) if words else None
    word_pieces: List[List[List[int]]] = []
    for k, sent_words in enumerate(words):
        per_word: List[List[int]] = [[] for _ in sent_words]
        ids = cast(Any, encoding)["input_ids"][k]
        for piece, word in zip(ids, cast(Any, encoding).word_ids(k)):
            if word is not None:
                per_word[word].append(int(piece))
        word_pieces.append(per_word)
    rows: List[List[int]] = []
    positions: List[List[int]] = []  # per window, the piece positions of each word, flattened
    n_pieces: List[numpy.ndarray] = []
    encoded: List[numpy.ndarray] = []
    for w in windows:
        per_word = word_pieces[sentences[(w.doc, w.start, w.end)]]
        types = marker_types(w)
        costs = [len(p) + (t >= 0) for p, t in zip(per_word, types)]
        start, end = encoded_range(costs, types >= 0, max_pieces)
        row = [int(tokenizer.cls_token_id)]
        pos: List[int] = []
        counts = numpy.zeros(len(w), dtype="int32")
        for j in range(start, end):
            pieces = per_word[j]
            if types[j] >= 0:
                row.append(markers[types[j]])
            if len(row) + len(pieces) > max_pieces + 1:  # one word longer than max_pieces
                pieces = pieces[: max(0, max_pieces + 1 - len(row))]
            pos.extend(range(len(row), len(row) + len(pieces)))
            row.extend(pieces)
            counts[j] = len(pieces)
        row.append(int(tokenizer.sep_token_id))
        rows.append(row)
        positions.append(pos)
        n_pieces.append(counts)
        mask = numpy.zeros(len(w), dtype=bool)
        mask[start:end] = True
        encoded.append(mask)
    width = max((len(r) for r in rows), default=0)
    input_ids = numpy.full((len(rows), width), int(tokenizer.pad_token_id), dtype="int64")
    attention_mask = numpy.zeros((len(rows), width), dtype="int64")
    flat: List[int] = []
    for r, (row, pos) in enumerate(zip(rows, positions)):
        input_ids[r, : len(row)] = row
        attention_mask[r, : len(row)] = 1
        flat.extend(r * width + p for p in pos)
    return MarkedWindows(
        input_ids, attention_mask, [len(r) for r in rows], numpy.asarray(flat, dtype="int64"),
        numpy.concatenate(n_pieces) if n_pieces else numpy.zeros(0, dtype="int32"),
        numpy.concatenate(encoded) if encoded else numpy.zeros(0, dtype=bool),
    )


def forward(model: Model, inputs: ScopeInputs, is_train: bool) -> Tuple[List[Floats2d], Callable]:
    docs, windows = inputs
    if not windows:
        return [], lambda d_scores: inputs
    from spacy_transformers.data_classes import WordpieceBatch
    from transformers.file_utils import ModelOutput

    transformer = model.get_ref("transformer")
    hf_layer = transformer.layers[0]
    ops = model.ops
    marked = mark_windows(model, docs, windows)
    tokenizer = tokenizer_of(transformer)
    input_ids: Any = marked.input_ids
    wordpieces = WordpieceBatch(
        strings=[tokenizer.convert_ids_to_tokens(row[:n].tolist()) for row, n in zip(input_ids, marked.lengths)],
        input_ids=input_ids,
        attention_mask=cast(Any, marked.attention_mask),
        lengths=marked.lengths,
        token_type_ids=numpy.zeros_like(input_ids) if "token_type_ids" in tokenizer.model_input_names else None,
    )
    output, bp_output = hf_layer(wordpieces, is_train)
    hidden = output.last_hidden_state
    n_windows, width, n_hidden = (int(size) for size in hidden.shape)
    flat_hidden = ops.reshape2f(cast(Floats3d, ops.asarray(torch2xp(hidden), dtype="float32")),
                                n_windows * width, n_hidden)
    pieces = ops.asarray1i(cast(Ints1d, marked.pieces))
    lengths = ops.asarray1i(cast(Ints1d, marked.n_pieces))
    word_vectors = ops.reduce_mean(flat_hidden[pieces], lengths)
    dropped, bp_dropout = model.get_ref("dropout")(word_vectors, is_train)
    scores, bp_scores = model.get_ref("output_layer")(dropped, is_train)
    outside = ops.xp.asarray(~marked.encoded)
    if outside.any():  # words beyond max_pieces: 'O'
        fixed = ops.alloc2f(1, scores.shape[1])
        if not is_train:
            fixed -= 1e4
        fixed[0, 0] = 1.0 if is_train else 0.0
        scores[outside] = fixed
    splits = numpy.cumsum([len(w) for w in windows])[:-1]
    out = cast(List[Floats2d], ops.xp.split(scores, splits))

    def backprop(d_scores: List[Floats2d]) -> ScopeInputs:
        d_all = ops.xp.concatenate(d_scores) if d_scores else ops.alloc2f(0, scores.shape[1])
        d_all[outside] = 0.0
        d_words = bp_dropout(bp_scores(d_all))
        d_pieces = ops.backprop_reduce_mean(d_words, lengths)
        d_flat = ops.alloc2f(n_windows * width, n_hidden)
        d_flat[pieces] = d_pieces
        d_hidden = xp2torch(ops.reshape3f(d_flat, n_windows, width, n_hidden), device=hidden.device)
        bp_output(ModelOutput(last_hidden_state=d_hidden.to(hidden.dtype)))
        return inputs

    return out, backprop
