"""The lexicon feature of ``spacy-negation.CueTagger.v2``: per token, whether it is a cue
word of an entry of a negation lexicon, as three indicator columns (a one-word cue, the
first word of a cue of several words, a later word of one). An entry matches where all of
its words are in a row, the words that follow its cue outside it included ("negative
[for]" flags *negative* before *for* only); token texts are compared in lower case without
format characters.

A tagger trained from these columns on the lexicon words its corpora hold can carry what
it learned to the lexicon words they do not: the lever of Gubelmann & Handschuh (2022)'s
point that pretrained models know negation words their fine-tuning data never showed
them, made explicit for a small CPU model. The phrases are model attributes, serialized
with the model, so a saved pipeline keeps the lexicon it was trained with.
"""
from typing import Callable, Dict, FrozenSet, List, Sequence, Tuple, cast

import numpy
from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

from ..visible import visible

#: A phrase: its words (lower case) and how many of them, from the first, are the cue.
Phrase = Tuple[Tuple[str, ...], int]
#: The columns: a one-word cue, the first word of a cue of several words, a later word.
N_FLAGS = 3


def lexicon_flags(phrases: Sequence[Phrase]) -> Model[List[Doc], List[Floats2d]]:
    """The lexicon-feature layer: docs -> per doc, a (tokens x 3) array of 0/1 flags.

    phrases (Sequence[Phrase]): the lexicon's phrases (words, number of cue words).
    RETURNS (Model[List[Doc], List[Floats2d]]): the layer (no weights, no gradient).
    """
    return Model("lexicon_flags", _forward, dims={"nO": N_FLAGS},
                 attrs={"phrases": [[list(words), n_cue] for words, n_cue in phrases]})


def flag_tokens(words: Sequence[str], index: Dict[str, List[Phrase]]) -> Floats2d:
    """The flags of a doc's words (lower case, visible text).

    words (Sequence[str]): the words.
    index (Dict[str, List[Phrase]]): the phrases by their first word.
    RETURNS (Floats2d): (len(words), 3) float32 flags.
    """
    flags = cast(Floats2d, numpy.zeros((len(words), N_FLAGS), dtype="float32"))
    for i, word in enumerate(words):
        for phrase, n_cue in index.get(word, ()):
            if tuple(words[i:i + len(phrase)]) != phrase:
                continue
            if n_cue == 1:
                flags[i, 0] = 1.0
            else:
                flags[i, 1] = 1.0
                flags[i + 1:i + n_cue, 2] = 1.0
    return flags


def phrase_index(phrases: Sequence[Sequence]) -> Dict[str, List[Phrase]]:
    """Phrases (as the layer's attribute holds them: [words, n_cue]) by their first word."""
    index: Dict[str, List[Phrase]] = {}
    for words, n_cue in phrases:
        index.setdefault(words[0], []).append((tuple(words), int(n_cue)))
    return index


def flagged_dropout(rate: float) -> Model[List[Floats2d], List[Floats2d]]:
    """In training, the token vectors of flagged tokens zeroed with probability ``rate``
    (their flags kept): the tagger must then tag those tokens from their flags, as it must
    at run time for a lexicon word the training never showed it; without this the word's
    own vector explains every training cue and the flags' weights stay small. Identity in
    prediction. The input is the token vectors concatenated with the 3 flag columns.

    rate (float): the probability, 0 to 1.
    RETURNS (Model[List[Floats2d], List[Floats2d]]): the layer.
    """
    return Model("flagged_dropout", _dropout_forward, attrs={"rate": rate})


def _dropout_forward(model: Model, Xs: List[Floats2d], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    rate = model.attrs["rate"]
    if not is_train or not rate:
        return Xs, lambda dYs: dYs
    keeps = []
    for X in Xs:
        flagged = model.ops.to_numpy(X[:, -N_FLAGS:]).any(axis=1)
        drop = flagged & (numpy.random.random(len(flagged)) < rate)
        keep = numpy.ones(X.shape, dtype="float32")
        keep[drop, :-N_FLAGS] = 0.0
        keeps.append(model.ops.asarray2f(cast(Floats2d, keep)))
    Ys = [X * keep for X, keep in zip(Xs, keeps)]
    return Ys, lambda dYs: [dY * keep for dY, keep in zip(dYs, keeps)]


def lexicon_cues(model: Model) -> List[Tuple[str, ...]]:
    """The cues (their words, lower case) of the lexicon-feature layers of a model (none
    without one), in lexicon order without repeats.

    model (Model): e.g. a cue component's model.
    RETURNS (List[Tuple[str, ...]]): the cues.
    """
    cues = [tuple(words[:n_cue]) for node in model.walk() if node.name == "lexicon_flags"
            for words, n_cue in node.attrs["phrases"]]
    return list(dict.fromkeys(cues))


def lexicon_cue_words(model: Model) -> FrozenSet[str]:
    """The one-word cues of the lexicon-feature layers of a model (none without one).

    model (Model): e.g. a cue component's model.
    RETURNS (FrozenSet[str]): the words, lower case.
    """
    return frozenset(cue[0] for cue in lexicon_cues(model) if len(cue) == 1)


def _forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    index = phrase_index(model.attrs["phrases"])  # some 100 phrases: cheap per batch
    Ys = [model.ops.asarray2f(flag_tokens([visible(t.lower_) for t in doc], index)) for doc in docs]
    return Ys, lambda dYs: []
