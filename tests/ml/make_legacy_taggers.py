"""Writes data/legacy_taggers.msgpack: a tiny ScopeTagger.v1 and a tiny BiLSTM cue tagger
(then ``CueTagger.v2``) as stored by the code before the taggers were composed of layers
(commit d7f4656), with their predictions on the docs and windows of
``tests/ml/test_models.py``. Run it with that code first on the path:

    git worktree add --detach /tmp/old d7f4656
    PYTHONPATH=/tmp/old python tests/ml/make_legacy_taggers.py
"""
from pathlib import Path

import numpy
import spacy
import srsly
from spacy.tokens import Doc

from spacy_negation.ml.models import CueWindow, build_bilstm_cue_tagger, build_scope_tagger

CNN = {"@architectures": "spacy.HashEmbedCNN.v2", "pretrained_vectors": None, "width": 8,
       "depth": 1, "embed_size": 50, "window_size": 1, "maxout_pieces": 2, "subword_features": True}


def legacy_inputs():
    """The docs (one with two sentences, one empty) and cue windows of the fixture."""
    vocab = spacy.blank("en").vocab
    docs = [Doc(vocab, words="He was not unhappy . Nor was she .".split(),
                sent_starts=[True, False, False, False, False, True, False, False, False]),
            Doc(vocab, words=[]),
            Doc(vocab, words="Neither he nor she came .".split())]
    windows = [CueWindow(0, 0, 5, numpy.array([0, 0, 1, 0, 0], dtype="int32")),
               CueWindow(0, 0, 5, numpy.array([0, 0, 0, 2, 0], dtype="int32")),
               CueWindow(0, 5, 9, numpy.array([1, 0, 0, 0], dtype="int32")),
               CueWindow(2, 0, 6, numpy.array([1, 0, 1, 0, 0, 0], dtype="int32"))]
    return docs, windows


def main() -> None:
    numpy.random.seed(0)
    docs, windows = legacy_inputs()
    out = {}
    for key, build, X in (("scope", build_scope_tagger, (docs, windows)),
                          ("cue", build_bilstm_cue_tagger, docs)):
        tok2vec = spacy.registry.resolve({"m": CNN})["m"]
        model = build(tok2vec, hidden_width=6, dropout=0.2, nO=4, **({"cue_width": 4} if key == "scope" else {}))
        model.initialize(X=X)
        W = model.get_ref("output_layer").get_param("W")
        model.get_ref("output_layer").set_param("W", numpy.random.default_rng(0).normal(size=W.shape).astype("f"))
        out[key] = model.to_bytes()
        out[f"{key}_expected"] = [y.tolist() for y in model.predict(X)]
    srsly.write_msgpack(Path(__file__).parent / "data" / "legacy_taggers.msgpack", out)


if __name__ == "__main__":
    main()
