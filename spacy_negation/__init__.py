"""spacy-negation: negation cue, scope and event resolution for spaCy.

Nothing is registered at import time; spaCy finds the factories, architectures, scorers
and readers through the package's entry points, and the ``doc._`` extensions are
registered by the components, the readers, or :func:`register_extensions`.
"""
from .about import __version__
from .negation import Negation, Part, SPANS_KEY, get_negations, register_extensions, set_negations
from .visualize import displacy_data, render

__all__ = [
    "__version__",
    "Negation",
    "Part",
    "SPANS_KEY",
    "get_negations",
    "register_extensions",
    "set_negations",
    "displacy_data",
    "render",
]
