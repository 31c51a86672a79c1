"""Annotation conventions: which corpus's guidelines a doc's negations follow.

The English corpora annotate negation differently: ConanDoyle-neg (CD-SCO; Morante and
Daelemans 2012) puts the subject of a clause in the scope of its predicate's negation and
annotates affixal cues and negated events; BioScope (Vincze et al. 2008) and SFU Review
(Konstantinova et al. 2012) do neither. A pipeline trained on several corpora keeps one
cue and one scope component per convention (each learns only from the examples of its
convention, over a shared transformer), and a doc's convention mark says which of them
annotate it. Docs without a mark are annotated by the components set to annotate
unmarked docs (the pipeline's default convention).

The mark lives in ``doc.user_data`` (msgpack-safe: it survives ``DocBin``, pickling and
``Doc.copy``); ``Span.as_doc`` does not copy it.
"""
from typing import Optional

from spacy.tokens import Doc

from ..errors import Errors

#: The key of a doc's convention mark in ``doc.user_data``.
CONVENTION_KEY = "negation_convention"


def get_convention(doc: Doc) -> Optional[str]:
    """The convention mark of a doc.

    doc (Doc): the doc.
    RETURNS (Optional[str]): the convention's name, or None for an unmarked doc.
    """
    value = doc.user_data.get(CONVENTION_KEY)
    return value if isinstance(value, str) else None


def set_convention(doc: Doc, convention: Optional[str]) -> None:
    """Mark a doc with a convention (None: remove the mark).

    doc (Doc): the doc.
    convention (Optional[str]): the convention's name (a non-empty string) or None.
    """
    if convention is None:
        doc.user_data.pop(CONVENTION_KEY, None)
        return
    if not isinstance(convention, str) or not convention:
        raise ValueError(Errors.E900.format(value=repr(convention)))
    doc.user_data[CONVENTION_KEY] = convention
