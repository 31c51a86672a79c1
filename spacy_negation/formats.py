"""Input formats of ``convert``: name → reader, imported on use.

A reader takes ``(path, vocab, n_sents, on_error="raise")`` and returns an iterable of
``Doc`` objects with gold negations; ``on_error="skip"`` skips each bad sentence with
warning W402 instead of raising.
"""
import importlib
from pathlib import Path
from typing import Callable, Dict, Iterable

from spacy.tokens import Doc
from spacy.vocab import Vocab

from .errors import Errors

FORMATS: Dict[str, str] = {
    "starsem": "spacy_negation.corpus:read_starsem_docs",
    "bioscope": "spacy_negation.readers.bioscope:read_bioscope",
    "sfu": "spacy_negation.readers.sfu:read_sfu",
    "neges2018": "spacy_negation.readers.neges:read_neges2018",
    "neges2019": "spacy_negation.readers.neges:read_neges2019",
}

Reader = Callable[..., Iterable[Doc]]  # (path: Path, vocab: Vocab, n_sents: int, on_error: str = "raise")


def get_reader(name: str) -> Reader:
    """The reader of a format.

    name (str): the format name, a key of FORMATS.
    RETURNS (Reader): the reader function.
    """
    if name not in FORMATS:
        raise ValueError(Errors.E131.format(fmt=name, available=", ".join(sorted(FORMATS))))
    module, func = FORMATS[name].split(":")
    return getattr(importlib.import_module(module), func)
