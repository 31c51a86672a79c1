"""The input formats of ``convert``: a catalogue registry of reader functions.

A reader takes ``(path, vocab, n_sents, on_error="raise")`` and returns an iterable of
``Doc`` objects with gold negations; ``on_error="skip"`` skips each bad sentence with
warning W402 instead of raising. The package's readers register themselves when their
modules are imported (:func:`get_reader` and :func:`format_names` import them); other
packages can add a format through the ``spacy_negation_formats`` entry point group.
"""
from typing import Callable, Iterable, List

import catalogue
from spacy.tokens import Doc

from ..errors import Errors

Reader = Callable[..., Iterable[Doc]]  # (path: Path, vocab: Vocab, n_sents: int, on_error: str = "raise")

formats = catalogue.create("spacy_negation", "formats", entry_points=True)


def _load_package_formats() -> None:
    """Import the package's reader modules, which register their formats."""
    from . import bioscope, bioscope_clinical, neges2018, neges2019, norec, nubes, sfu, starsem_docs  # noqa: F401


def format_names() -> List[str]:
    """The names of the registered formats, sorted.

    RETURNS (List[str]): the names.
    """
    _load_package_formats()
    return sorted(formats.get_all())


def get_reader(name: str) -> Reader:
    """The reader of a format.

    name (str): the format name (see :func:`format_names`).
    RETURNS (Reader): the reader function.
    RAISES (ValueError): no such format (E131).
    """
    _load_package_formats()
    try:
        return formats.get(name)
    except catalogue.RegistryError:
        raise ValueError(Errors.E131.format(what="input format", name=name, available=", ".join(format_names()))) from None
