"""Helpers shared by the reader tests."""
from pathlib import Path
from typing import Callable, List, Optional, Tuple

import pytest
from spacy.tokens import Doc

from spacy_negation.errors import NegationFormatError
from spacy_negation.negation import ROLES, get_negations

Key = Tuple[Tuple[Tuple[int, int, int, str], ...], ...]


def negation_keys(doc: Doc) -> List[Key]:
    """A doc's negations as comparable values: per role, (token index, start, end, text) of
    each part, instances in document order.

    doc (Doc): the doc.
    RETURNS (List[Key]): one key per instance.
    """
    return [
        tuple(tuple((p.i, p.start, p.end, p.text(doc)) for p in neg.parts(role)) for role in ROLES)
        for neg in get_negations(doc)
    ]


def assert_coded_error(read: Callable[[Path], object], path: Path, code: str, line: Optional[int]) -> None:
    """Reading a file raises the error with the code, naming the file and (if given) the
    line, as ``path:line:``.

    read (Callable[[Path], object]): reads the file (and consumes what it returns).
    path (Path): the file.
    code (str): the error code, e.g. 'E405'.
    line (Optional[int]): the line the error names, or None for a file-level error.
    """
    with pytest.raises(NegationFormatError, match=rf"\[{code}\]") as err:
        read(path)
    assert err.value.path == str(path) and err.value.line == line
    if line is not None:
        assert f"{path}:{line}:" in str(err.value)
