"""The lexicon feature of ``spacy-negation.CueTagger.v2``: the token vectors, each followed
by three indicator columns saying whether the token is a cue word of an entry of a negation
lexicon (a one-word cue, the first word of a cue of several words, a later word of one). An
entry matches where all of its words are in a row, the words that follow its cue outside it
included ("negative [for]" flags *negative* before *for* only); token texts are compared in
lower case without format characters.

A flagged word the training never showed has a vector that says nothing about negation:
trained on words whose vectors explain every training cue, a tagger tags such a word *O*
whatever its flags (the leave-cues-out evaluation found so). The layer therefore backs off
to the flags alone for them: in training it zeroes a flagged token's vector with
probability ``rate`` (the flags kept), so the tagger learns to tag from the flags; it
counts the training sentences of each flagged word; in prediction it zeroes the vector of a
flagged word in fewer than ``min_seen`` training sentences, so that such a word is tagged
from its flags, as the dropped vectors were in training. A flagged word training showed often keeps its
vector and its training evidence ("negative" in BioScope is seldom a cue). (Counting, not
just noting, matters: spaCy's tokenizer splits a few gold tokens such as "Can't" and
"no-one", so a word held out of the training data still turns up a few times.)

The phrases and the words seen are model attributes, serialized with the model.
"""
from typing import Any, Callable, Dict, FrozenSet, List, Sequence, Set, Tuple, cast

import numpy
from spacy.tokens import Doc
from thinc.api import Model
from thinc.types import Floats2d

from ..visible import visible

#: A phrase: its words (lower case) and how many of them, from the first, are the cue.
Phrase = Tuple[Tuple[str, ...], int]
#: The columns: a one-word cue, the first word of a cue of several words, a later word.
N_FLAGS = 3
#: The layer's name (the cue words of a model are read from the layers of this name).
NAME = "lexicon_flags"
#: Per layer (by its id), the (sentence text hash, token) pairs its counts hold: a
#: sentence of an epoch after the first is not counted again.
_COUNTED: Dict[int, Set[Tuple[int, int]]] = {}


def lexicon_flags(tok2vec: Model[List[Doc], List[Floats2d]], phrases: Sequence[Phrase],
                  rate: float = 0.0, min_seen: int = 50) -> Model[List[Doc], List[Floats2d]]:
    """The lexicon-feature layer: docs -> per doc, the token vectors of ``tok2vec`` with
    the 3 flag columns after them (the vectors of novel flagged words zeroed, see above).

    tok2vec (Model[List[Doc], List[Floats2d]]): the token vectors (one array per doc, all
        of one width).
    phrases (Sequence[Phrase]): the lexicon's phrases (words, number of cue words).
    rate (float): in training, the probability that a flagged token's vector is zeroed.
    min_seen (int): in prediction, a flagged word seen fewer times in training is novel.
    RETURNS (Model[List[Doc], List[Floats2d]]): the layer.
    """
    width = tok2vec.get_dim("nO") if tok2vec.has_dim("nO") else None
    return Model(NAME, _forward, layers=[tok2vec], init=_init,
                 dims={"nO": None if width is None else width + N_FLAGS},
                 attrs={"phrases": [[list(words), n_cue] for words, n_cue in phrases],
                        "rate": rate, "min_seen": min_seen, "seen": {}})


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


def lexicon_cues(model: Model) -> List[Tuple[str, ...]]:
    """The cues (their words, lower case) of the lexicon-feature layers of a model (none
    without one), in lexicon order without repeats.

    model (Model): e.g. a cue component's model.
    RETURNS (List[Tuple[str, ...]]): the cues.
    """
    cues = [tuple(words[:n_cue]) for node in model.walk() if node.name == NAME
            for words, n_cue in node.attrs["phrases"]]
    return list(dict.fromkeys(cues))


def lexicon_cue_words(model: Model) -> FrozenSet[str]:
    """The one-word cues of the lexicon-feature layers of a model (none without one).

    model (Model): e.g. a cue component's model.
    RETURNS (FrozenSet[str]): the words, lower case.
    """
    return frozenset(cue[0] for cue in lexicon_cues(model) if len(cue) == 1)


def _init(model: Model, X: Any = None, Y: Any = None) -> None:
    tok2vec = model.layers[0]
    tok2vec.initialize(X=X)
    if tok2vec.has_dim("nO") and tok2vec.get_dim("nO") is not None:
        model.set_dim("nO", tok2vec.get_dim("nO") + N_FLAGS, force=True)


def _forward(model: Model, docs: List[Doc], is_train: bool) -> Tuple[List[Floats2d], Callable]:
    Xs, backprop_t2v = model.layers[0](docs, is_train)
    index = phrase_index(model.attrs["phrases"])  # some 100 phrases: cheap per batch
    rate = float(model.attrs["rate"])
    seen: Dict[str, int] = dict(model.attrs["seen"])
    min_seen = int(model.attrs["min_seen"])
    keeps: List[Floats2d] = []
    Ys: List[Floats2d] = []
    for doc, X in zip(docs, Xs):
        words = [visible(t.lower_) for t in doc]
        flags = flag_tokens(words, index)
        flagged = cast(numpy.ndarray, numpy.asarray(flags).any(axis=1))
        if is_train:  # count each training sentence once, however many epochs see it
            counted = _COUNTED.setdefault(model.id, set())
            text_hash = hash(doc.text)  # Doc.text joins the tokens anew at every call
            for i, (word, flag) in enumerate(zip(words, flagged)):
                if flag and (text_hash, i) not in counted:
                    counted.add((text_hash, i))
                    seen[word] = seen.get(word, 0) + 1
            drop = flagged & (numpy.random.random(len(words)) < rate)
        else:
            drop = flagged & numpy.array([seen.get(w, 0) < min_seen for w in words], dtype=bool)
        keep = numpy.ones((len(words), 1), dtype="float32")
        keep[drop] = 0.0
        keeps.append(model.ops.asarray2f(cast(Floats2d, keep)))
        if len(X):
            Ys.append(model.ops.xp.hstack([X * keeps[-1], model.ops.asarray2f(flags)]))
        else:  # an empty doc: the width of the others (the tok2vec may give it (0, 0))
            Ys.append(model.ops.alloc2f(0, model.get_dim("nO")))
    if is_train:
        model.attrs["seen"] = seen

    def backprop(dYs: List[Floats2d]) -> List[Floats2d]:
        return backprop_t2v([dY[:, :-N_FLAGS] * keep if len(X) else model.ops.alloc2f(*X.shape)
                             for dY, keep, X in zip(dYs, keeps, Xs)])

    return Ys, backprop
