"""Former name of :mod:`spacy_negation.ml.training_corpus`, kept for the modules that still
import from here (pipeline) and for environments installed before the rename, whose
``spacy_readers`` entry point still names this module; import from
:mod:`spacy_negation.ml.training_corpus`.
"""
from .training_corpus import count_cue_words, create_sentence_corpus, cue_words

__all__ = ["count_cue_words", "create_sentence_corpus", "cue_words"]
