"""The negation pipeline components: ``negation_cue`` and ``negation_scope`` (trainable,
sharing a transformer or tok2vec through listeners) and ``negation`` (runs a trained
negation pipeline inside any English pipeline)."""
from .cue.component import NegationCue, make_negation_cue
from .negation import DEFAULT_MODEL, NegationResolver, make_negation
from .scope.component import SCOPE_LABELS, NegationScope, make_negation_scope

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
