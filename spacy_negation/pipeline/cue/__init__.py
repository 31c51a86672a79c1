"""The cue tagger, ``negation_cue``, in one folder:

* :mod:`.component`: the component;
* :mod:`.factory`: its factory ``negation_cue``, the settings' defaults and the default model;
* :mod:`.labels`: the token labels and the gold labels of a doc;
* :mod:`.label_data`: the labels and lexicons learned from the training examples;
* :mod:`.decoding`: labels to cues (``spacy-negation.cue_decoder.v3``; ``.v2`` keeps punctuation at the ends of a cue, ``.v1`` also without aliases);
* :mod:`.speculation_decoding`: the speculation labels of a component with speculation;
* :mod:`.lexicons`: the cue lexicons learned from the training data;
* :mod:`.pattern_lists`: the user cue lists (``cue_patterns``): entries, shipped lists, reading;
* :mod:`.patterns`: their matches on docs, applied to the cues and scopes;
* :mod:`.prefilter`: which sentences can hold a cue at all.

The Thinc models are in :mod:`spacy_negation.ml.models` (``spacy-negation.CueTagger.v1``,
``spacy-negation.BiLSTMCueTagger.v1``), shared with the scope tagger and built from
:mod:`spacy_negation.ml.windows` and :mod:`spacy_negation.ml.bilstm`.
"""
from .component import NegationCue
from .factory import DEFAULT_CUE_MODEL, default_model_config, make_negation_cue

__all__ = ["DEFAULT_CUE_MODEL", "NegationCue", "default_model_config", "make_negation_cue"]
