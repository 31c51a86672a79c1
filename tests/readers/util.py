"""Helpers shared by the reader tests."""
from typing import List, Tuple

from spacy.tokens import Doc

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
