"""Errors and warnings of spacy-negation, with codes (spaCy's ``ErrorsWithCodes`` style).

A message starts with its code behind the package's prefix, ``[NEG-E101] ...`` or
``[NEG-W402] ...``, so that it cannot be confused with one of spaCy's (``[E101]``): a code
without the prefix is spaCy's own, raised by a component where spaCy's components raise it
(e.g. spaCy's ``[E923]`` for a component initialized without labels). The attribute names
carry no prefix (``Errors.E101``). Tests match on the rendered code:
``pytest.raises(NegationFormatError, match=r"\\[NEG-E101\\]")``.

The messages are written per feature, one module each: the data model
(:mod:`.data_model`), the corpus readers and writers (:mod:`.readers`), the trainable
components and their architectures (:mod:`.components`), the host component
(:mod:`.host`), the metrics and analyses (:mod:`.metrics`), the command line
(:mod:`.cli`), ``annotate`` (:mod:`.annotate`), and the probe and challenge set
(:mod:`.probe`). :class:`Errors` and :class:`Warnings` hold them all; a code is defined
once across the modules (``tests/test_errors.py``).
"""
from pathlib import Path
from typing import Optional, Union

from .annotate import AnnotateErrors, AnnotateWarnings
from .cli import CliErrors
from .components import ComponentErrors, ComponentWarnings
from .data_model import DataModelErrors, DataModelWarnings
from .host import HostErrors, HostWarnings
from .metrics import MetricErrors, MetricWarnings
from .probe import ProbeErrors, ProbeWarnings
from .readers import ReaderErrors, ReaderWarnings
from .vocabulary import VocabularyErrors


#: The prefix of the package's codes in a message: ``[NEG-E101]``, spaCy's are ``[E101]``.
CODE_PREFIX = "NEG-"


def code_tag(code: str) -> str:
    """The tag that starts the message of a code.

    code (str): the code, e.g. 'W402'.
    RETURNS (str): e.g. '[NEG-W402]'.
    """
    return f"[{CODE_PREFIX}{code}]"


class ErrorsWithCodes(type):
    def __getattribute__(self, code: str) -> str:
        msg = super().__getattribute__(code)
        if code.startswith("__"):  # python system attributes like __class__
            return msg
        return f"{code_tag(code)} {msg}"


class Warnings(DataModelWarnings, ReaderWarnings, ComponentWarnings, HostWarnings, MetricWarnings,
               AnnotateWarnings, ProbeWarnings, metaclass=ErrorsWithCodes):
    """The warnings of every feature, each message behind its code."""


class Errors(DataModelErrors, ReaderErrors, ComponentErrors, HostErrors, MetricErrors, CliErrors,
             AnnotateErrors, ProbeErrors, VocabularyErrors, metaclass=ErrorsWithCodes):
    """The errors of every feature, each message behind its code."""


class NegationFormatError(ValueError):
    """A malformed input file. Carries the path and the 1-based line number."""

    def __init__(self, message: str, path: Union[str, Path, None] = None,
                 line: Optional[int] = None) -> None:
        super().__init__(message)
        self.path = str(path) if path is not None else None
        self.line = line
