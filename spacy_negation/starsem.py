"""Former location of the *SEM 2012 format module, now
:mod:`spacy_negation.corpora.starsem`. Kept only for the modules that still import it
from here (metrics, scorers); import from :mod:`spacy_negation.corpora.starsem`.
"""
from .corpora.starsem import (EMPTY, N_TOKEN_COLUMNS, NO_NEGATION, Instance, Sentence, TokenRow,
                              is_punct_pos, locate, parse_starsem, read_starsem, write_starsem)

__all__ = ["EMPTY", "N_TOKEN_COLUMNS", "NO_NEGATION", "Instance", "Sentence", "TokenRow", "is_punct_pos",
           "locate", "parse_starsem", "read_starsem", "write_starsem"]
