"""Former name of :mod:`spacy_negation.ml.training_corpus`, kept only for the modules
that still import from here (pipeline); import from
:mod:`spacy_negation.ml.training_corpus`.
"""
from .training_corpus import count_cue_words, cue_words

__all__ = ["count_cue_words", "cue_words"]
