"""Annotating corpora with a negation pipeline, locally or on a Ray cluster, resumably:
see :func:`annotate` and ``python -m spacy_negation annotate --help``."""
from .core import Summary, annotate

__all__ = ["Summary", "annotate"]
