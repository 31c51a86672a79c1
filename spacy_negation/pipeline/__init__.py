"""The negation pipeline components: ``negation_cue`` and ``negation_scope`` (trainable,
sharing a transformer or tok2vec through listeners) and ``negation`` (runs a trained
negation pipeline inside any English pipeline)."""
from .cue.component import NegationCue
from .cue.factory import make_negation_cue
from .model_loading import DEFAULT_MODEL
from .negation import NegationResolver, make_negation
from .scope.component import NegationScope, make_negation_scope
from .scope.decoding import SCOPE_LABELS

__all__ = [
    "DEFAULT_MODEL",
    "NegationCue",
    "NegationResolver",
    "NegationScope",
    "SCOPE_LABELS",
    "make_negation",
    "make_negation_cue",
    "make_negation_scope",
]
