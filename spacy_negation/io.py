"""Former location of :func:`spacy_negation.corpora.docbin.read_docbin`, kept only for the
modules that still import it from here (pipeline); import from
:mod:`spacy_negation.corpora.docbin`.
"""
from .corpora.docbin import read_docbin

__all__ = ["read_docbin"]
