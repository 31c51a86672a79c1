"""Deprecated: moved to the module named below; this path goes in the next release."""
from .._deprecated import moved_module

moved_module(__name__, "spacy_negation.metrics.faireval.spans")
