"""The scope resolver, ``negation_scope``, in one folder:

* :mod:`.component`: the component (factory ``negation_scope``), one window per cue;
* :mod:`.windows`: the cue windows (the model's input per cue) and their labels;
* :mod:`.decoding`: labels to scopes and events (``spacy-negation.scope_decoder.v1``);
* :mod:`.negbert`: the NegBERT-style resolver, ``negation_scope`` with the architecture
  ``spacy-negation.NegBERTScopeTagger.v1`` (its default model block).

The Thinc models are in :mod:`spacy_negation.ml.models` (``spacy-negation.ScopeTagger.v1``)
and :mod:`spacy_negation.ml.negbert` (``spacy-negation.NegBERTScopeTagger.v1``).
"""
from .component import DEFAULT_SCOPE_MODEL, NegationScope, default_model_config, make_negation_scope
from .decoding import SCOPE_LABELS
from .windows import cue_windows

__all__ = ["DEFAULT_SCOPE_MODEL", "SCOPE_LABELS", "NegationScope", "cue_windows",
           "default_model_config", "make_negation_scope"]
