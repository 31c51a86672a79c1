"""spacy-negation: negation cue, scope and event resolution for spaCy (and speculation cues
and scopes beside them in the data model).

Nothing is registered at import time; spaCy finds the factories, architectures, scorers
and readers through the package's entry points, and the ``doc._`` extensions are
registered by the components, the readers, or :func:`register_extensions`.

The public names below are imported on first access (PEP 562), so that the spaCy-free
parts (the metrics, the command line's ``--help`` and ``evaluate``) start without
importing spaCy.
"""
import importlib
from typing import TYPE_CHECKING, Any

from .about import __version__

if TYPE_CHECKING:  # pragma: no cover
    from .negation import (Negation, Part, SPANS_KEY, Speculation, get_negations, get_speculations,
                           register_extensions, set_negations, set_speculations)
    from .visualize import displacy_data, render

_LAZY = {
    "Negation": "negation",
    "Part": "negation",
    "SPANS_KEY": "negation",
    "get_negations": "negation",
    "register_extensions": "negation",
    "set_negations": "negation",
    "Speculation": "negation",
    "get_speculations": "negation",
    "set_speculations": "negation",
    "displacy_data": "visualize",
    "render": "visualize",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
